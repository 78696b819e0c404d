// The paper author's receiver API, answered from our buffers so his dashboards work unchanged against
// the stack. Written from what his dashboards read (and what his receiver returns), field by field:
// the thesis dashboard reads flat SQLite-style rows (iso6346, bat_soc, created_at, sent_to_mobius …)
// and `/api/stats`' `database` / `inbound`; dashboard-maritime reads {containerId, timestamp, data},
// `history`, `totalRequests`, `successfulWrites`, `writeQueue` and `uptime`. Both shapes are given at
// once (their names never collide), so either dashboard finds what it reads.
import type Database from "better-sqlite3";
import type { BufferSet, DecoderStats } from "./buffers.ts";
import { RECORD_COLUMNS, type RecordBuffer, type StoredRecord } from "../buffer/buffer.ts";

/** one stored record as the author's receiver returns a `container_data` row (plus the other dashboard's view) */
export interface PaperRow {
  [field: string]: unknown;
  id: number;
  created_at: string;
  processed_at: string;
  sent_to_mobius: 0 | 1;
  original_size: number;
  compressed_size: number;
  compression_ratio: number;
  containerId: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** The record's keys become his columns: `ble-m` → `ble_m`, `bat-soc` → `bat_soc`. */
const column = (key: string): string => key.replace(/[^A-Za-z0-9_]/g, "_");
const iso = (ms: number): string => new Date(ms).toISOString();

function recordOf(con: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(con);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return {};
  }
}

export function paperRow(r: StoredRecord): PaperRow {
  const data = recordOf(r.con);
  const flat: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) flat[column(k)] = v;
  return {
    ...flat,
    id: r.seq,
    created_at: iso(r.receivedAt),
    // his receiver stamps processed_at when the row goes to Mobius (insert time until then)
    processed_at: iso(r.forwardedAt ?? r.receivedAt),
    sent_to_mobius: r.forwardedAt !== null ? 1 : 0,
    original_size: r.jsonSize,
    compressed_size: r.size,
    compression_ratio: r.size > 0 ? r.jsonSize / r.size : 0,
    containerId: r.device,
    timestamp: iso(r.receivedAt),
    data,
  };
}

/** per buffer, the few reads this API needs beyond the buffer's own (prepared once per connection) */
interface Reads {
  recent: Database.Statement;
  ofDevice: Database.Statement;
  arrivals: Database.Statement;
  devices: Database.Statement;
}
const prepared = new WeakMap<RecordBuffer, Reads>();

function reads(b: RecordBuffer): Reads {
  let q = prepared.get(b);
  if (!q) {
    q = {
      recent: b.db.prepare(`SELECT ${RECORD_COLUMNS} FROM records ORDER BY seq DESC LIMIT ?`),
      // no index on device: SQLite walks seq downwards and stops at the limit
      ofDevice: b.db.prepare(`SELECT ${RECORD_COLUMNS} FROM records WHERE device = ? ORDER BY seq DESC LIMIT ?`),
      arrivals: b.db.prepare("SELECT received_at AS receivedAt, device FROM records ORDER BY seq DESC"),
      devices: b.db.prepare(
        "SELECT d.device, d.count, r.received_at AS receivedAt, r.con FROM devices d JOIN records r ON r.seq = d.last_seq",
      ),
    };
    prepared.set(b, q);
  }
  return q;
}

const newestFirst = (a: StoredRecord, b: StoredRecord) => b.receivedAt - a.receivedAt || b.seq - a.seq;

/** records arrive in seq order up to a group commit's reordering; scanning stops this far before the window */
const ARRIVAL_SLACK_MS = 60_000;
const BUCKET_MS = 5 * 60_000;

export class PaperDashboardApi {
  constructor(
    private readonly buffers: BufferSet,
    private readonly startedAt = Date.now(),
  ) {}

  /** GET /api/containers?limit=: the newest records of all containers, newest first */
  containers(limit: number): { containers: PaperRow[]; count: number } {
    const all: StoredRecord[] = [];
    for (const [, b] of this.buffers.buffers()) all.push(...(reads(b).recent.all(limit) as StoredRecord[]));
    const containers = all.sort(newestFirst).slice(0, limit).map(paperRow);
    return { containers, count: containers.length };
  }

  /** a container's records, newest first; [] when it never sent one */
  history(device: string, limit: number): PaperRow[] {
    const all: StoredRecord[] = [];
    for (const [, b] of this.buffers.buffers()) all.push(...(reads(b).ofDevice.all(device, limit) as StoredRecord[]));
    return all.sort(newestFirst).slice(0, limit).map(paperRow);
  }

