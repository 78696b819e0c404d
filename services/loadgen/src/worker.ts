// One generator thread: runs its share of the simulated devices (closed loop, Locust semantics) or of
// the arrivals (open loop), measures every request and reports once per tick to the main thread.
import http from "node:http";
import https from "node:https";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";
import { encodeHistogram, newHistogram } from "./histogram.ts";
import { deviceCursor } from "./pool.ts";
import {
  emptyFailures,
  type FailureCounts,
  type FinalMessage,
  type FromWorker,
  type StartMessage,
  type TickMessage,
  type ToWorker,
  type WorkerInit,
} from "./protocol.ts";
import { coapEndpoint, mqttDevice, type Outcome, type Sender } from "./transports.ts";
import { waitSampler } from "./wait.ts";

const init = workerData as WorkerInit;
const port = parentPort!;
const post = (m: FromWorker) => port.postMessage(m);

/** wall-clock ms with sub-ms precision, comparable across threads */
const now = () => performance.timeOrigin + performance.now();

const LOOP_RESOLUTION_MS = 10;
const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
loopDelay.enable();

const target = new URL(init.url);
const transport = target.protocol === "https:" ? https : http;
/** MQTT topics and CoAP queries name the layout and format as the HTTP headers do */
const naming = { layout: init.headers["x-satpayload-layout"] ?? "", format: init.headers["x-satpayload-format"] ?? "" };
/** CoAP devices of this thread share one UDP endpoint; MQTT devices each hold a connection */
const coapShared: Sender | undefined = init.transport === "coap" ? coapEndpoint(init.url, naming) : undefined;
const poolN = init.offsets.length - 1;
const nextWait = waitSampler(init.wait);

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

// ---- sleeping that a stop can cut short -------------------------------------------------------
const sleepers = new Set<() => void>();
function sleepUntil(at: number): Promise<void> {
  const ms = at - now();
  if (!running) return Promise.resolve();
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(t);
      sleepers.delete(wake);
      resolve();
    };
    const t = setTimeout(wake, Math.max(0, ms));
    sleepers.add(wake);
  });
}

// ---- one request -----------------------------------------------------------------------------
/** abort functions of the requests in flight, for the end of the grace period */
const openRequests = new Set<() => void>();

class RequestTimeout extends Error {}

interface Device {
  name: string;
  agent: http.Agent | false;
  /** the MQTT or CoAP way out; undefined for HTTP */
  sender: Sender | undefined;
  seq: number;
  next: number;
  step: number;
}

function makeDevice(index: number): Device {
  const { start, step } = deviceCursor(init, poolN, index);
  const name = `dev-${String(index).padStart(6, "0")}`;
  return {
    name,
    agent:
      init.transport === "http" && init.connection === "keep-alive"
        ? new transport.Agent({ keepAlive: true, maxSockets: 1 })
        : false,
    sender: init.transport === "mqtt" ? mqttDevice(init.url, `${init.runTag}-${name}`, naming) : coapShared,
    seq: 0,
    next: start,
    step,
  };
}

function send(d: Device, index: number): Promise<void> {
  const i = d.next;
  d.next = (i + d.step) % poolN;
  const body = init.data.subarray(init.offsets[i]!, init.offsets[i + 1]!);
  const start = now();
  if (d.sender) return sendOver(d.sender, d, index, body, start);
  const headers: Record<string, string | number> = {
    ...init.headers,
    "content-length": body.length,
    "x-satpayload-device": d.name,
    // the send time travels in the id (which becomes the cin's name) for the end-to-end delay
    "x-satpayload-message-id": `${init.runTag}.${index}.${d.seq++}.${Math.round(start)}`,
  };
  if (d.agent === false) headers.connection = "close";
  sent++;
  inFlight++;
  return new Promise((resolve) => {
    let settled = false;
    let abandonedHere = false;
    const req = transport.request(target, { method: "POST", agent: d.agent, headers });
    const abort = () => {
      abandonedHere = true;
      req.destroy();
    };
    openRequests.add(abort);
    const timer = setTimeout(() => req.destroy(new RequestTimeout()), init.timeoutMs);
    const finish = (o: Outcome | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      openRequests.delete(abort);
      inFlight--;
      if (o === null) abandoned++;
      else record(start, now(), o);
      resolve();
    };
    const failed = (e: unknown) =>
      finish(abandonedHere ? null : e instanceof RequestTimeout ? { kind: "timeout" } : { kind: "connection" });
    req.on("response", (res) => {
      const status = res.statusCode ?? 0;
      res.on("end", () => finish(status >= 200 && status < 300 ? { kind: "ok" } : { kind: "http", status }));
      res.on("error", failed);
      res.on("aborted", () => failed(new Error("aborted")));
      res.resume();
    });
    req.on("error", failed);
    req.end(body);
  });
}

