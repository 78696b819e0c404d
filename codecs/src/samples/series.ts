// Samples of a batch are a series, not independent draws: each per-reading field's model steps by the
// batch's interval, the time field advances by exactly that interval, and a field with a declared max rate
// never moves faster than it (a draw further away is cut to the rate), so generated batches always encode.
import { fieldGen, type Gen } from "./generate.ts";
import { maxDeltaUnits, readingLeaves, timeResolution, unitsOf } from "../batch/leaves.ts";
import type { BatchRecord } from "../batch/transform.ts";
import { LayoutError } from "../errors.ts";
import type { Batch, Layout } from "../layout/schema.ts";
import { quantiseTime } from "../layout/timeTicks.ts";
import type { FieldValue, TypedRecord } from "../layout/values.ts";

function batchOf(layout: Layout): Batch {
  if (!layout.batch)
    throw new LayoutError([{ path: "batch", where: "", message: "The layout has no readings-per-message settings." }]);
  return layout.batch;
}

function getAt(r: TypedRecord, path: readonly (string | number)[]): unknown {
  let v: unknown = r;
  for (const p of path) v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

function setAt(r: TypedRecord, path: readonly (string | number)[], value: number): void {
  let o = r as Record<string | number, unknown>;
  for (let i = 0; i < path.length - 1; i++) o = o[path[i]!] as Record<string | number, unknown>;
  o[path[path.length - 1]!] = value;
}

/**
 * `readings` readings of the per-reading fields, reproducible for (layout, seed): reading i is the same
 * whatever the count. Throws LayoutError when the layout has no batch.
 */
export function generateSeries(layout: Layout, readings: number, seed = 1): TypedRecord[] {
  const batch = batchOf(layout);
  const dt = batch.intervalSeconds;
  const perReading = new Set(batch.perReading.map((p) => p.field));
  const fields = layout.fields.filter((f) => perReading.has(f.id));
  const gens: [string, Gen][] = fields.map((f) => [f.key, fieldGen(f, seed >>> 0, dt)]);
  const timeField = fields.find((f) => f.id === batch.time && f.type.kind === "timestamp");
  const resolution = timeField?.type.kind === "timestamp" ? timeResolution(timeField.type) : 1;
  // the leaves a rate limits, in units of their precision
  const limited = readingLeaves(layout).flatMap((leaf) => {
    const units = leaf.maxRate !== undefined && leaf.field !== timeField ? unitsOf(leaf.type) : null;
    // maxDeltaUnits allows one unit for rounding both ends; drawn values are already on the grid
    return units ? [{ leaf, units, step: Math.max(1, maxDeltaUnits(units, leaf.maxRate, dt) - 1) }] : [];
  });
  let t0: number | undefined;
  const out: TypedRecord[] = [];
  for (let i = 0; i < readings; i++) {
    const rec: TypedRecord = {};
    for (const [key, g] of gens) {
      const v = g.next();
      if (v !== undefined) rec[key] = v;
    }
    if (timeField) {
      t0 ??= rec[timeField.key] as number;
      rec[timeField.key] = quantiseTime(t0 + i * dt, resolution);
    }
    const prev = out[i - 1];
    if (prev)
      for (const { leaf, units, step } of limited) {
        const [a, b] = [getAt(prev, leaf.path), getAt(rec, leaf.path)];
        if (typeof a !== "number" || typeof b !== "number") continue;
        const [ua, ub] = [units.toUnits(a), units.toUnits(b)];
        if (ub - ua > step) setAt(rec, leaf.path, units.fromUnits(ua + step));
        else if (ua - ub > step) setAt(rec, leaf.path, units.fromUnits(ua - step));
      }
    out.push(rec);
  }
  return out;
}

/**
 * `messages` batches of `readingsPerMessage` readings cut from one continuous series (message m holds
 * readings m·N … m·N + N − 1); the fields sent once are drawn once per message.
 */
export function generateBatches(layout: Layout, messages: number, readingsPerMessage: number, seed = 1): BatchRecord[] {
  return new BatchSource(layout, seed).batches(messages, readingsPerMessage);
}

/**
 * generateBatches for many message sizes of one layout and seed (readingsThatFit): the series and the
 * once records are drawn once and grown (doubling) as larger cuts ask for more, not drawn again per size.
 */
export class BatchSource {
  private series: TypedRecord[] = [];
  private once: TypedRecord[] = [];

  constructor(
    private readonly layout: Layout,
    private readonly seed = 1,
  ) {
    batchOf(layout);
  }

  batches(messages: number, readingsPerMessage: number): BatchRecord[] {
    const readings = messages * readingsPerMessage;
    if (this.series.length < readings)
      this.series = generateSeries(this.layout, Math.max(readings, 2 * this.series.length), this.seed);
    if (this.once.length < messages) this.once = this.onceRecords(Math.max(messages, 2 * this.once.length));
    return Array.from({ length: messages }, (_, m) => ({
      once: this.once[m]!,
      readings: this.series.slice(m * readingsPerMessage, (m + 1) * readingsPerMessage),
    }));
  }

  /** drawn like generateSamples draws them: message m's once fields are sample m's */
  private onceRecords(messages: number): TypedRecord[] {
    const perReading = new Set(batchOf(this.layout).perReading.map((p) => p.field));
    const once = this.layout.fields
      .filter((f) => !perReading.has(f.id))
      .map((f) => [f.key, fieldGen(f, this.seed >>> 0)] as const);
    return Array.from({ length: messages }, () => {
      const rec: TypedRecord = {};
      for (const [key, g] of once) {
        const v: FieldValue | undefined = g.next();
        if (v !== undefined) rec[key] = v;
      }
      return rec;
    });
  }
}
