// Every buffer in the data directory, for reading: replicas write their own file, and any of them can
// answer /api/stats, /api/latest and the event stream for all (SQLite readers never block the writer).
import { readdirSync } from "node:fs";
import path from "node:path";
import {
  RecordBuffer,
  type BufferOptions,
  type FlagCounts,
  type RefusedRecord,
  type RetryFilter,
  type StoredRecord,
} from "../buffer/buffer.ts";
import { BUFFER_FILE } from "../buffer/schema.ts";
import { FORWARDER_STATUS_KEY, type ForwarderState } from "../forward/forwarder.ts";

export interface BufferStats {
  index: number;
  records: number;
  /** records = delivered + pending + refused */
  delivered: number;
  pending: number;
  refused: number;
  /** = pending (the name before refused records were told apart) */
  backlog: number;
  /** = delivered */
  forwarded: number;
  forwarder: ForwarderState | null;
}

/** a container that needs someone's attention: records the CSE refused, or it is backing off */
export interface ContainerTrouble {
  container: string;
  /** refused records waiting for a retry */
  refused: number;
  lastRefusedAt: number | null;
  /** backing off alone (the last failure), or null */
  failing: { attempt: number; lastError: string; lastErrorAt: number; nextRetryAt: number } | null;
}

export interface DecoderStats {
  at: number;
  records: number;
  duplicates: number;
  rejected: number;
  deadLetters: number;
  uniqueDevices: number;
  /** acknowledged / all ingest requests answered; null before the first */
  successRate: number | null;
  /** mean over records of (size of the record as the layout's JSON) / (bytes received) */
  meanCompressionRatio: number | null;
  /** records = delivered + pending + refused (dead letters are undecodable input, never records) */
  delivered: number;
  pending: number;
  refused: number;
  /** conflicts on a resend counted delivered after the instance read back equal */
  conflictsVerified: number;
  /** records re-created under the next name after a conflict whose instance was not theirs */
  repairs: number;
  /** = delivered */
  forwarded: number;
  /** = pending */
  backlog: number;
  forwardFailures: number;
  /** records stored with values beyond their layout (more decimals, or flagged ranges), per field */
  flagged: FlagCounts;
  /** containers with refused records or backing off, worst first (at most 50) */
  containers: ContainerTrouble[];
  buffers: BufferStats[];
}

export interface RefusedListing extends RefusedRecord {
  buffer: number;
}

export interface LatestRecord extends Omit<StoredRecord, "con" | "rn"> {
  buffer: number;
  /** the contentInstance's resource name in the CSE */
  rn: string;
  record: unknown;
}

export class BufferSet {
  private readonly open = new Map<number, RecordBuffer>();
  private readonly deviceCache = new Map<number, { accepted: number; devices: string[] }>();
  private scannedAt = 0;

  constructor(
    private readonly dataDir: string,
    private readonly opts: BufferOptions,
    /** the caller's own writable buffer, shared rather than opened twice */
    own?: { index: number; buffer: RecordBuffer },
  ) {
    if (own) this.open.set(own.index, own.buffer);
    this.ownIndex = own?.index;
  }

  private readonly ownIndex: number | undefined;

  /** Buffers appear when replicas start; re-scan the directory at most once a second. */
  buffers(): [number, RecordBuffer][] {
    const now = Date.now();
    if (now - this.scannedAt > 1000) {
      this.scannedAt = now;
      let names: string[] = [];
      try {
        names = readdirSync(this.dataDir);
      } catch {
        names = [];
      }
      for (const n of names) {
        const m = BUFFER_FILE.exec(n);
        if (!m) continue;
        const index = Number(m[1]);
        if (this.open.has(index)) continue;
        try {
          this.open.set(index, new RecordBuffer(path.join(this.dataDir, n), this.opts));
        } catch {
          // a replica creating its file right now: next scan
        }
      }
    }
    return [...this.open.entries()].sort((a, b) => a[0] - b[0]);
  }

