// Forwards buffered records to the CSE as contentInstances. Each container is a lane: inside it
// records go strictly in order, one at a time; lanes take turns (round-robin, a bounded number of
// records per turn, up to `concurrency` lanes at once), so a container with a long backlog or one
// that keeps failing never holds up the others. A lane whose CSE answers fail backs off alone; an
// unreachable CSE pauses every lane. A record the CSE refuses for good goes to the refused state
// with the CSE's answer and its lane goes on. A conflict counts as delivered only once the instance
// reads back with our content (verify.ts). Progress lives in the buffer (forwarded_at, refused_at),
// so a restart resumes where the last one stopped.
import { backoffDelay } from "./backoff.ts";
import { containerFor } from "./containers.ts";
import {
  aeAlreadyRegistered,
  classifyInstance,
  createdOrExists,
  isNotFound,
  M2mClient,
  reason,
  refusalOf,
} from "./onem2m.ts";
import { settleName } from "./verify.ts";
import type { RecordBuffer, Refusal, StoredRecord } from "../buffer/buffer.ts";
import type { BufferWriter } from "../buffer/writer.ts";
import type { CseTarget } from "../config.ts";
import { instanceLabels, MAX_RESOURCE_NAME } from "../names.ts";

export interface ForwarderOptions {
  concurrency: number;
  /** records one container sends in a turn before the next container's turn */
  batch: number;
  retryBaseMs: number;
  retryMaxMs: number;
  requestTimeoutMs: number;
  /** names this forwarder's requests (X-M2M-RI prefix) */
  name: string;
}

/** a container backing off alone while the others flow */
export interface FailingContainer {
  container: string;
  attempt: number;
  lastError: string;
  lastErrorAt: number;
  nextRetryAt: number;
}

export interface ForwarderState {
  /** retrying: the CSE is unreachable (every container waits) or every container with records is backing off */
  state: "starting" | "forwarding" | "idle" | "retrying" | "stopped";
  lastError: string | null;
  lastErrorAt: number | null;
  /** attempts of the CSE-wide retry (0: none running) */
  attempt: number;
  nextRetryAt: number | null;
  /** containers backing off on their own, worst first (at most MAX_LISTED) */
  failing?: FailingContainer[];
  /** how many containers are backing off (failing may list fewer) */
  failingContainers?: number;
}

export const FORWARDER_STATUS_KEY = "forwarder";

/**
 * Under steady load the forwarder turns idle after every batch and busy again at the next commit a
 * few milliseconds later. Its state is written for other processes to read, so "idle" is written
 * only once it has lasted this long: two writes less per batch, for a state the writer thread would
 * otherwise store and overwrite hundreds of times a second.
 */
const IDLE_WRITE_DELAY_MS = 50;
/** how often the forwarder looks for records it was not told about (other buffers, retries elsewhere) */
const RESCAN_MS = 1000;
/** records a container sends per turn at most (fewer when --forward-batch is smaller) */
const TURN_RECORDS = 256;
const MAX_LISTED = 20;

/** the CSE answered, for this container only: it backs off alone */
class LaneFailure extends Error {}

/** the CSE cannot be reached, or its AE is gone: every container waits */
class CseFailure extends Error {
  constructor(
    message: string,
    /** the AE is gone (CSE restarted with an empty database): create it again before retrying */
    readonly missing = false,
  ) {
    super(message);
  }
}

interface Lane {
  container: string;
  /** the last seq it settled (delivered or refused): its next turn reads after it, without waiting for the marks */
  cursor: number;
  /** records it settled whose marks are not written yet: it stays known until they are */
  unsettled: number;
  /** the devices whose records go to this container (several only in shared mode or when keys collide) */
  devices: Set<string>;
  /** it may have pending records; false once a turn found none */
  active: boolean;
  queued: boolean;
  busy: boolean;
  attempt: number;
  nextAt: number;
  lastError: string | null;
  lastErrorAt: number | null;
}

type Outcome = { delivered: true } | { refused: Refusal };

/**
 * Delivered marks of all lanes, written together: one writer call at a time, and what lanes settle
 * meanwhile goes into the next one (under steady load a commit wakes tens of lanes with a record or
 * two each, and the writer thread also commits the ingest).
 */
class MarkQueue {
  private seqs: number[] = [];
  private waiting: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private writing = false;

  constructor(
    private readonly writer: BufferWriter,
    private readonly onMarked: (n: number) => void,
  ) {}

