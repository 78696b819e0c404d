// One decoder worker: its own buffer and group commit, forwarders for the buffers it owns, and the
// HTTP server. With --replicas 1 it runs in the main process; otherwise node:cluster forks N of them.
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { RetryRequest } from "#contracts/decoder/retryRequest.ts";
import { AuthGuard } from "./auth/guard.ts";
import { RecordBuffer, type RetryFilter } from "./buffer/buffer.ts";
import { GroupCommit } from "./buffer/groupCommit.ts";
import { bufferFileName } from "./buffer/schema.ts";
import { DirectWriter, ThreadWriter, type BufferWriter } from "./buffer/writer.ts";
import type { CseTarget, DecoderConfig } from "./config.ts";
import type { CseWriterReady, CseWriterThreadData } from "./embedded/cseWriterThread.ts";
import { Forwarder } from "./forward/forwarder.ts";
import { startCoapIngest } from "./ingest/coap.ts";
import { MessageStore } from "./ingest/messageStore.ts";
import { startMqttIngest } from "./ingest/mqtt.ts";
import { LayoutRegistry } from "./layouts.ts";
import { BufferSet } from "./read/buffers.ts";
import { EventStream } from "./read/events.ts";
import { createDecoderServer, envelopeLimit } from "./server.ts";

export interface RunningWorker {
  port: number;
  /** the MQTT and CoAP ingest ports, when turned on */
  mqttPort: number | undefined;
  coapPort: number | undefined;
  index: number;
  forwarders: Forwarder[];
  /** this thread's connection to the worker's own buffer: reads only (writes go through the writer thread) */
  buffer: RecordBuffer;
  commit: GroupCommit;
  /** --embedded-cse: the in-process CSE's base URL (its own port, for readers and subscribers) */
  cseBaseUrl: string | undefined;
  close(): Promise<void>;
}

export interface WorkerOptions {
  index: number;
  /** buffers whose backlog this worker forwards: its own, plus any left by a run with more replicas */
  forwards: number[];
  /** node:cluster hands the listening socket over; port 0 is resolved by the primary */
  log?: (msg: string) => void;
  nativeBinding?: string | undefined;
  /** the buffer can no longer be written: the process should end so its supervisor restarts it */
  onFatal?: (e: Error) => void;
}

