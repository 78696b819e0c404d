// Draws N reproducible typed records from each field's sample model (or a default derived from its type).
import { hashString, Prng } from "./prng.ts";
import { fixedPoint } from "../layout/fixedPoint.ts";
import type { Field, FieldType, Layout, SampleModel, ScalarType } from "../layout/schema.ts";
import { quantiseTime } from "../layout/timeTicks.ts";
import { intLimits } from "../layout/validate.ts";
import type { FieldValue, ScalarValue, TypedRecord } from "../layout/values.ts";
import { roundTo, toFloat32 } from "../text/numbers.ts";
import { formatResolution } from "../text/timestamp.ts";

/** Per-field generator state: walks and counters remember where they are. */
export interface Gen {
  next(): FieldValue | undefined;
}

const ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

export function expandTemplate(template: string, rng: Prng): string {
  return template.replace(/\{(int|digits|hex|alpha):?([^}]*)\}/g, (_m, kind: string, arg: string) => {
    const parts = arg.split(":");
    switch (kind) {
      case "int": {
        const lo = Number(parts[0] ?? 0);
        const hi = Number(parts[1] ?? 9);
        const pad = Number(parts[2] ?? 0);
        return String(rng.int(lo, hi)).padStart(pad, "0");
      }
      case "digits":
        return Array.from({ length: Number(parts[0] || 1) }, () => String(rng.int(0, 9))).join("");
      case "hex":
        return Array.from({ length: Number(parts[0] || 1) }, () => rng.int(0, 15).toString(16).toUpperCase()).join("");
      default:
        return Array.from({ length: Number(parts[0] || 1) }, () => ALPHA[rng.int(0, 25)]).join("");
    }
  });
}

function typeRange(t: ScalarType): [number, number] {
  switch (t.kind) {
    case "int": {
      const [lo, hi] = intLimits(t.bits, t.signed);
      return [t.min ?? Math.max(lo, t.signed ? -1000 : 0), t.max ?? Math.min(hi, 1000)];
    }
    case "float":
      return [t.min ?? -1000, t.max ?? 1000];
    case "fixed":
      return [t.min, t.max];
    case "timestamp":
      return [t.min ?? 1735689600, t.max ?? 1767225600];
    default:
      return [0, 1];
  }
}

/** Makes a drawn number a legal value of the type (integer, float32, quantised, clamped). */
function coerce(t: ScalarType, x: number): ScalarValue {
  switch (t.kind) {
    case "int": {
      const [lo, hi] = intLimits(t.bits, t.signed);
      // "+ 0" turns Math.round's -0 into 0: integers have no negative zero on any wire
      const v = Math.min(Math.max(Math.round(x), t.min ?? lo), t.max ?? hi) + 0;
      return t.bits === 64 ? BigInt(v) : v;
    }
    case "float":
      return t.bits === 32 ? toFloat32(x) : x;
    case "fixed": {
      const fp = fixedPoint(t);
      const v = fp.fromRaw(fp.toRaw(x));
      return Math.min(Math.max(v, t.min), t.max);
    }
    case "timestamp": {
      const res = t.encoding === "text" && t.textFormat ? formatResolution(t.textFormat) : t.resolution;
      return quantiseTime(x, res);
    }
    case "bool":
      return x >= 0.5;
    default:
      return x;
  }
}

function coerceAny(t: ScalarType, v: unknown): ScalarValue {
  if (typeof v === "number" && t.kind !== "string" && t.kind !== "enum" && t.kind !== "bytes") return coerce(t, v);
  if (t.kind === "enum" && typeof v === "number") return t.values.find((e) => e.value === v)?.name ?? t.values[0]!.name;
  if (t.kind === "int" && t.bits === 64 && typeof v === "bigint") return v;
  if (t.kind === "bytes" && Array.isArray(v)) return Uint8Array.from(v as number[]);
  if (t.kind === "string" && typeof v !== "string") return String(v);
  return v as ScalarValue;
}

function defaultModel(t: ScalarType): SampleModel {
  switch (t.kind) {
    case "bool":
      return { kind: "choice", values: [false, true] };
    case "enum":
      return { kind: "choice", values: t.values.map((e) => e.name) };
    case "string":
      return { kind: "template", template: `{alpha:${Math.min(t.maxLength, 8)}}` };
    case "bytes":
      return { kind: "constant", value: Array.from({ length: Math.min(t.maxLength, 8) }, (_, i) => i) };
    case "timestamp": {
      const [lo] = typeRange(t);
      return { kind: "walk", start: lo, stepMin: 1, stepMax: 600 };
    }
    default: {
      const [lo, hi] = typeRange(t);
      return { kind: "uniform", min: lo, max: hi };
    }
  }
}

/** Reflects x into [min, max] once (a walk bounces off its bounds). */
function bounce(x: number, min: number | undefined, max: number | undefined): number {
  if (min !== undefined && x < min) x = min + (min - x);
  if (max !== undefined && x > max) x = max - (x - max);
  return x;
}

