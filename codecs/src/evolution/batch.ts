// Batches (issue #27): a batch layout's messages are its wire layout (docs/design/batch-wire.md), so the
// verdicts come from comparing the two versions' wire layouts, per format and form, with the format's own
// evolution rules — a layout without a batch is its own wire layout. Two things the wire layout does not
// show are checked here: which readings are keyframes, and what a delta unit means. The batch edits are
// told in words and put in front of the wire findings they cause.
import { meaning } from "./domain.ts";
import type { FieldChange, Finding } from "./types.ts";
import { batchPlanFor } from "../batch/codec.ts";
import type { BatchForm, BatchPlan, DeltaPlan } from "../batch/plan.ts";
import { LayoutError } from "../errors.ts";
import type { FormatId } from "../formats/registry.ts";
import type { Batch, Layout } from "../layout/schema.ts";

/** How many readings a message of this layout carries at most (the decoder's and encoder's shared maxReadings). */
export type ReadingsPerMessage = (layout: Layout, format: FormatId, form: BatchForm) => number;

/** A fixed count is in the layout; "as many as fit" is measured (planning's readingsPerMessage). */
export function fixedReadings(layout: Layout): number | undefined {
  const r = layout.batch?.readings;
  return r?.kind === "fixed" ? r.count : undefined;
}

/** The layout a format encodes for one version: its batch's wire layout, or the layout itself. */
export type Wire = { layout: Layout; plan?: BatchPlan } | { problem: string };

export function wireOf(
  layout: Layout,
  format: FormatId,
  form: BatchForm,
  readings: ReadingsPerMessage | undefined,
): Wire {
  if (!layout.batch) return { layout };
  let n: number | undefined;
  try {
    n = readings ? readings(layout, format, form) : fixedReadings(layout);
  } catch (e) {
    return { problem: e instanceof Error ? e.message : String(e) };
  }
  if (n === undefined)
    return {
      problem: `readings per message is "as many as fit" ${layout.batch.readings.kind === "fit" ? layout.batch.readings.platform : ""}: the count, and with it the wire, is measured per layout and was not given to this check`,
    };
  try {
    const plan = batchPlanFor(layout, form, n);
    return { layout: plan.wireLayout, plan };
  } catch (e) {
    if (e instanceof LayoutError) return { problem: e.message };
    throw e;
  }
}

// ---- the batch edits, in words ----------------------------------------------------------------

interface Cause {
  change: FieldChange;
  /** top-level wire keys whose findings this edit explains */
  keys: (form: BatchForm, a: BatchPlan | undefined, b: BatchPlan | undefined) => Set<string>;
}

const nameOf = (l: Layout, id: string) => l.fields.find((f) => f.id === id)?.name ?? id;
const keyOf = (l: Layout, id: string) => l.fields.find((f) => f.id === id)?.key ?? id;
const unitOf = (l: Layout, id: string) => l.fields.find((f) => f.id === id)?.unit;
const readingsWords = (b: Batch) =>
  b.readings.kind === "fixed" ? `${b.readings.count}` : `as many as fit ${b.readings.platform}`;

/** Every wire key a plan derives from fields of the user's layout whose id is in `ids` (all when undefined). */
function derivedKeys(p: BatchPlan | undefined, ids?: Set<string>, parts?: Set<string>): string[] {
  if (!p) return [];
  return [...p.origins]
    .filter(([, o]) => o.part !== "once" && (!ids || ids.has(o.field.split("/")[0]!)) && (!parts || parts.has(o.part)))
    .map(([k]) => k);
}
const keysOf =
  (ids?: Set<string>, parts?: Set<string>): Cause["keys"] =>
  (_form, a, b) =>
    new Set([...derivedKeys(a, ids, parts), ...derivedKeys(b, ids, parts)]);

