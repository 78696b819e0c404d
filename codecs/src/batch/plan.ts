// The wire layout of a batch: an ordinary Layout every format, export and size tool takes unchanged,
// derived from the user's layout, the form and the most readings a message carries
// (docs/design/batch-wire.md says it byte by byte).
import { intTypeFor, maxDeltaUnits, readingLeaves, timeResolution, unitsOf, type Leaf, type Units } from "./leaves.ts";
import { LayoutError, type IssueAt } from "../errors.ts";
import { checkBatch } from "../layout/batchRules.ts";
import { labelAt } from "../layout/messages.ts";
import type { Field, Layout, ScalarType } from "../layout/schema.ts";
import { secondsToTicks } from "../layout/timeTicks.ts";
import { assignProtobufNumbers, parseLayout } from "../layout/validate.ts";

/** The wire forms of a batch: the natural repeated form and the delta form (docs/design/batch-wire.md). */
export const BATCH_FORMS = ["columns", "delta"] as const;
export type BatchForm = (typeof BATCH_FORMS)[number];

export type BatchPart = "once" | "count" | "column" | "first" | "next" | "keyframe" | "time-base" | "time-offset";

/** Where a wire field's values come from in the user's layout. */
export interface BatchOrigin {
  /** path of ids in the user's layout ("gps/lat"; a fixed array's elements name the array) */
  field: string;
  part: BatchPart;
  /** the element of a fixed array */
  element?: number;
}

/** A per-reading leaf sent as a column: one value per reading, in reading order. */
export interface ColumnPlan {
  kind: "column";
  leaf: Leaf;
  key: string;
}

/** A numeric leaf in the delta form: the first reading whole, then differences, keyframes whole. */
export interface DeltaPlan {
  kind: "delta";
  leaf: Leaf;
  units: Units;
  /** |difference| ≤ maxDelta units */
  maxDelta: number;
  firstKey: string;
  nextKey: string;
  keyframeKey: string;
}

/** The time field in the delta form: its first reading as declared, the others as offsets from it. */
export interface TimePlan {
  kind: "time";
  leaf: Leaf;
  resolution: number;
  /** offsets are 0 … maxOffset ticks of the resolution */
  maxOffset: number;
  baseKey: string;
  offsetKey: string;
}

export type LeafPlan = ColumnPlan | DeltaPlan | TimePlan;

export interface BatchPlan {
  form: BatchForm;
  maxReadings: number;
  /** 0: no keyframes */
  keyframeEvery: number;
  once: Field[];
  leaves: LeafPlan[];
  /**
   * delta form: the key of the reading count sent first. Without it a Protobuf message cut after its first
   * readings' fields would read as a whole message of one reading (absent repeated fields are empty).
   */
  countKey?: string;
  wireLayout: Layout;
  origins: ReadonlyMap<string, BatchOrigin>;
}

/** Readings 1 … n−1 that are keyframes (every K-th: K, 2K, …). */
export function keyframeCount(n: number, k: number): number {
  return k > 0 && n > 1 ? Math.floor((n - 1) / k) : 0;
}

/** How far after the first reading a message's last may be: twice the interval per reading (one missed). */
export function maxOffsetTicks(maxReadings: number, intervalSeconds: number, resolution: number): number {
  return 2 * (maxReadings - 1) * secondsToTicks(intervalSeconds, resolution);
}

function intField(key: string, name: string, lo: number, hi: number, number?: number): Field {
  const type = intTypeFor(lo, hi);
  const protobuf = {
    ...(number !== undefined ? { number } : {}),
    ...(type.signed ? { intEncoding: "zigzag" as const } : {}),
  };
  return { id: key, key, name, presence: "required", type, options: { protobuf } };
}

function arrayOf(f: Field, maxCount: number): Field {
  return { ...f, type: { kind: "array", of: f.type as ScalarType, maxCount, fixed: false } };
}

/** Every field id of a list, groups included. */
function allIds(fields: readonly Field[], out = new Set<string>()): Set<string> {
  for (const f of fields) {
    out.add(f.id);
    if (f.type.kind === "group") allIds(f.type.fields, out);
  }
  return out;
}

