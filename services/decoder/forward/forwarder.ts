// Forwards buffered records to the CSE as contentInstances: in order per container, idempotent by
// resource name (a resend answers 409/4105 = delivered), retrying with backoff until the CSE takes
// them. Progress lives in the buffer (forwarded_at), so a restart resumes where the last one stopped.
import { backoffDelay } from "./backoff.ts";
import { containerFor } from "./containers.ts";
import { aeAlreadyRegistered, createdOrExists, isNotFound, M2mClient, reason, type M2mResponse } from "./onem2m.ts";
import type { RecordBuffer, StoredRecord } from "../buffer/buffer.ts";
import type { BufferWriter } from "../buffer/writer.ts";
import type { CseTarget } from "../config.ts";

export interface ForwarderOptions {
  concurrency: number;
  batch: number;
  retryBaseMs: number;
  retryMaxMs: number;
  requestTimeoutMs: number;
  /** names this forwarder's requests (X-M2M-RI prefix) */
  name: string;
}

export interface ForwarderState {
  state: "starting" | "forwarding" | "idle" | "retrying" | "stopped";
  lastError: string | null;
  lastErrorAt: number | null;
  attempt: number;
  nextRetryAt: number | null;
}

export const FORWARDER_STATUS_KEY = "forwarder";

/**
 * Under steady load the forwarder turns idle after every batch and busy again at the next commit a
 * few milliseconds later. Its state is written for other processes to read, so "idle" is written
 * only once it has lasted this long: two writes less per batch, for a state the writer thread would
 * otherwise store and overwrite hundreds of times a second.
 */
const IDLE_WRITE_DELAY_MS = 50;

class Failure extends Error {
  constructor(
    message: string,
    /** the AE or container is gone (CSE restarted with an empty database): recreate before retrying */
    readonly missing = false,
  ) {
    super(message);
  }
}

export class Forwarder {
  private readonly client: M2mClient;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private woken = false;
  private aeReady = false;
  private readonly containers = new Set<string>();
  private attempt = 0;
  private state: ForwarderState = {
    state: "starting",
    lastError: null,
    lastErrorAt: null,
    attempt: 0,
    nextRetryAt: null,
  };
  /** what other processes read (the last state handed to the writer) */
  private written: ForwarderState | undefined;
  private idleWrite: NodeJS.Timeout | undefined;

  constructor(
    /** read side: pending records (a connection of this thread) */
    private readonly buffer: RecordBuffer,
    /** write side: marks, failure counts and state go through the buffer's writer */
    private readonly writer: BufferWriter,
    private readonly target: CseTarget,
    private readonly opts: ForwarderOptions,
    private readonly log: (msg: string) => void,
    private readonly onForwarded: (n: number) => void = () => {},
  ) {
    this.client = new M2mClient(target, opts.name, opts.concurrency, opts.requestTimeoutMs);
  }

  start(): void {
    this.publish({ state: "starting" });
    this.loop ??= this.run().catch((e) =>
      this.log(`forwarder stopped on an internal error: ${(e as Error).stack ?? String(e)}`),
    );
  }

