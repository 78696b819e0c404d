// Edits of the layout's batch (issue #27): which top-level fields repeat per reading, how often readings are taken
// and how many go in one message. Each is one undoable layout edit, like any other (useDesigner.edit); the layout's
// validation judges the values and its sentences show next to the controls (batch.perReading[2].maxRate, …).
import type { Field, Layout } from "#codecs";
import { useDesigner } from "../../../state/layoutStore.ts";
import { useSettings } from "../../../state/settings.ts";
import { chosenLimits } from "../../../ui/sizes/PlatformPicker.tsx";

export type Batch = NonNullable<Layout["batch"]>;
export type PerReading = Batch["perReading"][number];

/** A tracker that wakes every 15 minutes: the issue's own example, and a common default of commercial trackers. */
export const DEFAULT_INTERVAL_SECONDS = 900;
/** Readings per message when no chosen platform has a size limit to fill. */
export const DEFAULT_READINGS = 10;

const NUMERIC = new Set(["int", "fixed", "float", "timestamp"]);

/** The strictest chosen platform with a limit (Limits ▾): what a new batch fills. */
export function defaultFitPlatform(): string | null {
  return chosenLimits(useSettings.getState().platforms).limits[0]?.id ?? null;
}

/** How long a wait is, in the unit people think of it in: "45 s", "15 min", "2.5 h", "3 days". */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return "–";
  const n = (x: number) => x.toFixed(1).replace(/\.0$/, "");
  if (seconds < 120) return `${n(seconds)} s`;
  if (seconds < 3600) return `${n(seconds / 60)} min`;
  if (seconds < 2 * 86400) return `${n(seconds / 3600)} h`;
  return `${n(seconds / 86400)} days`;
}

/** A number, or a fixed-count array of numbers: what a delta can be taken of. */
export function isNumeric(f: Field): boolean {
  const t = f.type;
  if (NUMERIC.has(t.kind)) return true;
  return t.kind === "array" && t.fixed && NUMERIC.has(t.of.kind);
}

/** Sample models of values that do not move like a measurement: a constant, a state drawn from a list. */
const STILL = new Set(["constant", "choice", "template"]);

/**
 * Fields that move from one reading to the next: numbers (and fixed arrays of numbers) whose samples are not a
 * constant or a state drawn from a list. Names, ids, states and text are sent once per message. Optional fields
 * stay out: every reading carries the same values.
 */
export function movingFields(layout: Layout): Field[] {
  return layout.fields.filter((f) => f.presence === "required" && isNumeric(f) && !STILL.has(f.sample?.kind ?? ""));
}

/**
 * A batch set up from the layout: the moving fields repeat per reading, the first timestamp among them is the
 * reading's time, a reading every 15 minutes, and as many readings as fit the strictest chosen platform (a fixed
 * DEFAULT_READINGS when none has a limit).
 */
export function suggestBatch(layout: Layout, fitPlatform: string | null): Batch {
  const moving = movingFields(layout);
  const time = moving.find((f) => f.type.kind === "timestamp");
  return {
    perReading: moving.map((f) => ({ field: f.id })),
    intervalSeconds: DEFAULT_INTERVAL_SECONDS,
    readings: fitPlatform ? { kind: "fit", platform: fitPlatform } : { kind: "fixed", count: DEFAULT_READINGS },
    ...(time ? { time: time.id } : {}),
  };
}

export function withBatch(layout: Layout, batch: Batch | undefined): Layout {
  const { batch: _old, ...rest } = layout;
  return batch ? { ...rest, batch } : rest;
}

/** Marks a top-level field as repeated per reading (kept in layout order) or sent once; the time follows it. */
export function setPerReading(layout: Layout, batch: Batch, fieldId: string, on: boolean): Batch {
  const had = batch.perReading.find((p) => p.field === fieldId);
  if (on === !!had) return batch;
  if (!on) {
    const { time, ...rest } = batch;
    const perReading = batch.perReading.filter((p) => p.field !== fieldId);
    return time === fieldId ? { ...rest, perReading } : { ...batch, perReading };
  }
  const order = new Map(layout.fields.map((f, i) => [f.id, i]));
  const perReading = [...batch.perReading, { field: fieldId }].sort(
    (a, b) => (order.get(a.field) ?? Infinity) - (order.get(b.field) ?? Infinity),
  );
  return { ...batch, perReading };
}

/** Sets (or clears, with undefined) the most a field may change per second. */
export function setMaxRate(batch: Batch, fieldId: string, maxRate: number | undefined): Batch {
  return {
    ...batch,
    perReading: batch.perReading.map((p): PerReading => {
      if (p.field !== fieldId) return p;
      const { maxRate: _old, ...rest } = p;
      return maxRate === undefined ? rest : { ...rest, maxRate };
    }),
  };
}

export function setOptional<K extends "time" | "keyframeEvery">(
  batch: Batch,
  key: K,
  value: Batch[K] | undefined,
): Batch {
  const out: Batch = { ...batch };
  if (value === undefined) delete out[key];
  else out[key] = value;
  return out;
}

/** One undoable edit of the batch; typing in one control merges into one step, as elsewhere in the inspector. */
export function editBatch(control: string, fn: (batch: Batch, layout: Layout) => Batch | undefined): void {
  useDesigner.getState().edit((l) => (l.batch ? withBatch(l, fn(l.batch, l)) : l), `batch:${control}`);
}

/** Turns batching on with a suggestion, or off (the settings go; Undo brings them back). */
export function turnBatch(on: boolean, fitPlatform: string | null): void {
  useDesigner.getState().edit((l) => {
    if (on === !!l.batch) return l;
    return withBatch(l, on ? suggestBatch(l, fitPlatform) : undefined);
  });
}