  mark(seqs: number[]): Promise<void> {
    if (seqs.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.seqs.push(...seqs);
      this.waiting.push({ resolve, reject });
      if (!this.writing) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    if (this.writing || this.waiting.length === 0) return;
    this.writing = true;
    const seqs = this.seqs.splice(0);
    const waiting = this.waiting.splice(0);
    this.writer.markForwarded(seqs).then(
      (n) => {
        this.writing = false;
        if (n) this.onMarked(n);
        for (const w of waiting) w.resolve();
        this.flush();
      },
      (e: unknown) => {
        this.writing = false;
        for (const w of waiting) w.reject(e);
        this.flush();
      },
    );
  }
}

export class Forwarder {
  private readonly client: M2mClient;
  private stopped = false;
  private started = false;
  private aeReady = false;
  private ensuringAe = false;
  private readonly containers = new Set<string>();
  private readonly lanes = new Map<string, Lane>();
  /** marks and refusals on their way to the writer */
  private readonly settling = new Set<Promise<void>>();
  /** the records of those: still pending in the buffer, so a lane sent back to the start skips them (not resent) */
  private readonly settlingSeqs = new Set<number>();
  /** the buffer's retry count last seen: a retry (by any process) sends every lane back to the start */
  private retriesSeen: number;
  /** lanes sent back to the start so far: a turn running meanwhile leaves its lane's cursor there */
  private rewinds = 0;
  /** lanes backing off (attempt > 0): what the published state lists */
  private readonly failing = new Set<Lane>();
  /** lanes waiting for a turn, in turn order */
  private rotation: Lane[] = [];
  private inFlight = 0;
  private rescanDue = true;
  private lastScan = 0;
  private timer: NodeJS.Timeout | undefined;
  private drained: (() => void) | undefined;
  /** the CSE-wide retry: attempts and when the next may start */
  private attempt = 0;
  private pausedUntil = 0;
  private state: ForwarderState = {
    state: "starting",
    lastError: null,
    lastErrorAt: null,
    attempt: 0,
    nextRetryAt: null,
  };
  /** what other processes read (the last state handed to the writer) */
  private written: string | undefined;
  private idleWrite: NodeJS.Timeout | undefined;
  private readonly turnRecords: number;
  private readonly marks: MarkQueue;

  constructor(
    /** read side: pending records (a connection of this thread) */
    private readonly buffer: RecordBuffer,
    /** write side: marks, refusals, names, counts and state go through the buffer's writer */
    private readonly writer: BufferWriter,
    private readonly target: CseTarget,
    private readonly opts: ForwarderOptions,
    private readonly log: (msg: string) => void,
    private readonly onForwarded: (n: number) => void = () => {},
  ) {
    this.client = new M2mClient(target, opts.name, opts.concurrency, opts.requestTimeoutMs);
    this.turnRecords = Math.max(1, Math.min(opts.batch, TURN_RECORDS));
    this.marks = new MarkQueue(writer, onForwarded);
    this.retriesSeen = buffer.retryGeneration();
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.publish({ state: "starting" });
    this.kick();
  }

  /** new records were committed for these devices */
  wake(devices: Iterable<string>): void {
    if (this.stopped) return;
    for (const d of devices) this.activate(this.laneOf(d));
    if (this.started) this.kick();
  }

  /** refused records were put back to pending (by this process; others are seen in the buffer's retry count) */
  retried(): void {
    if (this.stopped) return;
    this.rewind();
    if (this.started) this.kick();
  }

  /**
   * Retried records sit before the lanes' cursors: every lane reads from its oldest pending record
   * again, and a turn running now leaves its cursor there (its next turn starts from the start).
   */
  private rewind(): void {
    this.rewinds++;
    for (const lane of this.lanes.values()) lane.cursor = 0;
    this.rescanDue = true;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    // what was delivered is marked before the buffer closes
    await Promise.all(this.settling);
    this.client.close();
    clearTimeout(this.idleWrite);
    try {
      this.publish({ state: "stopped", nextRetryAt: null });
    } catch {
      // the buffer may already be closed by a failing shutdown; the state is informational
    }
  }

  get status(): ForwarderState {
    return this.state;
  }

  // ---- lanes ----------------------------------------------------------------------------------

  private laneOf(device: string): Lane {
    const container = containerFor(this.target, device);
    let lane = this.lanes.get(container);
    if (!lane)
      this.lanes.set(
        container,
        (lane = {
          container,
          cursor: 0,
          unsettled: 0,
          devices: new Set(),
          active: false,
          queued: false,
          busy: false,
          attempt: 0,
          nextAt: 0,
          lastError: null,
          lastErrorAt: null,
        }),
      );
    if (this.target.containerMode === "device") lane.devices.add(device);
    return lane;
  }

