// Value domains: when a field keeps its place and meaning on the wire, a decoder still refuses values
// outside its own range, enum, length, count or charset. Widening lets the new writers send values old
// decoders refuse; narrowing lets old writers send values new decoders refuse.
import type { Finding } from "./types.ts";
import type { Field, ScalarType } from "../layout/schema.ts";
import { intLimits } from "../layout/validate.ts";
import { charsetPattern } from "../text/check.ts";

/** What a format's decoder checks beyond the wire structure. */
export interface Checks {
  ranges: boolean;
  charset: boolean;
  /** enum values travel by name (self-describing text) rather than number */
  enumByName: boolean;
}

export const CHECKS_ALL: Checks = { ranges: true, charset: true, enumByName: false };
export const CHECKS_FIXED_LAYOUT: Checks = { ranges: false, charset: false, enumByName: false };

type Range = [number, number];

function rangeOf(t: ScalarType): Range | undefined {
  switch (t.kind) {
    case "int": {
      const [lo, hi] = intLimits(t.bits, t.signed);
      return [Math.max(lo, t.min ?? lo), Math.min(hi, t.max ?? hi)];
    }
    case "float":
    case "timestamp":
      return [t.min ?? -Infinity, t.max ?? Infinity];
    case "fixed":
      return [t.min, t.max];
    default:
      return undefined;
  }
}

const within = (a: Range, b: Range) => a[0] >= b[0] && a[1] <= b[1];

const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
function charsetChars(charset: string): Set<string> | undefined {
  const re = charsetPattern(charset);
  return re ? new Set(ASCII.filter((c) => re.test(c))) : undefined;
}
/** a ⊆ b (utf8, undefined, holds everything) */
function charsetWithin(a: string, b: string): boolean {
  const sb = charsetChars(b);
  if (!sb) return true;
  const sa = charsetChars(a);
  return !!sa && [...sa].every((c) => sb.has(c));
}

function enumFindings(
  a: Extract<ScalarType, { kind: "enum" }>,
  b: Extract<ScalarType, { kind: "enum" }>,
  field: string,
  checks: Checks,
): Finding[] {
  const out: Finding[] = [];
  const key = (v: { name: string; value: number }) => (checks.enumByName ? v.name : String(v.value));
  const oldKeys = new Set(a.values.map(key));
  const newKeys = new Set(b.values.map(key));
  if (!checks.enumByName) {
    const oldValue = new Map(a.values.map((v) => [v.name, v.value]));
    const oldName = new Map(a.values.map((v) => [v.value, v.name]));
    const moved = b.values.filter((v) => oldValue.has(v.name) && oldValue.get(v.name) !== v.value);
    // a number that named another value before is read as that value; a fresh number is only refused
    const clash = moved.filter((v) => oldName.has(v.value));
    if (clash.length)
      out.push({
        field,
        direction: "both",
        severity: "breaking",
        message: `enum value${clash.length > 1 ? "s" : ""} ${clash.map((v) => `${v.name} ${oldValue.get(v.name)} → ${v.value} (was ${oldName.get(v.value)})`).join(", ")}: the same number now means another value`,
        advice: "Never renumber enum values: add a new value with a new number and stop sending the old one.",
      });
    else if (moved.length)
      out.push({
        field,
        direction: "both",
        severity: "degraded",
        message: `enum value${moved.length > 1 ? "s" : ""} ${moved.map((v) => `${v.name} ${oldValue.get(v.name)} → ${v.value}`).join(", ")} renumbered: each side refuses the other's number`,
        advice: "Never renumber enum values: add a new value with a new number and stop sending the old one.",
      });
  }
  const oldNames = new Set(a.values.map((v) => v.name));
  const newNames = new Set(b.values.map((v) => v.name));
  const added = b.values.filter((v) => !oldKeys.has(key(v)) && !oldNames.has(v.name));
  const removed = a.values.filter((v) => !newKeys.has(key(v)) && !newNames.has(v.name));
  if (added.length)
    out.push({
      field,
      direction: "oldReadsNew",
      severity: "degraded",
      message: `new enum value${added.length > 1 ? "s" : ""} ${added.map((v) => v.name).join(", ")}: old decoders refuse messages that carry ${added.length > 1 ? "them" : "it"}`,
      advice: "Roll out decoders that know the new enum values before devices send them.",
    });
  if (removed.length)
    out.push({
      field,
      direction: "newReadsOld",
      severity: "degraded",
      message: `enum value${removed.length > 1 ? "s" : ""} ${removed.map((v) => v.name).join(", ")} removed: new decoders refuse old messages that still carry ${removed.length > 1 ? "them" : "it"}`,
      advice: "Keep retired enum values in the layout until no device sends them.",
    });
  return out;
}