  /** new records were committed */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    this.client.close();
    try {
      this.publish({ state: "stopped", nextRetryAt: null });
    } catch {
      // the buffer may already be closed by a failing shutdown; the state is informational
    }
  }

  get status(): ForwarderState {
    return this.state;
  }

  private publish(change: Partial<ForwarderState>): void {
    this.state = { ...this.state, ...change, attempt: this.attempt };
    clearTimeout(this.idleWrite);
    this.idleWrite = undefined;
    if (this.state.state === "idle") this.idleWrite = setTimeout(() => this.write(), IDLE_WRITE_DELAY_MS).unref();
    else this.write();
  }

  private write(): void {
    const next = this.state;
    const last = this.written;
    if (last && next.state === last.state && next.lastError === last.lastError && next.nextRetryAt === last.nextRetryAt)
      return;
    this.written = next;
    this.writer.setStatus(FORWARDER_STATUS_KEY, next);
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        done();
      };
    });
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        if (!this.aeReady) await this.ensureAe();
        this.woken = false;
        const batch = this.buffer.pending(this.opts.batch);
        if (batch.length === 0) {
          this.publish({ state: "idle", nextRetryAt: null });
          // a commit that landed between the query and now must not wait for the timer
          if (!this.woken) await this.sleep(1000);
          continue;
        }
        // while retrying, the state stays "retrying" until a batch goes through
        if (this.attempt === 0) this.publish({ state: "forwarding", nextRetryAt: null });
        await this.sendBatch(batch);
        if (this.attempt > 0) {
          this.attempt = 0;
          this.publish({ state: "forwarding", nextRetryAt: null });
        }
      } catch (e) {
        if (this.stopped) break;
        const f = e instanceof Failure ? e : new Failure(`CSE unreachable: ${(e as Error).message}`);
        if (f.missing) {
          this.aeReady = false;
          this.containers.clear();
        }
        this.attempt++;
        this.writer.countForwardFailure();
        const delay = backoffDelay(this.attempt, this.opts.retryBaseMs, this.opts.retryMaxMs);
        if (this.attempt === 1 || this.attempt % 10 === 0)
          this.log(`forwarding failed (attempt ${this.attempt}, retry in ${delay} ms): ${f.message}`);
        this.publish({
          state: "retrying",
          lastError: f.message,
          lastErrorAt: Date.now(),
          nextRetryAt: Date.now() + delay,
        });
        await this.sleepIgnoringWake(delay);
      }
    }
  }

  /** new records must not cut a backoff short; only stop() does */
  private async sleepIgnoringWake(ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (!this.stopped && Date.now() < until) await this.sleep(until - Date.now());
  }

  private async ensureAe(): Promise<void> {
    const r = await this.client.createAe();
    if (!createdOrExists(r) && !aeAlreadyRegistered(r))
      throw new Failure(`creating AE ${this.target.ae}: ${reason(r)}`);
    this.aeReady = true;
    if (this.target.containerMode === "shared") await this.ensureContainer(this.target.container);
  }

  private async ensureContainer(name: string): Promise<void> {
    if (this.containers.has(name)) return;
    const r = await this.client.createContainer(name);
    if (isNotFound(r)) throw new Failure(`creating container ${name}: ${reason(r)}`, true);
    if (!createdOrExists(r)) throw new Failure(`creating container ${name}: ${reason(r)}`);
    this.containers.add(name);
  }

  /**
   * Containers are independent lanes (up to `concurrency` at once); inside a lane records go strictly
   * in order, and a lane stops at its first failure so nothing overtakes an undelivered record.
   */
  private async sendBatch(batch: StoredRecord[]): Promise<void> {
    const lanes = new Map<string, StoredRecord[]>();
    for (const r of batch) {
      const c = containerFor(this.target, r.device);
      let lane = lanes.get(c);
      if (!lane) lanes.set(c, (lane = []));
      lane.push(r);
    }
    const queue = [...lanes.entries()];
    const delivered: number[] = [];
    const marks: Promise<void>[] = [];
    let failure: Failure | undefined;
    const flush = () => {
      const seqs = delivered.splice(0);
      if (seqs.length)
        marks.push(
          this.writer.markForwarded(seqs).then((n) => {
            if (n) this.onForwarded(n);
          }),
        );
    };
    const lane = async () => {
      for (let next = queue.shift(); next && !failure && !this.stopped; next = queue.shift()) {
        const [container, records] = next;
        try {
          await this.ensureContainer(container);
          for (const r of records) {
            if (failure || this.stopped) return;
            const res: M2mResponse = await this.client.createContentInstance(container, r.rn ?? r.messageId, r.con);
            if (createdOrExists(res)) {
              delivered.push(r.seq);
              if (delivered.length >= 256) flush();
              continue;
            }
            if (isNotFound(res)) {
              this.containers.delete(container);
              throw new Failure(`posting to ${this.target.ae}/${container}: ${reason(res)}`, true);
            }
            throw new Failure(`posting ${r.messageId} to ${this.target.ae}/${container}: ${reason(res)}`);
          }
        } catch (e) {
          failure ??= e instanceof Failure ? e : new Failure(`CSE unreachable: ${(e as Error).message}`);
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(this.opts.concurrency, queue.length) }, lane));
    } finally {
      flush();
      // the next batch is read from the buffer: it must see these marks or it would resend them
      await Promise.all(marks);
    }
    if (failure) throw failure;
  }
}
