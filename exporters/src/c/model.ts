// The layout as C types: one `<msg>_t` struct that the Struct, Struct+Zlib and bit-packed packers all
// read and fill, so firmware can switch formats without touching the code that sets the values.
//
//   bool → bool · enum → a C enum of the layout's values · int → (u)intN_t · float → float / double
//   fixed-point → its raw integer, (u)intN_t of the width the raw range needs (the Struct slot's), with
//   <FIELD>_SCALE / _OFFSET macros: firmware keeps sensor values in integers and needs no
//   floating point to send them · epoch timestamp of 1 s or decimal resolution → int64_t ticks
//   (seconds, milliseconds …) · other timestamps → double epoch
//   seconds (text timestamps are formatted by the packer) · string → char[maxLength + 1], NUL
//   terminated · bytes → uint8_t[maxLength] + uint16_t <name>_len (none when fixed) · array →
//   element[maxCount] + uint16_t <name>_count (none when fixed) · group → a nested struct ·
//   optional → bool has_<name>
import { type Field, type IssueAt, type Layout, LayoutError, type ScalarType } from "#codecs";
import { fixedPoint, formatResolution, resolutionDecimals } from "#codecs/plans";
import { cComment, cMember, CScope, cSnake, cUpper } from "./names.ts";

export interface CEnum {
  typeName: string;
  values: { name: string; value: number; constant: string }[];
}

export type CScalar =
  | { k: "bool" }
  | { k: "enum"; e: CEnum }
  | { k: "int"; bits: 8 | 16 | 32 | 64; signed: boolean }
  | { k: "float"; bits: 32 | 64 }
  | { k: "fixed"; f: CFixed }
  /**
   * ticks: an epoch timestamp of 1 s or a decimal resolution (0.1 s, 0.001 s), or a text one whose
   * format shows seconds (to 6 decimals), held as int64_t ticks, value × 10^decimals (seconds, tenths,
   * milliseconds …); without it, a double of epoch seconds
   */
  | { k: "time"; textFormat?: string; ticks?: { decimals: number } }
  | { k: "string"; maxLength: number }
  | { k: "bytes"; maxLength: number; fixed: boolean };

/** A fixed-point member: raw = round((value − offset) / scale) in the C integer type its raw range needs. */
export interface CFixed {
  /** upper-case prefix of its macros (<macro>_SCALE, _OFFSET, _RAW_MIN, _RAW_MAX, _RAW(v), _VALUE(raw)) */
  macro: string;
  bits: 8 | 16 | 32 | 64;
  signed: boolean;
  scale: number;
  offset: number;
  min: number;
  max: number;
  rawMin: number;
  rawMax: number;
}

export type CNode =
  | { k: "scalar"; s: CScalar; type: ScalarType }
  | { k: "array"; s: CScalar; type: ScalarType; maxCount: number; fixed: boolean }
  | { k: "group"; struct: CStruct };

export interface CField {
  field: Field;
  member: string;
  /** keys joined by "." as error messages name fields */
  keyPath: string;
  optional: boolean;
  node: CNode;
  /** bool has_<member> of optional fields */
  has?: string;
  /** uint16_t <member>_count of variable arrays */
  count?: string;
  /** uint16_t <member>_len of variable bytes (an array per element for arrays of bytes) */
  len?: string;
}

export interface CStruct {
  typeName: string;
  name: string;
  fields: CField[];
}

export interface CModel {
  /** snake-case message name: prefix of every global name ("container_data") */
  prefix: string;
  /** upper-case prefix for macros ("CONTAINER_DATA") */
  upper: string;
  root: CStruct;
  /** every struct, nested ones before the structs that hold them */
  structs: CStruct[];
  enums: CEnum[];
  /** every fixed-point member, in layout order (their macros go into <msg>.h) */
  fixeds: CFixed[];
  layout: Layout;
}

const INT_TYPE = (bits: number, signed: boolean) => `${signed ? "" : "u"}int${bits}_t`;

/** C type of one element (strings and bytes: the element type of the array member). */
export function cElementType(s: CScalar): string {
  switch (s.k) {
    case "bool":
      return "bool";
    case "enum":
      return s.e.typeName;
    case "int":
      return INT_TYPE(s.bits, s.signed);
    case "float":
      return s.bits === 32 ? "float" : "double";
    case "fixed":
      return INT_TYPE(s.f.bits, s.f.signed);
    case "time":
      return s.ticks ? "int64_t" : "double";
    case "string":
      return "char";
    case "bytes":
      return "uint8_t";
  }
}

/** Array bounds of the value member: C99 has no zero-length arrays, so empty ones hold one unused slot. */
const dim = (n: number) => `[${Math.max(1, n)}]`;

