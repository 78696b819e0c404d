// Each transform three ways: the new layout, a record of the old layout as the new one carries it, and a decoded
// value back in the old layout's terms (so the error can be measured against the original).
import type {
  Field,
  FieldType,
  FieldValue,
  Layout,
  SampleModel,
  ScalarType,
  ScalarValue,
  TextRep,
  TypedRecord,
} from "#codecs";
import { decimalPlaces, roundTo } from "#codecs/plans";
import { replaceField, requireField, valueAt, withValueAt } from "./tree.ts";
import { AdvisorError, type Transform } from "./types.ts";

type Numeric = Extract<ScalarType, { kind: "float" | "fixed" }>;

function intType(digits: number): ScalarType {
  const max = 10 ** digits - 1;
  const bits = max <= 255 ? 8 : max <= 65535 ? 16 : 32;
  return { kind: "int", bits, signed: false, min: 0, max };
}

/** Decimal places a step needs ("0.05" → 2); steps are chosen as short decimals, so this is exact. */
export function stepDecimals(step: number): number {
  return decimalPlaces(step) ?? 12;
}

/** The fixed-point type holding [min, max] at `step`, its grid aligned to multiples of the step. */
export function fixedType(min: number, max: number, step: number): ScalarType {
  const d = stepDecimals(step);
  const offset = roundTo(Math.floor(min / step + 1e-9) * step, d) + 0;
  return { kind: "fixed", scale: step, offset, min, max };
}

function numericOf(f: Field): Numeric {
  const t = f.type.kind === "array" ? f.type.of : f.type;
  if ((t.kind === "float" && t.min !== undefined && t.max !== undefined) || t.kind === "fixed") return t as Numeric;
  throw new AdvisorError(`${f.key} is not a float with a range or a fixed-point value`);
}

function withTextDecimals(text: TextRep | undefined, decimals: number): TextRep | undefined {
  return text?.as === "string" && text.decimals !== undefined ? { ...text, decimals } : text;
}

/** Options that only make sense for the old type are dropped, so the new field validates. */
function retype(f: Field, type: FieldType, extra: Partial<Field> = {}): Field {
  const { struct: _struct, ...options } = f.options ?? {};
  const keepStruct = type.kind === "string" || type.kind === "bytes";
  const opts = keepStruct ? f.options : Object.keys(options).length ? options : undefined;
  const out: Field = { ...f, type, ...extra };
  if (opts === undefined) delete out.options;
  else out.options = opts;
  return out;
}

/** A numeric sample model kept inside a narrowed range, so the new layout's own samples stay valid. */
function clampedSample(m: SampleModel | undefined, min: number, max: number): SampleModel | undefined {
  if (!m) return undefined;
  switch (m.kind) {
    case "uniform":
      return { ...m, min: Math.max(m.min, min), max: Math.min(m.max, max) };
    case "normal":
    case "walk":
      return { ...m, min: Math.max(m.min ?? min, min), max: Math.min(m.max ?? max, max) };
    case "elements":
      return { ...m, each: m.each.map((e) => clampedSample(e, min, max) ?? e) };
    default:
      return m;
  }
}

/** The new layout; pure, so the designer can apply it as one undoable edit. */
export function applyTransform(layout: Layout, t: Transform): Layout {
  const at = requireField(layout, t.fieldId);
  const f = at.field;
  let next: Field | null;
  let reserved = layout.protobufReserved;
  switch (t.kind) {
    case "move-to-status":
    case "remove-field": {
      next = null;
      const n = f.options?.protobuf?.number;
      if (at.topLevel && n !== undefined && !reserved.includes(n)) reserved = [...reserved, n].sort((a, b) => a - b);
      break;
    }
    case "split-prefix": {
      if (f.type.kind !== "string") throw new AdvisorError(`${f.key} is not a string`);
      const desc = `${f.description ? `${f.description} ` : ""}Sent without its constant prefix "${t.prefix}", which travels in the status message.`;
      if (t.rest.as === "int") {
        const { digits, range } = t.rest;
        const sample: SampleModel | undefined = range
          ? range.min === range.max
            ? { kind: "constant", value: range.min }
            : { kind: "uniform", min: range.min, max: range.max, decimals: 0 }
          : undefined;
        next = retype(f, intType(digits), {
          name: `${f.name} after ${t.prefix}`,
          description: desc,
          text: { as: "string", pad: digits },
        });
        if (sample) next.sample = sample;
        else delete next.sample;
      } else {
        const sample =
          f.sample?.kind === "template" && f.sample.template.startsWith(t.prefix)
            ? { kind: "template" as const, template: f.sample.template.slice(t.prefix.length) }
            : undefined;
        next = retype(
          f,
          { ...f.type, maxLength: t.rest.maxLength },
          { name: `${f.name} after ${t.prefix}`, description: desc },
        );
        if (sample) next.sample = sample;
        else delete next.sample;
      }
      break;
    }
    case "string-charset": {
      if (f.type.kind !== "string") throw new AdvisorError(`${f.key} is not a string`);
      next = { ...f, type: { ...f.type, charset: t.charset } };
      break;
    }
    case "string-to-enum": {
      if (f.type.kind !== "string") throw new AdvisorError(`${f.key} is not a string`);
      const sample: SampleModel = {
        kind: "choice",
        values: [...t.values],
        ...(t.weights ? { weights: [...t.weights] } : {}),
      };
      next = retype(f, { kind: "enum", values: t.values.map((name, value) => ({ name, value })) }, { sample });
      break;
    }
    case "fixed-point": {
      const num = numericOf(f);
      const type = fixedType(num.min!, num.max!, t.step);
      const text = withTextDecimals(f.text, stepDecimals(t.step));
      next = retype(f, f.type.kind === "array" ? { ...f.type, of: type } : type, text ? { text } : {});
      break;
    }
    case "timestamp": {
      if (f.type.kind !== "timestamp") throw new AdvisorError(`${f.key} is not a timestamp`);
      next = retype(f, { kind: "timestamp", encoding: "epoch", resolution: t.resolution, min: t.min, max: t.max });
      break;
    }
    case "narrow-range": {
      const s = f.type.kind === "array" ? f.type.of : f.type;
      if (s.kind !== "int" && s.kind !== "fixed") throw new AdvisorError(`${f.key} is not an integer or fixed-point`);
      const type = { ...s, min: t.min, max: t.max };
      next = { ...f, type: f.type.kind === "array" ? { ...f.type, of: type } : type };
      const sample = clampedSample(f.sample, t.min, t.max);
      if (sample) next.sample = sample;
      break;
    }
    case "array-length": {
      if (f.type.kind !== "array") throw new AdvisorError(`${f.key} is not an array`);
      next = { ...f, type: { ...f.type, maxCount: t.maxCount } };
      const expand = f.options?.protobuf?.expand;
      // one protobuf field per element: the left-out elements' fields go, the others keep their numbers
      if (expand && expand.length > t.maxCount)
        next.options = { ...f.options, protobuf: { ...f.options!.protobuf, expand: expand.slice(0, t.maxCount) } };
      if (f.sample?.kind === "elements")
        next.sample = {
          ...f.sample,
          each: f.sample.each.slice(0, Math.max(1, t.maxCount)),
          ...(f.sample.minCount !== undefined ? { minCount: Math.min(f.sample.minCount, t.maxCount) } : {}),
          ...(f.sample.maxCount !== undefined ? { maxCount: Math.min(f.sample.maxCount, t.maxCount) } : {}),
        };
      break;
    }
    case "short-key":
      next = { ...f, key: t.key };
      break;
  }
  return { ...layout, protobufReserved: reserved, fields: replaceField(layout.fields, t.fieldId, next) };
}

