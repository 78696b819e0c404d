// Where the records to measure come from: the device's own JSONL log, or reproducible generated samples.
import { fromPlain, generateSamples, type Layout, RecordError, type TypedRecord } from "#codecs";
import { InputError, intFlag, readText, UsageError } from "./common.ts";
import { isPlainRecord, parseJsonLenient } from "./jsonio.ts";

export const RECORD_FLAGS = {
  records: { type: "string" },
  samples: { type: "string" },
  seed: { type: "string" },
} as const;

export interface RecordSource {
  records: TypedRecord[];
  /** 1-based line of each record in the file; null for generated samples */
  lines: number[] | null;
  /** null when the records came from a file */
  seed: number | null;
  file: string | null;
}

export const DEFAULT_SAMPLES = 1000;
export const DEFAULT_SEED = 1;

export function loadRecords(
  layout: Layout,
  flags: { records?: string | undefined; samples?: string | undefined; seed?: string | undefined },
): RecordSource {
  if (flags.records !== undefined) {
    if (flags.samples !== undefined || flags.seed !== undefined)
      throw new UsageError("--records reads a file: it cannot be combined with --samples or --seed");
    const { records, lines } = readJsonlLines(layout, flags.records);
    return { records, lines, seed: null, file: flags.records };
  }
  const n = intFlag(flags.samples, "--samples", DEFAULT_SAMPLES, 1, 1_000_000);
  const seed = intFlag(flags.seed, "--seed", DEFAULT_SEED, 0, 0xffffffff);
  return { records: generateSamples(layout, n, seed), lines: null, seed, file: null };
}

/** One JSON record per line, as the device emits it (the paper's all-string records included); blank lines are skipped. */
export function readJsonlLines(layout: Layout, file: string): { records: TypedRecord[]; lines: number[] } {
  const records: TypedRecord[] = [];
  const lines: number[] = [];
  readText(file)
    .split(/\r?\n/)
    .forEach((line, i) => {
      if (line.trim() === "") return;
      records.push(recordFromJson(layout, line, `${file}:${i + 1}`));
      lines.push(i + 1);
    });
  if (records.length === 0) throw new InputError(`${file}: no records`);
  return { records, lines };
}

export function recordFromJson(layout: Layout, text: string, where: string): TypedRecord {
  let obj: unknown;
  try {
    obj = parseJsonLenient(text);
  } catch (e) {
    throw new InputError(`${where}: not JSON (${(e as Error).message})`);
  }
  if (!isPlainRecord(obj)) throw new InputError(`${where}: expected a JSON object`);
  try {
    return fromPlain(layout, obj, "json");
  } catch (e) {
    if (e instanceof RecordError) throw new InputError(`${where}: ${e.message}`);
    throw e;
  }
}
