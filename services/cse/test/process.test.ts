// services/cse/main.ts as the supervisor runs it (flags, the "listening" line, SIGTERM), the
// SQLite data dir surviving a restart, and a database failure answered 500/5000.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { spawnOwned } from "#codecs-test/helpers/processes/owned.ts";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { repoRoot } from "#codecs-test/helpers/python.ts";
import { M2mClient } from "./client.ts";
import { startTestCse } from "./fixture.ts";

const TSX = path.join(repoRoot, "node_modules/.bin/tsx");
const dirs: string[] = [];

function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), "cse-test-"));
  dirs.push(d);
  return d;
}

// the processes are owned (spawnOwned): stopped, tsx's node child included, when their test ends
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  line: Record<string, unknown>;
  stderr: () => string;
}

/** Starts main.ts and resolves with its first stdout line, parsed. */
function startMain(args: string[]): Promise<Started> {
  const { child } = spawnOwned(TSX, ["services/cse/main.ts", ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (b: Buffer) => (err += b.toString("utf8")));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (l) => resolve({ child, line: JSON.parse(l), stderr: () => err }));
    child.once("exit", (code) => reject(new Error(`main.ts exited ${code} before listening: ${err}`)));
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

function run(args: string[]): Promise<{ code: number | string; stderr: string }> {
  return runOwned(TSX, ["services/cse/main.ts", ...args], { cwd: repoRoot });
}

describe("main.ts", () => {
  it("prints one listening line, keeps the tree in the data dir across a SIGTERM restart", async () => {
    const dir = tempDir();
    const args = [
      "--port",
      "0",
      "--data-dir",
      dir,
      "--base",
      "Mobius",
      "--cse-id",
      "/Mobius2",
      "--superuser",
      "Sponde",
    ];
    const first = await startMain(args);
    expect(first.line).toMatchObject({
      event: "listening",
      base: "Mobius",
      cseId: "/Mobius2",
      profile: "mobius",
      database: path.join(dir, "cse.sqlite"),
    });
    const url = String(first.line.url);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(first.line.cseBaseUrl).toBe(`${url}/Mobius`);
    const c = new M2mClient(url, "Cdecoder");
    expect(
      (await c.create("/Mobius", 2, { "m2m:ae": { rn: "decoder", api: "Nd", rr: false, srv: ["3"] } })).status,
    ).toBe(201);
    expect((await c.create("/Mobius/decoder", 3, { "m2m:cnt": { rn: "up", mni: 2 } })).status).toBe(201);
    for (const rn of ["a", "b", "c"])
      expect((await c.create("/Mobius/decoder/up", 4, { "m2m:cin": { rn, con: { rn } } })).status).toBe(201);
    const cb = (await c.retrieve("/Mobius")).body["m2m:cb"];
    first.child.kill("SIGTERM");
    expect(await exitOf(first.child)).toBe(0);

    const db = new Database(path.join(dir, "cse.sqlite"), { readonly: true });
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();

    const second = await startMain(args);
    const c2 = new M2mClient(String(second.line.url), "Cdecoder");
    expect((await c2.retrieve("/Mobius")).body["m2m:cb"].ri).toBe(cb.ri);
    expect((await c2.retrieve("/Mobius/decoder/up/la")).body["m2m:cin"].con).toEqual({ rn: "c" });
    expect((await c2.retrieve("/Mobius/decoder/up")).body["m2m:cnt"]).toMatchObject({ cni: 2, st: 3 });
    expect((await c2.create("/Mobius/decoder/up", 4, { "m2m:cin": { rn: "c", con: "again" } })).rsc).toBe(4105);
    expect((await c2.create("/Mobius", 2, { "m2m:ae": { rn: "other", api: "Nd", rr: false, srv: ["3"] } })).rsc).toBe(
      4106,
    );
    second.child.kill("SIGINT");
    expect(await exitOf(second.child)).toBe(0);
  });

  it("refuses bad flags and a data dir of another CSE base with exit code 2", async () => {
    const bad = await run(["--port", "eighty"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--port must be a non-negative integer/);
    const profile = await run(["--profile", "acme"]);
    expect(profile.code).toBe(2);
    expect(profile.stderr).toMatch(/--profile must be one of mobius, standard, got "acme"/);
    const unknown = await run(["--colour"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/colour/);
    const dir = tempDir();
    const made = await startTestCse({ dataDir: dir });
    await made.close();
    const other = await run(["--port", "0", "--data-dir", dir, "--base", "Other"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/holds the CSE base "Mobius", not "Other"/);
  });

  it("runs the standard profile with --profile standard", async () => {
    const started = await startMain(["--port", "0", "--profile", "standard"]);
    try {
      expect(started.line).toMatchObject({ event: "listening", profile: "standard" });
      const c = new M2mClient(String(started.line.url), "Cdecoder");
      expect(
        (await c.create("/Mobius", 2, { "m2m:ae": { rn: "decoder", api: "Nd", rr: false, srv: ["3"] } })).status,
      ).toBe(201);
      // 403/4117 is the standard's answer (mobius: 409/4106)
      expect((await c.create("/Mobius", 2, { "m2m:ae": { rn: "other", api: "Nd", rr: false, srv: ["3"] } })).rsc).toBe(
        4117,
      );
    } finally {
      started.child.kill("SIGTERM");
      await exitOf(started.child);
    }
  });

  it("exits 1 with a reason when the port is taken", async () => {
    const busy = await startTestCse();
    try {
      const r = await run(["--port", String(busy.port)]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/EADDRINUSE/);
    } finally {
      await busy.close();
    }
  });
});

describe("a data dir written before AEs belonged to their AE-ID", () => {
  it("gives each AE to its AE-ID on start, so the bare C that registered it can no longer delete it", async () => {
    const dir = tempDir();
    const first = await startTestCse({ dataDir: dir });
    const made = await first
      .client("C")
      .create("/Mobius", 2, { "m2m:ae": { rn: "old", api: "No", rr: false, srv: ["3"] } });
    expect(made.status).toBe(201);
    const aei = made.body["m2m:ae"].aei as string;
    await first.close();
    // what the earlier build stored: the originator "C" as the AE's owner
    const db = new Database(path.join(dir, "cse.sqlite"));
    db.prepare("UPDATE resource SET cr = 'C' WHERE aei = ?").run(aei);
    db.close();
    const second = await startTestCse({ dataDir: dir });
    try {
      expect((await second.client("C").delete("/Mobius/old")).rsc).toBe(4103);
      expect((await second.client(aei).update("/Mobius/old", { "m2m:ae": { lbl: ["mine"] } })).rsc).toBe(2004);
    } finally {
      await second.close();
    }
  });
});

describe("database failures", () => {
  it("answers 500/5000 without leaking SQL when the database fails", async () => {
    const dir = tempDir();
    const cse = await startTestCse({ dataDir: dir });
    try {
      const c = cse.client("Cx");
      expect((await c.create("/Mobius", 2, { "m2m:ae": { rn: "x", api: "Nx", rr: false, srv: ["3"] } })).status).toBe(
        201,
      );
      // another writer breaks the schema under the running CSE
      const db = new Database(path.join(dir, "cse.sqlite"));
      db.exec("DROP TABLE label");
      db.close();
      const r = await c.create("/Mobius/x", 3, { "m2m:cnt": { rn: "c", lbl: ["a"] } });
      expect({ status: r.status, rsc: r.rsc }).toEqual({ status: 500, rsc: 5000 });
      expect(r.body["m2m:dbg"]).not.toMatch(/label|SQL/i);
      expect(cse.logged).toContainEqual(
        expect.objectContaining({ event: "error", error: expect.stringMatching(/no such table: label/) }),
      );
      // the failed create left nothing half-made
      expect((await c.retrieve("/Mobius/x/c")).status).toBe(404);
    } finally {
      await cse.close();
    }
  });
});
