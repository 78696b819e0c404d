import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { type LayoutInput, parseLayout } from "#codecs";
import { call, tempDir, testHost } from "./support.ts";
import { MIGRATIONS } from "../db/migrations.ts";
import { DB_FILE_NAME, openDatabase } from "../db/open.ts";
import { DEFAULT_KEEP_VERSIONS, ProjectStore } from "../db/projects.ts";

const layout = (name: string): LayoutInput => ({
  format: "satlayout",
  version: 1,
  name,
  fields: [{ id: "t", key: "t", name: "T", type: { kind: "float", bits: 32 } }],
});

describe("projects database", () => {
  it("keeps projects, versions and file paths across a reopen of the file", async () => {
    const dataDir = tempDir();
    const first = testHost({ dataDir });
    const p = await call(first, "projects.create", { name: "Kept", layout: layout("v1") });
    await call(first, "projects.save", { id: p.id, layout: layout("v2"), baseVersion: 1 });
    await call(first, "projects.rename", { id: p.id, name: "Kept, renamed" });
    const before = await call(first, "projects.open", { id: p.id });
    first.close();

    const second = testHost({ dataDir });
    expect(await call(second, "projects.open", { id: p.id })).toEqual(before);
    expect(before).toMatchObject({ name: "Kept, renamed", version: 2, layout: parseLayout(layout("v2")) });
    expect((await call(second, "projects.history", { id: p.id })).map((h) => h.name)).toEqual(["v2", "v1"]);
    // the reopened store continues the version sequence and the recency order
    const q = await call(second, "projects.create", { name: "Newer", layout: layout("n") });
    expect((await call(second, "projects.list", {})).map((s) => s.id)).toEqual([q.id, p.id]);
    expect(q.updatedAt > before.updatedAt).toBe(true);
    expect(await call(second, "projects.save", { id: p.id, layout: layout("v3"), baseVersion: 2 })).toMatchObject({
      version: 3,
    });
  });

  it("opens in WAL mode with foreign keys, synchronous=NORMAL and the current schema version", () => {
    const file = path.join(tempDir(), "nested", "dir", DB_FILE_NAME);
    const db = openDatabase(file);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(db.pragma("synchronous", { simple: true })).toBe(1);
    expect(db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    db.close();
    // a second open finds the schema in place and runs nothing again
    const again = openDatabase(file);
    expect(again.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    again.close();
  });

  it("refuses a database written by a newer schema instead of guessing", () => {
    const file = path.join(tempDir(), DB_FILE_NAME);
    const raw = new Database(file);
    raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(/newer SatPayload Studio/);
  });

  it("deletes a project's versions with it once purged and prunes to the default of 200 versions", () => {
    const db = openDatabase(path.join(tempDir(), DB_FILE_NAME));
    const store = new ProjectStore(db);
    const p = store.create("P", parseLayout(layout("v1")));
    const next = parseLayout(layout("next"));
    for (let v = 1; v <= DEFAULT_KEEP_VERSIONS + 5; v++) store.save(p.id, next, v, { coalesce: false });
    const history = store.history(p.id, 500);
    expect(DEFAULT_KEEP_VERSIONS).toBe(200);
    expect(history).toHaveLength(200);
    expect(history[0]!.version).toBe(206);
    expect(history.at(-1)!.version).toBe(7);
    const count = () => (db.prepare("SELECT count(*) AS n FROM layout_versions").get() as { n: number }).n;
    expect(count()).toBe(200);
    // deleting keeps everything for "Recently deleted"; removing it for good takes the versions with it
    expect(store.delete(p.id)).toBe(true);
    expect(count()).toBe(200);
    expect(store.purge(p.id)).toBe(true);
    expect(count()).toBe(0);
    db.close();
  });

  it("orders recent projects by their last change even when the clock stands still", () => {
    const db = openDatabase(path.join(tempDir(), DB_FILE_NAME));
    const store = new ProjectStore(db, { now: () => Date.UTC(2026, 0, 1) });
    const a = store.create("a", parseLayout(layout("a")));
    const b = store.create("b", parseLayout(layout("b")));
    store.save(a.id, parseLayout(layout("a2")), 1);
    expect(store.list(10).map((s) => s.name)).toEqual(["a", "b"]);
    expect(store.list(10)[0]!.updatedAt).toBe("2026-01-01T00:00:00.002Z");
    store.rename(b.id, "b2");
    expect(store.list(10).map((s) => s.name)).toEqual(["b2", "a"]);
    db.close();
  });

  it("leaves no trace of a save that fails inside its transaction", () => {
    const db = openDatabase(path.join(tempDir(), DB_FILE_NAME));
    const store = new ProjectStore(db);
    const p = store.create("P", parseLayout(layout("v1")));
    // an impossible row makes the UPDATE fail after the version INSERT already ran
    db.exec("CREATE TRIGGER boom BEFORE UPDATE OF version ON projects BEGIN SELECT RAISE(ABORT, 'boom'); END");
    expect(() => store.save(p.id, parseLayout(layout("v2")), 1)).toThrow(/boom/);
    expect(store.history(p.id, 10).map((h) => h.version)).toEqual([1]);
    expect(store.open(p.id).version).toBe(1);
    db.close();
  });
});
