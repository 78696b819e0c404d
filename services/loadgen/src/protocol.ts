// Messages between the run's main thread and its generator threads.
import type { RunSettings, Transport, WaitDistribution } from "#contracts/loadtest/spec.ts";

export interface WorkerInit {
  index: number;
  count: number;
  transport: Transport;
  /** http(s)://…/ingest, mqtt://host:port or coap://host:port */
  url: string;
  /** headers of every request (content type, format, layout) */
  headers: Record<string, string>;
  data: Uint8Array;
  offsets: Uint32Array;
  /** see PayloadPool.stride */
  stride: number;
  mode: RunSettings["mode"];
  /** global device indices this thread runs */
  devices: number[];
  /** open mode: this thread's arrivals per second */
  arrivalRate: number;
  wait: WaitDistribution;
  spawnRate: number;
  connection: RunSettings["connection"];
  timeoutMs: number;
  /** prefix of every message id, unique per run */
  runTag: string;
  tickMs: number;
}

export interface FailureCounts {
  http: Record<string, number>;
  timeout: number;
  connection: number;
}

export interface TickMessage {
  type: "tick";
  /** 1, 2, … since start: the main thread sums tick k of every thread into one point */
  seq: number;
  at: number;
  /** length of this interval, ms (the last one is shorter) */
  intervalMs: number;
  completed: number;
  failed: number;
  failures: FailureCounts;
  /** latencies (µs) of the requests answered since the last tick, compressed HDR; "" when none */
  hist: string;
  sent: number;
  inFlight: number;
  active: number;
  /** event-loop delay beyond the timer resolution in this interval, ms */
  lagP99Ms: number;
  lagMaxMs: number;
  sendLagMaxMs: number;
}

export interface FinalMessage {
  type: "final";
  /** latencies (µs) of requests answered in the measured window, compressed HDR */
  measuredHist: string;
  measured: number;
  measuredFailed: number;
  measuredFailures: FailureCounts;
  /** how late sends started in the measured window (µs), compressed HDR */
  sendLagHist: string;
  sent: number;
  succeeded: number;
  abandoned: number;
  dropped: number;
}

export interface ErrorMessage {
  type: "error";
  message: string;
}

export type FromWorker = ReadyMessage | TickMessage | FinalMessage | ErrorMessage;

export interface ReadyMessage {
  type: "ready";
}

/** times are wall-clock ms (performance.timeOrigin + performance.now()), comparable across threads */
export interface StartMessage {
  type: "start";
  /** device 0 starts (closed) or the first arrival is due (open) */
  t0: number;
  measureStart: number;
  measureEnd: number;
}

export type ToWorker = StartMessage | { type: "stop"; graceMs: number };

export function emptyFailures(): FailureCounts {
  return { http: {}, timeout: 0, connection: 0 };
}

export function addFailures(into: FailureCounts, from: FailureCounts): void {
  for (const [k, v] of Object.entries(from.http)) into.http[k] = (into.http[k] ?? 0) + v;
  into.timeout += from.timeout;
  into.connection += from.connection;
}

export function failureTotal(f: FailureCounts): number {
  return Object.values(f.http).reduce((a, b) => a + b, 0) + f.timeout + f.connection;
}
