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
 * One entry per format that can carry the batch; a format the batch cannot be encoded in (or in
 * which no reading fits the platform) is left out and named in `skipped` with the reason.
 */
export function measureBatches(
  layout: Layout,
  formats: readonly FormatId[],
  form: BatchForm,
  messages = DEFAULT_BATCH_MESSAGES,
  seed = DEFAULT_BATCH_SEED,
): { measured: FormatSizesInput[]; skipped: { format: FormatId; reason: string }[] } {
  const series = new Map<number, BatchRecord[]>();
  const measured: FormatSizesInput[] = [];
  const skipped: { format: FormatId; reason: string }[] = [];
  for (const format of formats) {
    try {
      const n = readingsPerMessage(layout, format, form);
      let batches = series.get(n);
      if (!batches) series.set(n, (batches = generateBatches(layout, messages, n, seed)));
      const codec = batchCodecFor(layout, format, form, n);
      const sizes = batches.map((b) => codec.encode(b).length);
      measured.push({ format, label: FORMAT_LABELS[format], stats: summarize(sizes), sizes, readingsPerMessage: n });
    } catch (e) {
      if (!(e instanceof BatchPlanError) && !(e instanceof EncodeError)) throw e;
      skipped.push({ format, reason: e.message });
    }
  }
  return { measured, skipped };
}