function scalarDims(s: CScalar): string {
  if (s.k === "string") return `[${s.maxLength + 1}]`;
  if (s.k === "bytes") return dim(s.maxLength);
  return "";
}

/** The member declarations of one field, with a comment naming it. */
export function cFieldDecls(f: CField): string[] {
  const out: string[] = [];
  const n = f.node;
  if (f.has) out.push(`bool ${f.has};`);
  if (n.k === "group") out.push(`${n.struct.typeName} ${f.member};`);
  else if (n.k === "scalar") {
    out.push(`${cElementType(n.s)} ${f.member}${scalarDims(n.s)};`);
    if (f.len) out.push(`uint16_t ${f.len};`);
  } else {
    out.push(`${cElementType(n.s)} ${f.member}${dim(n.maxCount)}${scalarDims(n.s)};`);
    if (f.len) out.push(`uint16_t ${f.len}${dim(n.maxCount)};`);
    if (f.count) out.push(`uint16_t ${f.count};`);
  }
  return out;
}

/** One line saying what the member holds, for the struct comments. */
export function cFieldNote(f: CField): string {
  const src = f.field;
  const parts = [`${src.name}${src.unit ? ` [${src.unit}]` : ""}`];
  const t = src.type.kind === "array" ? src.type.of : src.type;
  if (src.type.kind === "array") parts.push(`${src.type.fixed ? "exactly" : "up to"} ${src.type.maxCount} elements`);
  switch (t.kind) {
    case "int":
    case "float":
      if (t.min !== undefined || t.max !== undefined) parts.push(`range ${t.min ?? "-inf"}..${t.max ?? "inf"}`);
      if (t.kind === "float" && t.precision !== undefined) parts.push(`precision ${t.precision}`);
      break;
    case "fixed": {
      const c = f.node.k !== "group" && f.node.s.k === "fixed" ? f.node.s.f : undefined;
      parts.push(
        `fixed-point: raw = round((value - ${t.offset}) / ${t.scale}), value range ${t.min}..${t.max}${c ? `, raw ${c.rawMin}..${c.rawMax} (${c.macro}_RAW(value), ${c.macro}_VALUE(raw))` : ""}`,
      );
      break;
    }
    case "timestamp": {
      const s = f.node.k === "group" ? undefined : f.node.s;
      const ticks = s?.k === "time" ? s.ticks : undefined;
      const unit = !ticks
        ? "epoch seconds (a double)"
        : ticks.decimals === 0
          ? "epoch seconds (UTC, since 1970-01-01)"
          : `epoch time in ticks of ${10 ** -ticks.decimals} s (UTC, since 1970-01-01)`;
      parts.push(t.encoding === "text" ? `${unit}, sent as text "${t.textFormat}"` : unit);
      if (t.encoding !== "text" && !ticks) parts.push(`resolution ${t.resolution} s`);
      break;
    }
    case "string":
      parts.push(
        `NUL-terminated, at most ${t.maxLength} ${t.charset === "utf8" ? "UTF-8 bytes" : `${t.charset} characters`}${t.fixed ? ", fixed width on the wire" : ""}`,
      );
      break;
    case "bytes":
      parts.push(t.fixed ? `exactly ${t.maxLength} bytes` : `up to ${t.maxLength} bytes`);
      break;
    default:
      break;
  }
  if (f.optional) parts.push("optional: set has_ when present");
  return cComment(parts.join("; "));
}

/** The narrowest C integer holding lo..hi: unsigned when lo ≥ 0 (the Struct codec picks its slot alike). */
function rawWidth(lo: number, hi: number): { bits: 8 | 16 | 32 | 64; signed: boolean } {
  const signed = lo < 0;
  for (const bits of [8, 16, 32] as const) {
    const [min, max] = signed ? [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1] : [0, 2 ** bits - 1];
    if (lo >= min && hi <= max) return { bits, signed };
  }
  return { bits: 64, signed };
}

interface Scope {
  file: CScope;
  enums: CEnum[];
  fixeds: CFixed[];
  issues: IssueAt[];
}