function splitValue(t: Extract<Transform, { kind: "split-prefix" }>, v: FieldValue): FieldValue {
  if (typeof v !== "string" || !v.startsWith(t.prefix))
    throw new AdvisorError(`"${String(v)}" does not start with "${t.prefix}"`);
  const rest = v.slice(t.prefix.length);
  if (t.rest.as === "string") return rest;
  if (!/^\d+$/.test(rest) || rest.length !== t.rest.digits)
    throw new AdvisorError(`"${rest}" is not ${t.rest.digits} digits`);
  return Number(rest);
}

/** Maps records of the layout before `t` to the layout after it (moved values are left out). */
export function recordMapper(before: Layout, t: Transform): (rec: TypedRecord) => TypedRecord {
  const { keys } = requireField(before, t.fieldId);
  switch (t.kind) {
    case "move-to-status":
    case "remove-field":
      return (rec) => (valueAt(rec, keys) === undefined ? rec : withValueAt(rec, keys, undefined));
    case "array-length":
      return (rec) => {
        const v = valueAt(rec, keys);
        return Array.isArray(v) && v.length > t.maxCount ? withValueAt(rec, keys, v.slice(0, t.maxCount)) : rec;
      };
    case "short-key":
      return (rec) => {
        const v = valueAt(rec, keys);
        if (v === undefined) return rec;
        return withValueAt(withValueAt(rec, keys, undefined), [...keys.slice(0, -1), t.key], v);
      };
    case "split-prefix":
      return (rec) => {
        const v = valueAt(rec, keys);
        return v === undefined ? rec : withValueAt(rec, keys, splitValue(t, v));
      };
    default:
      // enums carry the name, fixed-point and epoch timestamps the number: the value itself
      return (rec) => rec;
  }
}

/** A decoded value of the new layout in the old layout's terms (prefix put back); moved values come from `constant`. */
export function restoreValue(
  t: Transform,
  decoded: FieldValue | undefined,
  constant?: FieldValue,
): FieldValue | undefined {
  switch (t.kind) {
    case "move-to-status":
      return constant;
    case "remove-field":
      return undefined;
    case "split-prefix":
      if (decoded === undefined) return undefined;
      return t.prefix + (t.rest.as === "int" ? String(decoded).padStart(t.rest.digits, "0") : String(decoded));
    default:
      return decoded;
  }
}

/** |a − b| for numbers (element-wise maximum for arrays), 0 or Infinity for anything else. */
export function valueError(original: FieldValue | undefined, decoded: FieldValue | undefined): number {
  if (original === undefined || decoded === undefined) return original === decoded ? 0 : Infinity;
  if (typeof original === "number" && typeof decoded === "number") return Math.abs(original - decoded);
  if (Array.isArray(original) && Array.isArray(decoded)) {
    if (original.length !== decoded.length) return Infinity;
    let worst = 0;
    for (let i = 0; i < original.length; i++)
      worst = Math.max(worst, valueError(original[i] as ScalarValue, decoded[i] as ScalarValue));
    return worst;
  }
  if (original instanceof Uint8Array && decoded instanceof Uint8Array)
    return original.length === decoded.length && original.every((b, i) => b === decoded[i]) ? 0 : Infinity;
  return original === decoded ? 0 : Infinity;
}
