// Layout → protobuf message model: names, numbers, proto types and value mappings, derived once and
// shared by the reflected protobufjs types, the compiled encoder/decoder and the .proto exporter.
import {
  ProtoScope,
  protoEnumPrefix,
  protoEnumValueName,
  protoFieldName,
  protoJsonName,
  protoTypeName,
} from "./names.ts";
import { LayoutError, type IssueAt } from "../../errors.ts";
import { fixedPoint } from "../../layout/fixedPoint.ts";
import type { Field, Layout, ScalarType } from "../../layout/schema.ts";
import { resolutionDecimals, secondsToTicks } from "../../layout/timeTicks.ts";
import { assignProtobufNumbers, intLimits } from "../../layout/validate.ts";
import { charsetPattern } from "../../text/check.ts";

export type ProtoScalar =
  | "bool"
  | "int32"
  | "uint32"
  | "sint32"
  | "fixed32"
  | "sfixed32"
  | "int64"
  | "uint64"
  | "sint64"
  | "fixed64"
  | "sfixed64"
  | "float"
  | "double"
  | "string"
  | "bytes";

/** The integer proto types: how a raw integer is put on the wire. */
export type ProtoInt = Exclude<ProtoScalar, "bool" | "float" | "double" | "string" | "bytes">;

export interface ProtoEnum {
  name: string;
  /** zero first (proto3 requires it), then the layout's order */
  values: { name: string; number: number; layoutName?: string }[];
  /** layout name → number and back; the added *_UNSPECIFIED is in neither */
  numberOf: Map<string, number>;
  nameOf: Map<number, string>;
}

/** How a layout value maps to the protobuf value; carries the layout's limits for both directions. */
export type ValueMap =
  | { kind: "bool" }
  | { kind: "enum"; enum: ProtoEnum }
  | { kind: "int"; wire: ProtoInt; min: number; max: number }
  | { kind: "int64"; wire: ProtoInt; min: bigint; max: bigint }
  | { kind: "float"; bits: 32 | 64; min: number; max: number }
  | {
      kind: "fixed";
      wire: ProtoInt;
      scale: number;
      offset: number;
      min: number;
      max: number;
      rawMin: number;
      rawMax: number;
      fromRaw: (raw: number) => number;
    }
  | {
      kind: "epoch";
      wire: ProtoInt;
      resolution: number;
      decimals: number;
      min: number;
      max: number;
      rawMin: number;
      rawMax: number;
    }
  | { kind: "text-time"; format: string; min: number; max: number }
  | { kind: "string"; maxLength: number; charset: RegExp | undefined }
  | { kind: "bytes"; maxLength: number };

export interface ProtoField {
  name: string;
  number: number;
  /** proto type as written in the .proto: a scalar, or the enum/message type name */
  type: ProtoScalar | "enum" | "message";
  typeName?: string;
  /** implicit: proto3 default presence (defaults are not written); optional: explicit presence */
  label: "implicit" | "optional" | "repeated";
  packed: boolean;
  /** the layout field this proto field carries (an expanded array has one proto field per element) */
  source: Field;
  /** field ids from the top level joined by "/" (span attribution) */
  path: string;
  /** layout keys joined by ".", the way RecordError and EncodeError name fields ("gps.lat") */
  keyPath: string;
  /** expanded arrays: which element */
  element?: { index: number; count: number; suffix: string };
  /** scalars and repeated elements */
  value?: ValueMap;
  /** groups */
  message?: ProtoMessage;
}

export interface ProtoMessage {
  name: string;
  /** ascending field number: the order Python (and every conforming encoder) writes them */
  fields: ProtoField[];
  enums: ProtoEnum[];
  messages: ProtoMessage[];
  reserved: number[];
  layoutFields: Field[];
}

export interface ProtoModel {
  package: string;
  root: ProtoMessage;
  /** the layout with every protobuf number assigned */
  layout: Layout;
}

const U32_MAX = 4294967295;
const I32_MIN = -2147483648;
const I32_MAX = 2147483647;
const SAFE = Number.MAX_SAFE_INTEGER;
const MAX_FIELD_NUMBER = 536870911;

type Encoding = "varint" | "zigzag" | "fixed" | undefined;

