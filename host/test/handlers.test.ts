import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type LayoutInput, paperPreset, parseLayout } from "#codecs";
import { call, failure, tempDir, testHost } from "./support.ts";
import type { EventName } from "../api/contract.ts";

const fieldA = { id: "a", key: "a", name: "A", type: { kind: "int", bits: 8, signed: false } };
const fieldB = { id: "b", key: "b", name: "B", type: { kind: "bool" } };
const small: LayoutInput = { format: "satlayout", version: 1, name: "Small", fields: [fieldA, fieldB] };
const renamed = (name: string): LayoutInput => ({ ...small, name });

function recordEvents(host: ReturnType<typeof testHost>) {
  const seen: { event: EventName; payload: unknown }[] = [];
  host.events.subscribe((event, payload) => seen.push({ event, payload }));
  return seen;
}

describe("host handlers", () => {
  it("reports app info and the presets, parsed", async () => {
    const dataDir = tempDir();
    const host = testHost({ dataDir });
    expect(await call(host, "app.info", {})).toEqual({ version: "9.9.9", shell: "browser", dataDir });
    const presets = await call(host, "presets.list", {});
    const paper = presets.find((p) => p.id === "paper");
    expect(paper?.layout).toEqual(parseLayout(paperPreset));
    expect((paper?.layout as { fields: unknown[] }).fields).toHaveLength(20);
    for (const p of presets) expect(() => parseLayout(p.layout)).not.toThrow();
  });

  it("creates, opens, saves, lists history and old versions", async () => {
    const host = testHost();
    const events = recordEvents(host);
    const created = await call(host, "projects.create", { name: "Container", layout: paperPreset });
    expect(created).toMatchObject({ name: "Container", version: 1, filePath: null });
    expect(created.layout).toEqual(parseLayout(paperPreset));
    expect(await call(host, "projects.open", { id: created.id })).toEqual(created);

    const saved = await call(host, "projects.save", { id: created.id, layout: small, baseVersion: 1 });
    expect(saved.version).toBe(2);
    expect(events.at(-1)).toEqual({
      event: "project.saved",
      payload: { id: created.id, version: 2, updatedAt: saved.updatedAt },
    });
    const opened = await call(host, "projects.open", { id: created.id });
    expect(opened).toMatchObject({ version: 2, updatedAt: saved.updatedAt, layout: parseLayout(small) });

    const history = await call(host, "projects.history", { id: created.id });
    expect(history.map((h) => [h.version, h.fieldCount, h.name])).toEqual([
      [2, 2, "Small"],
      [1, 20, "Maritime container (Kumar et al. 2026)"],
    ]);
    expect(history[0]!.savedAt).toBe(saved.updatedAt);
    expect((await call(host, "projects.version", { id: created.id, version: 1 })).layout).toEqual(
      parseLayout(paperPreset),
    );
    expect(await failure(host.dispatch("projects.version", { id: created.id, version: 3 }))).toMatchObject({
      code: "not_found",
    });
  });

  it("refuses a save based on a stale version and keeps the newer one", async () => {
    const host = testHost();
    const p = await call(host, "projects.create", { name: "P", layout: small });
    await call(host, "projects.save", { id: p.id, layout: renamed("first window"), baseVersion: 1 });
    const err = await failure(
      host.dispatch("projects.save", { id: p.id, layout: renamed("second window"), baseVersion: 1 }),
    );
    expect(err.code).toBe("conflict");
    expect(err.message).toContain("version 2");
    const now = await call(host, "projects.open", { id: p.id });
    expect(now.version).toBe(2);
    expect((now.layout as { name: string }).name).toBe("first window");
    expect(await call(host, "projects.history", { id: p.id })).toHaveLength(2);
  });

  it("renames, lists most recent first, deletes", async () => {
    const host = testHost();
    const events = recordEvents(host);
    const a = await call(host, "projects.create", { name: "A", layout: small });
    const b = await call(host, "projects.create", { name: "B", layout: small });
    expect((await call(host, "projects.list", {})).map((p) => p.name)).toEqual(["B", "A"]);
    const r = await call(host, "projects.rename", { id: a.id, name: "A2" });
    expect(r).toMatchObject({ id: a.id, name: "A2", version: 1 });
    // a name that shows nothing (a zero-width space) would leave an unlabelled project
    expect(await failure(host.dispatch("projects.rename", { id: a.id, name: "\u200b" }))).toMatchObject({
      code: "bad_request",
      issues: [{ path: "name", message: expect.stringContaining("needs at least one visible character") }],
    });
    expect(events.at(-1)).toEqual({ event: "project.changed", payload: { id: a.id } });
    expect((await call(host, "projects.list", {})).map((p) => p.name)).toEqual(["A2", "B"]);
    expect(await call(host, "projects.list", { limit: 1 })).toHaveLength(1);
    expect(await call(host, "projects.delete", { id: a.id })).toEqual({ deleted: true });
    expect(await call(host, "projects.delete", { id: a.id })).toEqual({ deleted: false });
    expect(await failure(host.dispatch("projects.open", { id: a.id }))).toMatchObject({ code: "not_found" });
    expect((await call(host, "projects.list", {})).map((p) => p.id)).toEqual([b.id]);
  });

  it("prunes history beyond the kept number of versions", async () => {
    const host = testHost({ keepVersions: 3 });
    const p = await call(host, "projects.create", { name: "P", layout: small });
    for (let v = 1; v <= 5; v++)
      await call(host, "projects.save", { id: p.id, layout: renamed(`v${v + 1}`), baseVersion: v, coalesce: false });
    expect((await call(host, "projects.history", { id: p.id })).map((h) => h.version)).toEqual([6, 5, 4]);
    expect(await failure(host.dispatch("projects.version", { id: p.id, version: 3 }))).toMatchObject({
      code: "not_found",
    });
  });

  it("answers an invalid layout with invalid_layout and path-precise issues", async () => {
    const host = testHost();
    const dupKey = { ...small, fields: [fieldA, { ...fieldB, key: "a" }] };
    const err = await failure(host.dispatch("projects.create", { name: "x", layout: dupKey }));
    expect(err.code).toBe("invalid_layout");
    expect(err.issues).toEqual([
      {
        path: "fields[1].key",
        where: 'field "B"',
        related: "fields[0]",
        message:
          'Key "a" is used by both field "A" and field "B"; the fields of one message need different keys, because the key names the value on the wire.',
      },
    ]);

    const badRange = {
      ...small,
      fields: [{ ...fieldA, type: { kind: "int", bits: 8, signed: false, min: 5, max: 2 } }],
    };
    const p = await call(host, "projects.create", { name: "ok", layout: small });
    const err2 = await failure(host.dispatch("projects.save", { id: p.id, layout: badRange, baseVersion: 1 }));
    expect(err2).toMatchObject({
      code: "invalid_layout",
      issues: [
        {
          path: "fields[0].type.max",
          where: 'field "A"',
          message: "Maximum is 2; it must be greater than the minimum (5).",
        },
      ],
    });

    const noName = { ...small, name: undefined };
    expect(
      (await failure(host.dispatch("projects.create", { name: "x", layout: noName }))).issues?.map((i) => i.path),
    ).toEqual(["name"]);
    expect((await call(host, "projects.open", { id: p.id })).version).toBe(1);
  });

  it("answers malformed requests with bad_request and unknown methods with not_found", async () => {
    const host = testHost();
    const cases: [string, unknown, string[]][] = [
      ["projects.open", {}, ["id"]],
      ["projects.open", { id: "" }, ["id"]],
      ["projects.save", { id: "x", layout: small, baseVersion: -1 }, ["baseVersion"]],
      ["projects.list", { limit: 0 }, ["limit"]],
      ["projects.create", { name: "n".repeat(129), layout: small }, ["name"]],
      ["files.importLayout", { fileName: "a.json" }, ["content"]],
      ["projects.open", "not an object", [""]],
    ];
    for (const [method, req, paths] of cases) {
      const err = await failure(host.dispatch(method, req));
      expect(err.code, `${method} ${JSON.stringify(req)}`).toBe("bad_request");
      expect(err.issues?.map((i) => i.path)).toEqual(paths);
    }
    expect(await failure(host.dispatch("projects.explode", {}))).toEqual({
      code: "not_found",
      message: 'unknown method "projects.explode"',
    });
    expect(await failure(host.dispatch("toString", {}))).toMatchObject({ code: "not_found" });

    // hostile shapes must be refused before zod or parseLayout recurse into them
    let deep: unknown = {};
    for (let i = 0; i < 10_000; i++) deep = { fields: [deep] };
    expect(await failure(host.dispatch("projects.create", { name: "deep", layout: deep }))).toMatchObject({
      code: "bad_request",
      message: expect.stringContaining("nested deeper than 64"),
    });
    const polluted = JSON.parse(`{"name":"p","layout":{"format":"satlayout","__proto__":{"polluted":true}}}`);
    expect(await failure(host.dispatch("projects.create", polluted))).toMatchObject({
      code: "bad_request",
      message: expect.stringContaining('"__proto__"'),
    });
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(await failure(host.dispatch("projects.create", { name: "d", layout: new Date() }))).toMatchObject({
      code: "bad_request",
    });
  });

  it("imports uploaded layout text and exports the text a user commits", async () => {
    const host = testHost();
    const p = await call(host, "files.importLayout", {
      fileName: "container.satlayout.json",
      content: JSON.stringify(paperPreset),
    });
    expect(p).toMatchObject({ name: "Maritime container (Kumar et al. 2026)", version: 1, filePath: null });
    const text = await call(host, "files.layoutText", { id: p.id });
    expect(text.fileName).toBe("maritime-container-kumar-et-al-2026.satlayout.json");
    expect(text.content.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text.content)).toEqual(parseLayout(paperPreset));

    const broken = await failure(
      host.dispatch("files.importLayout", { fileName: "broken.satlayout.json", content: '{"format": "satlayout",' }),
    );
    expect(broken.code).toBe("invalid_layout");
    expect(broken.message).toMatch(/^broken\.satlayout\.json is not a usable layout file: not valid JSON/);
    const wrong = await failure(
      host.dispatch("files.importLayout", { fileName: "other.json", content: '{"format":"kaitai"}' }),
    );
    expect(wrong.code).toBe("invalid_layout");
    expect(wrong.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(["format", "version", "name", "fields"]));
    expect(await call(host, "projects.list", {})).toHaveLength(1);
  });

  it("opens and saves layout files by path, and through the native dialogs when a shell has them", async () => {
    const dir = tempDir();
    const file = path.join(dir, "small.satlayout.json");
    writeFileSync(file, JSON.stringify(small));

    const browser = testHost();
    expect(await failure(browser.dispatch("files.openLayout", {}))).toMatchObject({
      code: "bad_request",
      message: expect.stringContaining("browser mode"),
    });
    const opened = (await call(browser, "files.openLayout", { path: file }))!;
    expect(opened).toMatchObject({ name: "Small", filePath: file, version: 1 });
    // the same file again continues the same project; a changed file becomes a new version
    expect((await call(browser, "files.openLayout", { path: file }))?.id).toBe(opened.id);
    writeFileSync(file, JSON.stringify(renamed("Small, edited")));
    const again = await call(browser, "files.openLayout", { path: file });
    expect(again).toMatchObject({ id: opened.id, version: 2 });

    const out = path.join(dir, "out", "copy.satlayout.json");
    mkdirSync(path.dirname(out));
    expect(await call(browser, "files.saveLayout", { id: opened.id, path: out })).toEqual({ path: out });
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(parseLayout(renamed("Small, edited")));
    expect((await call(browser, "projects.open", { id: opened.id })).filePath).toBe(out);

    const asked: string[] = [];
    let answer: string | null = null;
    const electron = testHost({
      shell: "electron",
      dialogs: {
        openLayoutPath: async () => answer,
        saveLayoutPath: async (suggested) => (asked.push(suggested), answer),
      },
    });
    expect(await call(electron, "files.openLayout", {})).toBeNull();
    answer = file;
    const viaDialog = await call(electron, "files.openLayout", {});
    expect(viaDialog?.filePath).toBe(file);
    const fresh = await call(electron, "projects.create", { name: "Fresh one", layout: small });
    answer = null;
    expect(await call(electron, "files.saveLayout", { id: fresh.id })).toBeNull();
    expect(asked).toEqual(["fresh-one.satlayout.json"]);
    answer = path.join(dir, "fresh.satlayout.json");
    expect(await call(electron, "files.saveLayout", { id: fresh.id })).toEqual({ path: answer });
    expect(JSON.parse(readFileSync(answer, "utf8"))).toEqual(parseLayout(small));
  });
});
