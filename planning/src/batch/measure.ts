// Sizes of a batch layout's messages per format, as cost, fragmentation and the report take them:
// seeded messages of the layout's readings per message (its count, or as many as fit), each
// format measured on the same series so the formats compare like for like.
import {
  batchCodecFor,
  type BatchForm,
  type BatchRecord,
  EncodeError,
  FORMAT_LABELS,
  type FormatId,
  generateBatches,
  type Layout,
} from "#codecs";
import { summarize } from "#codecs/analysis";
import { BatchPlanError, readingsPerMessage } from "./perMessage.ts";
import type { FormatSizesInput } from "../report/fleet.ts";

export const DEFAULT_BATCH_MESSAGES = 200;
export const DEFAULT_BATCH_SEED = 1;

/**
 * One entry per format. A format in which not even one reading fits the platform the layout names
 * is measured at one reading per message — what such a device would send, fragmented where the
 * platform allows — and named in `oneReading` with the reason; a format the batch cannot be
 * encoded in at all is left out and named in `skipped`.
 */
export function measureBatches(
  layout: Layout,
  formats: readonly FormatId[],
  form: BatchForm,
  messages = DEFAULT_BATCH_MESSAGES,
  seed = DEFAULT_BATCH_SEED,
): {
  measured: FormatSizesInput[];
  oneReading: { format: FormatId; reason: string }[];
  skipped: { format: FormatId; reason: string }[];
} {
  if (!layout.batch)
    throw new BatchPlanError(`layout "${layout.name}" declares no batch (which fields repeat per reading)`);
  const series = new Map<number, BatchRecord[]>();
  const measured: FormatSizesInput[] = [];
  const oneReading: { format: FormatId; reason: string }[] = [];
  const skipped: { format: FormatId; reason: string }[] = [];
  for (const format of formats) {
    let n: number;
    try {
      n = readingsPerMessage(layout, format, form);
    } catch (e) {
      if (!(e instanceof BatchPlanError)) throw e;
      oneReading.push({ format, reason: e.message });
      n = 1;
    }
    try {
      let batches = series.get(n);
      if (!batches) series.set(n, (batches = generateBatches(layout, messages, n, seed)));
      const codec = batchCodecFor(layout, format, form, n);
      const sizes = batches.map((b) => codec.encode(b).length);
      measured.push({ format, label: FORMAT_LABELS[format], stats: summarize(sizes), sizes, readingsPerMessage: n });
    } catch (e) {
      if (!(e instanceof EncodeError)) throw e;
      skipped.push({ format, reason: e.message });
    }
  }
  return { measured, oneReading, skipped };
}
