// A log's readings cut into the messages a batch layout sends (issue #27): N readings a message in log
// order, the fields sent once taken from each message's first reading. A once-field whose value changes
// inside a message would be lost (the message carries one value): each such change is a problem.
import type { LogProblem } from "./importLog.ts";
import type { BatchRecord } from "../batch/transform.ts";
import type { Layout } from "../layout/schema.ts";
import type { FieldValue, TypedRecord } from "../layout/values.ts";

/** a value as text that tells bigints, bytes and NaN apart, to compare two readings' values */
const valueKey = (v: FieldValue | undefined): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    typeof x === "bigint" ? `${x}n` : x instanceof Uint8Array ? [...x] : Number.isNaN(x) ? "NaN" : x,
  ) ?? "undefined";

/**
 * Messages of `readingsPerMessage` readings (the last one may hold fewer) from imported log records and
 * their lines. Throws nothing; a problem names the line whose once-value the message cannot carry.
 */
export function batchesFromLog(
  layout: Layout,
  records: readonly TypedRecord[],
  lines: readonly number[],
  readingsPerMessage: number,
): { batches: BatchRecord[]; problems: LogProblem[] } {
  const perReading = new Set(layout.batch?.perReading.map((p) => p.field));
  const readingKeys = layout.fields.filter((f) => perReading.has(f.id)).map((f) => f.key);
  const onceKeys = layout.fields.filter((f) => !perReading.has(f.id)).map((f) => f.key);
  const batches: BatchRecord[] = [];
  const problems: LogProblem[] = [];
  const n = Math.max(1, Math.floor(readingsPerMessage));
  for (let start = 0; start < records.length; start += n) {
    const chunk = records.slice(start, start + n);
    const first = chunk[0]!;
    const once: TypedRecord = {};
    for (const k of onceKeys) if (first[k] !== undefined) once[k] = first[k];
    chunk.forEach((r, i) => {
      for (const k of onceKeys)
        if (i > 0 && valueKey(r[k]) !== valueKey(first[k]))
          problems.push({
            line: lines[start + i] ?? 0,
            field: k,
            message: `is sent once per message: this reading's value differs from line ${lines[start] ?? 0}'s, which the message carries`,
          });
    });
    batches.push({
      once,
      readings: chunk.map((r) =>
        Object.fromEntries(readingKeys.filter((k) => r[k] !== undefined).map((k) => [k, r[k]!])),
      ),
    });
  }
  return { batches, problems };
}
