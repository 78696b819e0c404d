// A batch of readings ⇄ the one wire record of its plan. Encoding checks what the wire cannot say (reading
// count, the declared rate, time order); decoding checks what a malformed message can break (column counts,
// differences past their width, values past their range) and never returns a reading it cannot vouch for.
import { keyframeCount, type BatchPlan, type DeltaPlan, type LeafPlan, type TimePlan } from "./plan.ts";
import { DecodeError, EncodeError } from "../errors.ts";
import { secondsToTicks, ticksToSeconds } from "../layout/timeTicks.ts";
import type { FieldValue, ScalarValue, TypedRecord } from "../layout/values.ts";

export interface BatchRecord {
  /** the fields sent once per message */
  once: TypedRecord;
  /** oldest first; each holds the per-reading fields only */
  readings: TypedRecord[];
}

function get(r: TypedRecord, path: readonly (string | number)[]): FieldValue | undefined {
  let v: unknown = r;
  for (const p of path) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Record<string | number, unknown>)[p];
  }
  return v as FieldValue | undefined;
}

function set(r: TypedRecord, path: readonly (string | number)[], value: ScalarValue): void {
  let o: Record<string | number, unknown> = r;
  for (let i = 0; i < path.length - 1; i++) {
    const p = path[i]!;
    o[p] ??= typeof path[i + 1] === "number" ? [] : {};
    o = o[p] as Record<string | number, unknown>;
  }
  o[path[path.length - 1]!] = value;
}

/** 64-bit wire ints carry bigints; the others numbers. */
const wireInt = (plan: BatchPlan, key: string, u: number): number | bigint => {
  const f = plan.wireLayout.fields.find((w) => w.key === key);
  const t = f?.type.kind === "array" ? f.type.of : f?.type;
  return t?.kind === "int" && t.bits === 64 ? BigInt(u) : u;
};
const num = (v: unknown): number => (typeof v === "bigint" ? Number(v) : (v as number));

const ordinal = (i: number) => `reading ${i + 1}`;
const show = (x: number) => String(Number(x.toPrecision(12)));

export function toWire(plan: BatchPlan, format: string, b: BatchRecord): TypedRecord {
  const n = b.readings.length;
  if (n === 0) throw new EncodeError("a batch needs at least one reading", format, "readings");
  if (n > plan.maxReadings)
    throw new EncodeError(
      `${n} readings; a message of this batch holds at most ${plan.maxReadings}`,
      format,
      "readings",
    );
  const out: TypedRecord = {};
  if (plan.countKey) out[plan.countKey] = n;
  for (const f of plan.once) {
    const v = b.once[f.key];
    if (v !== undefined) out[f.key] = v;
  }
  for (const lp of plan.leaves) {
    const values = b.readings.map((r, i) => {
      const v = get(r, lp.leaf.path);
      if (v === undefined)
        throw new EncodeError(`${ordinal(i)} has no value for ${lp.leaf.name}`, format, lp.leaf.idPath);
      return v;
    });
    if (lp.kind === "column") out[lp.key] = values as ScalarValue[];
    else if (lp.kind === "delta") writeDelta(plan, lp, values, format, out);
    else writeTime(plan, lp, values, format, out);
  }
  return out;
}

function writeDelta(plan: BatchPlan, lp: DeltaPlan, values: FieldValue[], format: string, out: TypedRecord): void {
  const { units, leaf } = lp;
  const u = values.map((v, i) => {
    const x = typeof v === "number" ? units.toUnits(v) : Number.NaN;
    if (!Number.isSafeInteger(x))
      throw new EncodeError(
        `${ordinal(i)}: ${leaf.name} is ${String(v)}, not a value of its type`,
        format,
        leaf.idPath,
      );
    if (x < units.lo || x > units.hi)
      throw new EncodeError(
        `${ordinal(i)}: ${leaf.name} ${String(v)} is outside its range ${show(units.fromUnits(units.lo))} … ${show(units.fromUnits(units.hi))}`,
        format,
        leaf.idPath,
      );
    return x;
  });
  const next: (number | bigint)[] = [];
  const keys: (number | bigint)[] = [];
  for (let i = 1; i < u.length; i++) {
    if (plan.keyframeEvery > 0 && i % plan.keyframeEvery === 0) {
      keys.push(wireInt(plan, lp.keyframeKey, u[i]!));
      continue;
    }
    const d = u[i]! - u[i - 1]!;
    if (Math.abs(d) > lp.maxDelta) {
      const unit = leaf.unit ? ` ${leaf.unit}` : "";
      const rate = leaf.maxRate !== undefined ? ` (max rate ${show(leaf.maxRate)}${unit} per s)` : "";
      throw new EncodeError(
        `${leaf.name} changes by ${show(d * units.step)}${unit} from ${ordinal(i - 1)} to ${ordinal(i)}; the delta form carries at most ${show(lp.maxDelta * units.step)}${unit} between two readings${rate}`,
        format,
        leaf.idPath,
      );
    }
    next.push(wireInt(plan, lp.nextKey, d));
  }
  out[lp.firstKey] = wireInt(plan, lp.firstKey, u[0]!);
  if (plan.maxReadings - 1 - keyframeCount(plan.maxReadings, plan.keyframeEvery) > 0)
    out[lp.nextKey] = next as ScalarValue[];
  if (keyframeCount(plan.maxReadings, plan.keyframeEvery) > 0) out[lp.keyframeKey] = keys as ScalarValue[];
}

