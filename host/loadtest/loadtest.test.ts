// The Load Test HostApi over a real host: a run in its own process against a stub ingest endpoint
// and one against the local stack, progress events, history in SQLite, compare, export, cancel.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTestResultSchema } from "#contracts/loadtest/result.ts";
import { CSV_COLUMNS } from "#contracts/loadtest/table.ts";
import { startStub, type Stub } from "#services/loadgen/test/stub.ts";
import type { EventName } from "../api/contract.ts";
import type { LoadTestSummary } from "../api/loadtest.ts";
import { DB_FILE_NAME } from "../db/open.ts";
import { loadTestServiceOf } from "../handlers/loadtest.ts";
import { stackSupervisorOf } from "../handlers/stack.ts";
import { createHost, type Host } from "../host.ts";

let dataDir: string;
let host: Host;
let stub: Stub;
const seen: { event: EventName; payload: unknown }[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "satpayload-loadtest-host-"));
  host = createHost({ dataDir, shell: "browser", version: "test" });
  host.events.subscribe((event, payload) => seen.push({ event, payload }));
  stub = await startStub({ latencyMs: () => 5, status: (n) => (n % 50 === 7 ? 503 : 201) });
});

afterAll(async () => {
  await loadTestServiceOf(host.events)?.close();
  await stackSupervisorOf(host.events)?.close();
  host.close();
  await stub.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = <T>(method: string, req: unknown) => host.dispatch(method, req) as Promise<T>;

function finished(id: string, timeoutMs = 90_000): Promise<LoadTestSummary> {
  return new Promise((resolve, reject) => {
    const hit = seen.find((s) => s.event === "loadtest.finished" && (s.payload as LoadTestSummary).id === id);
    if (hit) return resolve(hit.payload as LoadTestSummary);
    const t = setTimeout(() => reject(new Error(`run ${id} did not finish in ${timeoutMs} ms`)), timeoutMs);
    const off = host.events.subscribe((event, payload) => {
      if (event === "loadtest.finished" && (payload as LoadTestSummary).id === id) {
        clearTimeout(t);
        off();
        resolve(payload as LoadTestSummary);
      }
    });
  });
}

const quick = { wait: { kind: "constant", seconds: 0.05 }, warmupSeconds: 0.5, spawnRate: 1000, poolSize: 200 };

describe("loadtest.* host API", () => {
  let urlRun: LoadTestSummary;

  it("runs a test in its own process, reports progress and keeps the result in history", async () => {
    const started = await call<LoadTestSummary>("loadtest.start", {
      layout: { kind: "preset", id: "paper" },
      settings: { ...quick, format: "cbor", devices: 10, durationSeconds: 2, target: { kind: "url", url: stub.url } },
    });
    expect(started.status).toBe("running");
    // one run at a time
    await expect(
      call("loadtest.start", {
        layout: { kind: "preset", id: "paper" },
        settings: { ...quick, format: "cbor", devices: 1, durationSeconds: 1, target: { kind: "url", url: stub.url } },
      }),
    ).rejects.toMatchObject({ code: "conflict" });
    const active = await call<{ run: LoadTestSummary } | null>("loadtest.active", {});
    expect(active?.run.id).toBe(started.id);
    urlRun = await finished(started.id);
    expect(urlRun.status).toBe("completed");
    expect(urlRun.rps).toBeGreaterThan(0);
    // the stub refuses one request in fifty with 503
    expect(urlRun.failurePercent).toBeGreaterThan(0);
    expect(urlRun.failurePercent).toBeLessThan(6);
    const progress = seen.filter(
      (s) => s.event === "loadtest.progress" && (s.payload as { id: string }).id === started.id,
    );
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(await call("loadtest.active", {})).toBeNull();

    const run = await call<{ result: unknown; id: string }>("loadtest.get", { id: started.id });
    const result = loadTestResultSchema.parse(run.result);
    // the throughput shown is the run's own count over its own window (no speed is asserted)
    expect(result.rps).toBeCloseTo(result.requests.measured / result.measuredSeconds, 1);
    expect(urlRun.rps).toBe(result.rps);
    expect(result.failures.http["503"]).toBeGreaterThan(0);
    expect(result.layout.id).toBe("paper");
    // stored in the projects database, where a new host finds it
    const db = new Database(path.join(dataDir, DB_FILE_NAME), { readonly: true });
    try {
      const row = db.prepare("SELECT status, result FROM loadtest_runs WHERE id = ?").get(started.id) as {
        status: string;
        result: string;
      };
      expect(row.status).toBe("completed");
      expect(JSON.parse(row.result).rps).toBe(result.rps);
    } finally {
      db.close();
    }
  }, 120_000);

  it("runs against the local stack from a project's layout", async () => {
    const project = await call<{ id: string }>("projects.create", {
      name: "fleet",
      layout: (await call<{ id: string; layout: unknown }[]>("presets.list", {})).find(
        (p) => p.id === "kineis-tracker",
      )!.layout,
    });
    const started = await call<LoadTestSummary>("loadtest.start", {
      layout: { kind: "project", id: project.id },
      settings: {
        ...quick,
        format: "bitpacked",
        devices: 8,
        durationSeconds: 2,
        target: { kind: "local", replicas: 1 },
      },
    });
    const done = await finished(started.id, 120_000);
    expect(done.status, done.error ?? "").toBe("completed");
    const run = await call<{
      result: { server: { records: number }; requests: { succeeded: number; measuredFailed: number } };
    }>("loadtest.get", { id: started.id });
    expect(run.result.requests.measuredFailed).toBe(0);
    expect(run.result.server.records).toBe(run.result.requests.succeeded);
  }, 150_000);

  it("cancels a run in progress", async () => {
    const started = await call<LoadTestSummary>("loadtest.start", {
      layout: { kind: "preset", id: "paper" },
      settings: { ...quick, format: "json", devices: 5, durationSeconds: 120, target: { kind: "url", url: stub.url } },
    });
    await new Promise<void>((resolve) => {
      const off = host.events.subscribe((event, payload) => {
        if (
          event === "loadtest.progress" &&
          (payload as { id: string; progress: { point: unknown } }).id === started.id &&
          (payload as { progress: { point: unknown } }).progress.point
        ) {
          off();
          resolve();
        }
      });
    });
    expect(await call("loadtest.cancel", { id: started.id })).toEqual({ cancelled: true });
    const done = await finished(started.id, 30_000);
    expect(done.status).toBe("cancelled");
    expect(await call("loadtest.cancel", { id: started.id })).toEqual({ cancelled: false });
  }, 60_000);

  it("lists, compares, exports and deletes runs", async () => {
    const history = await call<LoadTestSummary[]>("loadtest.history", { limit: 10 });
    expect(history.length).toBe(3);
    expect(history.map((h) => h.status)).toEqual(["cancelled", "completed", "completed"]);
    const ids = history.map((h) => h.id);
    const compared = await call<{ id: string }[]>("loadtest.compare", { ids: [ids[2], ids[1]] });
    expect(compared.map((c) => c.id)).toEqual([ids[2], ids[1]]);

    const csv = await call<{ fileName: string; content: string; mediaType: string }>("loadtest.export", {
      ids,
      format: "csv",
    });
    expect(csv.fileName).toMatch(/\.csv$/);
    const lines = csv.content.trim().split("\n");
    expect(lines[0]).toBe(CSV_COLUMNS.join(","));
    expect(lines).toHaveLength(4);
    const json = await call<{ content: string }>("loadtest.export", { ids: [urlRun.id], format: "json" });
    const parsed = JSON.parse(json.content) as { id: string; schema: string }[];
    expect(parsed[0]).toMatchObject({ id: urlRun.id, schema: "satpayload.loadtest/1" });

    expect(await call("loadtest.delete", { id: ids[0] })).toEqual({ deleted: true });
    expect((await call<LoadTestSummary[]>("loadtest.history", {})).length).toBe(2);
    await expect(call("loadtest.get", { id: ids[0] })).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses bad requests with reasons", async () => {
    await expect(
      call("loadtest.start", {
        layout: { kind: "preset", id: "paper" },
        settings: { format: "protobuf", devices: 0, durationSeconds: 1, target: { kind: "local", replicas: 1 } },
      }),
    ).rejects.toMatchObject({ code: "bad_request" });
    await expect(
      call("loadtest.start", {
        layout: { kind: "preset", id: "paper" },
        settings: {
          format: "protobuf",
          devices: 1,
          durationSeconds: 1,
          mode: "open",
          target: { kind: "local", replicas: 1 },
        },
      }),
    ).rejects.toMatchObject({
      code: "bad_request",
      issues: [expect.objectContaining({ path: "settings.arrivalRate" })],
    });
    await expect(
      call("loadtest.start", {
        layout: { kind: "preset", id: "nope" },
        settings: { format: "protobuf", devices: 1, durationSeconds: 1, target: { kind: "url", url: stub.url } },
      }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      call("loadtest.start", {
        layout: { kind: "preset", id: "paper" },
        settings: { format: "protobuf", devices: 1, durationSeconds: 1, target: { kind: "url", url: "ftp://x" } },
      }),
    ).rejects.toMatchObject({ code: "bad_request" });
  });

  it("sends to the stack the Stack page started, says so in the record, and its stats count the run", async () => {
    const project = await call<{ id: string }>("projects.create", {
      name: "on the stack",
      layout: (await call<{ id: string; layout: unknown }[]>("presets.list", {})).find(
        (p) => p.id === "kineis-tracker",
      )!.layout,
    });
    const settings = { ...quick, format: "protobuf", devices: 6, durationSeconds: 2, target: { kind: "stack" } };
    // nothing runs yet: a clear refusal rather than a private stack nobody sees
    await expect(
      call("loadtest.start", { layout: { kind: "project", id: project.id }, settings }),
    ).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(/no stack is running/) });
    const status = await call<{ endpoints: { ingest: string } }>("stack.up", { replicas: 2 });
    const before = await call<{ records: number }>("stack.stats", {});
    const started = await call<LoadTestSummary>("loadtest.start", {
      layout: { kind: "project", id: project.id },
      settings,
    });
    const stackHost = new URL(status.endpoints.ingest).host;
    expect(started.target).toBe(`running stack × 2 at ${stackHost}`);
    expect(started.replicas).toBe(2);
    const done = await finished(started.id, 120_000);
    expect(done.status, done.error ?? "").toBe("completed");
    const run = await call<{
      result: {
        targetUrl: string;
        settings: { target: unknown };
        server: { records: number };
        requests: { succeeded: number; measuredFailed: number };
      };
    }>("loadtest.get", { id: started.id });
    expect(run.result.targetUrl).toBe(status.endpoints.ingest);
    expect(run.result.settings.target).toMatchObject({
      kind: "stack",
      decoderUrl: new URL(status.endpoints.ingest).origin,
      replicas: 2,
    });
    expect(run.result.requests.succeeded).toBeGreaterThan(0);
    expect(run.result.server.records).toBe(run.result.requests.succeeded);
    // the Stack page reads the same decoder: the run's records plus the one priming message
    const after = await call<{ records: number }>("stack.stats", {});
    expect(after.records - before.records).toBe(run.result.requests.succeeded + 1);
    // the run left the stack running
    expect((await call<{ state: string }>("stack.status", {})).state).toBe("running");
    await call("stack.down", {});

    // one name: the history follows a rename of the project whose layout ran
    expect(done.layoutName).toBe("on the stack");
    await call("projects.rename", { id: project.id, name: "Container GPS tracker" });
    const listed = (await call<LoadTestSummary[]>("loadtest.history", {})).find((h) => h.id === started.id);
    expect(listed).toMatchObject({ layoutName: "Container GPS tracker", projectId: project.id });
    expect((await call<LoadTestSummary>("loadtest.get", { id: started.id })).layoutName).toBe("Container GPS tracker");
  }, 180_000);
});
