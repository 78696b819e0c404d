// The advisor's batch proposal (issue 27): how many readings to put in one message on a platform,
// what that saves in messages and bytes, and what it costs in freshness — the oldest reading of a
// message waits until the message is sent.
import {
  batchCodecFor,
  type BatchForm,
  codecFor,
  type FormatId,
  generateBatches,
  type Layout,
  readingsThatFit,
} from "#codecs";
import { BatchPlanError, platformLimit } from "../batch/perMessage.ts";
import { platformById } from "../platforms/catalog.ts";

export interface BatchProposalOptions {
  /** readings a device takes a day; default: one per `batch.intervalSeconds` */
  readingsPerDay?: number;
  /** the longest the oldest reading of a message may wait, in minutes; unset: as many as fit */
  maxWaitMinutes?: number;
  /** messages measured for the sizes (seeded) */
  messages?: number;
  seed?: number;
}

export interface BatchProposal {
  format: FormatId;
  form: BatchForm;
  platformId: string;
  platformName: string;
  limitBytes: number;
  /** the proposal: readings per message (≥ 1) */
  readingsPerMessage: number;
  /** the most that fit the platform, before any freshness limit */
  fitReadings: number;
  readingsPerDay: number;
  messagesPerDay: { single: number; batched: number };
  /** the largest measured message of that many readings, and the bytes a reading costs in it and alone */
  messageBytes: number;
  bytesPerReading: number;
  singleReadingBytes: number;
  /** how long the oldest reading of a full message waits: readings per message × interval */
  oldestWaitMinutes: number;
  /** one sentence for people */
  text: string;
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const minutes = (m: number) => (m >= 120 ? `${round1(m / 60)} h` : `${round1(m)} min`);

/** Throws BatchPlanError when the layout has no batch, the platform no limit, or not one reading fits. */
export function proposeBatch(
  layout: Layout,
  format: FormatId,
  form: BatchForm,
  platformId: string,
  opts: BatchProposalOptions = {},
): BatchProposal {
  const batch = layout.batch;
  if (!batch) throw new BatchPlanError(`layout "${layout.name}" declares no batch (which fields repeat per reading)`);
  const limit = platformLimit(platformId);
  const platform = platformById(platformId)!;
  const fit = readingsThatFit(layout, format, form, limit, opts.seed);
  if (fit < 1)
    throw new BatchPlanError(`not even one reading fits ${platform.name}'s ${limit} bytes in ${format} (${form})`);
  const intervalMinutes = batch.intervalSeconds / 60;
  const byWait =
    opts.maxWaitMinutes === undefined ? fit : Math.max(1, Math.floor(opts.maxWaitMinutes / intervalMinutes));
  const n = Math.min(fit, byWait);
  const readingsPerDay = opts.readingsPerDay ?? 86_400 / batch.intervalSeconds;
  const batches = generateBatches(layout, opts.messages ?? 50, n, opts.seed);
  const codec = batchCodecFor(layout, format, form, n);
  const sizes = batches.map((b) => codec.encode(b).length);
  const single = codecFor(layout, format);
  const singles = batches.flatMap((b) => b.readings.map((r) => single.encode({ ...b.once, ...r }).length));
  const readings = batches.reduce((s, b) => s + b.readings.length, 0);
  const messageBytes = Math.max(...sizes);
  const bytesPerReading = sizes.reduce((s, x) => s + x, 0) / readings;
  const singleReadingBytes = singles.reduce((s, x) => s + x, 0) / singles.length;
  const wait = n * intervalMinutes;
  const limited =
    n < fit ? ` (${fit} would fit; the wait limit of ${minutes(opts.maxWaitMinutes!)} keeps it at ${n})` : "";
  const text =
    n === 1
      ? `send one reading per message on ${platform.name}: ${messageBytes} B of ${limit}${limited}`
      : `send ${n} readings per message${limited}: 1 ${platform.name} message instead of ${n}, ` +
        `${messageBytes} B of ${limit} (${round1(bytesPerReading)} B a reading instead of ${round1(singleReadingBytes)}), ` +
        `${round1(readingsPerDay / n)} messages a day instead of ${round1(readingsPerDay)}; ` +
        `the oldest reading waits ${minutes(wait)} for its message`;
  return {
    format,
    form,
    platformId,
    platformName: platform.name,
    limitBytes: limit,
    readingsPerMessage: n,
    fitReadings: fit,
    readingsPerDay,
    messagesPerDay: { single: readingsPerDay, batched: readingsPerDay / n },
    messageBytes,
    bytesPerReading,
    singleReadingBytes,
    oldestWaitMinutes: wait,
    text,
  };
}