/** `dt`: seconds between two samples, for the models that move at a rate (a batch's interval in series, 1 s in independent samples). */
function scalarGen(t: ScalarType, model: SampleModel, rng: Prng, dt: number): () => ScalarValue {
  switch (model.kind) {
    case "constant": {
      const v = coerceAny(t, model.value);
      return () => v;
    }
    case "uniform":
      return () => {
        const x = rng.uniform(model.min, model.max);
        return coerce(t, model.decimals !== undefined ? roundTo(x, model.decimals) : x);
      };
    case "normal":
      return () => {
        let x = rng.normal(model.mean, model.sd);
        if (model.min !== undefined) x = Math.max(model.min, x);
        if (model.max !== undefined) x = Math.min(model.max, x);
        return coerce(t, model.decimals !== undefined ? roundTo(x, model.decimals) : x);
      };
    case "choice": {
      const weights = model.weights ?? model.values.map(() => 1);
      const total = weights.reduce((a, b) => a + b, 0) || 1;
      const values = model.values.map((v) => coerceAny(t, v));
      return () => {
        let r = rng.next() * total;
        for (let i = 0; i < values.length; i++) {
          r -= weights[i] ?? 0;
          if (r < 0) return values[i]!;
        }
        return values[values.length - 1]!;
      };
    }
    case "walk": {
      let x = model.start;
      let first = true;
      return () => {
        if (!first) x += rng.uniform(model.stepMin, model.stepMax);
        first = false;
        x = bounce(x, model.min, model.max);
        const v = model.decimals !== undefined ? roundTo(x, model.decimals) : x;
        return coerce(t, v);
      };
    }
    case "counter": {
      let i = 0;
      return () => {
        let x = model.start + model.step * i++;
        if (model.wrap !== undefined && model.wrap > 0) x = model.start + ((x - model.start) % model.wrap);
        return coerce(t, x);
      };
    }
    case "randomWalk": {
      let x = model.start;
      let first = true;
      return () => {
        if (!first) x = bounce(x + rng.uniform(-model.maxRate, model.maxRate) * dt, model.min, model.max);
        first = false;
        return coerce(t, model.decimals !== undefined ? roundTo(x, model.decimals) : x);
      };
    }
    case "drift": {
      let i = 0;
      return () => {
        const wave = model.amplitude * Math.sin((2 * Math.PI * i++ * dt) / model.periodSeconds);
        const noise = model.noise ? rng.normal(0, model.noise) : 0;
        const x = model.start + wave + noise;
        return coerce(t, model.decimals !== undefined ? roundTo(x, model.decimals) : x);
      };
    }
    case "hold": {
      const from = scalarGen(t, model.from, rng, dt);
      let v: ScalarValue | undefined;
      return () => {
        if (v === undefined || rng.next() < model.chance) v = from();
        return v;
      };
    }
    case "template":
      return () => coerceAny(t, expandTemplate(model.template, rng));
    case "elements":
      return scalarGen(t, model.each[0]!, rng, dt);
  }
}

/** One field's generator; exported for series (samples/series.ts), which draws per-reading fields. */
export function fieldGen(f: Field, seed: number, dt = 1): Gen {
  const rng = new Prng(hashString(f.id, seed));
  const t: FieldType = f.type;
  const optional = f.presence === "optional";
  const wrap = (g: () => FieldValue): Gen => ({
    // optional fields are present 80 % of the time unless the model says otherwise
    next: () => (optional && rng.next() < 0.2 ? (g(), undefined) : g()),
  });
  if (t.kind === "group") {
    const gens = t.fields.map((c) => [c.key, fieldGen(c, seed ^ hashString(f.id), dt)] as const);
    return wrap(() => {
      const rec: TypedRecord = {};
      for (const [k, g] of gens) {
        const v = g.next();
        if (v !== undefined) rec[k] = v;
      }
      return rec;
    });
  }
  if (t.kind === "array") {
    const model = f.sample;
    const each = model?.kind === "elements" ? model.each : [model ?? defaultModel(t.of)];
    const gens = each.map((m) => scalarGen(t.of, m, rng, dt));
    const minCount = t.fixed ? t.maxCount : model?.kind === "elements" ? (model.minCount ?? 0) : 0;
    const maxCount = t.fixed
      ? t.maxCount
      : model?.kind === "elements"
        ? Math.min(model.maxCount ?? t.maxCount, t.maxCount)
        : t.maxCount;
    return wrap(() => {
      const n = minCount === maxCount ? minCount : rng.int(minCount, maxCount);
      return Array.from({ length: n }, (_, i) => gens[Math.min(i, gens.length - 1)]!());
    });
  }
  return wrap(scalarGen(t, f.sample ?? defaultModel(t), rng, dt));
}

/**
 * One top-level field's values of generateSamples(layout, count, seed), sample by sample (undefined where an
 * optional field is absent), drawn without building the records: a field's values depend on nothing else.
 */
export function generateColumn(field: Field, count: number, seed = 1): (FieldValue | undefined)[] {
  const g = fieldGen(field, seed >>> 0);
  const out: (FieldValue | undefined)[] = new Array(count);
  for (let i = 0; i < count; i++) out[i] = g.next();
  return out;
}

/** N typed records, reproducible for (layout, seed); sample i is the same whatever N is. */
export function generateSamples(layout: Layout, count: number, seed = 1): TypedRecord[] {
  // independent samples step 1 s at a time; series (series.ts) step by the batch's interval
  const gens = layout.fields.map((f) => [f.key, fieldGen(f, seed >>> 0)] as const);
  const out: TypedRecord[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const rec: TypedRecord = {};
    for (const [k, g] of gens) {
      const v = g.next();
      if (v !== undefined) rec[k] = v;
    }
    out[i] = rec;
  }
  return out;
}
