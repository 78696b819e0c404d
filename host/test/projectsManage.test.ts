// Issue #26, point 4: projects that can be deleted and restored, versions that can be named and marked
// deployed (kept by pruning), and autosave versions coalesced per pause. Time is an injected clock.
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { LayoutInput } from "#codecs";
import { call, failure, tempDir, testHost } from "./support.ts";
import { MIGRATIONS } from "../db/migrations.ts";
import { DB_FILE_NAME, openDatabase } from "../db/open.ts";

const layout = (name: string, fields = 1): LayoutInput => ({
  format: "satlayout",
  version: 1,
  name,
  fields: Array.from({ length: fields }, (_, i) => ({
    id: `f${i}`,
    key: `f${i}`,
    name: `F${i}`,
    type: { kind: "int" as const, bits: 8 as const, signed: false },
  })),
});

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

/** A clock the test moves by hand. */
function clock(start = Date.UTC(2026, 10, 1, 9)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("deleting a project (issue #26)", () => {
  it("moves it to Recently deleted: gone from the list, restorable with its versions", async () => {
    const c = clock();
    const host = testHost({ now: c.now });
    const a = await call(host, "projects.create", { name: "Tracker", layout: layout("Tracker") });
    const b = await call(host, "projects.create", { name: "Untitled layout", layout: layout("Untitled layout") });
    await call(host, "projects.save", { id: a.id, layout: layout("Tracker", 2), baseVersion: 1 });

    expect(await call(host, "projects.delete", { id: a.id })).toEqual({ deleted: true });
    expect((await call(host, "projects.list", {})).map((p) => p.id)).toEqual([b.id]);
    expect(await call(host, "projects.deleted", {})).toEqual([
      // (times are the store's stamps: strictly increasing, a millisecond apart under a clock that stands still)
      { id: a.id, name: "Tracker", deletedAt: "2026-11-01T09:00:00.003Z", purgeAt: "2026-11-08T09:00:00.003Z" },
    ]);
    // while deleted it cannot be opened, saved or renamed: nothing changes it behind the user's back
    expect(await failure(host.dispatch("projects.open", { id: a.id }))).toMatchObject({ code: "not_found" });
    // a window that still has it open is told where it went
    expect(
      await failure(host.dispatch("projects.save", { id: a.id, layout: layout("x"), baseVersion: 2 })),
    ).toMatchObject({
      code: "not_found",
      message: 'project "Tracker" was deleted: restore it from Recently deleted on the start screen to change it',
    });
    // deleting again changes nothing
    expect(await call(host, "projects.delete", { id: a.id })).toEqual({ deleted: false });

    const restored = await call(host, "projects.restore", { id: a.id });
    expect(restored).toMatchObject({ id: a.id, name: "Tracker", version: 2 });
    expect((await call(host, "projects.list", {})).map((p) => p.id).sort()).toEqual([a.id, b.id].sort());
    expect(await call(host, "projects.deleted", {})).toEqual([]);
    expect((await call(host, "projects.history", { id: a.id })).map((h) => h.version)).toEqual([2, 1]);
    expect((await call(host, "projects.open", { id: a.id })).layout).toMatchObject({ fields: [{}, {}] });
  });

  it("removes it for good a week after the deletion, or at once when asked", async () => {
    const c = clock();
    const dataDir = tempDir();
    const host = testHost({ dataDir, now: c.now });
    const old = await call(host, "projects.create", { name: "Old", layout: layout("Old") });
    const young = await call(host, "projects.create", { name: "Young", layout: layout("Young") });
    const now = await call(host, "projects.create", { name: "Now", layout: layout("Now") });
    await call(host, "projects.delete", { id: old.id });
    c.advance(2 * DAY);
    await call(host, "projects.delete", { id: young.id });
    await call(host, "projects.delete", { id: now.id });
    expect((await call(host, "projects.deleted", {})).map((d) => d.name)).toEqual(["Now", "Young", "Old"]);

    // "Delete now" in Recently deleted
    expect(await call(host, "projects.purge", { id: now.id })).toEqual({ purged: true });
    expect(await failure(host.dispatch("projects.restore", { id: now.id }))).toMatchObject({ code: "not_found" });

    // a week and a minute after the first deletion: the first is gone for good, the second is still there
    c.advance(5 * DAY + MINUTE);
    expect((await call(host, "projects.deleted", {})).map((d) => d.name)).toEqual(["Young"]);
    const gone = await failure(host.dispatch("projects.restore", { id: old.id }));
    expect(gone).toMatchObject({ code: "not_found" });
    expect(gone.message).toContain("removed for good a week after its deletion");
    // and its versions went with it
    host.close();
    const db = new Database(path.join(dataDir, DB_FILE_NAME));
    const versions = db.prepare("SELECT count(*) AS n FROM layout_versions WHERE project_id = ?").get(old.id);
    expect(versions).toEqual({ n: 0 });
    db.close();

    // a host started two more days later purges on start, before anyone asks
    c.advance(2 * DAY);
    const later = testHost({ dataDir, now: c.now });
    const raw = new Database(path.join(dataDir, DB_FILE_NAME));
    expect(raw.prepare("SELECT count(*) AS n FROM projects WHERE id = ?").get(young.id)).toEqual({ n: 0 });
    raw.close();
    expect(await call(later, "projects.deleted", {})).toEqual([]);
  });
});

describe("named and deployed versions (issue #26)", () => {
  it("are kept by pruning and listed in the history however old", async () => {
    const host = testHost({ keepVersions: 3 });
    const p = await call(host, "projects.create", { name: "P", layout: layout("P") });
    for (let v = 1; v <= 2; v++)
      await call(host, "projects.save", { id: p.id, layout: layout("P", v + 1), baseVersion: v, coalesce: false });
    expect(await call(host, "projects.labelVersion", { id: p.id, version: 2, label: "  Field trial  " })).toMatchObject(
      { version: 2, label: "Field trial", deployed: false },
    );
    expect(await call(host, "projects.setDeployed", { id: p.id, version: 3 })).toMatchObject({
      version: 3,
      label: null,
      deployed: true,
    });
    for (let v = 3; v <= 12; v++)
      await call(host, "projects.save", { id: p.id, layout: layout("P", 2), baseVersion: v, coalesce: false });

    const history = await call(host, "projects.history", { id: p.id });
    expect(history.map((h) => [h.version, h.label, h.deployed])).toEqual([
      [13, null, false],
      [12, null, false],
      [11, null, false],
      [3, null, true],
      [2, "Field trial", false],
    ]);
    expect((await call(host, "projects.version", { id: p.id, version: 2 })).layout).toMatchObject({
      fields: [{}, {}],
    });
    expect(await failure(host.dispatch("projects.version", { id: p.id, version: 4 }))).toMatchObject({
      code: "not_found",
    });
    // a limit of one still lists the pinned ones: the evolution check must find the deployed version
    expect((await call(host, "projects.history", { id: p.id, limit: 1 })).map((h) => h.version)).toEqual([13, 3, 2]);

    // clearing the name and the mark lets pruning take them on the next save
    await call(host, "projects.labelVersion", { id: p.id, version: 2, label: "" });
    expect(await call(host, "projects.setDeployed", { id: p.id, version: null })).toBeNull();
    await call(host, "projects.save", { id: p.id, layout: layout("P"), baseVersion: 13, coalesce: false });
    expect((await call(host, "projects.history", { id: p.id })).map((h) => h.version)).toEqual([14, 13, 12]);
  });

  it("moves the deployed mark, and refuses a version that is not there or a name too long", async () => {
    const host = testHost();
    const p = await call(host, "projects.create", { name: "P", layout: layout("P") });
    await call(host, "projects.save", { id: p.id, layout: layout("P", 2), baseVersion: 1, coalesce: false });
    await call(host, "projects.setDeployed", { id: p.id, version: 1 });
    await call(host, "projects.setDeployed", { id: p.id, version: 2 });
    expect((await call(host, "projects.history", { id: p.id })).map((h) => [h.version, h.deployed])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(await failure(host.dispatch("projects.setDeployed", { id: p.id, version: 9 }))).toMatchObject({
      code: "not_found",
    });
    expect(await failure(host.dispatch("projects.labelVersion", { id: p.id, version: 9, label: "x" }))).toMatchObject({
      code: "not_found",
    });
    expect(
      await failure(host.dispatch("projects.labelVersion", { id: p.id, version: 1, label: "x".repeat(81) })),
    ).toMatchObject({ code: "bad_request", issues: [{ path: "label" }] });
  });
});

describe("autosave versions coalesced: one per pause, not per keystroke (issue #26)", () => {
  it("turns 404 saves over 33 minutes of editing into 5 versions, numbers still growing with every save", async () => {
    const c = clock();
    const host = testHost({ now: c.now });
    const p = await call(host, "projects.create", { name: "P", layout: layout("P") });
    let version = p.version;
    let saves = 0;
    const save = async (fields: number) => {
      const res = await call(host, "projects.save", { id: p.id, layout: layout("P", fields), baseVersion: version });
      expect(res.version).toBe(version + 1);
      version = res.version;
      saves++;
    };
    // a burst: 39 saves two seconds apart (autosave's debounce is 0.6 s; a user typing and pausing briefly)
    for (let i = 0; i < 39; i++) {
      await save(1 + (i % 5));
      c.advance(2 * SECOND);
    }
    expect((await call(host, "projects.history", { id: p.id })).map((h) => h.version)).toEqual([40, 1]);
    // a pause of 90 s, then five more saves: a new version
    c.advance(90 * SECOND);
    for (let i = 0; i < 5; i++) {
      await save(2);
      c.advance(2 * SECOND);
    }
    // then half an hour without a pause of a minute: still a version every ten minutes
    for (let i = 0; i < 360; i++) {
      await save(3 + (i % 2));
      c.advance(5 * SECOND);
    }
    const history = await call(host, "projects.history", { id: p.id, limit: 500 });
    expect(saves).toBe(404);
    expect(history.length - 1).toBe(5);
    // each burst keeps its last save: 2–40, 41–163 (the pause, then ten minutes), 164–283, 284–403, 404–405
    expect(history.map((h) => h.version)).toEqual([405, 403, 283, 163, 40, 1]);
    // the newest version holds the last save
    expect((await call(host, "projects.open", { id: p.id })).layout).toEqual(
      (await call(host, "projects.version", { id: p.id, version: 405 })).layout,
    );
  });

  it("never replaces a created, named, deployed, deliberately saved or sent version", async () => {
    const c = clock();
    const dataDir = tempDir();
    const host = testHost({ dataDir, now: c.now });
    const p = await call(host, "projects.create", { name: "P", layout: layout("P") });
    let v = 1;
    const save = async (opts: { coalesce?: boolean } = {}) => {
      v = (await call(host, "projects.save", { id: p.id, layout: layout("P", 2), baseVersion: v, ...opts })).version;
      c.advance(SECOND);
    };
    const versions = async () => (await call(host, "projects.history", { id: p.id })).map((h) => h.version);
    await save(); // the created version 1 stays
    expect(await versions()).toEqual([2, 1]);
    await call(host, "projects.labelVersion", { id: p.id, version: 2, label: "named" });
    await save();
    expect(await versions()).toEqual([3, 2, 1]);
    await call(host, "projects.setDeployed", { id: p.id, version: 3 });
    await save();
    expect(await versions()).toEqual([4, 3, 2, 1]);
    await save({ coalesce: false });
    await save();
    expect(await versions()).toEqual([6, 5, 4, 3, 2, 1]);
    // a payload sent from version 6 on the DevKit names that version: it stays
    const db = new Database(path.join(dataDir, DB_FILE_NAME));
    db.prepare(
      "INSERT INTO devkit_transmissions (project_id, layout_version, payload_hex, bytes, queue_id, port, status, enqueued_at) VALUES (?, 6, '00', 1, 1, 'sim', 'queued', '2026-11-01T09:00:00.000Z')",
    ).run(p.id);
    db.close();
    await save();
    await save();
    expect(await versions()).toEqual([8, 6, 5, 4, 3, 2, 1]);
  });

  it("keeps every save as its own version when coalescing is off for the host", async () => {
    const host = testHost({ coalesce: false });
    const p = await call(host, "projects.create", { name: "P", layout: layout("P") });
    for (let v = 1; v <= 3; v++)
      await call(host, "projects.save", { id: p.id, layout: layout("P", v + 1), baseVersion: v });
    expect((await call(host, "projects.history", { id: p.id })).map((h) => h.version)).toEqual([4, 3, 2, 1]);
  });
});

describe("the migration of issue #26", () => {
  it("keeps every project and version of a database of the previous schema", async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, DB_FILE_NAME);
    const raw = new Database(file);
    const before = MIGRATIONS.length - 1;
    for (let m = 0; m < before; m++) raw.exec(MIGRATIONS[m]!);
    raw.pragma(`user_version = ${before}`);
    raw
      .prepare("INSERT INTO projects (id, name, created_at, updated_at, version, file_path) VALUES (?, ?, ?, ?, ?, ?)")
      .run("p1", "Old tracker", "2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z", 2, null);
    const insert = raw.prepare(
      "INSERT INTO layout_versions (project_id, version, saved_at, name, field_count, layout) VALUES (?, ?, ?, ?, ?, ?)",
    );
    insert.run("p1", 1, "2026-01-01T00:00:00.000Z", "Old tracker", 1, JSON.stringify(layout("Old tracker")));
    insert.run("p1", 2, "2026-01-02T00:00:00.000Z", "Old tracker", 2, JSON.stringify(layout("Old tracker", 2)));
    raw.close();

    const db = openDatabase(file);
    expect(db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    db.close();
    // a save a few seconds after the last stored one: a migrated version is never replaced
    const host = testHost({ dataDir, now: () => Date.parse("2026-01-02T00:00:05.000Z") });
    expect(await call(host, "projects.list", {})).toMatchObject([{ id: "p1", name: "Old tracker", version: 2 }]);
    expect(await call(host, "projects.history", { id: "p1" })).toEqual([
      {
        version: 2,
        savedAt: "2026-01-02T00:00:00.000Z",
        fieldCount: 2,
        name: "Old tracker",
        label: null,
        deployed: false,
      },
      {
        version: 1,
        savedAt: "2026-01-01T00:00:00.000Z",
        fieldCount: 1,
        name: "Old tracker",
        label: null,
        deployed: false,
      },
    ]);
    await call(host, "projects.save", { id: "p1", layout: layout("Old tracker", 3), baseVersion: 2 });
    expect((await call(host, "projects.history", { id: "p1" })).map((h) => h.version)).toEqual([3, 2, 1]);
  });
});