export function planBatch(layout: Layout, form: BatchForm, maxReadings: number): BatchPlan {
  const batch = layout.batch;
  if (!batch) throw new LayoutError([{ path: "batch", message: "The layout has no batch settings.", where: "" }]);
  // a draft the designer holds may not have passed validation: its batch problems, told as validation tells them
  const issues: IssueAt[] = [];
  checkBatch(layout, batch, {
    label: (path) => labelAt(layout, path),
    add: (path, message) => issues.push({ path, message, where: "" }),
  });
  if (issues.length) throw new LayoutError(issues);
  if (!Number.isInteger(maxReadings) || maxReadings < 1)
    throw new RangeError(`maxReadings must be a whole number of at least 1, not ${maxReadings}`);
  const perReading = new Set(batch.perReading.map((p) => p.field));
  const once = layout.fields.filter((f) => !perReading.has(f.id));
  const k = batch.keyframeEvery ?? 0;
  const leaves = readingLeaves(layout);
  const byField = new Map<string, Leaf[]>();
  for (const l of leaves) byField.set(l.field.id, [...(byField.get(l.field.id) ?? []), l]);

  const plans: LeafPlan[] = [];
  const origins = new Map<string, BatchOrigin>();
  // every wire field with the count it may hold; those that may hold none are dropped after numbering,
  // so the numbers of the others do not depend on maxReadings
  const wire: { field: Field; keep: boolean }[] = [];
  const origin = (leaf: Leaf, part: BatchPart): BatchOrigin => ({
    field: leaf.idPath,
    part,
    ...(leaf.element !== undefined ? { element: leaf.element } : {}),
  });
  const add = (f: Field, o: BatchOrigin, keep = true) => {
    wire.push({ field: f, keep });
    origins.set(f.id, o);
  };
  const leafField = (leaf: Leaf, name: string): Field => {
    // a scalar field keeps its wire options (protobuf number and encoding, struct string mode); the leaves
    // of groups and arrays take the next free numbers
    const own = leaf.field.type === leaf.type ? leaf.field.options : undefined;
    const { expand: _expand, ...protobuf } = own?.protobuf ?? {};
    return {
      id: leaf.key,
      key: leaf.key,
      name,
      ...(leaf.unit !== undefined ? { unit: leaf.unit } : {}),
      presence: "required",
      type: leaf.type,
      ...(leaf.text !== undefined ? { text: leaf.text } : {}),
      options: { ...own, protobuf },
    };
  };

  const countKey = form === "delta" ? "count" : undefined;
  if (countKey) add(intField(countKey, "Readings in this message", 0, maxReadings), { field: "", part: "count" });
  for (const f of layout.fields) {
    if (!perReading.has(f.id)) {
      add(f, { field: f.id, part: "once" });
      continue;
    }
    for (const leaf of byField.get(f.id) ?? []) {
      const units = form === "delta" ? unitsOf(leaf.type) : null;
      if (form === "delta" && batch.time === f.id && leaf.type.kind === "timestamp") {
        const resolution = timeResolution(leaf.type);
        const maxOffset = maxOffsetTicks(maxReadings, batch.intervalSeconds, resolution);
        const base = leafField(leaf, `${leaf.name} (first reading)`);
        const offsets = intField(`${leaf.key}_t`, `${leaf.name} (offsets of the next readings)`, 0, maxOffset);
        add(base, origin(leaf, "time-base"));
        add(arrayOf(offsets, maxReadings - 1), origin(leaf, "time-offset"), maxReadings > 1);
        plans.push({ kind: "time", leaf, resolution, maxOffset, baseKey: base.key, offsetKey: offsets.key });
      } else if (units) {
        const maxDelta = maxDeltaUnits(units, leaf.maxRate, batch.intervalSeconds);
        const name = leaf.name;
        const first = intField(leaf.key, `${name} (first reading)`, units.lo, units.hi, leaf.protobufNumber);
        const next = intField(`${leaf.key}_d`, `${name} (differences)`, -maxDelta, maxDelta);
        const key = intField(`${leaf.key}_k`, `${name} (keyframes)`, units.lo, units.hi);
        const keyframes = keyframeCount(maxReadings, k);
        const deltas = maxReadings - 1 - keyframes;
        add(first, origin(leaf, "first"));
        add(arrayOf(next, deltas), origin(leaf, "next"), deltas > 0);
        add(arrayOf(key, keyframes), origin(leaf, "keyframe"), keyframes > 0);
        plans.push({
          kind: "delta",
          leaf,
          units,
          maxDelta,
          firstKey: first.key,
          nextKey: next.key,
          keyframeKey: key.key,
        });
      } else {
        add(arrayOf(leafField(leaf, leaf.name), maxReadings), origin(leaf, "column"));
        plans.push({ kind: "column", leaf, key: leaf.key });
      }
    }
  }

  checkUnique(
    wire.map((w) => w.field),
    once,
  );
  const { batch: _batch, ...rest } = layout;
  const numbered = assignProtobufNumbers({ ...rest, fields: wire.map((w) => w.field) });
  const fields = numbered.fields.filter((_, i) => wire[i]!.keep);
  // parsing checks the derived layout like any other (ranges, protobuf numbers) and fills defaults
  const wireLayout = parseLayout({ ...numbered, fields });
  return {
    form,
    maxReadings,
    keyframeEvery: k,
    once,
    leaves: plans,
    ...(countKey ? { countKey } : {}),
    wireLayout,
    origins,
  };
}

/** A derived key that clashes with a field sent once would make two fields of one name on the wire. */
function checkUnique(fields: readonly Field[], once: readonly Field[]): void {
  const onceIds = allIds(once);
  const seen = new Set<string>();
  for (const f of fields) {
    if (once.includes(f)) {
      seen.add(f.key);
      continue;
    }
    if (seen.has(f.key) || onceIds.has(f.id))
      throw new LayoutError([
        {
          path: "batch",
          where: "",
          message: `The batch's wire field "${f.key}" (${f.name}) has the key or id of another field; rename that field.`,
        },
      ]);
    seen.add(f.key);
  }
}
