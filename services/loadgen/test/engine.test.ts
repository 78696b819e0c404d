// The generator on real threads and sockets against stub servers: Little's law with the latency and
// send lag the run measured, every request once on its device's connection, failures told apart by
// kind, the open loop's schedule, a cancel. Nothing here depends on how fast the machine is: the
// timing itself (throughput, percentiles, timeouts, ramp, stalls) is proven exactly on a virtual
// clock in generator.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLayout, presetById } from "#codecs";
import type { RunSettingsInput } from "#contracts/loadtest/spec.ts";
import { testSettings } from "./settings.ts";
import { startStub, type Stub } from "./stub.ts";
import { judgeClient, runEngine, type EngineOptions } from "../src/engine.ts";
import { buildPool, type PayloadPool } from "../src/pool.ts";

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

function run(url: string, over: Partial<RunSettingsInput>, extra: Partial<EngineOptions> = {}) {
  return runEngine({
    settings: testSettings(url, over),
    url,
    headers: { "content-type": "application/octet-stream", "x-satpayload-format": "protobuf" },
    pool,
    runTag: "t1",
    ...extra,
  });
}

describe("closed loop (Locust semantics) on real threads and sockets", () => {
  it("Little's law holds with what the run measured; every request reached the server once, one connection per device", async () => {
    const latencyS = 0.02;
    const s = await stub(() => latencyS * 1000);
    const devices = 150;
    const wait = { kind: "uniform" as const, min: 0.5, max: 1.5 };
    const meanWaitS = (wait.min + wait.max) / 2;
    const out = await run(s.url, { devices, wait, warmupSeconds: 3, durationSeconds: 15, workers: 2 });
    const rps = out.measured / out.measuredSeconds;
    const context = `rps ${rps.toFixed(1)}; latency ${JSON.stringify(out.latency)}; client ${JSON.stringify(out.client)}`;
    console.log(context);
    // one device cycle as this run measured it: answer + think time + how late the send started. A busy
    // machine lengthens the answers and the lag, and the throughput with them; the law still holds.
    const cycle = meanWaitS + out.latency.avg / 1000 + out.client.sendLagMeanMs / 1000;
    expect(Math.abs(rps / (devices / cycle) - 1), context).toBeLessThan(0.03);
    expect(out.measuredFailed).toBe(0);
    // the two threads' histograms merged: one latency per measured request
    expect(out.latency.count).toBe(out.measured);
    // the server held every answer 20 ms (Node's timers may fire up to 1 ms early): a lower bound only
    expect(out.latency.min).toBeGreaterThanOrEqual(19);
    // every request reached the server, each device kept its identity and its one connection
    expect(s.received).toBe(out.sent);
    expect(out.succeeded).toBe(out.sent);
    expect(s.devices.size).toBe(devices);
    expect(s.messageIds.size).toBe(out.sent);
    expect(s.connections).toBe(devices);
    expect(out.timeline.some((p) => p.phase === "measure")).toBe(true);
  }, 120_000);

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
    // a timeout is not counted before its time (that it ends there is proven on the virtual clock)
    expect(out.latency.max).toBeGreaterThanOrEqual(299);

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
    expect(out.sent).toBeGreaterThan(0);
    expect(s.connections).toBe(out.sent);
    expect(s.received).toBe(out.sent);
  }, 30_000);

  it("labels the ramp-up in the timeline and ends with every device stopped", async () => {
    const s = await stub(() => 2);
    const out = await run(
      s.url,
      // 2 s after the ramp: eight ticks with every device started, so a thread stalled by a busy machine still shows one
      { devices: 20, spawnRate: 10, wait: { kind: "constant", seconds: 0.1 }, warmupSeconds: 0, durationSeconds: 2 },
      { tickMs: 250 },
    );
    const ramp = out.timeline.filter((p) => p.phase === "ramp");
    expect(ramp.length).toBeGreaterThan(0);
    const active = ramp.map((p) => p.activeDevices);
    for (let i = 1; i < active.length; i++) expect(active[i]).toBeGreaterThanOrEqual(active[i - 1]!);
    expect(out.timeline.at(-1)!.activeDevices).toBe(0);
    expect(Math.max(...out.timeline.map((p) => p.activeDevices))).toBe(20);
    expect(s.devices.size).toBe(20);
  }, 30_000);
});

describe("open loop (fixed arrival rate) on real threads and sockets", () => {
  it("sends the schedule's arrivals, split over two threads, and none after its end", async () => {
    const s = await stub(() => 40);
    const out = await run(s.url, {
      mode: "open",
      arrivalRate: 200,
      devices: 100,
      warmupSeconds: 0.5,
      durationSeconds: 5,
      workers: 2,
    });
    // 200/s from t0 to the end: 1 100 arrivals. Arrivals a busy thread missed go out at once (the
    // virtual-clock test shows it), so only a stop that overtakes a thread's last due arrivals
    // shortens the count, by a few at most.
    const scheduled = 200 * 5.5;
    expect(out.sent + out.client.droppedArrivals).toBeLessThanOrEqual(scheduled);
    expect(out.sent + out.client.droppedArrivals).toBeGreaterThanOrEqual(scheduled - 10);
    expect(s.received).toBe(out.sent);
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
    // two devices held 100 ms (or longer on a busy machine) take at most 2 of every 10 arrivals
    expect(out.client.droppedArrivals).toBeGreaterThan(50);
    expect(out.client.valid).toBe(false);
    expect(out.client.reasons.join(" ")).toMatch(/devices busy/);
  }, 30_000);
});

describe("control", () => {
  it("a cancel ends the run and abandons open requests", async () => {
    const s = await stub(() => 5000);
    const ac = new AbortController();
    const out = await run(
      s.url,
      { devices: 5, durationSeconds: 60, warmupSeconds: 0 },
      { signal: ac.signal, onStart: () => setTimeout(() => ac.abort(), 500) },
    );
    // a 60 s run inside a 30 s test: only the cancel can have ended it; the 5 s answers were not waited for
    expect(out.cancelled).toBe(true);
    expect(out.abandoned).toBe(5);
    expect(out.succeeded).toBe(0);
    expect(out.measuredFailed).toBe(0);
  }, 30_000);

  it("judges the client from its own lag and schedule", () => {
    const s = testSettings("http://127.0.0.1:1/ingest", { wait: { kind: "uniform", min: 1, max: 3 } });
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