/** The batch edits between two versions, each with the wire keys it changes. */
function batchCauses(oldL: Layout, newL: Layout): Cause[] {
  const a = oldL.batch;
  const b = newL.batch;
  const out: Cause[] = [];
  const change = (field: string, id: string, detail: string): FieldChange => ({ kind: "batch", id, field, detail });
  if (!a || !b) {
    if (a || b)
      out.push({
        change: change(
          "",
          "",
          a
            ? "batching turned off: one reading per message again"
            : `batching turned on: up to ${readingsWords(b!)} readings per message`,
        ),
        // the fields the batch sends per reading, and its count: the once fields keep their own findings
        keys: keysOf(),
      });
    return out;
  }
  const ra = new Map(a.perReading.map((p) => [p.field, p]));
  const rb = new Map(b.perReading.map((p) => [p.field, p]));
  for (const [id] of rb)
    if (!ra.has(id))
      out.push({
        change: change(keyOf(newL, id), id, `${nameOf(newL, id)} now sent with every reading (was once per message)`),
        keys: (_f, _a, pb) => new Set([id, keyOf(newL, id), ...derivedKeys(pb, new Set([id]))]),
      });
  for (const [id, p] of ra) {
    const q = rb.get(id);
    if (!q) {
      out.push({
        change: change(keyOf(oldL, id), id, `${nameOf(oldL, id)} now sent once per message (was with every reading)`),
        keys: (_f, pa) => new Set([id, keyOf(oldL, id), ...derivedKeys(pa, new Set([id]))]),
      });
      continue;
    }
    if (p.maxRate !== q.maxRate) {
      const unit = unitOf(newL, id);
      const rate = (r: number | undefined) => (r === undefined ? "none (its whole range)" : `${r}`);
      out.push({
        change: change(
          keyOf(newL, id),
          id,
          `${nameOf(newL, id)}'s max rate ${rate(p.maxRate)} → ${rate(q.maxRate)}${unit ? ` ${unit}/s` : " per second"} sets another difference width`,
        ),
        keys: keysOf(new Set([id]), new Set(["next"])),
      });
    }
  }
  if (a.intervalSeconds !== b.intervalSeconds)
    out.push({
      change: change(
        "",
        "",
        `interval ${a.intervalSeconds} → ${b.intervalSeconds} s changes the difference widths of fields with a max rate and the range of the time offsets`,
      ),
      keys: keysOf(undefined, new Set(["next", "time-offset"])),
    });
  if (readingsWords(a) !== readingsWords(b))
    out.push({
      change: change(
        "",
        "",
        `readings per message ${readingsWords(a)} → ${readingsWords(b)} changes the count's range and every per-reading list's maximum`,
      ),
      keys: keysOf(),
    });
  if (a.time !== b.time)
    out.push({
      change: change(
        "",
        "",
        `time field ${a.time ? nameOf(oldL, a.time) : "none"} → ${b.time ? nameOf(newL, b.time) : "none"}: the delta form sends ${b.time ? "it as a base plus offsets" : "every time as a value of its own"}`,
      ),
      keys: keysOf(new Set([a.time, b.time].filter((x): x is string => !!x))),
    });
  if ((a.keyframeEvery ?? 0) !== (b.keyframeEvery ?? 0))
    out.push({
      change: change(
        "",
        "",
        `keyframes ${a.keyframeEvery ? `every ${a.keyframeEvery} readings` : "none"} → ${b.keyframeEvery ? `every ${b.keyframeEvery} readings` : "none"}`,
      ),
      keys: keysOf(undefined, new Set(["next", "keyframe"])),
    });
  return out;
}

export function batchChanges(oldL: Layout, newL: Layout): FieldChange[] {
  return batchCauses(oldL, newL).map((c) => c.change);
}

/** Puts the batch edits that explain a wire finding in front of it, and names the form. */
export function explain(
  findings: Finding[],
  form: BatchForm,
  oldL: Layout,
  newL: Layout,
  a: BatchPlan | undefined,
  b: BatchPlan | undefined,
): Finding[] {
  const causes = batchCauses(oldL, newL).map((c) => ({ detail: c.change.detail, keys: c.keys(form, a, b) }));
  return findings.map((f) => {
    const top = f.field.split(".")[0]!;
    const why = causes.filter((c) => c.keys.has(top)).map((c) => c.detail);
    return { ...f, form, ...(why.length ? { message: `${why.join("; ")}: ${f.message}` } : {}) };
  });
}

// ---- what the wire layout does not show ---------------------------------------------------------

const isKeyframe = (i: number, k: number) => k > 0 && i >= 1 && i % k === 0;