  stats(): DecoderStats {
    let records = 0,
      duplicates = 0,
      rejected = 0,
      dead = 0,
      ratio = 0,
      forwarded = 0,
      refused = 0,
      repairs = 0,
      verified = 0,
      failures = 0;
    const devices = new Set<string>();
    const per: BufferStats[] = [];
    const flagged: FlagCounts = { records: 0, fields: [] };
    const flaggedFields = new Map<string, FlagCounts["fields"][number]>();
    const trouble = new Map<string, ContainerTrouble>();
    const troubleOf = (container: string) => {
      let t = trouble.get(container);
      if (!t) trouble.set(container, (t = { container, refused: 0, lastRefusedAt: null, failing: null }));
      return t;
    };
    for (const [index, b] of this.buffers()) {
      const c = b.counters();
      const fc = b.flagCounts();
      flagged.records += fc.records;
      for (const x of fc.fields) {
        const key = `${x.kind}:${x.field}`;
        const seen = flaggedFields.get(key);
        if (seen) seen.count += x.count;
        else flaggedFields.set(key, { ...x });
      }
      records += c.accepted;
      duplicates += c.duplicates;
      rejected += c.rejected;
      dead += c.dead_letters;
      ratio += c.ratio_sum;
      forwarded += c.forwarded;
      refused += c.refused;
      repairs += c.repairs;
      verified += c.conflicts_verified;
      failures += c.forward_failures;
      let cached = this.deviceCache.get(index);
      if (!cached || cached.accepted !== c.accepted)
        this.deviceCache.set(index, (cached = { accepted: c.accepted, devices: b.devices() }));
      for (const d of cached.devices) devices.add(d);
      const forwarder = b.status<ForwarderState>(FORWARDER_STATUS_KEY) ?? null;
      if (c.refused > 0)
        for (const r of b.refusedByContainer()) {
          const t = troubleOf(r.container);
          t.refused += r.refused;
          t.lastRefusedAt = Math.max(t.lastRefusedAt ?? 0, r.lastAt);
        }
      if (forwarder?.state !== "stopped")
        for (const f of forwarder?.failing ?? []) {
          const { container, ...failing } = f;
          troubleOf(container).failing = failing;
        }
      const pending = c.accepted - c.forwarded - c.refused;
      per.push({
        index,
        records: c.accepted,
        delivered: c.forwarded,
        pending,
        refused: c.refused,
        backlog: pending,
        forwarded: c.forwarded,
        forwarder,
      });
    }
    const answered = records + duplicates + rejected;
    const pending = records - forwarded - refused;
    return {
      at: Date.now(),
      records,
      duplicates,
      rejected,
      deadLetters: dead,
      uniqueDevices: devices.size,
      successRate: answered ? (records + duplicates) / answered : null,
      meanCompressionRatio: records ? ratio / records : null,
      delivered: forwarded,
      pending,
      refused,
      conflictsVerified: verified,
      repairs,
      forwarded,
      backlog: pending,
      forwardFailures: failures,
      flagged: {
        records: flagged.records,
        fields: [...flaggedFields.values()].sort((a, b) => b.count - a.count || a.field.localeCompare(b.field)),
      },
      containers: [...trouble.values()]
        .sort((a, b) => b.refused - a.refused || (b.failing?.attempt ?? 0) - (a.failing?.attempt ?? 0))
        .slice(0, 50),
      buffers: per,
    };
  }

  /** refused records across all buffers, newest first */
  refused(limit: number, container?: string): RefusedListing[] {
    const all = this.buffers().flatMap(([index, b]) =>
      b.refused(limit, container).map((r) => ({ buffer: index, ...r })),
    );
    all.sort((a, b) => b.refusal.at - a.refusal.at || b.seq - a.seq);
    return all.slice(0, limit);
  }

  /**
   * Puts refused records back to pending in the buffers this process does not write (another
   * worker's forwarder sees the buffer's retry count move at its next step, within a second when
   * idle); `own` writes the rest.
   */
  async retry(
    filter: RetryFilter & { buffer?: number | undefined },
    own: Map<number, (f: RetryFilter) => Promise<number>>,
  ): Promise<number> {
    let n = 0;
    for (const [index, b] of this.buffers()) {
      if (filter.buffer !== undefined && filter.buffer !== index) continue;
      const write = own.get(index);
      n += write ? await write(filter) : b.retryRefused(filter);
    }
    return n;
  }

  /** newest record per device across all buffers, newest first */
  latest(limit: number, device?: string): LatestRecord[] {
    const best = new Map<string, LatestRecord>();
    for (const [index, b] of this.buffers()) {
      for (const r of b.latest(limit, device)) {
        const prev = best.get(r.device);
        if (!prev || r.receivedAt > prev.receivedAt || (r.receivedAt === prev.receivedAt && r.seq > prev.seq))
          best.set(r.device, toLatest(index, r));
      }
    }
    return [...best.values()].sort((a, b) => b.receivedAt - a.receivedAt || b.seq - a.seq).slice(0, limit);
  }

  /** a record by its message id, in whichever buffer holds it */
  byMessageId(messageId: string): LatestRecord | undefined {
    for (const [index, b] of this.buffers()) {
      const r = b.byMessageId(messageId);
      if (r) return toLatest(index, r);
    }
    return undefined;
  }

  /** high-water marks, so a new event stream only reports what arrives after it opened */
  marks(): Map<number, number> {
    return new Map(this.buffers().map(([i, b]) => [i, b.maxSeq()]));
  }

  /** records committed after the marks (advancing them), newest first, at most `limit` */
  since(marks: Map<number, number>, limit: number): { count: number; records: LatestRecord[] } {
    let count = 0;
    const out: LatestRecord[] = [];
    for (const [index, b] of this.buffers()) {
      const from = marks.get(index) ?? 0;
      const top = b.maxSeq();
      if (top <= from) continue;
      count += top - from;
      marks.set(index, top);
      for (const r of b.recordsAfter(from, limit)) out.push(toLatest(index, r));
    }
    out.sort((a, b) => b.receivedAt - a.receivedAt || b.seq - a.seq);
    return { count, records: out.slice(0, limit) };
  }

  close(): void {
    for (const [index, b] of this.open) if (index !== this.ownIndex) b.close();
    this.open.clear();
  }
}

function toLatest(buffer: number, r: StoredRecord): LatestRecord {
  const { con, ...rest } = r;
  let record: unknown;
  try {
    record = JSON.parse(con);
  } catch {
    record = con;
  }
  return { buffer, ...rest, rn: rest.rn ?? rest.messageId, record };
}