/** Raw integers of a known range (fixed-point, timestamps): the narrowest type of the requested family. */
function rawIntType(rawMin: number, rawMax: number, enc: Encoding, fallback: () => ProtoInt): ProtoInt {
  const fitsU32 = rawMin >= 0 && rawMax <= U32_MAX;
  const fitsI32 = rawMin >= I32_MIN && rawMax <= I32_MAX;
  switch (enc) {
    case "varint":
      return rawMin >= 0 ? (fitsU32 ? "uint32" : "uint64") : fitsI32 ? "int32" : "int64";
    case "zigzag":
      return fitsI32 ? "sint32" : "sint64";
    case "fixed":
      return fitsU32 ? "fixed32" : fitsI32 ? "sfixed32" : rawMin >= 0 ? "fixed64" : "sfixed64";
    default:
      return fallback();
  }
}

function intType(t: Extract<ScalarType, { kind: "int" }>, enc: Encoding, at: string, issues: IssueAt[]): ProtoInt {
  const wide = t.bits === 64;
  if (!t.signed) {
    if (enc === "zigzag") {
      // zigzag of an unsigned value only fits when the upper bound leaves the sign bit free
      const max = t.max ?? intLimits(t.bits, false)[1];
      if (!wide && max <= I32_MAX) return "sint32";
      if (max <= 2 ** 63 - 1) return "sint64";
      issues.push({
        path: `${at}.options.protobuf.intEncoding`,
        message: "zigzag cannot carry this unsigned range (set max ≤ 2^63−1 or use varint)",
      });
      return "uint64";
    }
    if (enc === "fixed") return wide ? "fixed64" : "fixed32";
    return wide ? "uint64" : "uint32";
  }
  if (enc === "varint") return wide ? "int64" : "int32";
  if (enc === "fixed") return wide ? "sfixed64" : "sfixed32";
  return wide ? "sint64" : "sint32";
}

const bigFloor = (x: number) => BigInt(Math.floor(x));
const bigCeil = (x: number) => BigInt(Math.ceil(x));

function valueMap(
  t: ScalarType,
  f: Field,
  fieldName: string,
  at: string,
  issues: IssueAt[],
  enums: ProtoEnum[],
  scope: ProtoScope,
): { type: ProtoScalar | "enum"; typeName?: string; value: ValueMap } {
  const enc = f.options?.protobuf?.intEncoding;
  switch (t.kind) {
    case "bool":
      return { type: "bool", value: { kind: "bool" } };
    case "enum": {
      const e = buildEnum(t, fieldName, scope);
      enums.push(e);
      return { type: "enum", typeName: e.name, value: { kind: "enum", enum: e } };
    }
    case "int": {
      const wire = intType(t, enc, at, issues);
      const [lo, hi] = intLimits(t.bits, t.signed);
      if (t.bits === 64) {
        const tmin = t.signed ? -(1n << 63n) : 0n;
        const tmax = t.signed ? (1n << 63n) - 1n : (1n << 64n) - 1n;
        const min = t.min !== undefined && bigCeil(t.min) > tmin ? bigCeil(t.min) : tmin;
        const max = t.max !== undefined && bigFloor(t.max) < tmax ? bigFloor(t.max) : tmax;
        return { type: wire, value: { kind: "int64", wire, min, max } };
      }
      const min = Math.max(lo, t.min === undefined ? lo : Math.ceil(t.min));
      const max = Math.min(hi, t.max === undefined ? hi : Math.floor(t.max));
      return { type: wire, value: { kind: "int", wire, min, max } };
    }
    case "float":
      return {
        type: t.bits === 32 ? "float" : "double",
        value: { kind: "float", bits: t.bits, min: t.min ?? -Infinity, max: t.max ?? Infinity },
      };
    case "fixed": {
      const offset = t.offset ?? 0;
      const { rawMin, rawMax, fromRaw } = fixedPoint(t);
      if (!Number.isSafeInteger(rawMin) || !Number.isSafeInteger(rawMax))
        issues.push({
          path: `${at}.type.scale`,
          message: "gives raw values beyond ±2^53 (move offset closer to the range)",
        });
      const wire = rawIntType(rawMin, rawMax, enc, () =>
        rawMin >= 0
          ? rawMax <= U32_MAX
            ? "uint32"
            : "uint64"
          : rawMin >= I32_MIN && rawMax <= I32_MAX
            ? "sint32"
            : "sint64",
      );
      return {
        type: wire,
        value: { kind: "fixed", wire, scale: t.scale, offset, min: t.min, max: t.max, rawMin, rawMax, fromRaw },
      };
    }
    case "timestamp": {
      const min = t.min ?? -Infinity;
      const max = t.max ?? Infinity;
      if (t.encoding === "text")
        return { type: "string", value: { kind: "text-time", format: t.textFormat ?? "", min, max } };
      const resolution = t.resolution ?? 1;
      const decimals = resolutionDecimals(resolution);
      const toRaw = (v: number) => secondsToTicks(v, resolution);
      const bounded = t.min !== undefined && t.max !== undefined;
      const rawMin = t.min !== undefined ? Math.max(-SAFE, toRaw(t.min)) : -SAFE;
      const rawMax = t.max !== undefined ? Math.min(SAFE, toRaw(t.max)) : SAFE;
      const wire = rawIntType(rawMin, rawMax, enc, () =>
        resolution >= 1 && bounded && rawMin >= 0 && rawMax <= U32_MAX ? "uint32" : "int64",
      );
      return { type: wire, value: { kind: "epoch", wire, resolution, decimals, min, max, rawMin, rawMax } };
    }
    case "string":
      return {
        type: "string",
        value: { kind: "string", maxLength: t.maxLength, charset: charsetPattern(t.charset ?? "utf8") },
      };
    case "bytes":
      return { type: "bytes", value: { kind: "bytes", maxLength: t.maxLength } };
  }
}

