// What the generated C talks about must ship with it: a comment that cites the studio's repository
// (docs/design/struct-mapping.md, codecs/src/…) sends the firmware engineer to a file that is not in
// the zip. Every C export of every cross-test layout is searched for repository paths, and every
// document a file names must be one of the export's files.
import { describe, expect, it } from "vitest";
import { parseLayout } from "#codecs";
import { CROSS_LAYOUTS } from "./harness/layouts.ts";
import { runExports } from "../../src/registry.ts";

const C_EXPORTS = [
  "nanopb",
  "c-struct",
  "c-struct-zlib",
  "c-bitpacked",
  "c-single-header",
  "firmware-esp32",
  "schc-rules",
];

/** A top folder of the studio's repository followed by a path, or a TypeScript module name. */
const REPO_PATH =
  /\b(docs|codecs|exporters|planning|renderer|contracts|services|host|bin|e2e|bench|firmware)\/[\w.-]|\b[\w-]+\.tsx?\b/g;

/** The lines naming a repository path; a folder the export itself has (the firmware's host/) is not one. */
function repoPaths(files: { path: string; content: string }[]): string[] {
  const own = new Set(files.flatMap((f) => f.path.split("/").slice(0, -1)));
  return files.flatMap((f) =>
    f.content
      .split("\n")
      .map((line, n) => ({ line, n }))
      .filter(({ line }) => [...line.matchAll(REPO_PATH)].some((x) => x[1] === undefined || !own.has(x[1])))
      .map(({ line, n }) => `${f.path}:${n + 1}: ${line.trim()}`),
  );
}

it("the search finds a repository path, and not the export's own folders", () => {
  const files = [
    { path: "x_esp32/host/Makefile", content: "SOURCES := $(ROOT)/host/host_main.c" },
    { path: "x_struct.h", content: " * every value in place (docs/design/struct-mapping.md)." },
  ];
  expect(repoPaths(files)).toEqual(["x_struct.h:1: * every value in place (docs/design/struct-mapping.md)."]);
});

describe.each(CROSS_LAYOUTS.map(([name], i) => [name, i] as const))("%s", (_name, i) => {
  const { files, problems } = runExports(parseLayout(CROSS_LAYOUTS[i]![1]), C_EXPORTS);

  it("no generated file names a path of the studio's repository", () => {
    expect(repoPaths(files)).toEqual([]);
    expect(files.length).toBeGreaterThan(5);
  });

  it("every document a file refers to ships in the same export", () => {
    const names = new Set(files.map((f) => f.path.split("/").pop()!));
    const cited = new Set(files.flatMap((f) => [...f.content.matchAll(/\b([\w-]+\.md)\b/g)].map((x) => x[1]!)));
    expect([...cited].filter((doc) => !names.has(doc))).toEqual([]);
    // the packers explain their bytes in the shipped satpayload_c.md
    if (!problems.some((p) => p.exporter === "c-struct")) expect(cited).toContain("satpayload_c.md");
  });
});
