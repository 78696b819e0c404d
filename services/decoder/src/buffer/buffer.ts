// One durable SQLite buffer (WAL). Writes come in batches from the group commit; the forwarder reads
// pending rows in order and marks them delivered; the read API and the dashboard query it.
import { mkdirSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { BUFFER_MIGRATIONS, COUNTERS, type CounterName, type Counters } from "./schema.ts";

export interface NewRecord {
  messageId: string;
  /** the cin's resource name; omitted: the message id */
  rn?: string | undefined;
  receivedAt: number;
  layout: string;
  format: string;
  device: string;
  size: number;
  jsonSize: number;
  con: string;
  /** values beyond the layout stored as sent: counted per field (counters `flagged:<kind>:<field>`) */
  flagged?: readonly { field: string; kind: "precision" | "range" }[] | undefined;
}

/** per field and kind, how many stored records carried a value beyond the layout */
export interface FlagCounts {
  /** records with at least one */
  records: number;
  fields: { field: string; kind: "precision" | "range"; count: number }[];
}

export interface DeadLetter {
  receivedAt: number;
  layout: string;
  format: string;
  messageId: string | undefined;
  reason: string;
  body: Uint8Array;
}

export interface StoredRecord {
  seq: number;
  messageId: string;
  /** null: the message id is the resource name */
  rn: string | null;
  receivedAt: number;
  layout: string;
  format: string;
  device: string;
  size: number;
  jsonSize: number;
  con: string;
  forwardedAt: number | null;
  /** set while the record is in the refused state (the CSE's answer in `refusal`) */
  refusedAt: number | null;
}

/** the CSE's answer to a record it refused for good, kept with the record */
export interface Refusal {
  /** HTTP status and X-M2M-RSC (0: none) */
  status: number;
  rsc: number;
  /** the m2m:dbg text (or the start of the body) */
  reason: string;
  /** the container and name it was sent to */
  container: string;
  rn: string;
  at: number;
}

/** a refused record as the read API lists it (no content) */
export interface RefusedRecord {
  seq: number;
  messageId: string;
  device: string;
  receivedAt: number;
  refusal: Refusal;
}

/** which refused records a retry puts back to pending: all, a container's, or some by seq */
export interface RetryFilter {
  container?: string | undefined;
  seqs?: number[] | undefined;
}

/** counters the forwarder moves on its own (no row changes with them) */
export type ForwarderCounter = "forward_failures" | "repairs" | "conflicts_verified";

export type BatchItem =
  | { kind: "record"; record: NewRecord }
  /** the readings of one batch message: stored all or none (a crash never leaves half a message) */
  | { kind: "readings"; records: NewRecord[] }
  | { kind: "dead"; dead: DeadLetter }
  | { kind: "rejected" };
/**
 * per item: the record's seq and whether its message id was already stored; undefined for the
 * others. For `readings`: the first reading's seq, `stored` how many were new, duplicate when none.
 */
export type BatchResult = { seq: number; duplicate: boolean; stored?: number } | undefined;

/** what the CSE is handed of a stored record */
export type DeliveredRecord = Pick<StoredRecord, "seq" | "messageId" | "rn" | "device" | "con">;

/**
 * Hands a stored record to the CSE inside the buffer's own transaction (the in-process CSE shares
 * the connection). Throwing undoes that record alone when `refused(error)` says the CSE refused it;
 * any other error aborts the whole transaction.
 */
export interface Delivery {
  deliver(record: DeliveredRecord): void;
  refused(e: unknown): e is Error;
  /**
   * For a record left pending by a forwarding run whose delivery threw: the CSE's answer to keep
   * with it (refused for good), "later" (it stays pending and is looked at outside the transaction,
   * e.g. a taken name to read back), or undefined (abort the transaction).
   */
  leftover(e: unknown): Refusal | "later" | undefined;
  /**
   * Called before a batch message's readings are delivered; the function it returns forgets what
   * was delivered since (its notifications), when a refused reading undoes the whole message.
   */
  savepoint?(): () => void;
}

export interface BufferOptions {
  synchronous?: "full" | "normal";
  nativeBinding?: string | undefined;
}

export const RECORD_COLUMNS =
  "seq, message_id AS messageId, rn, received_at AS receivedAt, layout, format, device, size, json_size AS jsonSize, con, forwarded_at AS forwardedAt, refused_at AS refusedAt";

/** neither forwarded nor refused: the forwarder's work (the partial indexes' condition) */
const PENDING = "forwarded_at IS NULL AND refused_at IS NULL";

function prepare(db: Database.Database) {
  return {
    // forwarded_at NULL: pending for the forwarder
    insert: db.prepare(
      "INSERT OR IGNORE INTO records (message_id, rn, received_at, layout, format, device, size, json_size, con, forwarded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ),
    seqOf: db.prepare("SELECT seq FROM records WHERE message_id = ?").pluck(),
    byMessageId: db.prepare(`SELECT ${RECORD_COLUMNS} FROM records WHERE message_id = ?`),
    device: db.prepare(
      "INSERT INTO devices (device, last_seq, count) VALUES (?, ?, 1) ON CONFLICT (device) DO UPDATE SET last_seq = excluded.last_seq, count = count + 1",
    ),
    dead: db.prepare(
      "INSERT INTO dead_letters (received_at, layout, format, message_id, size, reason, body) VALUES (?, ?, ?, ?, ?, ?, ?)",
    ),
    bump: db.prepare("UPDATE counters SET value = value + ? WHERE name = ?"),
    // flag counters are named by field, so they appear with the first flagged record
    bumpNamed: db.prepare(
      "INSERT INTO counters (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = value + excluded.value",
    ),
    counters: db.prepare("SELECT name, value FROM counters"),
    flagCounters: db.prepare("SELECT name, value FROM counters WHERE name LIKE 'flagged%'"),
    pending: db.prepare(`SELECT ${RECORD_COLUMNS} FROM records WHERE ${PENDING} AND seq > ? ORDER BY seq LIMIT ?`),
    pendingOfDevice: db.prepare(
      `SELECT ${RECORD_COLUMNS} FROM records WHERE ${PENDING} AND device = ? AND seq > ? ORDER BY seq LIMIT ?`,
    ),
    pendingOfDevices: db.prepare(
      `SELECT ${RECORD_COLUMNS} FROM records WHERE ${PENDING} AND device IN (SELECT value FROM json_each(?)) AND seq > ? ORDER BY seq LIMIT ?`,
    ),
    // one index seek per device with pending records, however many records each has
    pendingDevices: db
      .prepare(
        `WITH RECURSIVE d(device) AS (
           SELECT min(device) FROM records WHERE ${PENDING}
           UNION ALL
           SELECT (SELECT min(device) FROM records WHERE ${PENDING} AND device > d.device) FROM d WHERE d.device IS NOT NULL
         ) SELECT device FROM d WHERE device IS NOT NULL`,
      )
      .pluck(),
    pendingCount: db.prepare(`SELECT count(*) FROM records WHERE ${PENDING}`).pluck(),
    mark: db.prepare(`UPDATE records SET forwarded_at = ? WHERE seq = ? AND ${PENDING}`),
    rename: db.prepare("UPDATE records SET rn = ? WHERE seq = ?"),
    refuse: db.prepare(`UPDATE records SET refused_at = ?, refusal = ? WHERE seq = ? AND ${PENDING}`),
    retryAll: db.prepare("UPDATE records SET refused_at = NULL, refusal = NULL WHERE refused_at IS NOT NULL"),
    retryContainer: db.prepare(
      "UPDATE records SET refused_at = NULL, refusal = NULL WHERE refused_at IS NOT NULL AND json_extract(refusal, '$.container') = ?",
    ),
    retryOne: db.prepare(
      "UPDATE records SET refused_at = NULL, refusal = NULL WHERE refused_at IS NOT NULL AND seq = ?",
    ),
    // how many retries put records back, for forwarders of other processes to notice (status: JSON text)
    bumpRetries: db.prepare(
      `INSERT INTO status (key, value) VALUES ('${RETRIES_KEY}', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`,
    ),
    refused: db.prepare(
      "SELECT seq, message_id AS messageId, device, received_at AS receivedAt, refusal FROM records WHERE refused_at IS NOT NULL ORDER BY seq DESC LIMIT ?",
    ),
    refusedOf: db.prepare(
      "SELECT seq, message_id AS messageId, device, received_at AS receivedAt, refusal FROM records WHERE refused_at IS NOT NULL AND json_extract(refusal, '$.container') = ? ORDER BY seq DESC LIMIT ?",
    ),
    refusedByContainer: db.prepare(
      "SELECT json_extract(refusal, '$.container') AS container, count(*) AS refused, max(refused_at) AS lastAt FROM records WHERE refused_at IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1",
    ),
    after: db.prepare(`SELECT ${RECORD_COLUMNS} FROM records WHERE seq > ? ORDER BY seq DESC LIMIT ?`),
    maxSeq: db.prepare("SELECT coalesce(max(seq), 0) FROM records").pluck(),
    latest: db.prepare(
      `SELECT ${RECORD_COLUMNS.replace(/(^|, )(\w+)/g, "$1r.$2")} FROM devices d JOIN records r ON r.seq = d.last_seq ORDER BY r.received_at DESC, r.seq DESC LIMIT ?`,
    ),
    latestOf: db.prepare(
      `SELECT ${RECORD_COLUMNS.replace(/(^|, )(\w+)/g, "$1r.$2")} FROM devices d JOIN records r ON r.seq = d.last_seq WHERE d.device = ?`,
    ),
    devices: db.prepare("SELECT device FROM devices").pluck(),
    deadLetters: db.prepare(
      "SELECT id, received_at AS receivedAt, layout, format, message_id AS messageId, size, reason FROM dead_letters ORDER BY id DESC LIMIT ?",
    ),
    ids: db.prepare("SELECT message_id FROM records ORDER BY seq").pluck(),
    setStatus: db.prepare(
      "INSERT INTO status (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ),
    getStatus: db.prepare("SELECT value FROM status WHERE key = ?").pluck(),
  };
}

/** the status key counting the retries that put refused records back to pending */
const RETRIES_KEY = "retries";

/** the rn column: null when the resource name is the message id */
const storedRn = (r: NewRecord): string | null => (r.rn !== undefined && r.rn !== r.messageId ? r.rn : null);

const FLAGGED_RECORDS = "flagged";

/** a batch message's result: its first reading's seq and how many of its readings were new */
function readingsResult(results: readonly { seq: number; duplicate: boolean }[]): BatchResult & object {
  const stored = results.filter((r) => !r.duplicate).length;
  return { seq: results[0]?.seq ?? 0, duplicate: stored === 0, stored };
}

/** what one transaction adds to the counters, bumped once when it ends (not once per row) */
class Tally {
  accepted = 0;
  duplicates = 0;
  rejected = 0;
  dead = 0;
  ratio = 0;
  forwarded = 0;
  /** counter name → records, for `flagged` and `flagged:<kind>:<field>` */
  readonly flagged = new Map<string, number>();

  record(r: NewRecord, result: { duplicate: boolean }, forwarded: boolean): void {
    if (result.duplicate) {
      this.duplicates++;
      return;
    }
    this.accepted++;
    this.ratio += r.size > 0 ? r.jsonSize / r.size : 0;
    if (forwarded) this.forwarded++;
    if (r.flagged?.length) {
      this.flag(FLAGGED_RECORDS);
      // a field flagged twice in one record (two array elements) counts once for that record
      for (const name of new Set(r.flagged.map((x) => `${FLAGGED_RECORDS}:${x.kind}:${x.field}`))) this.flag(name);
    }
  }

  private flag(name: string): void {
    this.flagged.set(name, (this.flagged.get(name) ?? 0) + 1);
  }

  counters(): Partial<Counters> {
    const { accepted, duplicates, rejected, dead, ratio, forwarded } = this;
    return { accepted, duplicates, rejected, dead_letters: dead, ratio_sum: ratio, forwarded };
  }
}

export class RecordBuffer {
  readonly db: Database.Database;
  private readonly q: ReturnType<typeof prepare>;
  private readonly writeBatch: (items: BatchItem[]) => BatchResult[];
  private readonly markBatch: (seqs: number[], at: number) => number;
  private readonly refuseBatch: (refusals: readonly { seq: number; refusal: Refusal }[]) => number;
  private readonly retryBatch: (filter: RetryFilter) => number;
  private readonly writeOneDelivered: (record: NewRecord, delivery: Delivery, at: number) => BatchResult & object;
  private readonly writeReadingsDelivered: (
    records: NewRecord[],
    delivery: Delivery,
    at: number,
    tally: Tally,
  ) => BatchResult & object;
  private readonly writeAllDelivered: (items: BatchItem[], delivery: Delivery, at: number) => (BatchResult | Error)[];
  private readonly markOneDelivered: (record: StoredRecord, delivery: Delivery, at: number) => void;
  private readonly full: boolean;

  constructor(
    readonly file: string,
    opts: BufferOptions = {},
  ) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.db = new Database(file, opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {});
    try {
      this.db.pragma("journal_mode = WAL");
      // FULL: a commit is on disk (fsync) before the ingest answer goes out, so an acknowledged record
      // survives power loss, not only a crash of this process
      this.full = opts.synchronous !== "normal";
      this.db.pragma(`synchronous = ${this.full ? "FULL" : "NORMAL"}`);
      // other workers' readers and the forwarder of a restarted worker may hold the lock briefly
      this.db.pragma("busy_timeout = 5000");
      migrate(this.db);
      this.q = prepare(this.db);
    } catch (e) {
      this.db.close();
      throw e;
    }
    this.writeBatch = this.db.transaction((items: BatchItem[]) => {
      const tally = new Tally();
      const out = items.map((it) => this.writeItem(it, null, tally));
      this.bumpTally(tally);
      return out;
    });
    this.markBatch = this.db.transaction((seqs: number[], at: number) => {
      let n = 0;
      for (const s of seqs) n += this.q.mark.run(at, s).changes;
      this.bump({ forwarded: n });
      return n;
    });
    this.refuseBatch = this.db.transaction((refusals: readonly { seq: number; refusal: Refusal }[]) => {
      let n = 0;
      for (const { seq, refusal } of refusals) n += this.q.refuse.run(refusal.at, JSON.stringify(refusal), seq).changes;
      this.bump({ refused: n });
      return n;
    });
    this.retryBatch = this.db.transaction((filter: RetryFilter) => {
      let n = 0;
      if (filter.seqs) for (const seq of filter.seqs) n += this.q.retryOne.run(seq).changes;
      else if (filter.container !== undefined) n = this.q.retryContainer.run(filter.container).changes;
      else n = this.q.retryAll.run().changes;
      this.bump({ refused: -n });
      if (n > 0) this.q.bumpRetries.run();
      return n;
    });
    // a nested db.transaction() runs as a savepoint: a refused record is undone with its delivery alone
    this.writeOneDelivered = this.db.transaction((record: NewRecord, delivery: Delivery, at: number) => {
      const r = this.insert(record, at);
      if (!r.duplicate)
        delivery.deliver({
          seq: r.seq,
          messageId: record.messageId,
          rn: storedRn(record),
          device: record.device,
          con: record.con,
        });
      return r;
    });
    this.writeAllDelivered = this.db.transaction((items: BatchItem[], delivery: Delivery, at: number) => {
      const tally = new Tally();
      const out = items.map((it): BatchResult | Error => {
        if (it.kind === "readings") {
          const undo = delivery.savepoint?.();
          try {
            return this.writeReadingsDelivered(it.records, delivery, at, tally);
          } catch (e) {
            // one reading refused: the savepoint took the message's other readings back with it
            if (!delivery.refused(e)) throw e;
            undo?.();
            return e;
          }
        }
        if (it.kind !== "record") return this.writeItem(it, null, tally);
        let r: BatchResult & object;
        try {
          r = this.writeOneDelivered(it.record, delivery, at);
        } catch (e) {
          if (delivery.refused(e)) return e;
          throw e;
        }
        tally.record(it.record, r, true);
        return r;
      });
      this.bumpTally(tally);
      return out;
    });
    // a savepoint of its own: a reading the CSE refuses undoes the message's readings (and their
    // instances) before it, and the message's tally is counted only when all of it went in
    this.writeReadingsDelivered = this.db.transaction(
      (records: NewRecord[], delivery: Delivery, at: number, tally: Tally) => {
        const results = records.map((record) => this.writeOneDelivered(record, delivery, at));
        records.forEach((record, i) => tally.record(record, results[i]!, true));
        return readingsResult(results);
      },
    );
    this.markOneDelivered = this.db.transaction((record: StoredRecord, delivery: Delivery, at: number) => {
      delivery.deliver(record);
      this.markBatch([record.seq], at);
    });
  }

  /**
   * write() where each new record also reaches the CSE in the same transaction and is stored as
   * forwarded: one commit (one fsync) makes the record and its contentInstance durable together.
   * A record the CSE refuses is not stored; its result is the refusal.
   */
  writeDelivered(items: BatchItem[], delivery: Delivery, at = Date.now()): (BatchResult | Error)[] {
    return this.writeAllDelivered(items, delivery, at);
  }

  /**
   * Delivers records stored before the CSE shared this transaction (left pending by a run that
   * forwarded over HTTP), in seq order, each marked forwarded with its delivery. A record the CSE
   * refuses for good goes to the refused state; one it answers "later" for stays pending and is
   * returned, for the caller to look at outside the transaction.
   */
  deliverPending(
    delivery: Delivery,
    limit: number,
    at = Date.now(),
  ): { delivered: number; refused: number; later: StoredRecord[] } {
    return this.db.transaction(() => {
      let delivered = 0;
      let refused = 0;
      const later: StoredRecord[] = [];
      for (const r of this.pending(limit)) {
        try {
          this.markOneDelivered(r, delivery, at);
          delivered++;
        } catch (e) {
          const outcome = delivery.leftover(e);
          if (outcome === undefined) throw e;
          if (outcome === "later") later.push(r);
          else refused += this.refuseBatch([{ seq: r.seq, refusal: outcome }]);
        }
      }
      return { delivered, refused, later };
    })();
  }

  /** Stores a record; `forwardedAt` set: it is in the CSE already (stored as forwarded, never pending). */
  private insert(r: NewRecord, forwardedAt: number | null): BatchResult & object {
    const info = this.q.insert.run(
      r.messageId,
      storedRn(r),
      r.receivedAt,
      r.layout,
      r.format,
      r.device,
      r.size,
      r.jsonSize,
      r.con,
      forwardedAt,
    );
    if (info.changes === 0) return { seq: this.q.seqOf.get(r.messageId) as number, duplicate: true };
    const seq = Number(info.lastInsertRowid);
    this.q.device.run(r.device, seq);
    return { seq, duplicate: false };
  }

  private writeItem(it: BatchItem, forwardedAt: number | null, tally: Tally): BatchResult {
    if (it.kind === "readings") {
      // inside the commit's one transaction: a reading that fails aborts it, so none of the
      // message's readings is stored and its sender (told the commit failed) sends it again
      const results = it.records.map((record) => this.insert(record, forwardedAt));
      it.records.forEach((record, i) => tally.record(record, results[i]!, forwardedAt !== null));
      return readingsResult(results);
    }
    if (it.kind === "record") {
      const r = this.insert(it.record, forwardedAt);
      tally.record(it.record, r, forwardedAt !== null);
      return r;
    }
    if (it.kind === "dead") {
      const d = it.dead;
      this.q.dead.run(d.receivedAt, d.layout, d.format, d.messageId ?? null, d.body.length, d.reason, d.body);
      tally.dead++;
    }
    tally.rejected++;
    return undefined;
  }

  private bump(delta: Partial<Counters>): void {
    for (const [name, v] of Object.entries(delta)) if (v) this.q.bump.run(v, name);
  }

  private bumpTally(tally: Tally): void {
    this.bump(tally.counters());
    for (const [name, v] of tally.flagged) this.q.bumpNamed.run(name, v);
  }

  /** One transaction for the whole batch: one fsync however many requests it answers. */
  write(items: BatchItem[]): BatchResult[] {
    return this.writeBatch(items);
  }

  /**
   * Runs bookkeeping that may be lost on a power cut without an fsync of its own: forwarded marks
   * (a lost mark means a resend the CSE answers 409 = delivered), forward-failure counts and the
   * forwarder's state. WAL frames are appended in order, so the next FULL commit (the next
   * acknowledged batch) makes them durable too; a crash of the process loses nothing committed.
   */
  private withoutFsync<T>(fn: () => T): T {
    if (!this.full) return fn();
    this.db.pragma("synchronous = NORMAL");
    try {
      return fn();
    } finally {
      this.db.pragma("synchronous = FULL");
    }
  }

  /** the oldest pending records (after seq `after`), whatever their container */
  pending(limit: number, after = 0): StoredRecord[] {
    return this.q.pending.all(after, limit) as StoredRecord[];
  }

  /** the oldest pending records of these devices (one container's) after seq `after`, in seq order */
  pendingOf(devices: readonly string[], limit: number, after = 0): StoredRecord[] {
    if (devices.length === 1) return this.q.pendingOfDevice.all(devices[0], after, limit) as StoredRecord[];
    return this.q.pendingOfDevices.all(JSON.stringify(devices), after, limit) as StoredRecord[];
  }

  /** the devices that have pending records */
  pendingDevices(): string[] {
    return this.q.pendingDevices.all() as string[];
  }

  pendingCount(): number {
    return this.q.pendingCount.get() as number;
  }

  markForwarded(seqs: number[], at = Date.now()): number {
    return seqs.length ? this.withoutFsync(() => this.markBatch(seqs, at)) : 0;
  }

  /**
   * The record goes to the CSE under this name from now on: an old name too long for Mobius, or the
   * next name after a conflict that was not ours. Stored before the create is sent, so a resend
   * after a crash uses it too.
   */
  rename(seq: number, rn: string): void {
    this.withoutFsync(() => this.q.rename.run(rn, seq));
  }

  /** Puts pending records into the refused state with the CSE's answer; returns how many moved. */
  refuse(refusals: readonly { seq: number; refusal: Refusal }[]): number {
    return refusals.length ? this.withoutFsync(() => this.refuseBatch(refusals)) : 0;
  }

  /** Puts refused records back to pending (the user fixed the cause); returns how many. */
  retryRefused(filter: RetryFilter = {}): number {
    return this.retryBatch(filter);
  }

  /**
   * How many retries have put refused records back to pending in this buffer, whichever process
   * made them: a forwarder that sees it change reads its containers from the oldest pending record
   * again (the retried ones sit before where its lanes had got to).
   */
  retryGeneration(): number {
    return this.status<number>(RETRIES_KEY) ?? 0;
  }

  count(counter: ForwarderCounter, n = 1): void {
    this.withoutFsync(() => this.bump({ [counter]: n }));
  }

  /** refused records, newest first */
  refused(limit: number, container?: string): RefusedRecord[] {
    const rows = (
      container === undefined ? this.q.refused.all(limit) : this.q.refusedOf.all(container, limit)
    ) as (Omit<RefusedRecord, "refusal"> & { refusal: string })[];
    return rows.map((r) => ({ ...r, refusal: JSON.parse(r.refusal) as Refusal }));
  }

  refusedByContainer(): { container: string; refused: number; lastAt: number }[] {
    return this.q.refusedByContainer.all() as { container: string; refused: number; lastAt: number }[];
  }

  counters(): Counters {
    const c = Object.fromEntries(COUNTERS.map((n) => [n, 0])) as Counters;
    for (const row of this.q.counters.all() as { name: CounterName; value: number }[])
      if (row.name in c) c[row.name] = row.value;
    return c;
  }

  /** records stored with values beyond their layout, in all and per field and kind */
  flagCounts(): FlagCounts {
    const out: FlagCounts = { records: 0, fields: [] };
    for (const row of this.q.flagCounters.all() as { name: string; value: number }[]) {
      if (row.name === FLAGGED_RECORDS) out.records = row.value;
      const m = /^flagged:(precision|range):(.+)$/.exec(row.name);
      if (m) out.fields.push({ field: m[2]!, kind: m[1] as "precision" | "range", count: row.value });
    }
    return out;
  }

  maxSeq(): number {
    return this.q.maxSeq.get() as number;
  }

  /** newest first */
  recordsAfter(seq: number, limit: number): StoredRecord[] {
    return this.q.after.all(seq, limit) as StoredRecord[];
  }

  /** the paper's get-latest-data: the newest record of each device, newest first */
  latest(limit: number, device?: string): StoredRecord[] {
    if (device !== undefined) return this.q.latestOf.all(device) as StoredRecord[];
    return this.q.latest.all(limit) as StoredRecord[];
  }

  /** the record stored under this message id (its name in the CSE, delivered or refused) */
  byMessageId(messageId: string): StoredRecord | undefined {
    return this.q.byMessageId.get(messageId) as StoredRecord | undefined;
  }

  devices(): string[] {
    return this.q.devices.all() as string[];
  }

  deadLetters(limit: number): {
    id: number;
    receivedAt: number;
    layout: string;
    format: string;
    messageId: string | null;
    size: number;
    reason: string;
  }[] {
    return this.q.deadLetters.all(limit) as ReturnType<RecordBuffer["deadLetters"]>;
  }

  /** small JSON facts other processes read (the forwarder's state): written on change, not per record */
  setStatus(key: string, value: unknown): void {
    this.withoutFsync(() => this.q.setStatus.run(key, JSON.stringify(value)));
  }

  status<T>(key: string): T | undefined {
    const v = this.q.getStatus.get(key) as string | undefined;
    return v === undefined ? undefined : (JSON.parse(v) as T);
  }

  messageIds(): string[] {
    return this.q.ids.all() as string[];
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function migrate(db: Database.Database): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  if (current > BUFFER_MIGRATIONS.length)
    throw new Error(
      `${db.name} was written by a newer decoder (schema ${current}, this one knows ${BUFFER_MIGRATIONS.length})`,
    );
  if (current === BUFFER_MIGRATIONS.length) return;
  db.transaction(() => {
    for (let v = current; v < BUFFER_MIGRATIONS.length; v++) db.exec(BUFFER_MIGRATIONS[v]!);
    const seed = db.prepare("INSERT OR IGNORE INTO counters (name, value) VALUES (?, 0)");
    for (const n of COUNTERS) seed.run(n);
    db.pragma(`user_version = ${BUFFER_MIGRATIONS.length}`);
  }).immediate();
}