function buildEnum(t: Extract<ScalarType, { kind: "enum" }>, fieldName: string, scope: ProtoScope): ProtoEnum {
  const name = scope.unique(protoTypeName(fieldName));
  const prefix = protoEnumPrefix(fieldName);
  const numberOf = new Map<string, number>();
  const nameOf = new Map<number, string>();
  const values: ProtoEnum["values"] = [];
  const zero = t.values.find((v) => v.value === 0);
  if (!zero) values.push({ name: scope.unique(`${prefix}_UNSPECIFIED`), number: 0 });
  const ordered = zero ? [zero, ...t.values.filter((v) => v !== zero)] : t.values;
  for (const v of ordered) {
    values.push({ name: scope.unique(protoEnumValueName(prefix, v.name)), number: v.value, layoutName: v.name });
    numberOf.set(v.name, v.value);
    nameOf.set(v.value, v.name);
  }
  return { name, values, numberOf, nameOf };
}

const PACKABLE = new Set<string>([
  "bool",
  "enum",
  "int32",
  "uint32",
  "sint32",
  "fixed32",
  "sfixed32",
  "int64",
  "uint64",
  "sint64",
  "fixed64",
  "sfixed64",
  "float",
  "double",
]);

function buildMessage(
  name: string,
  fields: Field[],
  at: string,
  parentPath: string,
  parentKeys: string,
  reserved: number[],
  issues: IssueAt[],
): ProtoMessage {
  const scope = new ProtoScope();
  const jsonNames = new Map<string, string>();
  const numbers = new Map<number, string>();
  const reservedSet = new Set(reserved);
  const claim = (fieldName: string, number: number, where: string) => {
    if (!scope.claim(fieldName))
      issues.push({ path: `${where}.key`, message: `gives the protobuf field name "${fieldName}" twice` });
    const json = protoJsonName(fieldName);
    const clash = jsonNames.get(json);
    if (clash !== undefined && clash !== fieldName)
      issues.push({
        path: `${where}.key`,
        message: `protobuf field "${fieldName}" has the same JSON name as "${clash}" (protoc rejects it)`,
      });
    jsonNames.set(json, fieldName);
    if (!Number.isInteger(number) || number < 1 || number > MAX_FIELD_NUMBER)
      issues.push({
        path: `${where}.options.protobuf.number`,
        message: `${number} is not a protobuf field number (1–${MAX_FIELD_NUMBER})`,
      });
    else if (number >= 19000 && number <= 19999)
      issues.push({
        path: `${where}.options.protobuf.number`,
        message: `${number} is in protobuf's reserved range 19000–19999`,
      });
    if (reservedSet.has(number))
      issues.push({ path: `${where}.options.protobuf.number`, message: `uses reserved number ${number}` });
    const other = numbers.get(number);
    if (other !== undefined)
      issues.push({ path: `${where}.options.protobuf.number`, message: `${number} is already used by "${other}"` });
    numbers.set(number, fieldName);
  };

  // exact field names first: generated type and enum value names yield to them, never the reverse
  fields.forEach((f, i) => {
    const where = `${at}[${i}]`;
    const base = f.options?.protobuf?.number ?? 0;
    const expand = f.options?.protobuf?.expand;
    if (expand) expand.forEach((suffix, j) => claim(protoFieldName(`${f.key}_${suffix}`), base + j, where));
    else claim(protoFieldName(f.key), base, where);
  });

  const out: ProtoField[] = [];
  const enums: ProtoEnum[] = [];
  const messages: ProtoMessage[] = [];
  fields.forEach((f, i) => {
    const where = `${at}[${i}]`;
    const path = parentPath ? `${parentPath}/${f.id}` : f.id;
    const keyPath = parentKeys ? `${parentKeys}.${f.key}` : f.key;
    const number = f.options?.protobuf?.number ?? 0;
    const fieldName = protoFieldName(f.key);
    const optional = f.presence === "optional";
    const t = f.type;
    if (t.kind === "group") {
      const msg = buildMessage(
        scope.unique(protoTypeName(fieldName)),
        t.fields,
        `${where}.type.fields`,
        path,
        keyPath,
        t.protobufReserved ?? [],
        issues,
      );
      messages.push(msg);
      out.push({
        name: fieldName,
        number,
        type: "message",
        typeName: msg.name,
        label: optional ? "optional" : "implicit",
        packed: false,
        source: f,
        path,
        keyPath,
        message: msg,
      });
      return;
    }
    if (t.kind === "array") {
      const m = valueMap(t.of, f, fieldName, where, issues, enums, scope);
      const expand = f.options?.protobuf?.expand;
      if (expand) {
        if (!t.fixed || t.maxCount !== expand.length)
          issues.push({
            path: `${where}.options.protobuf.expand`,
            message: "needs a fixed-count array with one suffix per element",
          });
        expand.forEach((suffix, j) => {
          out.push({
            name: protoFieldName(`${f.key}_${suffix}`),
            number: number + j,
            type: m.type,
            ...(m.typeName ? { typeName: m.typeName } : {}),
            label: optional ? "optional" : "implicit",
            packed: false,
            source: f,
            path,
            keyPath,
            element: { index: j, count: expand.length, suffix },
            value: m.value,
          });
        });
        return;
      }
      out.push({
        name: fieldName,
        number,
        type: m.type,
        ...(m.typeName ? { typeName: m.typeName } : {}),
        label: "repeated",
        packed: PACKABLE.has(m.type),
        source: f,
        path,
        keyPath,
        value: m.value,
      });
      return;
    }
    const m = valueMap(t, f, fieldName, where, issues, enums, scope);
    out.push({
      name: fieldName,
      number,
      type: m.type,
      ...(m.typeName ? { typeName: m.typeName } : {}),
      label: optional ? "optional" : "implicit",
      packed: false,
      source: f,
      path,
      keyPath,
      value: m.value,
    });
  });
  out.sort((a, b) => a.number - b.number);
  return { name, fields: out, enums, messages, reserved: [...reserved].sort((a, b) => a - b), layoutFields: fields };
}

function needsNumbers(fields: Field[]): boolean {
  return fields.some(
    (f) => f.options?.protobuf?.number === undefined || (f.type.kind === "group" && needsNumbers(f.type.fields)),
  );
}

const cache = new WeakMap<Layout, ProtoModel>();

/** The protobuf view of a layout; throws LayoutError when protobuf cannot express it. Cached per layout object. */
export function protoModel(input: Layout): ProtoModel {
  const hit = cache.get(input);
  if (hit) return hit;
  const layout = needsNumbers(input.fields) ? assignProtobufNumbers(input) : input;
  const issues: IssueAt[] = [];
  const reserved = layout.protobufReserved ?? [];
  const root = buildMessage(
    protoFieldName(layout.message ?? "Telemetry"),
    layout.fields,
    "fields",
    "",
    "",
    reserved,
    issues,
  );
  if (issues.length) throw new LayoutError(issues);
  const model: ProtoModel = { package: (layout.package ?? "telemetry").replace(/[^A-Za-z0-9_]/g, "_"), root, layout };
  cache.set(input, model);
  return model;
}