  /**
   * GET /api/activity?minutes=: distinct containers heard per 5-minute slot (clock-aligned) from
   * `minutes` ago until now, and in the whole window. Slots are ISO times (UTC), which browsers parse.
   */
  activity(
    minutes: number,
    now = Date.now(),
  ): {
    activity: { hour: string; count: number }[];
    totalContainersInPeriod: number;
    timeRange: string;
  } {
    const since = now - minutes * 60_000;
    const first = Math.floor(since / BUCKET_MS) * BUCKET_MS;
    const slots = new Map<number, Set<string>>();
    for (let t = first; t <= now; t += BUCKET_MS) slots.set(t, new Set());
    const all = new Set<string>();
    for (const [, b] of this.buffers.buffers()) {
      for (const row of reads(b).arrivals.iterate() as IterableIterator<{ receivedAt: number; device: string }>) {
        if (row.receivedAt < since - ARRIVAL_SLACK_MS) break;
        if (row.receivedAt < since || row.receivedAt > now) continue;
        all.add(row.device);
        slots.get(Math.floor(row.receivedAt / BUCKET_MS) * BUCKET_MS)?.add(row.device);
      }
    }
    return {
      activity: [...slots].map(([t, devices]) => ({ hour: iso(t), count: devices.size })),
      totalContainersInPeriod: all.size,
      timeRange: `${minutes} minutes`,
    };
  }

  /** GET /api/search?q=: containers whose id (or latest msisdn) holds q, newest first, at most 50 */
  search(q: string): {
    containers: { iso6346: string; msisdn: string | null; last_update: string; record_count: number }[];
  } {
    const needle = q.toLowerCase();
    if (!needle) return { containers: [] };
    const hits: { iso6346: string; msisdn: string | null; last_update: string; record_count: number; at: number }[] =
      [];
    for (const [, b] of this.buffers.buffers()) {
      for (const d of reads(b).devices.all() as { device: string; count: number; receivedAt: number; con: string }[]) {
        const msisdn = recordOf(d.con).msisdn;
        const m = typeof msisdn === "string" ? msisdn : null;
        if (!d.device.toLowerCase().includes(needle) && !m?.toLowerCase().includes(needle)) continue;
        hits.push({
          iso6346: d.device,
          msisdn: m,
          last_update: iso(d.receivedAt),
          record_count: d.count,
          at: d.receivedAt,
        });
      }
    }
    // one device may have records in several buffers: merge its counts
    const merged = new Map<string, (typeof hits)[number]>();
    for (const h of hits) {
      const seen = merged.get(h.iso6346);
      if (!seen) merged.set(h.iso6346, { ...h });
      else {
        seen.record_count += h.record_count;
        if (h.at > seen.at) Object.assign(seen, { msisdn: h.msisdn, last_update: h.last_update, at: h.at });
      }
    }
    return {
      containers: [...merged.values()]
        .sort((a, b) => b.at - a.at)
        .slice(0, 50)
        .map(({ at: _at, ...c }) => c),
    };
  }

  /**
   * The keys his `/api/stats` has, from our counters: `database` (rows, containers, sent to and
   * pending for the CSE, compression), `inbound`/`outbound` queues and the other dashboard's totals.
   * Our stats keep their own names beside these (none collide).
   */
  stats(s: DecoderStats, cse: string | null, now = Date.now()) {
    const uptimeMs = now - this.startedAt;
    const answered = s.records + s.duplicates + s.rejected;
    return {
      timestamp: iso(now),
      uptime: uptimeMs,
      totalRequests: answered,
      // acknowledged: a recognised resend is a successful (idempotent) write
      successfulWrites: s.records + s.duplicates,
      database: {
        total_records: s.records,
        unique_containers: s.uniqueDevices,
        sent_to_mobius: s.forwarded,
        pending_mobius: s.backlog,
        avg_errors: s.records ? s.forwardFailures / s.records : 0,
        avg_compression: s.meanCompressionRatio ?? 0,
      },
      // acknowledged means stored: what waits is the way to the CSE
      writeQueue: { queueLength: s.backlog },
      inbound: { processed: s.records, errors: s.rejected, queueSize: s.backlog, uptimeMs },
      outbound: {
        queueSize: s.backlog,
        totalSent: s.forwarded,
        totalErrors: s.forwardFailures,
        uptimeMs,
        enabled: cse !== null,
        targetUrl: cse,
      },
    };
  }
}