  private activate(lane: Lane): void {
    lane.active = true;
    if (!lane.queued && !lane.busy) {
      lane.queued = true;
      this.rotation.push(lane);
    }
  }

  /** the devices with pending records, looked up in the buffer (at start, after a retry, when idle) */
  private rescan(): void {
    this.rescanDue = false;
    this.lastScan = Date.now();
    if (this.target.containerMode === "shared") {
      if (this.buffer.pending(1).length > 0) this.activate(this.laneOf(""));
      return;
    }
    for (const d of this.buffer.pendingDevices()) this.activate(this.laneOf(d));
  }

  /** a lane with nothing to do, no failure to remember and no marks on their way is dropped (devices come and go) */
  private forgetIfDone(lane: Lane): void {
    if (
      !lane.active &&
      !lane.busy &&
      lane.attempt === 0 &&
      lane.unsettled === 0 &&
      this.lanes.get(lane.container) === lane
    )
      this.lanes.delete(lane.container);
  }

  /** the first lane in turn order that may go now; taken out of the rotation */
  private nextReady(now: number): Lane | undefined {
    const i = this.rotation.findIndex((l) => l.active && l.nextAt <= now);
    if (i < 0) return undefined;
    const [lane] = this.rotation.splice(i, 1);
    lane!.queued = false;
    return lane;
  }

  // ---- scheduling -----------------------------------------------------------------------------