function writeTime(plan: BatchPlan, lp: TimePlan, values: FieldValue[], format: string, out: TypedRecord): void {
  const { leaf, resolution } = lp;
  const ticks = values.map((v, i) => {
    if (typeof v !== "number" || !Number.isFinite(v))
      throw new EncodeError(`${ordinal(i)}: ${leaf.name} is ${String(v)}, not a time`, format, leaf.idPath);
    return secondsToTicks(v, resolution);
  });
  const offsets = ticks.slice(1).map((t, j) => {
    const off = t - ticks[0]!;
    const i = j + 1;
    if (off < 0)
      throw new EncodeError(
        `${ordinal(i)} is earlier than ${ordinal(0)}; the readings of a message go oldest first`,
        format,
        leaf.idPath,
      );
    if (off > lp.maxOffset)
      throw new EncodeError(
        `${ordinal(i)} is ${show(off * resolution)} s after ${ordinal(0)}; a message of ${plan.maxReadings} readings spans at most ${show(lp.maxOffset * resolution)} s (twice the interval per reading)`,
        format,
        leaf.idPath,
      );
    return wireInt(plan, lp.offsetKey, off);
  });
  out[lp.baseKey] = values[0]!;
  if (plan.maxReadings > 1) out[lp.offsetKey] = offsets as ScalarValue[];
}

/** How many readings a leaf's wire values say the message holds. */
function readingsOf(plan: BatchPlan, lp: LeafPlan, rec: TypedRecord): number {
  const len = (key: string) => {
    const v = rec[key];
    return Array.isArray(v) ? v.length : 0;
  };
  if (lp.kind === "column") return len(lp.key);
  if (lp.kind === "time") return 1 + len(lp.offsetKey);
  return 1 + len(lp.nextKey) + len(lp.keyframeKey);
}

export function fromWire(plan: BatchPlan, format: string, rec: TypedRecord): BatchRecord {
  const fail = (message: string) => new DecodeError(message, format);
  const once: TypedRecord = {};
  for (const f of plan.once) if (rec[f.key] !== undefined) once[f.key] = rec[f.key]!;
  const first = plan.leaves[0];
  const n = plan.countKey ? num(rec[plan.countKey] ?? 0) : first ? readingsOf(plan, first, rec) : 0;
  if (!(n >= 1)) throw fail("the message holds no reading");
  if (n > plan.maxReadings) throw fail(`${n} readings; a message of this batch holds at most ${plan.maxReadings}`);
  for (const lp of plan.leaves) {
    const m = readingsOf(plan, lp, rec);
    if (m !== n)
      throw fail(
        plan.countKey
          ? `the message says ${n} readings, but ${lp.leaf.name} has ${m}`
          : `the columns disagree on the reading count: ${first!.leaf.name} has ${n}, ${lp.leaf.name} ${m}`,
      );
  }
  const readings: TypedRecord[] = Array.from({ length: n }, () => ({}));
  for (const lp of plan.leaves) {
    if (lp.kind === "column") {
      (rec[lp.key] as ScalarValue[]).forEach((v, i) => set(readings[i]!, lp.leaf.path, v));
    } else if (lp.kind === "delta") {
      readDelta(plan, lp, rec, n, fail).forEach((v, i) => set(readings[i]!, lp.leaf.path, v));
    } else {
      const base = rec[lp.baseKey];
      if (typeof base !== "number") throw fail(`${lp.leaf.name}: the first reading's time is missing`);
      const t0 = secondsToTicks(base, lp.resolution);
      set(readings[0]!, lp.leaf.path, base);
      const offsets = (rec[lp.offsetKey] as ScalarValue[] | undefined) ?? [];
      offsets.forEach((o, j) => {
        const off = num(o);
        if (!(off >= 0 && off <= lp.maxOffset))
          throw fail(`${lp.leaf.name}: ${ordinal(j + 1)}'s offset ${off} is outside 0 … ${lp.maxOffset}`);
        set(readings[j + 1]!, lp.leaf.path, ticksToSeconds(t0 + off, lp.resolution));
      });
    }
  }
  return { once, readings };
}

function readDelta(
  plan: BatchPlan,
  lp: DeltaPlan,
  rec: TypedRecord,
  n: number,
  fail: (m: string) => DecodeError,
): number[] {
  const { units, leaf } = lp;
  const keyframes = keyframeCount(n, plan.keyframeEvery);
  const next = ((rec[lp.nextKey] as ScalarValue[] | undefined) ?? []).map(num);
  const keys = ((rec[lp.keyframeKey] as ScalarValue[] | undefined) ?? []).map(num);
  if (keys.length !== keyframes)
    throw fail(
      `${leaf.name}: ${keys.length} keyframes for ${n} readings; every ${plan.keyframeEvery}th reading is one (${keyframes})`,
    );
  const inRange = (u: number, i: number) => {
    if (!(Number.isSafeInteger(u) && u >= units.lo && u <= units.hi))
      throw fail(`${leaf.name}: ${ordinal(i)} comes out at ${u} units, outside ${units.lo} … ${units.hi}`);
    return u;
  };
  const u = [inRange(num(rec[lp.firstKey]), 0)];
  let d = 0;
  let k = 0;
  for (let i = 1; i < n; i++) {
    if (plan.keyframeEvery > 0 && i % plan.keyframeEvery === 0) u.push(inRange(keys[k++]!, i));
    else {
      const delta = next[d++]!;
      if (!(Math.abs(delta) <= lp.maxDelta))
        throw fail(`${leaf.name}: the difference ${delta} to ${ordinal(i)} is past its width ±${lp.maxDelta}`);
      u.push(inRange(u[i - 1]! + delta, i));
    }
  }
  return u.map(units.fromUnits);
}
