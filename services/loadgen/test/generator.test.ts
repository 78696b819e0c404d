// The generator's timing on a virtual clock (vitest's fake timers) against a simulated server whose
// answers take exactly the time the test chooses: closed-loop throughput is devices / (wait +
// latency), percentiles are the server's latency distribution, open loop keeps its schedule,
// timeouts end at the timeout, the ramp follows the spawn rate, a cancel ends at once, and a thread
// stalled by a busy machine shows as send lag. Every figure is exact and cannot depend on the
// machine's load; engine.test.ts runs the same code on real threads and sockets.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { parseLayout, presetById } from "#codecs";
import type { LatencySummary } from "#contracts/loadtest/result.ts";
import { rampSeconds, type RunSettingsInput } from "#contracts/loadtest/spec.ts";
import { testSettings } from "./settings.ts";
import { createGenerator, type Clock } from "../src/generator.ts";
import { mergeEncoded, newHistogram, summarize } from "../src/histogram.ts";
import { buildPool, type PayloadPool } from "../src/pool.ts";
import type { FinalMessage, TickMessage, WorkerInit } from "../src/protocol.ts";
import type { Outcome, Sender } from "../src/transports.ts";

let pool: PayloadPool;
beforeAll(() => {
  pool = buildPool(parseLayout(presetById("paper")!.layout), "protobuf", 200, 1);
});
beforeEach(() => {
  vi.useFakeTimers({ now: 1_700_000_000_000 });
});
afterEach(() => {
  vi.useRealTimers();
});

const clock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (t) => clearTimeout(t),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (t) => clearInterval(t),
};

/** A server on the virtual clock: the n-th request is answered after `latencyMs(n)` with `answer(n)`. */
interface Server {
  latencyMs: (n: number) => number;
  answer?: (n: number) => Outcome;
}

interface VirtualRun {
  final: FinalMessage;
  ticks: TickMessage[];
  latency: LatencySummary;
  sendLag: LatencySummary;
  measureSeconds: number;
  received: number;
  devices: Set<string>;
  ids: Set<string>;
  /** sends the server saw, with the virtual time they arrived */
  arrivals: number[];
  opened: number;
  closed: number;
}

/** Mulberry32: think times the test can reproduce */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const toSummary = (encoded: string): LatencySummary => {
  const h = newHistogram();
  mergeEncoded(h, encoded);
  const s = summarize(h);
  h.destroy();
  return s;
};

async function runVirtual(
  over: Partial<RunSettingsInput>,
  server: Server,
  opts: {
    tickMs?: number;
    random?: () => number;
    /** virtual ms after the start at which to stop (default: the schedule's end) */
    stopAfterMs?: number;
    graceMs?: number;
    /** before the run: freeze the thread for `ms` at `atMs` after the start (timers fire late, as on a busy machine) */
    stall?: { atMs: number; ms: number };
  } = {},
): Promise<VirtualRun> {
  const s = testSettings("http://127.0.0.1:1/ingest", over);
  const init: WorkerInit = {
    index: 0,
    count: 1,
    transport: "http",
    url: "http://127.0.0.1:1/ingest",
    headers: {},
    data: pool.data,
    offsets: pool.offsets,
    stride: pool.stride,
    mode: s.mode,
    devices: Array.from({ length: s.devices }, (_, i) => i),
    arrivalRate: s.arrivalRate ?? 0,
    wait: s.wait,
    spawnRate: s.spawnRate,
    connection: s.connection,
    timeoutMs: s.timeoutMs,
    runTag: "v",
    tickMs: opts.tickMs ?? 1000,
  };
  const run = {
    ticks: [] as TickMessage[],
    received: 0,
    devices: new Set<string>(),
    ids: new Set<string>(),
    arrivals: [] as number[],
    opened: 0,
    closed: 0,
  };
  let final: FinalMessage | undefined;
  const t0 = Date.now() + 100;
  const sender = (): Sender => ({
    send(m) {
      const n = run.received++;
      run.devices.add(m.device);
      run.ids.add(m.messageId);
      run.arrivals.push(Date.now() - t0);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = new Promise<Outcome | null>((resolve) => {
        timer = setTimeout(() => resolve(server.answer?.(n) ?? { kind: "ok" }), server.latencyMs(n));
      });
      return { done, abort: () => clearTimeout(timer) };
    },
    close: () => void run.closed++,
  });
  const gen = createGenerator(init, {
    clock,
    openSender: () => {
      run.opened++;
      return sender();
    },
    post: (m) => (m.type === "tick" ? run.ticks.push(m) : (final = m)),
    loopLag: () => ({ p99Ms: 0, maxMs: 0 }),
    random: opts.random ?? seeded(7),
  });
  const measureStart = t0 + (rampSeconds(s) + s.warmupSeconds) * 1000;
  const measureEnd = measureStart + s.durationSeconds * 1000;
  gen.start({ type: "start", t0, measureStart, measureEnd });
  const stopAt = t0 + (opts.stopAfterMs ?? measureEnd - t0);
  if (opts.stall) {
    await vi.advanceTimersByTimeAsync(t0 + opts.stall.atMs - Date.now());
    // the clock moves on while no timer runs: the thread was not scheduled
    vi.setSystemTime(Date.now() + opts.stall.ms);
  }
  await vi.advanceTimersByTimeAsync(Math.max(0, stopAt - Date.now()));
  const stopped = gen.stop(opts.graceMs ?? 5000);
  await vi.advanceTimersByTimeAsync((opts.graceMs ?? 5000) + 1);
  await stopped;
  expect(final, "the final report").toBeDefined();
  return {
    ...run,
    final: final!,
    latency: toSummary(final!.measuredHist),
    sendLag: toSummary(final!.sendLagHist),
    measureSeconds: (Math.min(stopAt, measureEnd) - measureStart) / 1000,
  };
}