export async function startWorker(cfg: DecoderConfig, opts: WorkerOptions): Promise<RunningWorker> {
  const log = opts.log ?? ((m: string) => process.stderr.write(`[${cfg.instance} w${opts.index}] ${m}\n`));
  const bufferOpts = { synchronous: cfg.synchronous, nativeBinding: opts.nativeBinding };
  const layouts = new LayoutRegistry(cfg, log);
  const file = path.join(cfg.dataDir, bufferFileName(opts.index));
  let writer: BufferWriter & { close(): Promise<void> };
  /** --embedded-cse: the CSE in this process, as its writer thread reports it (its own port) */
  let inProcess: CseTarget | undefined;
  const onDead = (e: Error) => {
    log(`buffer writer failed: ${e.message}`);
    opts.onFatal?.(e);
  };
  if (cfg.embeddedCse && cfg.cse) {
    // the writer thread holds the buffer's writing connection and the CSE on it: one transaction
    // per commit for records and contentInstances, while this thread parses and decodes
    const thread = new ThreadWriter(file, bufferOpts, onDead, {
      url: new URL("./embedded/cseWriterThread.ts", import.meta.url),
      data: {
        cse: cfg.embeddedCse,
        target: cfg.cse,
        durable: cfg.synchronous === "full",
      } satisfies Omit<CseWriterThreadData, "file" | "options">,
      log,
    });
    inProcess = ((await thread.ready) as CseWriterReady).target;
    writer = thread;
  } else {
    // the writer thread creates and migrates the file
    const thread = new ThreadWriter(file, bufferOpts, onDead);
    await thread.ready;
    writer = thread;
  }
  // this thread's connection only reads
  const buffer = new RecordBuffer(file, bufferOpts);
  const target = inProcess ?? cfg.cse;
  const forwarders: Forwarder[] = [];
  const extraBuffers: RecordBuffer[] = [];
  const extraWriters = new Map<number, BufferWriter>();
  const own: Forwarder[] = [];
  if (target) {
    // in-process, the own buffer's records reach the CSE in their commit: only buffers left by a
    // run with more replicas are forwarded, over HTTP like any CSE's
    for (const i of opts.forwards.filter((i) => !inProcess || i !== opts.index)) {
      const b = i === opts.index ? buffer : new RecordBuffer(path.join(cfg.dataDir, bufferFileName(i)), bufferOpts);
      const bw: BufferWriter = b === buffer ? writer : new DirectWriter(b);
      if (b !== buffer) {
        extraBuffers.push(b);
        extraWriters.set(i, bw);
      }
      const f = new Forwarder(
        b,
        bw,
        target,
        {
          concurrency: cfg.forwardConcurrency,
          batch: cfg.forwardBatch,
          retryBaseMs: cfg.retryBaseMs,
          retryMaxMs: cfg.retryMaxMs,
          requestTimeoutMs: cfg.requestTimeoutMs,
          name: `${cfg.instance}-b${i}-${process.pid}`,
        },
        (m) => log(`forwarder b${i}: ${m}`),
      );
      forwarders.push(f);
      if (b === buffer) own.push(f);
    }
  }
  const commit = new GroupCommit(
    writer,
    { delayMs: cfg.commitDelayMs, maxItems: cfg.commitMaxRecords },
    (results, items) => {
      if (own.length === 0) return;
      // the forwarder learns which containers have new records without reading the buffer for them
      const devices = new Set<string>();
      results.forEach((r, i) => {
        const it = items[i]!;
        if (r && !r.duplicate && it.kind === "record") devices.add(it.record.device);
        if (r && !r.duplicate && it.kind === "readings") for (const x of it.records) devices.add(x.device);
      });
      if (devices.size > 0) for (const f of own) f.wake(devices);
    },
  );
  const buffers = new BufferSet(cfg.dataDir, bufferOpts, { index: opts.index, buffer });
  const events = new EventStream(buffers, log);
  const guard = new AuthGuard(cfg.auth);
  const store = new MessageStore(layouts, commit, opts.index, cfg.fidelity);
  /** writers of the buffers this worker writes; others' refused records are retried on a connection of their own */
  const writers = new Map<number, (f: RetryFilter) => Promise<number>>([[opts.index, (f) => writer.retryRefused(f)]]);
  for (const [i, w] of extraWriters) writers.set(i, (f) => w.retryRefused(f));
  const retry = async (r: RetryRequest) => {
    const n = await buffers.retry(
      { container: r.container, buffer: r.buffer, seqs: r.seq === undefined ? undefined : [r.seq] },
      writers,
    );
    log(`${n} refused record(s) put back to pending${r.container ? ` (container ${r.container})` : ""}`);
    for (const f of forwarders) f.retried();
    return n;
  };
  const http = createDecoderServer({
    cfg: inProcess ? { ...cfg, cse: inProcess } : cfg,
    worker: opts.index,
    layouts,
    commit,
    buffers,
    events,
    guard,
    store,
    retry,
    log,
  });
  await new Promise<void>((resolve, reject) => {
    http.server.once("error", reject);
    http.server.listen(cfg.port, cfg.host, () => {
      http.server.off("error", reject);
      resolve();
    });
  });
  const mqtt =
    cfg.mqttPort === undefined
      ? undefined
      : await startMqttIngest({ store, guard, bodyLimit: cfg.bodyLimit, log }, cfg.mqttPort, cfg.host);
  const coap =
    cfg.coapPort === undefined
      ? undefined
      : await startCoapIngest(
          {
            store,
            guard,
            routes: cfg.routes,
            bodyLimit: cfg.bodyLimit,
            envelopeLimit: envelopeLimit(cfg.bodyLimit),
            log,
          },
          cfg.coapPort,
          cfg.host,
        );
  for (const f of forwarders) f.start();
  const port = (http.server.address() as AddressInfo).port;
  if (mqtt) log(`MQTT ingest on mqtt://${cfg.host}:${mqtt.port}`);
  if (coap) log(`CoAP ingest on coap://${cfg.host}:${coap.port}`);
  log(
    `listening on http://${cfg.host}:${port}${inProcess ? `, the CSE in this process at ${inProcess.url} (${inProcess.containerMode} containers, one transaction per commit on its writer thread)` : target ? `, forwarding to ${target.url} (${target.containerMode} containers)` : ", not forwarding (no --cse)"}`,
  );

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      http.beginStop();
      mqtt?.beginStop();
      coap?.beginStop();
      const closed = new Promise<void>((resolve) => http.server.close(() => resolve()));
      http.server.closeIdleConnections();
      events.close();
      // requests already in the commit queue are written and answered before the buffer closes
      await commit.close();
      await Promise.race([closed, new Promise((r) => setTimeout(r, 2000))]);
      await Promise.all([mqtt?.close(), coap?.close()]);
      http.server.closeAllConnections();
      await Promise.all(forwarders.map((f) => f.stop()));
      await writer.close();
      buffers.close();
      for (const b of extraBuffers) b.close();
      buffer.close();
      layouts.close();
    })());
  return {
    port,
    mqttPort: mqtt?.port,
    coapPort: coap?.port,
    index: opts.index,
    forwarders,
    buffer,
    commit,
    cseBaseUrl: inProcess?.url,
    close,
  };
}