/** Rules of the batch itself, beyond the wire layouts' fields. */
export function batchRules(a: BatchPlan, b: BatchPlan): Finding[] {
  const out: Finding[] = [];
  // devices fill their messages: with more readings than the other side's limit, every full message is refused
  if (a.maxReadings !== b.maxReadings) {
    const more = b.maxReadings > a.maxReadings;
    out.push({
      field: "",
      direction: more ? "oldReadsNew" : "newReadsOld",
      severity: "breaking",
      message: more
        ? `messages now carry up to ${b.maxReadings} readings: old decoders refuse every message of more than ${a.maxReadings}, i.e. every full one`
        : `old messages carry up to ${a.maxReadings} readings: new decoders refuse every one of more than ${b.maxReadings}, i.e. every full one`,
      advice: more
        ? "Update decoders to the new readings per message before devices send fuller messages."
        : "Lower readings per message only once no device sends the old count.",
    });
  }
  if (a.form !== "delta" || b.form !== "delta") return out;
  // which readings are sent whole: a reading sent whole read as a difference (or the reverse) is a wrong value
  const shared = Math.min(a.maxReadings, b.maxReadings);
  let first = -1;
  for (let i = 1; i < shared && first < 0; i++)
    if (isKeyframe(i, a.keyframeEvery) !== isKeyframe(i, b.keyframeEvery)) first = i;
  if (first > 0)
    out.push({
      field: "",
      direction: "both",
      severity: "breaking",
      message: `keyframes every ${a.keyframeEvery || "—"} → ${b.keyframeEvery || "—"} readings: reading ${first + 1} of a message is sent whole on one side and as a difference on the other, so receivers misread it and every reading after it`,
      advice: "Keep keyframeEvery while devices of the old layout are deployed, or put a version field in the message.",
    });
  // a delta unit is a step of the declared precision: another step (or offset) reads the same integer as another value
  const units = new Map(b.leaves.filter((l): l is DeltaPlan => l.kind === "delta").map((l) => [l.firstKey, l]));
  for (const la of a.leaves) {
    if (la.kind !== "delta") continue;
    const lb = units.get(la.firstKey);
    if (!lb || lb.leaf.idPath !== la.leaf.idPath) continue;
    const ua = `${meaning(la.leaf.type)}|${la.units.step}`;
    const ub = `${meaning(lb.leaf.type)}|${lb.units.step}`;
    if (ua !== ub)
      out.push({
        field: la.firstKey,
        direction: "both",
        severity: "breaking",
        message: `${lb.leaf.name}'s step ${la.units.step} → ${lb.units.step} (${meaning(la.leaf.type)} → ${meaning(lb.leaf.type)}): the delta form sends whole steps, so the same numbers now mean other values`,
        advice: "Keep a per-reading field's precision (scale, offset, resolution) while old devices send it.",
      });
  }
  return out;
}

/** The bounds of a derived integer field (an array's elements), as the wire layout declares them. */
function intRange(l: Layout, key: string): [number, number] | undefined {
  const f = l.fields.find((x) => x.id === key);
  const t = f?.type.kind === "array" ? f.type.of : f?.type;
  return t?.kind === "int" && t.min !== undefined && t.max !== undefined ? [t.min, t.max] : undefined;
}

/**
 * The batch decoder checks every derived integer against its bounds (count, differences, keyframes, offsets)
 * in every format, also where the format itself checks no ranges (Struct, SBE).
 */
export function derivedRanges(a: BatchPlan, b: BatchPlan): Finding[] {
  const out: Finding[] = [];
  for (const [key, o] of a.origins) {
    if (o.part === "once" || o.part === "column" || !b.origins.has(key)) continue;
    const ra = intRange(a.wireLayout, key);
    const rb = intRange(b.wireLayout, key);
    if (!ra || !rb || (ra[0] === rb[0] && ra[1] === rb[1])) continue;
    const words = `${ra[0]} … ${ra[1]} → ${rb[0]} … ${rb[1]}`;
    if (rb[0] < ra[0] || rb[1] > ra[1])
      out.push({
        field: key,
        direction: "oldReadsNew",
        severity: "degraded",
        message: `bounds ${words}: old decoders refuse messages with a value outside their bounds`,
        advice: "Update decoders before devices send messages of the new batch settings.",
      });
    if (ra[0] < rb[0] || ra[1] > rb[1])
      out.push({
        field: key,
        direction: "newReadsOld",
        severity: "degraded",
        message: `bounds ${words}: new decoders refuse old messages with a value outside the new bounds`,
      });
  }
  return out;
}
