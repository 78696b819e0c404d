// Lint = the layers of docs/design/layers.md. Paths are resolved from each specifier, so a zone
// catches "../../host/x.ts" at any depth. typescript 7 (the native compiler) has no JS API for
// typescript-eslint, so Babel parses the TypeScript: this config checks imports, not types.
import { readdirSync } from "node:fs";
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
// every top-level folder with code, for the entries rule below
const TOP = ["./codecs", "./planning", "./exporters", "./firmware", "./scripts", ...ABOVE_CODECS];
const others = (folder) => TOP.filter((t) => t !== folder);
const ABOVE_CONTRACTS = ["./devkit-bridge", "./services", "./host", "./bin", "./app", "./renderer", "./e2e", "./bench"];
const ABOVE_SHARED = ["./host", "./bin", "./app", "./renderer", "./e2e", "./bench"];
const SERVICES_BUT_SHARED = ["./services/!(shared)/**", "./services/*.ts"];

const zones = [
  layer(
    "./codecs",
    [...ABOVE_CODECS, "./planning", "./exporters", "./firmware"],
    "codecs/ is the bottom layer (the wire): it imports only itself and npm packages.",
  ),
  layer(
    ["./codecs/src", "./firmware/templates"],
    ["./devkit-bridge", "./codecs/test", "./codecs/bench", "./firmware/templates/embedAstronode.ts"],
    "codecs/src is pure: no devkit-bridge, tests or Node scripts.",
  ),
  layer(
    "./firmware/templates",
    [...ABOVE_CODECS, "./codecs", "./planning", "./exporters"],
    "firmware/templates/ are the C sources the exporters fill: they import nothing of ours.",
  ),
  layer(
    "./planning",
    [...ABOVE_CODECS, "./exporters", "./firmware"],
    "planning/ (fleet planning) sits on codecs/ only: never exporters/, firmware/ or anything above.",
  ),
  layer(
    "./planning/src",
    ["./planning/test", "./codecs/test", "./codecs/bench"],
    "planning/src is pure: no tests or benches.",
  ),
  layer(
    "./exporters",
    [...ABOVE_CODECS, "./planning"],
    "exporters/ (code generation) sits on codecs/ and firmware/templates/ only.",
  ),
  layer(
    "./exporters/src",
    [
      "./exporters/test",
      "./exporters/bench",
      "./codecs/test",
      "./codecs/bench",
      "./firmware/templates/embedAstronode.ts",
      "./firmware/esp32-bridge",
      "./firmware/astronode-c",
    ],
    "exporters/src is pure: no tests, benches or Node scripts.",
  ),
  // the pure folders are read from outside through their entries only (docs/design/layers.md lists them)
  layer(
    others("./codecs"),
    "./codecs/src",
    'Outside codecs/, import the wire from its entries: "#codecs", "#codecs/analysis" or "#codecs/plans".',
    ["./index.ts", "./analysis/index.ts", "./plans.ts"],
  ),
  layer(
    others("./planning"),
    "./planning/src",
    'Outside planning/, import it from its entries: "#planning", "#planning/advisor", "#planning/batch", "#planning/channel", "#planning/ingest" or "#planning/paper".',
    [
      "./index.ts",
      "./advisor/index.ts",
      "./batch/perMessage.ts",
      "./channel/index.ts",
      "./transport/ingest.ts",
      "./paper/index.ts",
    ],
  ),
  layer(others("./exporters"), "./exporters/src", 'Outside exporters/, import code generation from "#exporters".', [
    "./index.ts",
  ]),
  layer(
    "./contracts",
    [...ABOVE_CONTRACTS, "./exporters", "./firmware"],
    "contracts/ holds what host, renderer and services share: it imports only codecs/, planning/ and npm packages.",
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

/** no-restricted-imports options: inside `folder`, its own entries ("#folder", "#folder/<sub>") are off limits */
function ownEntries(folder, also, subs) {
  const message = `Inside ${folder}/ ${also ? `${also} ` : ""}import the module itself (relative): "#${folder}" re-exports this folder.`;
  return { paths: [`#${folder}`, ...subs.map((s) => `#${folder}/${s}`)].map((name) => ({ name, message })) };
}
// Inside renderer/ (docs/design/layers.md): a page owns its folder (docs/design/add-a-page.md). It imports no other
// page, and the shared code under it (the ui kit, state, session, host client, worker, start screen) imports no page;
// only the page table in nav/ names the pages. Code two pages need goes to ui/ (widgets) or state/ (shared stores).
// Below the pages: session/ over state/; ui/ over state/.
const PAGES_DIR = "./renderer/src/pages";
const PAGE_IDS = readdirSync(new URL(PAGES_DIR, import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const rendererZones = [
  ...PAGE_IDS.map((id) =>
    layer(
      `${PAGES_DIR}/${id}`,
      [PAGES_DIR],
      `pages/${id}/ owns its code and imports no other page: move what two pages share to renderer/src/ui/ or state/.`,
      [`./${id}`],
    ),
  ),
  layer(
    ["ui", "state", "session", "host", "worker", "start"].map((f) => `./renderer/src/${f}`),
    [PAGES_DIR],
    "renderer code shared by the pages imports no page (only nav/pages.tsx, the page table, names them).",
  ),
  layer(
    ["./renderer/src/state", "./renderer/src/ui", "./renderer/src/session"],
    ["./renderer/src/nav", "./renderer/src/start"],
    "state/, ui/ and session/ sit below the pages and the navigation: they import neither nav/ nor start/.",
  ),
  layer(
    ["./renderer/src/state", "./renderer/src/ui"],
    ["./renderer/src/session"],
    "state/ and ui/ sit below the session: the session uses them, never the reverse.",
  ),
  layer(
    ["./renderer/src/state", "./renderer/src/session"],
    ["./renderer/src/ui"],
    "state/ and session/ hold no widgets and import none: the ui kit reads state, not the reverse.",
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
    // an entry imports its folder's modules: taking names from it inside that folder makes a cycle
    files: ["codecs/**/*.{ts,tsx}", "firmware/**/*.ts"],
    rules: { "no-restricted-imports": ["error", ownEntries("codecs", "and firmware/", ["analysis", "plans"])] },
  },
  {
    files: ["planning/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", ownEntries("planning", "", ["advisor", "channel", "ingest", "paper"])],
    },
  },
  {
    files: ["exporters/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", ownEntries("exporters", "", [])] },
  },
  {
    files: [
      "codecs/src/**/*.{ts,tsx}",
      "planning/src/**/*.{ts,tsx}",
      "exporters/src/**/*.{ts,tsx}",
      "contracts/src/**/*.ts",
      "firmware/templates/**/*.ts",
      "renderer/src/**/*.{ts,tsx}",
    ],
    ignores: ["firmware/templates/embedAstronode.ts"],
    rules: { "import/no-nodejs-modules": "error" },
  },
  {
    // the layers plus the renderer's own rules (a later entry's options replace the earlier ones: both lists here)
    files: ["renderer/**/*.{ts,tsx}"],
    rules: { "import/no-restricted-paths": ["error", { zones: [...zones, ...rendererZones] }] },
  },
];