/** Findings for one value whose wire form and meaning did not change. */
export function scalarDomainFindings(a: ScalarType, b: ScalarType, field: string, checks: Checks): Finding[] {
  const out: Finding[] = [];
  const widened = (what: string) =>
    out.push({
      field,
      direction: "oldReadsNew",
      severity: "degraded",
      message: `${what} widened: old decoders refuse the new values outside their ${what}`,
      advice: "Update decoders before devices send values outside the old range.",
    });
  const narrowed = (what: string) =>
    out.push({
      field,
      direction: "newReadsOld",
      severity: "degraded",
      message: `${what} narrowed: new decoders refuse old values outside the new ${what}`,
    });
  if (a.kind === "enum" && b.kind === "enum") return enumFindings(a, b, field, checks);
  const ra = rangeOf(a);
  const rb = rangeOf(b);
  // a fixed-point raw is range-checked by every decoder, other numbers only where the format checks ranges
  if (ra && rb && (checks.ranges || (a.kind === "fixed" && b.kind === "fixed"))) {
    if (!within(rb, ra)) widened("range");
    if (!within(ra, rb)) narrowed("range");
  }
  if ((a.kind === "string" || a.kind === "bytes") && a.kind === b.kind) {
    if (b.maxLength > a.maxLength) widened("maxLength");
    if (b.maxLength < a.maxLength) narrowed("maxLength");
    if (a.kind === "string" && b.kind === "string" && checks.charset) {
      if (!charsetWithin(b.charset, a.charset)) widened("charset");
      if (!charsetWithin(a.charset, b.charset)) narrowed("charset");
    }
  }
  if (a.kind === "float" && b.kind === "float" && a.bits !== b.bits && b.bits === 32)
    out.push({
      field,
      direction: "newReadsOld",
      severity: "degraded",
      message: "float64 → float32: values lose precision",
    });
  return out;
}

export function fieldDomainFindings(a: Field, b: Field, field: string, checks: Checks): Finding[] {
  const ta = a.type;
  const tb = b.type;
  if (ta.kind === "array" && tb.kind === "array") {
    const out = scalarDomainFindings(ta.of, tb.of, field, checks);
    if (!ta.fixed || !tb.fixed) {
      if (tb.maxCount > ta.maxCount)
        out.push({
          field,
          direction: "oldReadsNew",
          severity: "degraded",
          message: "maxCount raised: old decoders refuse messages with more elements",
        });
      if (tb.maxCount < ta.maxCount)
        out.push({
          field,
          direction: "newReadsOld",
          severity: "degraded",
          message: "maxCount lowered: new decoders refuse old messages with more elements",
        });
    }
    return out;
  }
  if (ta.kind === "group" || tb.kind === "group" || ta.kind === "array" || tb.kind === "array") return [];
  return scalarDomainFindings(ta, tb, field, checks);
}

/** Kinds whose values are the same integers on a varint or in a JSON number (int ↔ enum ↔ bool). */
export function sameNumberFamily(a: ScalarType, b: ScalarType): boolean {
  const fam = (t: ScalarType) => (t.kind === "int" || t.kind === "enum" || t.kind === "bool" ? "integer" : t.kind);
  return fam(a) === fam(b);
}

/** The meaning of a raw value in binary formats: equal meanings read the same raw as the same value. */
export function meaning(t: ScalarType): string {
  switch (t.kind) {
    case "fixed":
      return `fixed:${t.scale}:${t.offset}`;
    case "timestamp":
      return t.encoding === "text" ? `text-time:${t.textFormat}` : `epoch:${t.resolution}`;
    case "int":
    case "enum":
    case "bool":
      return "integer";
    case "string":
    case "bytes":
      return "text";
    default:
      return t.kind;
  }
}
