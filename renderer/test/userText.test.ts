// Words the user reads never send them to the repository: no developer commands ("npm run bench:channel" was on the
// Channel page), no code names ("client.reasons"), no repository files ("docs/channel.md"). The texts are taken from
// the sources (string literals and JSX text, comments and module paths left out), so a string added anywhere in the
// renderer is checked without a screen that shows it.
import { describe, expect, it } from "vitest";

// Vite reads every source as text; the renderer may not import Node built-ins, this needs none
const SOURCES = import.meta.glob<string>("../src/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true });

/** The string literals and JSX text of a source: what may end up on screen. */
export function userTexts(src: string): string[] {
  const code = src
    .replace(/\/\*[\s\S]*?\*\//g, "")
    // a `//` after `:` is a URL ("https://…"), not a comment
    .replace(/(^|[^:"'`\w])\/\/.*$/gm, "$1")
    .replace(/^\s*(import|export)\b.*\bfrom\s+["'][^"']+["'];?$/gm, "");
  const strings = [...code.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g)].map(
    (m) => m[1] ?? m[2] ?? m[3] ?? "",
  );
  // text after a tag's `>` (not an arrow's `=>`) up to the next tag or `{expression}`, and after an expression up to
  // the next tag
  const jsxText = [...code.matchAll(/(?<!=)>([^<>{}]+)(?=[<{])|\}([^<>{}]+)(?=<)/g)].map((m) => m[1] ?? m[2]!);
  return [...strings, ...jsxText]
    .map((t) => t.replace(/\s+/g, " ").trim())
    .filter((t) => t && !/^(\.\.?\/|#)\S*$/.test(t)); // module specifiers (`import("../x.tsx")`)
}

const INTERNAL: [string, RegExp][] = [
  ["a developer command", /\bnpm (run|test|start|ci)\b/],
  ["a code name of the load test result", /\bclient\.reasons\b/],
  ["a repository file", /\b(docs|src|bench|services)\/[\w./-]*\.(md|ts|tsx)\b|\b[\w-]+\.md\b/],
];

describe("user-visible text names no internals (issue #26 point 8)", () => {
  it("takes strings and JSX text, not comments or module paths", () => {
    const src = [
      'import { x } from "../docs/a.md";',
      'const a = "npm run x"; // npm run y',
      "/* docs/b.md */ const u = 'https://example.org/x';",
      "const el = <p>see docs/channel.md {r.client.reasons} or a.md</p>;",
      'const lazy = () => import("../pages/bench/BenchPage.tsx");',
    ].join("\n");
    expect(userTexts(src)).toEqual(["npm run x", "https://example.org/x", "see docs/channel.md", "or a.md"]);
  });

  it("finds the renderer's sources", () => {
    expect(Object.keys(SOURCES).length).toBeGreaterThan(50);
  });

  it.each(INTERNAL)("no source shows %s", (_what, pattern) => {
    const hits = Object.entries(SOURCES)
      .filter(([file]) => !/\.test\.tsx?$/.test(file))
      .flatMap(([file, src]) =>
        userTexts(src)
          .filter((t) => pattern.test(t))
          .map((t) => `${file}: ${t}`),
      );
    expect(hits).toEqual([]);
  });
});
