// The load results Kumar et al. published (Telecom 2026, 7(2), 43, Tables 3–5), as data, so every
// result table we produce can put the paper's cell beside ours. Table 6 (FoM) lives in ../fom.ts.
import type { PaperFomRow } from "../fom.ts";

export type PaperFormat = "cbor" | "msgpack" | "struct-zlib" | "protobuf";

export interface PaperLoadRow {
  format: PaperFormat;
  devices: number;
  instances: number;
  /** requests per second, rounded to 1 */
  rps: number;
  /** mean response time, ms */
  avgMs: number;
  /** 95th-percentile response time, ms */
  p95Ms: number;
  /** share of failed requests in percent, rounded to 1 (HTTP 504 from nginx at 2000 devices) */
  failuresPercent: number;
  /** where the row is printed */
  source: "Table 3" | "Table 4" | "Table 5";
}

const t3 = (
  format: PaperFormat,
  devices: number,
  rps: number,
  avgMs: number,
  p95Ms: number,
  failuresPercent: number,
): PaperLoadRow => ({
  format,
  devices,
  instances: 1,
  rps,
  avgMs,
  p95Ms,
  failuresPercent,
  source: "Table 3",
});

/**
 * Table 3: one server instance, Locust devices waiting U(1, 3) s, 100…2000 devices. Table 5 repeats
 * its 2000-device rows for Struct+Zlib and Protobuf beside the four-instance runs.
 */
export const PAPER_TABLE3: readonly PaperLoadRow[] = [
  t3("cbor", 100, 48, 65, 130, 0),
  t3("cbor", 300, 143, 62, 145, 0),
  t3("cbor", 500, 239, 65, 180, 0),
  t3("cbor", 1000, 407, 418, 2100, 0),
  t3("cbor", 2000, 435, 2352, 11667, 4),
  t3("msgpack", 100, 48, 66, 145, 0),
  t3("msgpack", 300, 143, 59, 120, 0),
  t3("msgpack", 500, 239, 57, 125, 0),
  t3("msgpack", 1000, 418, 353, 2033, 0),
  t3("msgpack", 2000, 478, 2043, 10000, 3),
  t3("struct-zlib", 100, 48, 67, 115, 0),
  t3("struct-zlib", 300, 143, 62, 120, 0),
  t3("struct-zlib", 500, 239, 60, 125, 0),
  t3("struct-zlib", 1000, 418, 359, 2100, 0),
  t3("struct-zlib", 2000, 496, 1853, 8900, 2),
  t3("protobuf", 100, 48, 72, 140, 0),
  t3("protobuf", 300, 143, 63, 130, 0),
  t3("protobuf", 500, 239, 60, 125, 0),
  t3("protobuf", 1000, 425, 321, 1967, 0),
  t3("protobuf", 2000, 492, 1863, 9867, 3),
];

/** Table 4: two instances behind nginx least_conn. */
export const PAPER_TABLE4: readonly PaperLoadRow[] = [
  {
    format: "struct-zlib",
    devices: 500,
    instances: 2,
    rps: 239,
    avgMs: 60,
    p95Ms: 130,
    failuresPercent: 0,
    source: "Table 4",
  },
  {
    format: "struct-zlib",
    devices: 1000,
    instances: 2,
    rps: 478,
    avgMs: 59,
    p95Ms: 150,
    failuresPercent: 0,
    source: "Table 4",
  },
  {
    format: "protobuf",
    devices: 500,
    instances: 2,
    rps: 240,
    avgMs: 58,
    p95Ms: 115,
    failuresPercent: 0,
    source: "Table 4",
  },
  {
    format: "protobuf",
    devices: 1000,
    instances: 2,
    rps: 478,
    avgMs: 58,
    p95Ms: 127,
    failuresPercent: 0,
    source: "Table 4",
  },
];

/** Table 5: 2000 devices on four instances (its one-instance rows are Table 3's). */
export const PAPER_TABLE5: readonly PaperLoadRow[] = [
  {
    format: "struct-zlib",
    devices: 2000,
    instances: 4,
    rps: 711,
    avgMs: 701,
    p95Ms: 1124,
    failuresPercent: 0,
    source: "Table 5",
  },
  {
    format: "protobuf",
    devices: 2000,
    instances: 4,
    rps: 712,
    avgMs: 706,
    p95Ms: 1096,
    failuresPercent: 0,
    source: "Table 5",
  },
];

export const PAPER_LOAD_ROWS: readonly PaperLoadRow[] = [...PAPER_TABLE3, ...PAPER_TABLE4, ...PAPER_TABLE5];

/** The paper's published cell for a configuration, if it measured one. */
export function paperLoadCell(format: string, devices: number, instances: number): PaperLoadRow | undefined {
  return PAPER_LOAD_ROWS.find((r) => r.format === format && r.devices === devices && r.instances === instances);
}

/** Table 6's FoM row for the same configuration, if printed. */
export function paperFomCell(
  rows: readonly PaperFomRow[],
  format: string,
  devices: number,
  instances: number,
): PaperFomRow | undefined {
  return rows.find((r) => r.format === format && r.devices === devices && r.instances === instances);
}

/** The paper's workload: Locust `wait_time = between(1, 3)`, 10 000 pre-generated payloads per worker. */
export const PAPER_WORKLOAD = {
  waitMinSeconds: 1,
  waitMaxSeconds: 3,
  poolSize: 10_000,
  deviceCounts: [100, 300, 500, 1000, 2000],
  instanceCounts: [1, 2, 4],
} as const;