function scalar(t: ScalarType, owner: string, sc: Scope, at: string): CScalar {
  const { file, enums, issues } = sc;
  switch (t.kind) {
    case "bool":
      return { k: "bool" };
    case "enum": {
      const typeName = file.unique(`${owner}_e`, at);
      const upper = cUpper(typeName.replace(/_e$/, ""));
      const values = t.values.map((v) => ({
        name: v.name,
        value: v.value,
        constant: file.unique(`${upper}_${cUpper(v.name)}`, at),
      }));
      const e: CEnum = { typeName, values };
      enums.push(e);
      return { k: "enum", e };
    }
    case "int":
      return { k: "int", bits: t.bits, signed: t.signed };
    case "float":
      return { k: "float", bits: t.bits };
    case "fixed": {
      const fp = fixedPoint(t);
      const f: CFixed = {
        macro: file.unique(cUpper(owner), at),
        ...rawWidth(fp.rawMin, fp.rawMax),
        scale: t.scale,
        offset: t.offset,
        min: t.min,
        max: t.max,
        rawMin: fp.rawMin,
        rawMax: fp.rawMax,
      };
      sc.fixeds.push(f);
      return { k: "fixed", f };
    }
    case "timestamp":
      if (t.encoding !== "text") {
        // integer ticks of the resolution: int64_t, since some format takes every value of the range
        // (Protobuf a negative one where Struct's 4-byte slot refuses it), which a uint32_t could not hold
        const decimals = resolutionDecimals(t.resolution);
        if (t.resolution !== 1 && decimals === 0) return { k: "time" };
        return { k: "time", ticks: { decimals } };
      }
      // the C runtime keeps fractions in exact integers up to nanoseconds
      const textRes = formatResolution(t.textFormat ?? "");
      if (textRes < 1e-9)
        issues.push({
          path: `${at}.textFormat`,
          message: "has more than 9 fractional digits, more than the C exports handle",
        });
      {
        // ticks as for epoch timestamps, up to microseconds: 9999-12-31 in nanoseconds is beyond int64_t
        const decimals = resolutionDecimals(textRes);
        const ticks = textRes === 1 || (decimals > 0 && decimals <= 6) ? { decimals } : undefined;
        return ticks
          ? { k: "time", textFormat: t.textFormat ?? "", ticks }
          : { k: "time", textFormat: t.textFormat ?? "" };
      }
    case "string":
      return { k: "string", maxLength: t.maxLength };
    case "bytes":
      if (t.maxLength > 65535) issues.push({ path: at, message: "is longer than a uint16_t length can count" });
      return { k: "bytes", maxLength: t.maxLength, fixed: t.fixed };
  }
}

/**
 * The C view of a layout; throws LayoutError when keys collapse to the same C member name (for
 * example "ble-m" and "ble_m", or a key "x_count" beside an array "x").
 */
export function cModel(layout: Layout): CModel {
  const issues: IssueAt[] = [];
  const prefix = cSnake(layout.message);
  const file = new CScope();
  file.claim(`${prefix}_t`, "message");
  const enums: CEnum[] = [];
  const fixeds: CFixed[] = [];
  const structs: CStruct[] = [];
  const sc: Scope = { file, enums, fixeds, issues };

  function build(fields: Field[], typeName: string, name: string, keyPrefix: string, at: string): CStruct {
    const scope = new CScope();
    const out: CField[] = [];
    const claim = (member: string, i: number) => {
      const prev = scope.claim(member, `${at}[${i}]`);
      if (prev !== undefined)
        issues.push({ path: `${at}[${i}].key`, message: `gives the C member "${member}", which ${prev} already uses` });
    };
    fields.forEach((f, i) => {
      const where = `${at}[${i}]`;
      const member = cMember(f.key);
      const keyPath = keyPrefix ? `${keyPrefix}.${f.key}` : f.key;
      const owner = `${typeName.replace(/_t$/, "")}_${member.replace(/^_+/, "")}`;
      const t = f.type;
      let node: CNode;
      if (t.kind === "group") {
        const sub = build(t.fields, file.unique(`${owner}_t`, where), member, keyPath, `${where}.type.fields`);
        node = { k: "group", struct: sub };
      } else if (t.kind === "array")
        node = {
          k: "array",
          s: scalar(t.of, owner, sc, `${where}.type.of`),
          type: t.of,
          maxCount: t.maxCount,
          fixed: t.fixed,
        };
      else node = { k: "scalar", s: scalar(t, owner, sc, `${where}.type`), type: t };
      const cf: CField = { field: f, member, keyPath, optional: f.presence === "optional", node };
      claim(member, i);
      if (cf.optional) claim((cf.has = `has_${member}`), i);
      if (node.k === "array" && !node.fixed) claim((cf.count = `${member}_count`), i);
      const s = node.k === "group" ? undefined : node.s;
      if (s?.k === "bytes" && !s.fixed) claim((cf.len = `${member}_len`), i);
      out.push(cf);
    });
    const st: CStruct = { typeName, name, fields: out };
    structs.push(st);
    return st;
  }

  const root = build(layout.fields, `${prefix}_t`, prefix, "", "fields");
  if (issues.length) throw new LayoutError(issues);
  return { prefix, upper: cUpper(prefix), root, structs, enums, fixeds, layout };
}
