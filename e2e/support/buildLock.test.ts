// Several processes asking for the same build at once: exactly one builds, the others wait and then
// find the finished output; none sees it half-written. A dead holder's lock does not block forever.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { repoRoot } from "./build.ts";
import { buildOnce } from "./buildLock.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "satpayload-buildlock-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// a child process: builds "out/" (slowly, file by file, into a scratch folder then renamed) unless current
const CHILD = `
import { appendFileSync, existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildOnce } from ${JSON.stringify(path.join(repoRoot, "e2e/support/buildLock.ts"))};
const dir = process.argv[2];
const out = path.join(dir, "out");
const result = await buildOnce({
  lockFile: path.join(dir, "build.lock"),
  isCurrent: () => existsSync(path.join(out, "done")),
  build: async () => {
    appendFileSync(path.join(dir, "builds.log"), process.pid + "\\n");
    const scratch = path.join(dir, "scratch-" + process.pid);
    mkdirSync(scratch);
    for (let i = 0; i < 5; i++) {
      writeFileSync(path.join(scratch, "part" + i), "x");
      await new Promise((r) => setTimeout(r, 100));
    }
    writeFileSync(path.join(scratch, "done"), "");
    renameSync(scratch, out);
  },
});
// what this process sees once buildOnce returns: the whole output
console.log(JSON.stringify({ result, files: readdirSync(out).sort() }));
`;

describe("buildOnce", () => {
  it("builds once when four processes ask at the same time", async () => {
    const script = path.join(dir, "child.mts");
    writeFileSync(script, CHILD);
    const tsx = path.join(repoRoot, "node_modules/.bin/tsx");
    const outs = await Promise.all(
      // owned: stopped with tsx's node children after 120 s, or when the test ends first
      [0, 1, 2, 3].map(() => runOwned(tsx, [script, dir], { cwd: repoRoot, timeoutMs: 120_000 })),
    );
    const results = outs.map(
      (o) => JSON.parse(o.stdout.trim().split("\n").pop()!) as { result: string; files: string[] },
    );
    expect(readFileSync(path.join(dir, "builds.log"), "utf8").trim().split("\n")).toHaveLength(1);
    expect(results.filter((r) => r.result === "built")).toHaveLength(1);
    for (const r of results) expect(r.files).toEqual(["done", "part0", "part1", "part2", "part3", "part4"]);
    expect(existsSync(path.join(dir, "build.lock"))).toBe(false);
  }, 180_000);

  it("takes over the lock of a process that died", async () => {
    const d = mkdtempSync(path.join(dir, "stale-"));
    // pid 2^22 + 1 is above Linux's pid_max default, so no process has it
    writeFileSync(path.join(d, "build.lock"), String(4_194_305));
    let builds = 0;
    const result = await buildOnce({
      lockFile: path.join(d, "build.lock"),
      isCurrent: () => builds > 0,
      build: () => void builds++,
      waitMs: 5_000,
    });
    expect(result).toBe("built");
    expect(builds).toBe(1);
    expect(readdirSync(d)).toEqual([]);
  });
});
