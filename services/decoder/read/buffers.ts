// Every buffer in the data directory, for reading: replicas write their own file, and any of them can
// answer /api/stats, /api/latest and the event stream for all (SQLite readers never block the writer).
import { readdirSync } from "node:fs";
import path from "node:path";
import { RecordBuffer, type StoredRecord, type BufferOptions, type FlagCounts } from "../buffer/buffer.ts";
import { BUFFER_FILE } from "../buffer/schema.ts";
import { FORWARDER_STATUS_KEY, type ForwarderState } from "../forward/forwarder.ts";

export interface BufferStats {
  index: number;
  records: number;
  backlog: number;
  forwarded: number;
  forwarder: ForwarderState | null;
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
  forwarded: number;
  backlog: number;
  forwardFailures: number;
  /** records stored with values beyond their layout (more decimals, or flagged ranges), per field */
  flagged: FlagCounts;
  buffers: BufferStats[];
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
      failures = 0;
    const devices = new Set<string>();
    const per: BufferStats[] = [];
    const flagged: FlagCounts = { records: 0, fields: [] };
    const flaggedFields = new Map<string, FlagCounts["fields"][number]>();
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
      failures += c.forward_failures;
      let cached = this.deviceCache.get(index);
      if (!cached || cached.accepted !== c.accepted)
        this.deviceCache.set(index, (cached = { accepted: c.accepted, devices: b.devices() }));
      for (const d of cached.devices) devices.add(d);
      per.push({
        index,
        records: c.accepted,
        backlog: c.accepted - c.forwarded,
        forwarded: c.forwarded,
        forwarder: b.status<ForwarderState>(FORWARDER_STATUS_KEY) ?? null,
      });
    }
    const answered = records + duplicates + rejected;
    return {
      at: Date.now(),
      records,
      duplicates,
      rejected,
      deadLetters: dead,
      uniqueDevices: devices.size,
      successRate: answered ? (records + duplicates) / answered : null,
      meanCompressionRatio: records ? ratio / records : null,
      forwarded,
      backlog: records - forwarded,
      forwardFailures: failures,
      flagged: {
        records: flagged.records,
        fields: [...flaggedFields.values()].sort((a, b) => b.count - a.count || a.field.localeCompare(b.field)),
      },
      buffers: per,
    };
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
