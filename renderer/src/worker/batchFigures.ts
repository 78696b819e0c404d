// The Readings per message figures of one format (issue #27), for both batch forms: how many readings fit each asked
// limit, bytes per message for the layout's readings per message, and, from the first message's spans, what the
// first reading costs per field against each next one. Pure: the sizes worker runs it (engine.ts) between its other
// phases; the batch codec itself (codecs/src/batch) does the encoding.
import {
  BATCH_FORMS,
  type BatchForm,
  type BatchOrigin,
  batchCodecFor,
  describeError,
  type FormatId,
  generateBatches,
  type Layout,
  readingsThatFit,
} from "#codecs";
import { summarize } from "#codecs/analysis";
import type { BatchAsk, BatchFieldCost, BatchFormatResult, BatchFormResult } from "./protocol.ts";

/** Messages generated (one continuous series) to size each form: enough for a spread, cheap to encode. */
export const BATCH_MESSAGES = 20;

/** A column's element: "lat/3" is reading 3 of column "lat" (null when the span is the whole column). */
const ELEMENT = /\/(\d+)$/;

function fieldCosts(
  layout: Layout,
  readings: number,
  spans: readonly { start: number; end: number; field: string; role: string }[],
  origin: (path: string) => BatchOrigin | undefined,
): { fields: BatchFieldCost[]; framing: number } {
  const byField = new Map(layout.fields.map((f) => [f.id, { field: f.id, once: 0, first: 0, next: 0 }]));
  let framing = 0;
  for (const s of spans) {
    const len = s.end - s.start;
    const o = s.role === "value" && s.field !== "" ? origin(s.field) : undefined;
    // origins name paths inside the user's layout ("gps/lat"): the table counts top-level fields
    const cost = o ? byField.get(o.field.split("/")[0]!) : undefined;
    if (!o || !cost) {
      framing += len;
      continue;
    }
    switch (o.part) {
      case "once":
        cost.once += len;
        break;
      case "first":
      case "time-base":
        cost.first += len;
        break;
      case "column": {
        // the columns form: reading i is element i of the column; a span of the whole column is shared evenly
        const m = ELEMENT.exec(s.field.slice(s.field.indexOf("/")));
        if (m && s.field.includes("/")) {
          if (Number(m[1]) === 0) cost.first += len;
          else cost.next += len;
        } else {
          cost.first += len / readings;
          cost.next += (len * (readings - 1)) / readings;
        }
        break;
      }
      case "next":
      case "keyframe":
      case "time-offset":
        // next readings: differences, time offsets, and keyframes (later readings sent whole) on average
        cost.next += len;
        break;
      default:
        // the reading count and anything else of the message's own
        framing += len;
    }
  }
  const later = Math.max(1, readings - 1);
  return { fields: [...byField.values()].map((c) => ({ ...c, next: c.next / later })), framing };
}

/** One form of one format: the unit of work the sizes worker does between two looks at its queue. */
export function formFigures(
  layout: Layout,
  format: FormatId,
  form: BatchForm,
  ask: BatchAsk,
  seed: number,
): BatchFormResult {
  const batch = layout.batch!;
  const fits: Record<string, number> = {};
  for (const l of ask.limits) fits[l.id] = readingsThatFit(layout, format, form, l.bytes, seed);
  const base = { form, fits, stats: null, fields: [], framing: 0 };
  let readings: number;
  if (batch.readings.kind === "fixed") readings = batch.readings.count;
  else {
    const own = fits[batch.readings.platform];
    if (own === undefined)
      return { ...base, readings: 0, error: `"${batch.readings.platform}" is not a platform with a message limit.` };
    readings = own;
  }
  if (readings === 0) {
    const limit = ask.limits.find((l) => l.id === (batch.readings.kind === "fit" ? batch.readings.platform : ""));
    return { ...base, readings, error: `Not even one reading fits${limit ? ` in ${limit.bytes} B` : ""}.` };
  }
  try {
    const codec = batchCodecFor(layout, format, form, readings);
    const messages = generateBatches(layout, BATCH_MESSAGES, readings, seed);
    const sizes = messages.map((m) => codec.encode(m).length);
    const first = codec.encodeWithSpans(messages[0]!);
    const spans = first.uncompressed?.spans ?? first.spans;
    return {
      ...base,
      readings,
      stats: summarize(sizes),
      ...fieldCosts(layout, readings, spans, (p) => codec.origin(p)),
      error: null,
    };
  } catch (e) {
    return { ...base, readings, error: describeError(e) };
  }
}

/** Both forms of one format; a form that cannot be sized says why instead of failing the others. */
export function batchFigures(layout: Layout, format: FormatId, ask: BatchAsk, seed: number): BatchFormatResult {
  return { format, forms: BATCH_FORMS.map((form) => formFigures(layout, format, form, ask, seed)) };
}
