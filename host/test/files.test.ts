import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { paperPreset, parseLayout } from "#codecs";
import { HostError } from "../errors.ts";
import { tempDir } from "./support.ts";
import { layoutFileName, layoutToText, readLayoutFile, writeLayoutFile } from "../files/layoutFile.ts";
import { checkJsonValue, parseJsonSafely } from "../json/safeJson.ts";

const paper = parseLayout(paperPreset);
const paperText = layoutToText(paper);

async function hostError(p: Promise<unknown>): Promise<HostError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(HostError);
  return e as HostError;
}

/** Every byte and the modification time, to prove a file was not touched. */
function fingerprint(file: string): { sha256: string; mtimeMs: number; ino: number } {
  const st = statSync(file);
  return { sha256: createHash("sha256").update(readFileSync(file)).digest("hex"), mtimeMs: st.mtimeMs, ino: st.ino };
}

describe("layout files", () => {
  it("writes through a temp file and rename, leaving nothing else behind", async () => {
    const dir = tempDir();
    const file = path.join(dir, "paper.satlayout.json");
    expect(await writeLayoutFile(file, paperText)).toBe(file);
    expect(readFileSync(file, "utf8")).toBe(paperText);
    expect(await readLayoutFile(file)).toEqual(paper);

    // a hard link still sees the old inode: the new content arrived by rename, not by rewriting in place
    const oldLink = path.join(dir, "old-link.json");
    linkSync(file, oldLink);
    const edited = layoutToText({ ...paper, name: "Edited" });
    await writeLayoutFile(file, edited);
    expect(readFileSync(file, "utf8")).toBe(edited);
    expect(readFileSync(oldLink, "utf8")).toBe(paperText);
    expect(statSync(file).ino).not.toBe(statSync(oldLink).ino);
    expect(readdirSync(dir).sort()).toEqual(["old-link.json", "paper.satlayout.json"]);
  });

  it("saving through a symlink replaces the real file and keeps the link", async () => {
    const dir = tempDir();
    const real = path.join(dir, "real.satlayout.json");
    const link = path.join(dir, "link.satlayout.json");
    writeFileSync(real, paperText);
    symlinkSync(real, link);
    const edited = layoutToText({ ...paper, name: "Via link" });
    await writeLayoutFile(link, edited);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toBe(edited);
  });

  const hostile: [string, (file: string) => void, string, RegExp][] = [
    [
      "bad JSON",
      (f) => writeFileSync(f, '{"format": "satlayout", "fields": [}'),
      "invalid_layout",
      /is not a usable layout file: not valid JSON/,
    ],
    [
      "the wrong format",
      (f) => writeFileSync(f, JSON.stringify({ format: "kaitai", meta: { id: "x" } })),
      "invalid_layout",
      /is not a valid SatPayload layout: Format is "kaitai"; it must be "satlayout"/,
    ],
    [
      "50 MB",
      (f) => (writeFileSync(f, "{"), truncateSync(f, 50_000_000)),
      "invalid_layout",
      /is 50\.0 MB; a layout file is at most 5\.0 MB/,
    ],
    [
      "a __proto__ key",
      (f) => writeFileSync(f, paperText.replace('"format"', '"__proto__": {"isAdmin": true}, "format"')),
      "invalid_layout",
      /: __proto__: the key "__proto__" is not allowed/,
    ],
    [
      "a constructor.prototype key",
      (f) => writeFileSync(f, paperText.replace('"format"', '"constructor": {"prototype": {"x": 1}}, "format"')),
      "invalid_layout",
      /the key "constructor" is not allowed/,
    ],
    [
      "deep nesting",
      (f) => writeFileSync(f, "[".repeat(200_000) + "]".repeat(200_000)),
      "invalid_layout",
      /nested deeper than 64 levels/,
    ],
    [
      "bytes that are not UTF-8",
      (f) => writeFileSync(f, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])),
      "invalid_layout",
      /is not UTF-8 text/,
    ],
    ["an empty file", (f) => writeFileSync(f, ""), "invalid_layout", /not valid JSON/],
  ];

  it.each(hostile)(
    "refuses a file with %s with a clear error and leaves it byte-identical",
    async (_what, make, code, message) => {
      const dir = tempDir();
      const file = path.join(dir, "hostile.satlayout.json");
      make(file);
      const before = fingerprint(file);
      const readErr = await hostError(readLayoutFile(file));
      expect(readErr.code).toBe(code);
      expect(readErr.message).toMatch(message);
      expect(readErr.message).toContain(file);
      // saving over it is refused too: a damaged file is the user's to repair, never ours to replace
      const writeErr = await hostError(writeLayoutFile(file, paperText));
      expect(writeErr.code).toBe("conflict");
      expect(writeErr.message).toMatch(/^refusing to overwrite /);
      expect(fingerprint(file)).toEqual(before);
      expect(readdirSync(dir)).toEqual(["hostile.satlayout.json"]);
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    },
  );

  it("refuses what is not a regular file, a relative path or a missing file", async () => {
    const dir = tempDir();
    const fifo = path.join(dir, "pipe.satlayout.json");
    execFileSync("mkfifo", [fifo]);
    expect((await hostError(readLayoutFile(fifo))).message).toBe(`${fifo} is not a regular file`);
    const sub = path.join(dir, "folder.satlayout.json");
    mkdirSync(sub);
    expect((await hostError(readLayoutFile(sub))).message).toBe(`${sub} is not a regular file`);
    expect(await hostError(writeLayoutFile(sub, paperText))).toMatchObject({ code: "conflict" });
    expect(await hostError(readLayoutFile("relative/x.satlayout.json"))).toMatchObject({
      code: "bad_request",
      message: '"relative/x.satlayout.json" is not an absolute path',
    });
    expect(await hostError(readLayoutFile(path.join(dir, "none.json")))).toMatchObject({ code: "not_found" });
    expect(await hostError(writeLayoutFile(path.join(dir, "notes.txt"), paperText))).toMatchObject({
      code: "bad_request",
    });
    expect(await hostError(readLayoutFile("/etc/passwd"))).toMatchObject({
      code: "bad_request",
      message: "/etc/passwd: layout files end in .satlayout.json",
    });
    expect(
      await hostError(writeLayoutFile(path.join(dir, "missing-dir", "x.satlayout.json"), paperText)),
    ).toMatchObject({ code: "not_found" });
    expect(readdirSync(dir).sort()).toEqual(["folder.satlayout.json", "pipe.satlayout.json"]);
  });

  it("accepts a byte-order mark and names files after the layout", async () => {
    const dir = tempDir();
    const file = path.join(dir, "bom.satlayout.json");
    writeFileSync(file, "\ufeff" + paperText);
    expect(await readLayoutFile(file)).toEqual(paper);
    expect(layoutFileName("Maritime container (Kumar et al. 2026)")).toBe(
      "maritime-container-kumar-et-al-2026.satlayout.json",
    );
    expect(layoutFileName("Température / Größe")).toBe("temperature-groe.satlayout.json");
    expect(layoutFileName("!!!")).toBe("layout.satlayout.json");
  });
});

