// One generator thread's share of the simulated devices (closed loop, Locust semantics) or of the
// arrivals (open loop): schedules the sends, enforces the timeout, measures every request and reports
// once per tick. It runs on the clock and the way out it is handed: the worker thread gives it the
// wall clock and HTTP/MQTT/CoAP (worker.ts); the tests give it a virtual clock and a simulated server,
// so its timing is proven exactly and independently of how busy the machine is.
import { encodeHistogram, newHistogram } from "./histogram.ts";
import { deviceCursor } from "./pool.ts";
import {
  emptyFailures,
  type FailureCounts,
  type FinalMessage,
  type StartMessage,
  type TickMessage,
  type WorkerInit,
} from "./protocol.ts";
import type { Outcome, Sender } from "./transports.ts";
import { waitSampler } from "./wait.ts";

type Timer = ReturnType<typeof setTimeout>;

export interface Clock {
  /** ms with sub-ms precision, comparable across the run's threads */
  now(): number;
  setTimeout(fn: () => void, ms: number): Timer;
  clearTimeout(t: Timer | undefined): void;
  setInterval(fn: () => void, ms: number): Timer;
  clearInterval(t: Timer | undefined): void;
}

export interface GeneratorEnv {
  clock: Clock;
  /** the way out of device `index` (global index), opened when the device starts; closed when it ends */
  openSender(index: number, name: string): Sender;
  post(m: TickMessage | FinalMessage): void;
  /** how far the thread's event loop lagged since the last call (beyond the timer resolution), ms */
  loopLag(): { p99Ms: number; maxMs: number };
  /** think-time draws; Math.random unless a test fixes them */
  random?: () => number;
}

export interface Generator {
  start(m: StartMessage): void;
  /** stops sending; answers may arrive for `graceMs`, the rest are abandoned; resolves once the final report is posted */
  stop(graceMs: number): Promise<void>;
}

interface Device {
  name: string;
  sender: Sender;
  seq: number;
  next: number;
  step: number;
}

