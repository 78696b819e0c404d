// How many readings one message of a batch layout carries: the layout's fixed count, or as many as
// fit the platform it names ("fit"). The one answer the decoder, the CLI, cost and the advisor use,
// because the count can shape the wire (an array's count width), so sender and receiver must agree.
import { type BatchForm, type FormatId, type Layout, readingsThatFit } from "#codecs";
import { platformById, PLATFORMS } from "../platforms/catalog.ts";

/** A layout whose batch cannot be sized: no batch, an unknown platform, or not even one reading fits. */
export class BatchPlanError extends Error {
  override readonly name = "BatchPlanError";
}

/** The largest payload of a platform the layout names, for "fit". */
export function platformLimit(platformId: string): number {
  const p = platformById(platformId);
  if (!p)
    throw new BatchPlanError(
      `batch.readings names the platform "${platformId}", which is not in the catalog (${PLATFORMS.map((x) => x.id).join(", ")})`,
    );
  if (p.uplinkBytes === undefined)
    throw new BatchPlanError(
      `${p.name} sets no message size limit: "as many as fit" has no answer there; give a count`,
    );
  return p.uplinkBytes;
}

/** Fixed counts come from the layout; "fit" measures seeded messages (readingsThatFit remembers its answer per layout). */
export function readingsPerMessage(layout: Layout, format: FormatId, form: BatchForm): number {
  const batch = layout.batch;
  if (!batch) throw new BatchPlanError(`layout "${layout.name}" declares no batch (which fields repeat per reading)`);
  if (batch.readings.kind === "fixed") return batch.readings.count;
  const limit = platformLimit(batch.readings.platform);
  const n = readingsThatFit(layout, format, form, limit);
  if (n < 1)
    throw new BatchPlanError(
      `not even one reading of "${layout.name}" fits ${limit} bytes in ${format} (${form}): a message would be larger than the platform takes`,
    );
  return n;
}

/**
 * Messages a device sends a day when each carries `perMessage` readings: readings per day ÷
 * readings per message, an average (the last message of a day may be partly filled, and the next
 * day's first reading then waits for the following message, so over days the average holds).
 */
export function messagesPerDayFor(readingsPerDay: number, perMessage: number): number {
  if (!Number.isFinite(readingsPerDay) || readingsPerDay < 0)
    throw new RangeError(`readings per day must be a finite number ≥ 0, got ${readingsPerDay}`);
  if (!Number.isInteger(perMessage) || perMessage < 1)
    throw new RangeError(`readings per message must be a whole number ≥ 1, got ${perMessage}`);
  return readingsPerDay / perMessage;
}