  /** starts what may start now (the AE, turns of ready lanes) and arms a timer for what waits */
  private kick(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.stopped) return;
    const now = Date.now();
    if (now < this.pausedUntil) return this.arm(this.pausedUntil - now);
    if (!this.aeReady) {
      if (!this.ensuringAe) this.run(() => this.ensureAe());
      return;
    }
    // a retry made by another process (a replica answering POST /api/refused/retry) shows here
    const retries = this.buffer.retryGeneration();
    if (retries !== this.retriesSeen) {
      this.retriesSeen = retries;
      this.rewind();
    }
    if (this.rescanDue || now - this.lastScan >= RESCAN_MS) this.rescan();
    while (this.inFlight < this.opts.concurrency) {
      const lane = this.nextReady(now);
      if (!lane) break;
      lane.busy = true;
      this.run(
        () => this.turn(lane),
        () => {
          lane.busy = false;
          if (lane.active) this.activate(lane);
          else this.forgetIfDone(lane);
        },
      );
    }
    // what is left in the rotation waits for its backoff
    const waiting = this.rotation.filter((l) => l.active);
    if (this.inFlight > 0) {
      if (this.attempt === 0 && this.state.state !== "forwarding")
        this.publish({ state: "forwarding", nextRetryAt: null });
      // a finishing turn kicks again; a free slot must not wait for one to end when a backoff ends first
      if (this.inFlight < this.opts.concurrency && waiting.length > 0)
        this.arm(Math.min(...waiting.map((l) => l.nextAt)) - now);
      return;
    }
    // nothing running: wait for a lane's backoff, a wake, or the next look at the buffer
    const next = Math.min(...waiting.map((l) => l.nextAt), this.lastScan + RESCAN_MS);
    const state = waiting.length > 0 ? "retrying" : "idle";
    if (this.state.state !== state || this.state.nextRetryAt !== null) this.publish({ state, nextRetryAt: null });
    this.arm(next - now);
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), Math.max(0, ms));
  }

  /** runs one task; a CSE-wide failure pauses every lane */
  private run(task: () => Promise<void>, after?: () => void): void {
    this.inFlight++;
    void task()
      .then(
        () => {
          if (this.attempt > 0) {
            this.attempt = 0;
            this.publish({ state: "forwarding", nextRetryAt: null });
          }
        },
        (e: unknown) => this.cseFailed(e),
      )
      .finally(() => {
        this.inFlight--;
        after?.();
        if (this.stopped) {
          if (this.inFlight === 0) this.drained?.();
        } else this.kick();
      })
      .catch((e: unknown) => this.log(`forwarder internal error: ${(e as Error).stack ?? String(e)}`));
  }

  private cseFailed(e: unknown): void {
    if (this.stopped) return;
    const f = e instanceof CseFailure ? e : new CseFailure(`CSE unreachable: ${(e as Error).message}`);
    if (f.missing) {
      this.aeReady = false;
      this.containers.clear();
    }
    const now = Date.now();
    // failures of turns that were already running count once per pause
    if (now < this.pausedUntil) return;
    this.attempt++;
    this.writer.count("forward_failures");
    const delay = backoffDelay(this.attempt, this.opts.retryBaseMs, this.opts.retryMaxMs);
    this.pausedUntil = now + delay;
    if (this.attempt === 1 || this.attempt % 10 === 0)
      this.log(`forwarding failed (attempt ${this.attempt}, retry in ${delay} ms): ${f.message}`);
    this.publish({ state: "retrying", lastError: f.message, lastErrorAt: now, nextRetryAt: now + delay });
  }

  private laneFailed(lane: Lane, message: string): void {
    const now = Date.now();
    lane.attempt++;
    const delay = backoffDelay(lane.attempt, this.opts.retryBaseMs, this.opts.retryMaxMs);
    lane.nextAt = now + delay;
    lane.lastError = message;
    lane.lastErrorAt = now;
    this.failing.add(lane);
    this.writer.count("forward_failures");
    if (lane.attempt === 1 || lane.attempt % 10 === 0)
      this.log(`container ${lane.container} failed (attempt ${lane.attempt}, retry in ${delay} ms): ${message}`);
    this.publish({});
  }

  private laneRecovered(lane: Lane): void {
    if (lane.attempt === 0) return;
    this.log(`container ${lane.container} is taking records again after ${lane.attempt} failed attempt(s)`);
    lane.attempt = 0;
    lane.nextAt = 0;
    lane.lastError = null;
    lane.lastErrorAt = null;
    this.failing.delete(lane);
    this.publish({});
  }

  // ---- state for other processes --------------------------------------------------------------

  private publish(change: Partial<ForwarderState>): void {
    const failing = [...this.failing];
    failing.sort((a, b) => b.attempt - a.attempt || a.container.localeCompare(b.container));
    this.state = {
      ...this.state,
      ...change,
      attempt: this.attempt,
      failing: failing.slice(0, MAX_LISTED).map((l) => ({
        container: l.container,
        attempt: l.attempt,
        lastError: l.lastError ?? "",
        lastErrorAt: l.lastErrorAt ?? 0,
        nextRetryAt: l.nextAt,
      })),
      failingContainers: failing.length,
    };
    clearTimeout(this.idleWrite);
    this.idleWrite = undefined;
    if (this.state.state === "idle") this.idleWrite = setTimeout(() => this.write(), IDLE_WRITE_DELAY_MS).unref();
    else this.write();
  }

  private write(): void {
    const next = this.state;
    // the same facts need no second write (lastErrorAt moves with every failure of the same kind)
    const key = JSON.stringify([
      next.state,
      next.lastError,
      next.nextRetryAt,
      next.failing?.map((f) => [f.container, f.lastError, f.nextRetryAt]),
    ]);
    if (key === this.written) return;
    this.written = key;
    this.writer.setStatus(FORWARDER_STATUS_KEY, next);
  }

  // ---- the CSE --------------------------------------------------------------------------------

  private async ensureAe(): Promise<void> {
    this.ensuringAe = true;
    try {
      const r = await this.client.createAe();
      if (!createdOrExists(r) && !aeAlreadyRegistered(r))
        throw new CseFailure(`creating AE ${this.target.ae}: ${reason(r)}`);
      this.aeReady = true;
    } finally {
      this.ensuringAe = false;
    }
  }

  private async ensureContainer(name: string): Promise<void> {
    if (this.containers.has(name)) return;
    const r = await this.client.createContainer(name);
    if (isNotFound(r)) throw new CseFailure(`creating container ${name}: ${reason(r)}`, true);
    if (!createdOrExists(r)) throw new LaneFailure(`creating container ${this.target.ae}/${name}: ${reason(r)}`);
    this.containers.add(name);
  }

  /**
   * One turn of a lane: up to turnRecords of its oldest pending records after its cursor, strictly
   * one after the other. Their marks go to the writer without the lane waiting for them: its next
   * turn reads after the cursor, so it neither resends them nor waits for a commit of the writer
   * thread (which also commits the ingest, with its fsync).
   */
  private async turn(lane: Lane): Promise<void> {
    const rewinds = this.rewinds;
    const delivered: number[] = [];
    const refused: { seq: number; refusal: Refusal }[] = [];
    try {
      await this.ensureContainer(lane.container);
      const records =
        this.target.containerMode === "shared"
          ? this.buffer.pending(this.turnRecords, lane.cursor)
          : this.buffer.pendingOf([...lane.devices], this.turnRecords, lane.cursor);
      if (records.length === 0) {
        lane.active = false;
        return this.laneRecovered(lane);
      }
      // settled by an earlier turn, their marks not yet written when read (read again after a rewind)
      const settled = new Set(records.filter((r) => this.settlingSeqs.has(r.seq)).map((r) => r.seq));
      for (const r of records) {
        if (this.stopped) return;
        if (settled.has(r.seq)) {
          if (rewinds === this.rewinds) lane.cursor = r.seq;
          continue;
        }
        const outcome = await this.deliver(lane.container, r);
        if ("delivered" in outcome) delivered.push(r.seq);
        else {
          // set aside with the CSE's answer; the records after it go on (docs/stack.md, refused records)
          refused.push({ seq: r.seq, refusal: outcome.refused });
          this.log(
            `the CSE refused ${r.messageId} for good (${lane.container}/${outcome.refused.rn}): HTTP ${outcome.refused.status}/RSC ${outcome.refused.rsc} ${outcome.refused.reason}`,
          );
        }
        // sent back to the start meanwhile (a retry): the next turn reads from there
        if (rewinds === this.rewinds) lane.cursor = r.seq;
      }
      this.laneRecovered(lane);
    } catch (e) {
      if (!(e instanceof LaneFailure)) throw e;
      this.laneFailed(lane, e.message);
    } finally {
      this.settle(lane, delivered, refused);
    }
  }

  private settle(lane: Lane, delivered: number[], refused: { seq: number; refusal: Refusal }[]): void {
    const n = delivered.length + refused.length;
    if (n === 0) return;
    lane.unsettled += n;
    const seqs = [...delivered, ...refused.map((r) => r.seq)];
    for (const seq of seqs) this.settlingSeqs.add(seq);
    const done: Promise<void> = Promise.all([this.marks.mark(delivered), this.writer.refuse(refused)])
      .then(
        () => {},
        // the writer thread is gone (the decoder stops on it): the records stay pending, resent after a restart
        (e: unknown) => this.log(`could not mark ${n} record(s) of ${lane.container}: ${(e as Error).message}`),
      )
      .finally(() => {
        this.settling.delete(done);
        for (const seq of seqs) this.settlingSeqs.delete(seq);
        lane.unsettled -= n;
        this.forgetIfDone(lane);
      });
    this.settling.add(done);
  }

  /** Sends one record until it is delivered (verified) or refused for good; throws what should be retried. */
  private async deliver(container: string, stored: StoredRecord): Promise<Outcome> {
    let r = stored;
    let rn = r.rn ?? r.messageId;
    if (rn.length > MAX_RESOURCE_NAME) {
      // stored by a decoder before issue 22: delivered under it before (to a CSE that took it)?
      const s = settleName("old-name", await this.client.retrieveInstance(container, rn), r, container);
      if (s.kind === "delivered") return { delivered: true };
      if (s.kind === "failed")
        throw new LaneFailure(`looking for ${container}/${rn} before renaming it: ${reason(s.answer)}`);
      if (s.kind === "refuse") return { refused: s.refusal };
      await this.writer.rename(r.seq, s.rn);
      r = { ...r, rn: s.rn };
      rn = s.rn;
    }
    let recreated = false;
    for (;;) {
      const res = await this.client.createContentInstance(container, rn, r.con, instanceLabels(r.messageId, rn));
      switch (classifyInstance(res)) {
        case "created":
          return { delivered: true };
        case "refused":
          return { refused: refusalOf(res, container, rn) };
        case "retry":
          throw new LaneFailure(`posting ${r.messageId} to ${this.target.ae}/${container}: ${reason(res)}`);
        case "missing":
          // the container is gone (deleted, or the CSE lost its tree): create it once more, then resend
          this.containers.delete(container);
          if (recreated)
            throw new LaneFailure(`posting ${r.messageId} to ${this.target.ae}/${container}: ${reason(res)}`);
          recreated = true;
          await this.ensureContainer(container);
          continue;
        case "conflict": {
          const s = settleName("taken", await this.client.retrieveInstance(container, rn), r, container);
          if (s.kind === "delivered") {
            this.writer.count("conflicts_verified");
            return { delivered: true };
          }
          if (s.kind === "failed")
            throw new LaneFailure(`reading back ${container}/${rn} after 409: ${reason(s.answer)}`);
          if (s.kind === "refuse") return { refused: s.refusal };
          await this.writer.rename(r.seq, s.rn);
          this.writer.count("repairs");
          this.log(s.note);
          r = { ...r, rn: s.rn };
          rn = s.rn;
          continue;
        }
      }
    }
  }
}