export function createGenerator(init: WorkerInit, env: GeneratorEnv): Generator {
  const { clock } = env;
  const poolN = init.offsets.length - 1;
  const nextWait = waitSampler(init.wait, env.random);

  let times: StartMessage = { type: "start", t0: 0, measureStart: 0, measureEnd: 0 };
  let running = true;
  let tickSeq = 0;
  let lastTickAt = 0;
  let sent = 0;
  let succeeded = 0;
  let inFlight = 0;
  let active = 0;
  let abandoned = 0;
  let dropped = 0;

  let tickHist = newHistogram();
  let tickCompleted = 0;
  let tickFailed = 0;
  let tickFailures = emptyFailures();
  let tickSendLagMax = 0;

  const measuredHist = newHistogram();
  const sendLagHist = newHistogram();
  let measured = 0;
  let measuredFailed = 0;
  const measuredFailures = emptyFailures();

  function countFailure(f: FailureCounts, o: Outcome): void {
    if (o.kind === "http") f.http[o.status] = (f.http[o.status] ?? 0) + 1;
    else if (o.kind === "timeout") f.timeout++;
    else if (o.kind === "connection") f.connection++;
  }

  function record(start: number, end: number, o: Outcome): void {
    const us = Math.max(1, Math.round((end - start) * 1000));
    tickHist.recordValue(us);
    tickCompleted++;
    if (o.kind === "ok") succeeded++;
    else {
      tickFailed++;
      countFailure(tickFailures, o);
    }
    if (end >= times.measureStart && end < times.measureEnd) {
      measuredHist.recordValue(us);
      measured++;
      if (o.kind !== "ok") {
        measuredFailed++;
        countFailure(measuredFailures, o);
      }
    }
  }

  function recordSendLag(due: number, at: number): void {
    const lag = Math.max(0, at - due);
    if (lag > tickSendLagMax) tickSendLagMax = lag;
    if (at >= times.measureStart && at < times.measureEnd) sendLagHist.recordValue(Math.max(1, Math.round(lag * 1000)));
  }

  // ---- sleeping that a stop can cut short -----------------------------------------------------
  const sleepers = new Set<() => void>();
  function sleepUntil(at: number): Promise<void> {
    if (!running) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clock.clearTimeout(t);
        sleepers.delete(wake);
        resolve();
      };
      const t = clock.setTimeout(wake, Math.max(0, at - clock.now()));
      sleepers.add(wake);
    });
  }

  // ---- one request ------------------------------------------------------------------------------
  /** gives up the requests in flight, at the end of the grace period */
  const openRequests = new Set<() => void>();

  function makeDevice(index: number): Device {
    const { start, step } = deviceCursor(init, poolN, index);
    const name = `dev-${String(index).padStart(6, "0")}`;
    return { name, sender: env.openSender(index, name), seq: 0, next: start, step };
  }

  function send(d: Device, index: number): Promise<void> {
    const i = d.next;
    d.next = (i + d.step) % poolN;
    const body = init.data.subarray(init.offsets[i]!, init.offsets[i + 1]!);
    const start = clock.now();
    sent++;
    inFlight++;
    // the send time travels in the id (which becomes the cin's name) for the end-to-end delay
    const f = d.sender.send({
      device: d.name,
      messageId: `${init.runTag}.${index}.${d.seq++}.${Math.round(start)}`,
      body,
    });
    return new Promise((resolve) => {
      let settled = false;
      const finish = (o: Outcome | null) => {
        if (settled) return;
        settled = true;
        clock.clearTimeout(timer);
        openRequests.delete(abandon);
        inFlight--;
        if (o === null) abandoned++;
        else record(start, clock.now(), o);
        resolve();
      };
      // a timeout ends the request at the timeout, whenever the server would have answered
      const timer = clock.setTimeout(() => {
        finish({ kind: "timeout" });
        f.abort();
      }, init.timeoutMs);
      const abandon = () => {
        finish(null);
        f.abort();
      };
      openRequests.add(abandon);
      void f.done.then(finish);
    });
  }

  // ---- closed loop: Locust users ----------------------------------------------------------------
  async function closedDevice(index: number): Promise<void> {
    const startAt = times.t0 + (index / init.spawnRate) * 1000;
    await sleepUntil(startAt);
    if (!running) return;
    const d = makeDevice(index);
    active++;
    let due = startAt;
    try {
      while (running) {
        recordSendLag(due, clock.now());
        await send(d, index);
        if (!running) break;
        due = clock.now() + nextWait() * 1000;
        await sleepUntil(due);
      }
    } finally {
      active--;
      d.sender.close();
    }
  }

  // ---- open loop: fixed arrival rate, up to the end of the schedule ------------------------------
  /** sends the arrivals already due (set while the open loop runs) */
  let catchUp: (() => void) | undefined;
  function openLoop(): Promise<void> {
    const free: Device[] = init.devices.map((i) => makeDevice(i));
    const indexOf = new Map(free.map((d, k) => [d, init.devices[k]!] as const));
    const all = [...free];
    const interval = 1000 / init.arrivalRate;
    // threads interleave their arrivals instead of all sending at the same instant
    let due = times.t0 + (interval * init.index) / init.count;
    const pending = new Set<Promise<void>>();
    return new Promise((resolve) => {
      let timer: Timer | undefined;
      const stop = () => {
        clock.clearTimeout(timer);
        void Promise.all(pending).then(() => {
          for (const d of all) d.sender.close();
          resolve();
        });
      };
      sleepers.add(stop);
      const fire = () => {
        const t = clock.now();
        // arrivals a busy thread missed are sent at once: the count follows the schedule, not the CPU
        while (running && due <= t && due < times.measureEnd) {
          const d = free.pop();
          if (!d) dropped++;
          else {
            recordSendLag(due, t);
            active = all.length - free.length;
            const p = send(d, indexOf.get(d)!).then(() => {
              free.push(d);
              pending.delete(p);
              active = all.length - free.length;
            });
            pending.add(p);
          }
          due += interval;
        }
        clock.clearTimeout(timer);
        if (running && due < times.measureEnd) timer = clock.setTimeout(fire, Math.max(0, due - clock.now()));
      };
      // a stop can overtake a late timer: the arrivals already due are sent before the loop ends
      catchUp = fire;
      timer = clock.setTimeout(fire, Math.max(0, due - clock.now()));
    });
  }

  // ---- reporting and stopping ---------------------------------------------------------------------
  function tick(): void {
    const lag = env.loopLag();
    const at = clock.now();
    const m: TickMessage = {
      type: "tick",
      seq: ++tickSeq,
      at,
      intervalMs: at - lastTickAt,
      completed: tickCompleted,
      failed: tickFailed,
      failures: tickFailures,
      hist: encodeHistogram(tickHist),
      sent,
      inFlight,
      active,
      lagP99Ms: lag.p99Ms,
      lagMaxMs: lag.maxMs,
      sendLagMaxMs: tickSendLagMax,
    };
    lastTickAt = at;
    tickHist.destroy();
    tickHist = newHistogram();
    tickCompleted = tickFailed = tickSendLagMax = 0;
    tickFailures = emptyFailures();
    env.post(m);
  }

  let ticker: Timer | undefined;
  let loops: Promise<unknown> = Promise.resolve();

  return {
    start(m) {
      times = m;
      lastTickAt = clock.now();
      env.loopLag();
      ticker = clock.setInterval(tick, init.tickMs);
      loops = init.mode === "open" ? openLoop() : Promise.all(init.devices.map((i) => closedDevice(i)));
    },
    stop(graceMs) {
      if (!running) return Promise.resolve();
      catchUp?.();
      running = false;
      for (const wake of [...sleepers]) wake();
      // requests in flight may finish within the grace period; the rest are abandoned, not failures
      const abandonTimer = clock.setTimeout(() => {
        for (const abandon of [...openRequests]) abandon();
      }, graceMs);
      return loops.then(() => {
        clock.clearTimeout(abandonTimer);
        clock.clearInterval(ticker);
        tick();
        const final: FinalMessage = {
          type: "final",
          measuredHist: encodeHistogram(measuredHist),
          measured,
          measuredFailed,
          measuredFailures,
          sendLagHist: encodeHistogram(sendLagHist),
          sent,
          succeeded,
          abandoned,
          dropped,
        };
        env.post(final);
      });
    },
  };
}