describe("closed loop on a virtual clock", () => {
  it("throughput is devices / (mean wait + latency): 150 devices, U(0.5, 1.5) s, 20 ms server", async () => {
    const waits: number[] = [];
    const rnd = seeded(11);
    const r = await runVirtual(
      { devices: 150, wait: { kind: "uniform", min: 0.5, max: 1.5 }, warmupSeconds: 3, durationSeconds: 15 },
      { latencyMs: () => 20 },
      {
        random: () => {
          const u = rnd();
          waits.push(0.5 + u);
          return u;
        },
      },
    );
    const rps = r.final.measured / r.measureSeconds;
    const meanWait = waits.reduce((a, b) => a + b, 0) / waits.length;
    // the configured mean and the mean of the waits actually drawn, with the server's 20 ms
    expect(Math.abs(rps / (150 / (1 + 0.02)) - 1), `rps ${rps}`).toBeLessThan(0.02);
    expect(Math.abs(rps / (150 / (meanWait + 0.02)) - 1), `rps ${rps}, mean wait ${meanWait}`).toBeLessThan(0.01);
    // every answer took exactly the server's time; no send started late
    expect(r.latency.min).toBe(20);
    expect(r.latency.max).toBeCloseTo(20, 1);
    expect(r.sendLag.max).toBeLessThanOrEqual(0.001);
    expect(r.final.measuredFailed).toBe(0);
    expect(r.final.succeeded).toBe(r.final.sent);
    expect(r.received).toBe(r.final.sent);
    expect(r.ids.size).toBe(r.final.sent);
    // each device its identity and its one connection, opened once and closed at the end
    expect(r.devices.size).toBe(150);
    expect(r.opened).toBe(150);
    expect(r.closed).toBe(150);
  });

  it("percentiles are the server's latency distribution, uniform over 10–49 ms", async () => {
    // a low-discrepancy sequence: the n-th answer waits 10 + ⌊40·frac(n·φ)⌋ ms
    const phi = (Math.sqrt(5) - 1) / 2;
    const r = await runVirtual(
      { devices: 40, wait: { kind: "constant", seconds: 0.05 }, warmupSeconds: 1, durationSeconds: 8 },
      { latencyMs: (n) => 10 + Math.floor(40 * ((n * phi) % 1)) },
    );
    const l = r.latency;
    expect(l.count).toBeGreaterThan(3000);
    expect(l.min).toBe(10);
    expect(l.max).toBeCloseTo(49, 1);
    // 40 equally likely values 10 … 49: the median is 29, p95 47 or 48 (95 % falls on the edge
    // between them), p99 49, the mean 29.5 (HDR keeps 3 digits)
    expect(l.p50).toBeCloseTo(29, 1);
    expect(l.p95).toBeGreaterThanOrEqual(47);
    expect(l.p95).toBeLessThan(48.05);
    expect(l.p99).toBeCloseTo(49, 1);
    expect(l.avg).toBeCloseTo(29.5, 0);
  });

  it("ramps devices up at the spawn rate", async () => {
    const r = await runVirtual(
      { devices: 20, spawnRate: 10, wait: { kind: "constant", seconds: 0.1 }, warmupSeconds: 0, durationSeconds: 0.5 },
      { latencyMs: () => 2 },
      { tickMs: 250 },
    );
    // device k starts at k / 10 s (measured from t0, which is 100 ms after the first tick's start)
    const active = r.ticks.slice(0, 8).map((t) => t.active);
    expect(active).toEqual([2, 4, 7, 9, 12, 14, 17, 19]);
    expect(Math.max(...r.ticks.map((t) => t.active))).toBe(20);
    expect(r.ticks.at(-1)!.active).toBe(0);
  });

  it("a stalled thread shows as send lag, and the devices go on from there", async () => {
    const r = await runVirtual(
      { devices: 10, wait: { kind: "constant", seconds: 0.1 }, warmupSeconds: 0.5, durationSeconds: 4 },
      { latencyMs: () => 5 },
      { stall: { atMs: 2000, ms: 300 } },
    );
    // every device was asleep when the thread froze: each woke 300 ms late (minus what was left of its wait)
    expect(r.sendLag.max).toBeGreaterThan(195);
    expect(r.sendLag.max).toBeLessThanOrEqual(300.5);
    // 4 s of 105 ms cycles with one 300 ms hole per device
    const cycles = Math.floor((4000 - 300) / 105);
    expect(r.final.measured).toBeGreaterThanOrEqual(10 * (cycles - 2));
    expect(r.final.measured).toBeLessThanOrEqual(10 * (cycles + 2));
  });
});

