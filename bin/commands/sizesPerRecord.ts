// `satpayload sizes --per-record`: one JSON line per record (schema satpayload.sizes-record/1), so a CI
// job can find the records that do not fit instead of reading a distribution.
import {
  codecFor,
  type CompiledCodec,
  describeError,
  EncodeError,
  type FormatId,
  type Layout,
  LayoutError,
  RecordError,
} from "#codecs";
import { write } from "./common.ts";
import type { RecordSource } from "./records.ts";
import type { Limit } from "./sizes.ts";

export const SIZES_RECORD_SCHEMA = "satpayload.sizes-record/1";

type FormatResult = { bytes: number; fits: Record<string, boolean> } | { error: string };

/** lines written per stdout write: a million samples must not become one string */
const BATCH = 1000;

export function writePerRecord(
  layout: Layout,
  source: RecordSource,
  formats: readonly FormatId[],
  limits: readonly Limit[],
): void {
  // a layout a format cannot express fails every record the same way
  const codecs = formats.map((format): { format: FormatId; codec: CompiledCodec | null; error: string | null } => {
    try {
      return { format, codec: codecFor(layout, format), error: null };
    } catch (e) {
      if (!(e instanceof LayoutError)) throw e;
      return { format, codec: null, error: describeError(e) };
    }
  });
  let batch: string[] = [];
  source.records.forEach((record, i) => {
    const results: Record<string, FormatResult> = {};
    for (const { format, codec, error } of codecs) {
      if (!codec) {
        results[format] = { error: error! };
        continue;
      }
      try {
        const bytes = codec.encode(record).length;
        results[format] = { bytes, fits: Object.fromEntries(limits.map((l) => [l.id, bytes <= l.bytes])) };
      } catch (e) {
        if (!(e instanceof EncodeError || e instanceof RecordError)) throw e;
        results[format] = { error: describeError(e) };
      }
    }
    batch.push(
      JSON.stringify({ schema: SIZES_RECORD_SCHEMA, record: i, line: source.lines?.[i] ?? null, formats: results }),
    );
    if (batch.length === BATCH) {
      write(`${batch.join("\n")}\n`);
      batch = [];
    }
  });
  if (batch.length) write(`${batch.join("\n")}\n`);
}
