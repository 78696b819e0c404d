// Lint = the layers of docs/design/layers.md. Paths are resolved from each specifier, so a zone
// catches "../../host/x.ts" at any depth. typescript 7 (the native compiler) has no JS API for
// typescript-eslint, so Babel parses the TypeScript: this config checks imports, not types.
import babelParser from "@babel/eslint-parser";
import importPlugin from "eslint-plugin-import";
import reactHooks from "eslint-plugin-react-hooks";

const layer = (target, from, message, except) => ({ target, from, message, ...(except ? { except } : {}) });

// every folder a lower layer must not reach, named once
const ABOVE_CODECS = [
  "./contracts",
  "./devkit-bridge",
  "./services",
  "./host",
  "./bin",
  "./app",
  "./renderer",
  "./e2e",
  "./bench",
];
const ABOVE_CONTRACTS = ["./devkit-bridge", "./services", "./host", "./bin", "./app", "./renderer", "./e2e", "./bench"];
const ABOVE_SHARED = ["./host", "./bin", "./app", "./renderer", "./e2e", "./bench"];
const SERVICES_BUT_SHARED = ["./services/!(shared)/**", "./services/*.ts"];

const zones = [
  layer("./codecs", ABOVE_CODECS, "codecs/ is the bottom layer: it imports only itself and npm packages."),
  layer(
    ["./codecs/src", "./firmware/templates"],
    ["./devkit-bridge", "./codecs/test", "./codecs/bench", "./firmware/templates/embedAstronode.ts"],
    "codecs/src is pure: no devkit-bridge, tests or Node scripts.",
  ),
  layer(
    "./contracts",
    ABOVE_CONTRACTS,
    "contracts/ holds what host, renderer and services share: it imports only codecs/ and npm packages.",
  ),
  layer("./devkit-bridge", ["./services", ...ABOVE_SHARED], "devkit-bridge/ builds on codecs/ and contracts/ only."),
  layer(
    "./services/shared",
    SERVICES_BUT_SHARED,
    "services/shared/ is the shared Node code: only codecs/ and devkit-bridge/ below it.",
  ),
  layer(
    "./services",
    ABOVE_SHARED,
    "services/ may not import host/, bin/, app/ or renderer/: shared Node code goes in services/shared/.",
  ),
  layer("./host", SERVICES_BUT_SHARED, "host/ may use services/shared/, not the services themselves."),
  layer(
    "./host",
    ["./bin", "./app", "./renderer", "./e2e", "./bench"],
    "host/ may not import bin/, app/, bench/ or renderer/.",
  ),
  layer("./app", ["./bin", "./renderer", "./e2e", "./bench"], "app/ sits on host/: never bin/, bench/ or renderer/."),
  layer("./bin", ["./renderer", "./e2e", "./bench"], "bin/ may not import renderer/ or bench/."),
  layer(
    "./bench",
    ["./renderer", "./e2e", "./app"],
    "bench/ measures the services and host: never renderer/, app/ or e2e/.",
  ),
  layer("./renderer", ["./host"], "renderer/ reaches the host only through host/api.", ["./api"]),
  layer(
    "./renderer",
    ["./services", "./devkit-bridge", "./bin", "./app", "./e2e", "./bench"],
    "renderer/ uses codecs/, contracts/ and host/api only.",
  ),
];

export default [
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      ".cache/**",
      ".venv/**",
      "**/*.generated.*",
      "firmware/esp32-bridge/**",
      "codecs/reference/**",
    ],
  },
  {
    files: ["**/*.{ts,tsx}"],
    linterOptions: { reportUnusedDisableDirectives: "error" },
    languageOptions: {
      parser: babelParser,
      parserOptions: {
        requireConfigFile: false,
        babelOptions: {
          babelrc: false,
          configFile: false,
          presets: [["@babel/preset-typescript", { allowDeclareFields: true }]],
        },
      },
    },
    plugins: { import: importPlugin },
    settings: {
      "import/resolver": {
        node: { extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"] },
        // the "#…" aliases of package.json "imports", resolved so the zones below apply to them too
        "./scripts/eslint/package-imports-resolver.cjs": {},
      },
      // aliases are our own code: import/order groups them after the npm packages
      "import/internal-regex": "^#",
    },
    rules: {
      "import/no-restricted-paths": ["error", { zones }],
      // an import the rule cannot resolve cannot be checked against the zones
      "import/no-unresolved": ["error", { ignore: ["^[^.#]"] }],
      // two imports of one module become one. prefer-inline: the default fix merges `import type { A }` into a
      // value import without its `type` (eslint-plugin-import 2.32 with the Babel parser), which
      // verbatimModuleSyntax rejects; inline `type A` keeps it a type
      "import/no-duplicates": ["error", { "prefer-inline": true }],
      // one import order everywhere, fixed by `eslint --fix` (node: built-ins, packages, then our own files)
      "import/order": [
        "error",
        {
          groups: ["builtin", "external", "internal", ["parent", "sibling", "index"]],
          "newlines-between": "never",
          alphabetize: { order: "asc", caseInsensitive: true },
        },
      ],
    },
  },
  {
    // the two classic hook rules; the React Compiler rules of the plugin's "recommended" set are not enabled
    files: ["renderer/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    // codecs/src/index.ts imports the codec layer: taking names from it inside that layer makes a cycle
    files: ["codecs/**/*.{ts,tsx}", "firmware/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "#codecs",
              message: "Inside codecs/ and firmware/, import the module itself (relative or #codecs/<module>.ts).",
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      "codecs/src/**/*.{ts,tsx}",
      "contracts/src/**/*.ts",
      "firmware/templates/**/*.ts",
      "renderer/src/**/*.{ts,tsx}",
    ],
    ignores: ["firmware/templates/embedAstronode.ts"],
    rules: { "import/no-nodejs-modules": "error" },
  },
];
