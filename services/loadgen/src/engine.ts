// The generator: starts the threads, hands out devices, keeps time, merges the threads' reports into
// the timeline and the measured summary, and judges whether the client kept up.
import os from "node:os";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import type { Histogram } from "hdr-histogram-js";
import type { ClientHealth, LatencySummary, TimelinePoint } from "#contracts/loadtest/result.ts";
import { meanWaitSeconds, rampSeconds, type RunSettings } from "#contracts/loadtest/spec.ts";
import { mergeEncoded, newHistogram, summarize } from "./histogram.ts";
import type { PayloadPool } from "./pool.ts";
import {
  addFailures,
  emptyFailures,
  failureTotal,
  type FailureCounts,
  type FinalMessage,
  type FromWorker,
  type TickMessage,
  type ToWorker,
  type WorkerInit,
} from "./protocol.ts";

export interface EngineTick {
  point: TimelinePoint;
  sent: number;
  failures: number;
  elapsedSeconds: number;
}

export interface EngineOptions {
  settings: RunSettings;
  /** where every request is POSTed */
  url: string;
  headers: Record<string, string>;
  pool: PayloadPool;
  runTag: string;
  signal?: AbortSignal | undefined;
  onTick?: ((t: EngineTick) => void) | undefined;
  /** the schedule, once fixed (wall-clock ms) */
  onStart?: ((times: { t0: number; measureStart: number; measureEnd: number }) => void) | undefined;
  tickMs?: number;
}

export interface EngineOutcome {
  cancelled: boolean;
  /** wall-clock ms */
  t0: number;
  measureStart: number;
  measureEnd: number;
  measuredSeconds: number;
  latency: LatencySummary;
  failures: FailureCounts;
  measured: number;
  measuredFailed: number;
  sent: number;
  succeeded: number;
  abandoned: number;
  timeline: TimelinePoint[];
  client: ClientHealth;
}

export class EngineError extends Error {
  override readonly name = "EngineError";
}

const now = () => performance.timeOrigin + performance.now();

/** Generator threads: half the cores (the rest are the server's on a shared machine), 1..4. */
export function defaultWorkerCount(settings: Pick<RunSettings, "workers" | "devices">): number {
  if (settings.workers > 0) return Math.min(settings.workers, settings.devices);
  return Math.max(1, Math.min(4, Math.floor(os.availableParallelism() / 2), settings.devices));
}

/** Above these the generator, not the server, shaped the numbers. */
export const SATURATION = {
  eventLoopLagP99Ms: 20,
  sendLagP95MinMs: 10,
  /** of the mean think time: a send this late lowers the offered load by that share */
  sendLagP95ShareOfWait: 0.02,
} as const;

export function judgeClient(settings: RunSettings, h: Omit<ClientHealth, "valid" | "reasons">): ClientHealth {
  const reasons: string[] = [];
  if (h.eventLoopLagP99Ms > SATURATION.eventLoopLagP99Ms)
    reasons.push(
      `the generator's event loop lagged ${h.eventLoopLagP99Ms.toFixed(1)} ms (p99 of a tick; limit ${SATURATION.eventLoopLagP99Ms} ms): add workers or cores`,
    );
  const sendLimit =
    settings.mode === "closed"
      ? Math.max(SATURATION.sendLagP95MinMs, meanWaitSeconds(settings.wait) * 1000 * SATURATION.sendLagP95ShareOfWait)
      : SATURATION.sendLagP95MinMs;
  if (h.sendLagP95Ms > sendLimit)
    reasons.push(
      `sends started ${h.sendLagP95Ms.toFixed(1)} ms late (p95; limit ${sendLimit.toFixed(0)} ms): the generator could not keep its schedule`,
    );
  if (h.droppedArrivals > 0)
    reasons.push(
      `${h.droppedArrivals} arrivals found all ${settings.devices} devices busy and were not sent: raise devices (the in-flight cap)`,
    );
  return { ...h, valid: reasons.length === 0, reasons };
}

