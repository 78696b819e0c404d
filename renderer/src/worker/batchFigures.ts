// The Readings per message figures of one format (issue #27), for both batch forms: how many readings fit each asked
// limit, bytes per message for the layout's readings per message, and, from the first message's spans, what the
// first reading costs per field against each next one. Pure: the sizes worker runs it (engine.ts) between its other
// phases; the batch codec itself (codecs/src/batch) does the encoding.
import {
  BATCH_FORMS,
  type BatchForm,
  type BatchOrigin,
  type BatchRecord,
  batchCodecFor,
  batchesFromLog,
  describeError,
  FIT_MAX_READINGS,
  type FormatId,
  generateBatches,
  type ImportedLog,
  importLog,
  type Layout,
  readingsThatFit,
  searchReadingsFit,
} from "#codecs";
import { summarize } from "#codecs/analysis";
import type { BatchAsk, BatchFieldCost, BatchFormatResult, BatchFormResult, LogSummary, UserLog } from "./protocol.ts";

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

/** The user's log imported once per layout and file (every format and form of a pass asks for it). */
const imported = new WeakMap<Layout, Map<number, ImportedLog>>();
function importedLog(layout: Layout, log: UserLog): ImportedLog {
  const byId = imported.get(layout) ?? new Map<number, ImportedLog>();
  imported.set(layout, byId);
  let got = byId.get(log.id);
  if (!got) byId.set(log.id, (got = importLog(layout, log.text)));
  return got;
}

/** Where a form's messages come from: seeded generated series, or the user's log cut n readings at a time. */
interface Readings {
  fit: (format: FormatId, form: BatchForm, bytes: number) => number;
  messages: (n: number) => BatchRecord[];
}

function generated(layout: Layout, seed: number): Readings {
  return {
    fit: (format, form, bytes) => readingsThatFit(layout, format, form, bytes, seed),
    messages: (n) => generateBatches(layout, BATCH_MESSAGES, n, seed),
  };
}

function fromLog(layout: Layout, log: ImportedLog): Readings {
  const messages = (n: number) => batchesFromLog(layout, log.records, log.lines, n).batches;
  return {
    // every message of the log must fit, as every generated one must; no message holds more readings than the log
    fit: (format, form, bytes) =>
      searchReadingsFit(
        (n) => {
          const codec = batchCodecFor(layout, format, form, n);
          return messages(n).every((b) => codec.encode(b).length <= bytes);
        },
        Math.min(FIT_MAX_READINGS, log.records.length),
      ),
    messages,
  };
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
  const log = ask.log ? importedLog(layout, ask.log) : null;
  const logSummary: LogSummary | null = log && {
    readings: log.records.length,
    problems: log.problems,
    problemsNotListed: log.problemsNotListed,
  };
  const base = { form, fits, stats: null, fields: [], framing: 0, log: logSummary };
  // nothing is sized on part of a log: its problems are listed instead
  if (log && log.problems.length > 0)
    return { ...base, readings: 0, error: "Your log has problems: nothing is sized on it until they are fixed." };
  const source = log ? fromLog(layout, log) : generated(layout, seed);
  try {
    for (const l of ask.limits) fits[l.id] = source.fit(format, form, l.bytes);
  } catch (e) {
    // a log's reading can break the form (a change faster than the declared rate in the delta form)
    if (!log) throw e;
    return { ...base, readings: 0, error: describeError(e) };
  }
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
    const messages = source.messages(readings);
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
