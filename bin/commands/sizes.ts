// `satpayload sizes`: per-format size statistics of a layout's records and whether they fit the chosen limits.
import { CODECS, type FormatSizes, measureSizes, shareOver } from "#codecs";
import { platformById } from "#planning";
import {
  intFlag,
  LAYOUT_FLAGS,
  loadLayout,
  parseFlags,
  parseFormats,
  resolvePlatforms,
  table,
  UsageError,
  write,
} from "./common.ts";
import { loadRecords, RECORD_FLAGS } from "./records.ts";
import { writePerRecord } from "./sizesPerRecord.ts";

export const SIZES_SCHEMA = "satpayload.sizes/1";

export const sizesHelp = `satpayload sizes --layout FILE | --preset ID [--records FILE.jsonl | --samples N --seed S]
                 [--format all|NAME...] [--limit BYTES | --platform ID|FILE.json ...] [--json | --per-record]
  Encodes every record in each format and prints min/mean/p50/p95/p99/max bytes and, per limit,
  the share of messages over it. Without --limit/--platform the limit is Astrocast's 160 bytes.
  --per-record prints one JSON line per record instead: each format's size and whether it fits each limit.
`;

export interface Limit {
  id: string;
  name: string;
  bytes: number;
}

function chooseLimits(
  limit: string | undefined,
  platforms: string[] | undefined,
): { limits: Limit[]; unlimited: string[] } {
  if (limit !== undefined && platforms !== undefined) throw new UsageError("give --limit or --platform, not both");
  if (limit !== undefined) {
    const bytes = intFlag(limit, "--limit", undefined, 1);
    return { limits: [{ id: "limit", name: `limit ${bytes} B`, bytes }], unlimited: [] };
  }
  const chosen = platforms === undefined ? [platformById("astrocast")!] : resolvePlatforms(platforms);
  const limits: Limit[] = [];
  const unlimited: string[] = [];
  for (const p of chosen) {
    if (p.uplinkBytes === undefined) unlimited.push(p.id);
    else limits.push({ id: p.id, name: p.name, bytes: p.uplinkBytes });
  }
  return { limits, unlimited };
}

function verdict(share: number): string {
  if (share === 0) return "fits";
  return `over ${(share * 100).toFixed(share < 0.001 ? 2 : 1)} %`;
}

export async function sizesCommand(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, {
    ...LAYOUT_FLAGS,
    ...RECORD_FLAGS,
    format: { type: "string", multiple: true },
    limit: { type: "string" },
    platform: { type: "string", multiple: true },
    json: { type: "boolean", default: false },
    "per-record": { type: "boolean", default: false },
  });
  if (flags.json && flags["per-record"])
    throw new UsageError("--per-record already writes JSON (one line per record): drop --json");
  const { layout, preset } = loadLayout(flags);
  const formats = parseFormats(flags.format);
  const { limits, unlimited } = chooseLimits(flags.limit, flags.platform);
  const source = loadRecords(layout, flags);
  if (flags["per-record"]) return writePerRecord(layout, source, formats, limits);
  const measured = measureSizes(layout, source.records, formats);

  if (flags.json) {
    write(`${JSON.stringify(sizesJson(layout.name, preset, source, limits, unlimited, measured), null, 2)}\n`);
    return;
  }
  const what = source.file
    ? `${source.records.length} records from ${source.file}`
    : `${source.records.length} samples, seed ${source.seed}`;
  write(`${layout.name} — ${what}\n\n`);
  const header = ["format", "min", "mean", "p50", "p95", "p99", "max", ...limits.map((l) => `${l.name} ${l.bytes} B`)];
  const rows = measured.map((m) => {
    const s = m.stats;
    // nothing encoded: zeros would read as real sizes
    if (s.count === 0) return [m.format, ...Array<string>(6 + limits.length).fill("–")];
    return [
      m.format,
      String(s.min),
      s.mean.toFixed(1),
      String(s.p50),
      String(s.p95),
      String(s.p99),
      String(s.max),
      ...limits.map((l) => verdict(shareOver(m.sizes, l.bytes))),
    ];
  });
  write(table(header, rows));
  for (const id of unlimited) write(`\n${id}: no fixed per-message limit\n`);
  const failed = measured.filter((m) => m.errors > 0);
  for (const m of failed)
    write(`\n${m.format}: ${m.errors} record(s) could not be encoded; first: ${m.firstError ?? "unknown error"}\n`);
}

function sizesJson(
  layoutName: string,
  preset: string | undefined,
  source: ReturnType<typeof loadRecords>,
  limits: Limit[],
  unlimited: string[],
  measured: FormatSizes[],
) {
  return {
    schema: SIZES_SCHEMA,
    layout: layoutName,
    preset: preset ?? null,
    records: source.file,
    seed: source.seed,
    sampleCount: source.records.length,
    limits,
    unlimitedPlatforms: unlimited,
    formats: measured.map((m) => ({
      format: m.format,
      label: CODECS[m.format].info.label,
      implementation: CODECS[m.format].info.implementation,
      stats: m.stats,
      errors: m.errors,
      firstError: m.firstError ?? null,
      overLimit: Object.fromEntries(limits.map((l) => [l.id, shareOver(m.sizes, l.bytes)])),
    })),
  };
}