describe("safe JSON", () => {
  it("allows exactly 64 levels of nesting and ignores brackets inside strings", () => {
    expect(() => parseJsonSafely("[".repeat(64) + "]".repeat(64))).not.toThrow();
    expect(() => parseJsonSafely("[".repeat(65) + "]".repeat(65))).toThrow(
      /nested deeper than 64 levels \(at character 64\)/,
    );
    expect(parseJsonSafely(JSON.stringify({ s: '[[[[\\"{{{{'.repeat(100) }))).toEqual({ s: '[[[[\\"{{{{'.repeat(100) });
    let v: unknown = 1;
    for (let i = 0; i < 64; i++) v = [v];
    expect(() => checkJsonValue(v)).not.toThrow();
    expect(() => checkJsonValue([v])).toThrow(/nested deeper than 64/);
  });

  it("rejects values JSON cannot carry, with the path", () => {
    expect(() => checkJsonValue({ a: [1, Number.NaN] })).toThrow("a[1] is not a finite number");
    expect(() => checkJsonValue({ a: { b: () => 1 } })).toThrow("a.b holds a function, which JSON cannot carry");
    expect(() => checkJsonValue({ m: new Map() })).toThrow("m is not a plain JSON object");
    expect(() => checkJsonValue({ n: 10n })).toThrow("n holds a bigint");
    expect(() => checkJsonValue({ ok: undefined, also: null })).not.toThrow();
  });
});
