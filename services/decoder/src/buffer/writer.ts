// Writes to a buffer: through its writer thread (the decoder's own buffer, where ingest latency
// matters) or directly (a buffer left by an earlier run with more replicas, only drained).
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type {
  BatchItem,
  BatchResult,
  BufferOptions,
  ForwarderCounter,
  RecordBuffer,
  Refusal,
  RetryFilter,
} from "./buffer.ts";

export type WriterRequest =
  | { id: number; op: "write"; items: BatchItem[] }
  | { id: number; op: "mark"; seqs: number[]; at: number }
  | { id: number; op: "rename"; seq: number; rn: string }
  | { id: number; op: "refuse"; refusals: { seq: number; refusal: Refusal }[] }
  | { id: number; op: "retry"; filter: RetryFilter }
  | { id: number; op: "count"; counter: ForwarderCounter; n: number }
  | { id: number; op: "status"; key: string; value: unknown }
  | { id: number; op: "close" };
export type WriterResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string }
  /** a line for the decoder's log, from a thread that runs more than the buffer (the in-process CSE) */
  | { id: -1; log: string };

/** which thread writes, and what else it is given; the default is the buffer's own writer thread */
export interface WriterThreadScript {
  url: URL;
  data?: Record<string, unknown>;
  log?: (m: string) => void;
}

export interface BufferWriter {
  /** one transaction: resolves once it is durable; an Error in place of a result: that item alone was refused, not stored */
  write(items: BatchItem[]): Promise<(BatchResult | Error)[]>;
  markForwarded(seqs: number[]): Promise<number>;
  /** the record goes to the CSE under another name from now on (an old long name, a repair) */
  rename(seq: number, rn: string): Promise<void>;
  /** pending records into the refused state; resolves with how many moved */
  refuse(refusals: { seq: number; refusal: Refusal }[]): Promise<number>;
  /** refused records back to pending; resolves with how many */
  retryRefused(filter: RetryFilter): Promise<number>;
  count(counter: ForwarderCounter, n?: number): void;
  setStatus(key: string, value: unknown): void;
  close(): Promise<void>;
}

export class DirectWriter implements BufferWriter {
  constructor(private readonly buffer: RecordBuffer) {}
  async write(items: BatchItem[]): Promise<(BatchResult | Error)[]> {
    return this.buffer.write(items);
  }
  async markForwarded(seqs: number[]) {
    return this.buffer.markForwarded(seqs);
  }
  async rename(seq: number, rn: string) {
    this.buffer.rename(seq, rn);
  }
  async refuse(refusals: { seq: number; refusal: Refusal }[]) {
    return this.buffer.refuse(refusals);
  }
  async retryRefused(filter: RetryFilter) {
    return this.buffer.retryRefused(filter);
  }
  count(counter: ForwarderCounter, n = 1) {
    this.buffer.count(counter, n);
  }
  setStatus(key: string, value: unknown) {
    if (this.buffer.db.open) this.buffer.setStatus(key, value);
  }
  async close() {}
}

type AnyRequest = WriterRequest extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never;

export class ThreadWriter implements BufferWriter {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private dead: Error | undefined;
  /** resolves with what the thread reports once it can write */
  readonly ready: Promise<unknown>;

  private closing = false;

  /** `onDead`: the thread failed or exited on its own; nothing can be stored any more */
  constructor(
    file: string,
    options: BufferOptions,
    onDead: (e: Error) => void,
    script: WriterThreadScript = { url: new URL("./writerThread.ts", import.meta.url) },
  ) {
    // the thread runs TypeScript too, under tsx or vitest alike: tsx's require hook needs no loader
    // thread, which ESM loader hooks in worker threads of Node 20 would
    const req = createRequire(import.meta.url);
    const boot = `require(${JSON.stringify(req.resolve("tsx/cjs/api"))}).require(${JSON.stringify(fileURLToPath(script.url))}, __filename);`;
    this.worker = new Worker(boot, { eval: true, workerData: { ...script.data, file, options } });
    this.ready = new Promise((resolve, reject) => this.waiting.set(0, { resolve, reject }));
    this.worker.on("message", (m: WriterResponse) => {
      if ("log" in m) return script.log?.(m.log);
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.ok) w.resolve(m.value);
      else w.reject(new Error(m.error));
    });
    const fail = (e: Error) => {
      this.dead ??= e;
      for (const w of this.waiting.values()) w.reject(e);
      this.waiting.clear();
    };
    this.worker.on("error", (e) => {
      fail(e);
      if (!this.closing) onDead(e);
    });
    this.worker.on("exit", (code) => {
      const e = new Error(`the buffer writer thread exited (${code})`);
      fail(e);
      if (!this.closing) onDead(e);
    });
  }

  private call<T>(req: AnyRequest): Promise<T> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...req, id } as WriterRequest);
    });
  }

  write(items: BatchItem[]): Promise<(BatchResult | Error)[]> {
    return this.call({ op: "write", items });
  }

  markForwarded(seqs: number[]): Promise<number> {
    return seqs.length ? this.call({ op: "mark", seqs, at: Date.now() }) : Promise.resolve(0);
  }

  rename(seq: number, rn: string): Promise<void> {
    return this.call({ op: "rename", seq, rn });
  }

  refuse(refusals: { seq: number; refusal: Refusal }[]): Promise<number> {
    return refusals.length ? this.call({ op: "refuse", refusals }) : Promise.resolve(0);
  }

  retryRefused(filter: RetryFilter): Promise<number> {
    return this.call({ op: "retry", filter });
  }

  count(counter: ForwarderCounter, n = 1): void {
    this.call({ op: "count", counter, n }).catch(() => {});
  }

  setStatus(key: string, value: unknown): void {
    this.call({ op: "status", key, value }).catch(() => {});
  }

  async close(): Promise<void> {
    this.closing = true;
    if (!this.dead) await this.call({ op: "close" }).catch(() => {});
    await this.worker.terminate();
  }
}
