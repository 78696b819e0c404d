// A batch bound to a format: the wire layout's compiled codec plus the transform around it. Cached per
// (layout object, format, form, maxReadings) like codecFor, and the wire layout per (layout, form,
// maxReadings), so every format of one batch shares it (and codecFor's cache).
import { planBatch, type BatchForm, type BatchOrigin, type BatchPlan } from "./plan.ts";
import { fromWire, toWire, type BatchRecord } from "./transform.ts";
import { DecodeError } from "../errors.ts";
import { codecFor, type FormatId } from "../formats/registry.ts";
import type { EncodedWithSpans } from "../formats/types.ts";
import type { Layout } from "../layout/schema.ts";
import { BatchSource } from "../samples/series.ts";

export interface BatchCodec {
  /** the user's layout */
  readonly layout: Layout;
  /** the ordinary layout the format encodes: every format, export and size tool works on it unchanged */
  readonly wireLayout: Layout;
  readonly format: FormatId;
  readonly form: BatchForm;
  readonly maxReadings: number;
  /** EncodeError: no reading, more than maxReadings, a value out of range, a change over the declared rate … */
  encode(b: BatchRecord): Uint8Array;
  /** spans name wireLayout field ids; origin() says what each is in the user's layout */
  encodeWithSpans(b: BatchRecord): EncodedWithSpans;
  /** DecodeError only: truncated, columns that disagree, a count over the limit, a difference past its width … */
  decode(bytes: Uint8Array): BatchRecord;
  /** a span's field path ("lat_d", "gps/lat" of a field sent once): where it comes from; undefined if unknown */
  origin(wireFieldPath: string): BatchOrigin | undefined;
}

const plans = new WeakMap<Layout, Map<string, BatchPlan>>();
const codecs = new WeakMap<Layout, Map<string, BatchCodec>>();

function cached<T>(cache: WeakMap<Layout, Map<string, T>>, layout: Layout, key: string, make: () => T): T {
  let m = cache.get(layout);
  if (!m) cache.set(layout, (m = new Map()));
  let v = m.get(key);
  if (v === undefined) m.set(key, (v = make()));
  return v;
}

export function batchPlanFor(layout: Layout, form: BatchForm, maxReadings: number): BatchPlan {
  return cached(plans, layout, `${form}|${maxReadings}`, () => planBatch(layout, form, maxReadings));
}

/** Throws LayoutError when the layout has no batch or its wire layout cannot be formed or compiled. */
export function batchCodecFor(layout: Layout, format: FormatId, form: BatchForm, maxReadings: number): BatchCodec {
  return cached(codecs, layout, `${format}|${form}|${maxReadings}`, () => {
    const plan = batchPlanFor(layout, form, maxReadings);
    const inner = codecFor(plan.wireLayout, format);
    const decodeWire = (bytes: Uint8Array) => fromWire(plan, format, inner.decode(bytes));
    return {
      layout,
      wireLayout: plan.wireLayout,
      format,
      form,
      maxReadings,
      encode: (b) => inner.encode(toWire(plan, format, b)),
      encodeWithSpans: (b) => inner.encodeWithSpans(toWire(plan, format, b)),
      decode: (bytes) => {
        try {
          return decodeWire(bytes);
        } catch (e) {
          // the formats' decoders throw DecodeError only; anything else here is a malformed column
          if (e instanceof DecodeError) throw e;
          throw new DecodeError(e instanceof Error ? e.message : String(e), format);
        }
      },
      origin: (path) => {
        const top = path.split("/")[0]!;
        const o = plan.origins.get(top);
        return o?.part === "once" ? { ...o, field: path } : o;
      },
    };
  });
}

/**
 * Messages drawn per candidate count n in readingsThatFit, every one of which must fit: at least 16, and
 * enough for 1024 readings, so the varint and text formats meet their larger values too (8 messages let a
 * MessagePack batch of 14 through whose 13th message was 161 B).
 */
const fitMessages = (n: number) => Math.max(16, Math.ceil(1024 / n));
/** readingsThatFit looks no further (a message of more readings is no longer a satellite message). */
export const FIT_MAX_READINGS = 1024;

/**
 * The most readings per message such that every generated message (fitMessages(n) of them, seeded) fits
 * limitBytes; 0 when not even one reading does. A message of more readings is assumed no smaller.
 * Throws EncodeError when the generated readings break the layout (a sample model outside its range).
 */
export function readingsThatFit(
  layout: Layout,
  format: FormatId,
  form: BatchForm,
  limitBytes: number,
  seed = 1,
): number {
  // views ask again for the same layout object on every render: the answer is a pure function of the key
  return cached(fitted, layout, `${format}|${form}|${limitBytes}|${seed}`, () =>
    searchFit(layout, format, form, limitBytes, seed),
  );
}

const fitted = new WeakMap<Layout, Map<string, number>>();

function searchFit(layout: Layout, format: FormatId, form: BatchForm, limitBytes: number, seed: number): number {
  const source = new BatchSource(layout, seed);
  return searchReadingsFit((n) => {
    const codec = batchCodecFor(layout, format, form, n);
    return source.batches(fitMessages(n), n).every((b) => codec.encode(b).length <= limitBytes);
  });
}

/**
 * The most readings n ≤ max for which `fits(n)` holds, assuming a message of more readings is no smaller;
 * 0 when not even one reading fits. Shared by the generated series (above) and a user's own log (the
 * designer's Readings view, whose messages are that log cut n readings at a time).
 */
export function searchReadingsFit(fits: (n: number) => boolean, max = FIT_MAX_READINGS): number {
  if (max < 1 || !fits(1)) return 0;
  // double until a count does not fit, then halve the gap
  let lo = 1;
  let hi = 2;
  for (;;) {
    const n = Math.min(hi, max);
    if (n === lo) return lo;
    if (!fits(n)) {
      hi = n;
      break;
    }
    if (n === max) return n;
    [lo, hi] = [n, n * 2];
  }
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
