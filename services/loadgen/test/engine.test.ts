// The generator against stub servers of known behaviour: closed-loop throughput follows
// devices / (mean wait + latency), percentiles follow a known latency distribution, failures are
// told apart by kind, open loop keeps its arrival rate, a cancel ends a run at once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLayout, presetById } from "#codecs";
import { startStub, type Stub } from "./stub.ts";
import { judgeClient, runEngine, type EngineOptions } from "../src/engine.ts";
import { buildPool, type PayloadPool } from "../src/pool.ts";
import { runSettingsSchema, type RunSettingsInput } from "../src/spec.ts";

const layout = parseLayout(presetById("paper")!.layout);
let pool: PayloadPool;
const stubs: Stub[] = [];

beforeAll(() => {
  pool = buildPool(layout, "protobuf", 500, 1);
});
afterAll(async () => {
  for (const s of stubs) await s.close();
});

async function stub(latencyMs: (n: number) => number, status?: (n: number) => number): Promise<Stub> {
  const s = await startStub({ latencyMs, ...(status ? { status } : {}) });
  stubs.push(s);
  return s;
}

function settings(url: string, over: Partial<RunSettingsInput>) {
  return runSettingsSchema.parse({
    format: "protobuf",
    devices: 10,
    durationSeconds: 2,
    warmupSeconds: 0.5,
    spawnRate: 1000,
    workers: 1,
    target: { kind: "url", url },
    ...over,
  });
}

function run(url: string, over: Partial<RunSettingsInput>, extra: Partial<EngineOptions> = {}) {
  return runEngine({
    settings: settings(url, over),
    url,
    headers: { "content-type": "application/octet-stream", "x-satpayload-format": "protobuf" },
    pool,
    runTag: "t1",
    ...extra,
  });
}

describe("closed loop (Locust semantics)", () => {
  it("throughput is devices / (mean wait + latency), from the configured wait and latency, within 4 %", async () => {
    const latencyS = 0.02;
    const s = await stub(() => latencyS * 1000);
    // waits of about a second: a client delayed by a loaded CPU (tens of ms per cycle) still offers
    // within a few percent of the nominal load, so the figure is checked on every run, valid or not
    const devices = 150;
    const wait = { kind: "uniform" as const, min: 0.5, max: 1.5 };
    const meanWaitS = (wait.min + wait.max) / 2;
    const out = await run(s.url, { devices, wait, warmupSeconds: 3, durationSeconds: 15 });
    const rps = out.measured / out.measuredSeconds;
    const nominal = devices / (meanWaitS + latencyS);
    const context = `rps ${rps.toFixed(1)} vs nominal ${nominal.toFixed(1)}; latency ${JSON.stringify(out.latency)}; client ${JSON.stringify(out.client)}`;
    console.log(context);
    expect(Math.abs(rps / nominal - 1), context).toBeLessThan(0.04);
    // Little's law over one device cycle with what the run measured: answer + think time + how late the send started
    const cycle = meanWaitS + out.latency.avg / 1000 + out.client.sendLagMeanMs / 1000;
    expect(Math.abs(rps / (devices / cycle) - 1), context).toBeLessThan(0.03);
    expect(out.measuredFailed).toBe(0);
    // Node's timers run on a millisecond clock and may fire up to 1 ms early
    expect(out.latency.min).toBeGreaterThanOrEqual(19);
    // every request reached the server, each device kept its identity and its one connection
    expect(s.received).toBe(out.sent);
    expect(out.succeeded).toBe(out.sent);
    expect(s.devices.size).toBe(devices);
    expect(s.messageIds.size).toBe(out.sent);
    expect(s.connections).toBe(devices);
    expect(out.timeline.filter((p) => p.phase === "measure").length).toBeGreaterThanOrEqual(13);
  }, 90_000);

  it("percentiles follow the server's latency distribution, U(10, 50) ms", async () => {
    // a low-discrepancy sequence: the n-th answer waits 10 + 40·frac(n·φ) ms, uniform over [10, 50)
    const phi = (Math.sqrt(5) - 1) / 2;
    const s = await stub((n) => 10 + 40 * ((n * phi) % 1));
    const out = await run(s.url, {
      devices: 40,
      wait: { kind: "constant", seconds: 0.05 },
      warmupSeconds: 1,
      durationSeconds: 8,
    });
    const l = out.latency;
    expect(l.count).toBeGreaterThan(2000);
    // the server's share is known (its timers may fire up to 1 ms early); the client and loopback add
    // a little to every answer, more on a busy machine
    const overhead = l.p50 - 30;
    expect(overhead).toBeGreaterThanOrEqual(-1);
    expect(overhead).toBeLessThan(10);
    expect(l.min).toBeGreaterThanOrEqual(9);
    // a generator that fell behind (the machine stalled it) shifts every answer, the fastest too
    const stall = out.client.valid ? 0 : 30;
    expect(l.min).toBeLessThan(10 + Math.max(3, overhead) + stall);
    if (out.client.valid) expect(l.avg - overhead).toBeCloseTo(30, -0.5);
    // the shape does not depend on the overhead: p95 − p50 = 18 ms, p99 − p50 = 19.6 ms for U(10, 50)
    expect(Math.abs(l.p95 - l.p50 - 18)).toBeLessThan(2.5);
    expect(l.p99 - l.p50).toBeGreaterThan(19.6 - 2);
    // the far tail also holds the machine's scheduling hiccups; tight only when the generator kept up
    expect(l.p99 - l.p50).toBeLessThan(19.6 + (out.client.valid ? 3 : 10));
    expect(l.max).toBeGreaterThanOrEqual(49.5);
  }, 60_000);

  it("tells failures apart: HTTP status, timeout, connection", async () => {
    const s = await stub(
      (n) => (n % 10 === 5 ? 1500 : 2),
      (n) => (n % 10 === 3 ? 503 : 201),
    );
    const out = await run(s.url, {
      devices: 10,
      wait: { kind: "constant", seconds: 0.02 },
      timeoutMs: 300,
      warmupSeconds: 0,
      durationSeconds: 2,
    });
    expect(out.failures.http["503"]).toBeGreaterThan(0);
    expect(out.failures.timeout).toBeGreaterThan(0);
    expect(out.failures.connection).toBe(0);
    expect(Object.keys(out.failures.http)).toEqual(["503"]);
    expect(out.measuredFailed).toBe(out.failures.http["503"]! + out.failures.timeout);
    // timeouts end at the timeout, not when the server finally answers
    expect(out.latency.max).toBeLessThan(700);

    const closed = await stub(() => 1);
    const url = closed.url;
    await closed.close();
    stubs.splice(stubs.indexOf(closed), 1);
    const refused = await run(url, {
      devices: 3,
      wait: { kind: "constant", seconds: 0.05 },
      warmupSeconds: 0,
      durationSeconds: 1,
    });
    expect(refused.failures.connection).toBeGreaterThan(0);
    expect(refused.measuredFailed).toBe(refused.failures.connection);
  }, 60_000);

  it("opens a new connection per request when told to", async () => {
    const s = await stub(() => 2);
    const out = await run(s.url, {
      devices: 5,
      connection: "close",
      wait: { kind: "constant", seconds: 0.05 },
      warmupSeconds: 0,
      durationSeconds: 1,
    });
    expect(out.sent).toBeGreaterThan(20);
    expect(s.connections).toBe(out.sent);
  }, 30_000);

  it("ramps devices up at the spawn rate", async () => {
    const s = await stub(() => 2);
    const out = await run(
      s.url,
      { devices: 20, spawnRate: 10, wait: { kind: "constant", seconds: 0.1 }, warmupSeconds: 0, durationSeconds: 0.5 },
      { tickMs: 250 },
    );
    const ramp = out.timeline.filter((p) => p.phase === "ramp");
    // 20 devices at 10/s take 1.9 s; a quarter-second tick sees them arrive a few at a time
    expect(ramp.length).toBeGreaterThanOrEqual(6);
    const active = ramp.map((p) => p.activeDevices);
    expect(active[0]).toBeLessThanOrEqual(5);
    for (let i = 1; i < active.length; i++) expect(active[i]).toBeGreaterThanOrEqual(active[i - 1]!);
    expect(out.timeline.at(-1)!.activeDevices).toBe(0);
    expect(Math.max(...out.timeline.map((p) => p.activeDevices))).toBe(20);
  }, 30_000);
});