export async function runEngine(o: EngineOptions): Promise<EngineOutcome> {
  const s = o.settings;
  const tickMs = o.tickMs ?? 1000;
  const count = defaultWorkerCount(s);
  const workerUrl = new URL("./workerEntry.mjs", import.meta.url);
  const workers: Worker[] = [];
  const finals: (FinalMessage | undefined)[] = new Array(count).fill(undefined);
  const ticks = new Map<number, TickMessage[]>();
  const latestTick: (TickMessage | undefined)[] = new Array(count).fill(undefined);
  const timeline: TimelinePoint[] = [];
  let failure: Error | undefined;
  let t0 = 0;
  let measureStart = 0;
  let measureEnd = 0;
  let stoppedAt = 0;
  const ramp = rampSeconds(s);
  let lagP99 = 0;
  let lagMax = 0;

  const phaseAt = (at: number): TimelinePoint["phase"] => {
    if (stoppedAt && at >= stoppedAt) return "drain";
    if (at < t0 + ramp * 1000) return "ramp";
    if (at < measureStart) return "warmup";
    if (at < measureEnd) return "measure";
    return "drain";
  };

  const onTick = (w: number, m: TickMessage) => {
    latestTick[w] = m;
    const list = ticks.get(m.seq) ?? [];
    list.push(m);
    ticks.set(m.seq, list);
    if (list.length < workers.length) return;
    ticks.delete(m.seq);
    const hist = newHistogram();
    let completed = 0;
    let failed = 0;
    for (const t of list) {
      completed += t.completed;
      failed += t.failed;
      mergeEncoded(hist, t.hist);
    }
    const at = Math.max(...list.map((t) => t.at));
    const phase = phaseAt(at - tickMs / 2);
    if (phase === "measure") {
      lagP99 = Math.max(lagP99, ...list.map((t) => t.lagP99Ms));
      lagMax = Math.max(lagMax, ...list.map((t) => t.lagMaxMs));
    }
    const point: TimelinePoint = {
      t: Math.round((at - t0) / 10) / 100,
      phase,
      rps: Math.round((completed / (Math.max(1, ...list.map((t) => t.intervalMs)) / 1000)) * 10) / 10,
      p95: hist.totalCount ? Math.round(hist.getValueAtPercentile(95) / 10) / 100 : null,
      failures: failed,
      inFlight: latestTick.reduce((n, t) => n + (t?.inFlight ?? 0), 0),
      activeDevices: latestTick.reduce((n, t) => n + (t?.active ?? 0), 0),
    };
    hist.destroy();
    timeline.push(point);
    o.onTick?.({
      point,
      sent: latestTick.reduce((n, t) => n + (t?.sent ?? 0), 0),
      failures: timeline.reduce((n, p) => n + p.failures, 0),
      elapsedSeconds: (at - t0) / 1000,
    });
  };

  const perWorker: number[][] = Array.from({ length: count }, () => []);
  for (let d = 0; d < s.devices; d++) perWorker[d % count]!.push(d);
  const exited: Promise<void>[] = [];
  const ready: Promise<void>[] = [];
  const finalsIn: Promise<void>[] = [];
  for (let w = 0; w < count; w++) {
    const init: WorkerInit = {
      index: w,
      count,
      transport: s.transport,
      url: o.url,
      headers: o.headers,
      data: o.pool.data,
      offsets: o.pool.offsets,
      stride: o.pool.stride,
      mode: s.mode,
      devices: perWorker[w]!,
      arrivalRate: (s.arrivalRate ?? 0) / count,
      wait: s.wait,
      spawnRate: s.spawnRate,
      connection: s.connection,
      timeoutMs: s.timeoutMs,
      runTag: o.runTag,
      tickMs,
    };
    const worker = new Worker(workerUrl, { workerData: init, execArgv: [] });
    workers.push(worker);
    let onReady!: () => void;
    let onFinal!: () => void;
    ready.push(new Promise((r) => (onReady = r)));
    finalsIn.push(new Promise((r) => (onFinal = r)));
    worker.on("message", (m: FromWorker) => {
      if (m.type === "ready") onReady();
      else if (m.type === "tick") onTick(w, m);
      else if (m.type === "final") {
        finals[w] = m;
        onFinal();
      } else if (m.type === "error") failure ??= new EngineError(`generator thread ${w} failed: ${m.message}`);
    });
    exited.push(
      new Promise((resolve) =>
        worker.once("exit", (code) => {
          if (!finals[w]) failure ??= new EngineError(`generator thread ${w} exited (${code}) before reporting`);
          onReady();
          onFinal();
          resolve();
        }),
      ),
    );
    worker.on("error", (e) => {
      failure ??= new EngineError(`generator thread ${w} failed: ${e.message}`);
    });
  }

  const terminate = async () => {
    await Promise.all(workers.map((w) => w.terminate().catch(() => 0)));
    await Promise.all(exited);
  };

  await Promise.all(ready);
  if (failure) {
    await terminate();
    throw failure;
  }
  // a short lead so every thread has the start message before the first device is due
  t0 = now() + 100;
  measureStart = t0 + (ramp + s.warmupSeconds) * 1000;
  measureEnd = measureStart + s.durationSeconds * 1000;
  for (const w of workers) w.postMessage({ type: "start", t0, measureStart, measureEnd } satisfies ToWorker);
  o.onStart?.({ t0, measureStart, measureEnd });

  const cancelled = await new Promise<boolean>((resolve) => {
    if (o.signal?.aborted) return resolve(true);
    const timer = setTimeout(() => done(false), Math.max(0, measureEnd - now()));
    const watchdog = setInterval(() => failure && done(false), 250);
    const onAbort = () => done(true);
    function done(c: boolean) {
      clearTimeout(timer);
      clearInterval(watchdog);
      o.signal?.removeEventListener("abort", onAbort);
      resolve(c);
    }
    o.signal?.addEventListener("abort", onAbort, { once: true });
  });
  stoppedAt = now();
  // the last sends get their answers (up to a few seconds) so counts match the server's; a cancel waits for nothing
  const graceMs = cancelled ? 0 : Math.min(s.timeoutMs, 5000);
  for (const w of workers) w.postMessage({ type: "stop", graceMs } satisfies ToWorker);
  const late = setTimeout(() => void terminate(), graceMs + 15_000);
  await Promise.all(finalsIn);
  clearTimeout(late);
  await Promise.all(exited);
  if (failure) throw failure;

  const measured: Histogram = newHistogram();
  const sendLag: Histogram = newHistogram();
  const failures = emptyFailures();
  let nMeasured = 0;
  let nMeasuredFailed = 0;
  let sent = 0;
  let succeeded = 0;
  let abandoned = 0;
  let dropped = 0;
  for (const f of finals as FinalMessage[]) {
    mergeEncoded(measured, f.measuredHist);
    mergeEncoded(sendLag, f.sendLagHist);
    addFailures(failures, f.measuredFailures);
    nMeasured += f.measured;
    nMeasuredFailed += f.measuredFailed;
    sent += f.sent;
    succeeded += f.succeeded;
    abandoned += f.abandoned;
    dropped += f.dropped;
  }
  const measuredSeconds = Math.max(0, Math.min(stoppedAt, measureEnd) - measureStart) / 1000;
  const client = judgeClient(s, {
    workers: count,
    eventLoopLagP99Ms: round2(lagP99),
    eventLoopLagMaxMs: round2(lagMax),
    sendLagMeanMs: sendLag.totalCount ? round2(sendLag.mean / 1000) : 0,
    sendLagP95Ms: sendLag.totalCount ? round2(sendLag.getValueAtPercentile(95) / 1000) : 0,
    sendLagMaxMs: sendLag.totalCount ? round2(sendLag.maxValue / 1000) : 0,
    droppedArrivals: dropped,
  });
  const latency = summarize(measured);
  measured.destroy();
  sendLag.destroy();
  if (failureTotal(failures) !== nMeasuredFailed) throw new EngineError("failure counts disagree between threads");
  return {
    cancelled,
    t0,
    measureStart,
    measureEnd: Math.min(stoppedAt, measureEnd),
    measuredSeconds,
    latency,
    failures,
    measured: nMeasured,
    measuredFailed: nMeasuredFailed,
    sent,
    succeeded,
    abandoned,
    timeline,
    client,
  };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