/** one message over MQTT or CoAP; the id carries the send time like the HTTP header does */
function sendOver(sender: Sender, d: Device, index: number, body: Uint8Array, start: number): Promise<void> {
  sent++;
  inFlight++;
  const f = sender.send(
    { device: d.name, messageId: `${init.runTag}.${index}.${d.seq++}.${Math.round(start)}`, body },
    init.timeoutMs,
  );
  openRequests.add(f.abort);
  return f.done.then((o) => {
    openRequests.delete(f.abort);
    inFlight--;
    if (o === null) abandoned++;
    else record(start, now(), o);
  });
}

// ---- closed loop: Locust users ---------------------------------------------------------------
async function closedDevice(index: number): Promise<void> {
  const startAt = times.t0 + (index / init.spawnRate) * 1000;
  await sleepUntil(startAt);
  if (!running) return;
  const d = makeDevice(index);
  active++;
  let due = startAt;
  try {
    while (running) {
      recordSendLag(due, now());
      await send(d, index);
      if (!running) break;
      due = now() + nextWait() * 1000;
      await sleepUntil(due);
    }
  } finally {
    active--;
    if (d.agent) d.agent.destroy();
    if (d.sender !== coapShared) d.sender?.close();
  }
}

// ---- open loop: fixed arrival rate -----------------------------------------------------------
function openLoop(): Promise<void> {
  const free: Device[] = init.devices.map((i) => makeDevice(i));
  const indexOf = new Map(free.map((d, k) => [d, init.devices[k]!] as const));
  const all = [...free];
  const interval = 1000 / init.arrivalRate;
  // threads interleave their arrivals instead of all sending at the same instant
  let due = times.t0 + (interval * init.index) / init.count;
  const pending = new Set<Promise<void>>();
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const stop = () => {
      clearTimeout(timer);
      void Promise.all(pending).then(() => {
        for (const d of all) {
          if (d.agent) d.agent.destroy();
          if (d.sender !== coapShared) d.sender?.close();
        }
        resolve();
      });
    };
    sleepers.add(stop);
    const fire = () => {
      const t = now();
      while (running && due <= t) {
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
      if (running) timer = setTimeout(fire, Math.max(0, due - now()));
    };
    timer = setTimeout(fire, Math.max(0, due - now()));
  });
}

// ---- reporting and stopping ------------------------------------------------------------------
function tick(): void {
  const lagP99 = loopDelay.count > 0 ? Math.max(0, loopDelay.percentile(99) / 1e6 - LOOP_RESOLUTION_MS) : 0;
  const lagMax = loopDelay.count > 0 ? Math.max(0, loopDelay.max / 1e6 - LOOP_RESOLUTION_MS) : 0;
  loopDelay.reset();
  const at = now();
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
    lagP99Ms: lagP99,
    lagMaxMs: lagMax,
    sendLagMaxMs: tickSendLagMax,
  };
  lastTickAt = at;
  tickHist.destroy();
  tickHist = newHistogram();
  tickCompleted = tickFailed = tickSendLagMax = 0;
  tickFailures = emptyFailures();
  post(m);
}

let ticker: NodeJS.Timeout | undefined;
let loops: Promise<unknown> = Promise.resolve();

function start(m: StartMessage): void {
  times = m;
  lastTickAt = now();
  loopDelay.reset();
  ticker = setInterval(tick, init.tickMs);
  loops = init.mode === "open" ? openLoop() : Promise.all(init.devices.map((i) => closedDevice(i)));
}

function stop(graceMs: number): void {
  if (!running) return;
  running = false;
  for (const wake of [...sleepers]) wake();
  // requests in flight may finish within the grace period; the rest are abandoned, not failures
  const abandonTimer = setTimeout(() => {
    for (const abort of [...openRequests]) abort();
  }, graceMs);
  void loops.then(() => {
    clearTimeout(abandonTimer);
    clearInterval(ticker);
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
    post(final);
    loopDelay.disable();
    coapShared?.close();
    port.close();
  });
}

port.on("message", (msg: ToWorker) => {
  if (msg.type === "start") start(msg);
  else if (msg.type === "stop") stop(msg.graceMs);
});
post({ type: "ready" });

process.on("uncaughtException", (e) => {
  post({ type: "error", message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  process.exit(1);
});