describe("open loop (fixed arrival rate)", () => {
  it("keeps the arrival rate whatever the latency", async () => {
    const s = await stub(() => 40);
    const out = await run(s.url, {
      mode: "open",
      arrivalRate: 200,
      devices: 100,
      warmupSeconds: 0.5,
      durationSeconds: 5,
    });
    const rps = out.measured / out.measuredSeconds;
    expect(Math.abs(rps / 200 - 1)).toBeLessThan(0.03);
    expect(out.client.droppedArrivals).toBe(0);
    expect(out.measuredFailed).toBe(0);
  }, 30_000);

  it("flags the run invalid when arrivals find every device busy", async () => {
    const s = await stub(() => 100);
    const out = await run(s.url, {
      mode: "open",
      arrivalRate: 100,
      devices: 2,
      warmupSeconds: 0,
      durationSeconds: 1.5,
    });
    expect(out.client.droppedArrivals).toBeGreaterThan(50);
    expect(out.client.valid).toBe(false);
    expect(out.client.reasons.join(" ")).toMatch(/devices busy/);
  }, 30_000);
});

describe("control", () => {
  it("a cancel ends the run at once and abandons open requests", async () => {
    const s = await stub(() => 5000);
    const ac = new AbortController();
    let t = 0;
    const out = await run(
      s.url,
      { devices: 5, durationSeconds: 60, warmupSeconds: 0 },
      {
        signal: ac.signal,
        onStart: () => {
          t = Date.now();
          setTimeout(() => ac.abort(), 500);
        },
      },
    );
    expect(out.cancelled).toBe(true);
    expect(Date.now() - t).toBeLessThan(8000);
    expect(out.abandoned).toBe(5);
    expect(out.measuredFailed).toBe(0);
  }, 30_000);

  it("judges the client from its own lag and schedule", () => {
    const s = settings("http://127.0.0.1:1/ingest", { wait: { kind: "uniform", min: 1, max: 3 } });
    const base = {
      workers: 1,
      eventLoopLagP99Ms: 1,
      eventLoopLagMaxMs: 3,
      sendLagMeanMs: 1,
      sendLagP95Ms: 2,
      sendLagMaxMs: 5,
      droppedArrivals: 0,
    };
    expect(judgeClient(s, base).valid).toBe(true);
    expect(judgeClient(s, { ...base, eventLoopLagP99Ms: 45 }).reasons[0]).toMatch(/event loop lagged 45\.0 ms/);
    // 2 % of a 2 s mean wait is 40 ms
    expect(judgeClient(s, { ...base, sendLagP95Ms: 39 }).valid).toBe(true);
    expect(judgeClient(s, { ...base, sendLagP95Ms: 41 }).valid).toBe(false);
  });
});