describe("failures on a virtual clock", () => {
  it("tells HTTP status, timeout and connection apart; a timeout ends at the timeout", async () => {
    const r = await runVirtual(
      { devices: 10, wait: { kind: "constant", seconds: 0.02 }, timeoutMs: 300, warmupSeconds: 0, durationSeconds: 2 },
      {
        latencyMs: (n) => (n % 10 === 5 ? 1500 : 2),
        answer: (n) =>
          n % 10 === 3 ? { kind: "http", status: 503 } : n % 10 === 7 ? { kind: "connection" } : { kind: "ok" },
      },
    );
    const f = r.final.measuredFailures;
    expect(Object.keys(f.http)).toEqual(["503"]);
    expect(f.http["503"]).toBeGreaterThan(0);
    expect(f.timeout).toBeGreaterThan(0);
    expect(f.connection).toBeGreaterThan(0);
    expect(r.final.measuredFailed).toBe(f.http["503"]! + f.timeout + f.connection);
    // the slow answers were given up at exactly 300 ms, the server's 1 500 ms never counted
    expect(r.latency.max).toBeCloseTo(300, 0);
    // every tenth request of the server's count was slow; each became a timeout (some outside the window)
    expect(r.final.sent - r.final.succeeded).toBe(
      Array.from({ length: r.received }, (_, n) => n % 10 === 3 || n % 10 === 5 || n % 10 === 7).filter(Boolean).length,
    );
  });

  it("a cancel ends the run at once and abandons the requests in flight", async () => {
    const r = await runVirtual(
      { devices: 5, durationSeconds: 60, warmupSeconds: 0 },
      { latencyMs: () => 5000 },
      { stopAfterMs: 500, graceMs: 0 },
    );
    expect(r.final.sent).toBe(5);
    expect(r.final.abandoned).toBe(5);
    expect(r.final.succeeded).toBe(0);
    expect(r.final.measuredFailed).toBe(0);
    // the final report came within the 1 ms the test advanced after the stop, not after the server's 5 s
    expect(r.ticks.at(-1)!.at - 1_700_000_000_000).toBeLessThan(100 + 500 + 2);
  });
});

describe("open loop on a virtual clock", () => {
  it("keeps the arrival rate whatever the latency: 200/s for 5 s is 1 000 measured", async () => {
    for (const latency of [1, 40, 400]) {
      const r = await runVirtual(
        { mode: "open", arrivalRate: 200, devices: 100, warmupSeconds: 0.5, durationSeconds: 5 },
        { latencyMs: () => latency },
      );
      // arrivals every 5 ms from t0 to the end of the schedule, none after it
      expect(r.final.sent, `${latency} ms`).toBe(200 * 5.5);
      expect(r.arrivals.every((t, k) => t === k * 5)).toBe(true);
      // answered inside the window: the arrivals of [warm-up end − latency, end − latency)
      expect(r.final.measured, `${latency} ms`).toBe(1000);
      expect(r.final.dropped).toBe(0);
      expect(r.sendLag.max).toBeLessThanOrEqual(0.001);
    }
  });

  it("arrivals a stalled thread missed are sent at once, late by the stall: the count follows the schedule", async () => {
    const r = await runVirtual(
      { mode: "open", arrivalRate: 100, devices: 100, warmupSeconds: 0, durationSeconds: 3 },
      { latencyMs: () => 10 },
      { stall: { atMs: 1000, ms: 400 } },
    );
    expect(r.final.sent).toBe(300);
    // the thread froze at 1 000 ms for 400 ms: its next timer (due 1 010) ran at 1 410, and the 41
    // arrivals due from 1 010 to 1 410 went out together; the schedule went on from there
    expect(r.arrivals.slice(101, 143)).toEqual([...Array<number>(41).fill(1410), 1420]);
    expect(r.sendLag.max).toBeCloseTo(400, 0);
  });

  it("a stop that overtakes a stalled thread's timers still sends the arrivals due before the end", async () => {
    const r = await runVirtual(
      { mode: "open", arrivalRate: 100, devices: 100, warmupSeconds: 0, durationSeconds: 3 },
      { latencyMs: () => 10 },
      { stall: { atMs: 2900, ms: 300 } },
    );
    // frozen after the arrival due at 2 900 ms until past the end: the stop came before any timer ran again
    expect(r.final.sent).toBe(300);
    expect(r.arrivals.slice(290)).toEqual([2900, ...Array<number>(9).fill(3200)]);
  });

  it("counts arrivals that find every device busy, and sends none of them later", async () => {
    const r = await runVirtual(
      { mode: "open", arrivalRate: 100, devices: 2, warmupSeconds: 0, durationSeconds: 1.5 },
      { latencyMs: () => 100 },
    );
    // two devices busy 100 ms each take 2 of every 10 arrivals
    expect(r.final.sent + r.final.dropped).toBe(150);
    expect(r.final.sent).toBe(30);
    expect(r.final.dropped).toBe(120);
  });
});
