// The bit-packed format (docs/design/bitpacked-mapping.md) as a Kaitai Struct spec with big-endian bit
// order, from the codec's own field specs. Everything stays in one flat seq: Kaitai aligns user types
// to a byte boundary, and bit-packed fields do not start on one.
import { type Field, type Layout, LayoutError, type ScalarType } from "#codecs";
import { layoutSpecs, type FieldSpec, type ScalarSpec } from "#codecs/plans";
import { ksyEnumIds, ksyId, ksyMetaId } from "./names.ts";
import { scalarDoc } from "./struct.ts";
import type { YamlValue } from "./yaml.ts";

type Map_ = { [key: string]: YamlValue };

/** Arrays of strings are unrolled (one length + symbols per element); beyond this the spec gets unwieldy. */
export const MAX_UNROLLED = 64;

/** Wider fields are split in two (hi, lo): Kaitai's JavaScript runtime reads at most 32 bits at once. */
export const MAX_FIELD_BITS = 32;

const num = (x: number | bigint) => String(x);
/** Kaitai reads a b1 field as a boolean; arithmetic and counts need it as 0 / 1. */
const asInt = (id: string, width: number) => (width === 1 ? `(${id} ? 1 : 0)` : id);
const plus = (lo: number | bigint) =>
  lo === 0 || lo === 0n ? "" : Number(lo) < 0 ? ` - ${num(typeof lo === "bigint" ? -lo : -lo)}` : ` + ${num(lo)}`;

/** The id suffix of the one bN field a single-field scalar travels as. */
export function rawSuffix(s: ScalarSpec): string {
  switch (s.k) {
    case "bool":
      return "";
    case "enum":
      return "_index";
    case "quant":
      return "_q";
    case "ieee":
      return "_bits";
    default:
      return "_raw";
  }
}

export function bitsKsy(layout: Layout): Map_ {
  const seq: Map_[] = [];
  const instances: Map_ = {};
  const enums: Map_ = {};
  const taken = new Set<string>();
  const claim = (id: string) => {
    if (taken.has(id))
      throw new LayoutError([
        { path: "fields", message: `Kaitai id "${id}" is derived from two fields; rename one key` },
      ]);
    taken.add(id);
    return id;
  };
  const and = (a: string | undefined, b: string | undefined) => (a && b ? `${a} and ${b}` : (a ?? b));
  const bits = (n: number) => `b${n}`;

  /** One value in one bN field (bool, enum, ints, quantised, fixed-point, raw IEEE); returns false for strings/bytes. */
  function single(id: string, s: ScalarSpec, t: ScalarType, f: Field, cond: string | undefined, repeat: Map_): boolean {
    const isArray = Object.keys(repeat).length > 0;
    const doc = scalarDoc(f, t);
    const iff: Map_ = cond ? { if: cond } : {};
    const field = (suffix: string, width: number, extra: Map_ = {}) => {
      const raw = claim(`${id}${suffix}`);
      // a zero-width value (a single possible value) takes no bits at all
      if (width === 0) return raw;
      if (width <= MAX_FIELD_BITS) {
        seq.push({ id: raw, type: bits(width), ...extra, ...iff, ...repeat, doc });
        return raw;
      }
      // wider values are read as two fields: some runtimes (JavaScript) read at most 32 bits at a time
      const hi = claim(`${raw}_hi`);
      const lo = claim(`${raw}_lo`);
      seq.push({
        id: hi,
        type: bits(width - MAX_FIELD_BITS),
        ...iff,
        ...repeat,
        doc: `${doc}; high ${width - MAX_FIELD_BITS} of ${width} bits`,
      });
      seq.push({ id: lo, type: bits(MAX_FIELD_BITS), ...iff, ...repeat, doc: `${doc}; low 32 of ${width} bits` });
      if (!isArray)
        instances[raw] = { value: `${hi} * 4294967296 + ${lo}`, ...iff, doc: `${doc}; the ${width}-bit field` };
      return raw;
    };
    const instance = (value: string, what: string) => {
      if (!isArray) instances[claim(id)] = { value, ...iff, doc: `${doc}; ${what}` };
    };
    switch (s.k) {
      case "bool":
        field("", 1);
        return true;
      case "enum": {
        const ids = ksyEnumIds(s.names);
        const enumId = claim(`${id}_names`);
        enums[enumId] = Object.fromEntries(ids.map((n, i) => [String(i), n]));
        field("_index", s.bits, s.bits > 0 ? { enum: enumId } : {});
        return true;
      }
      case "int": {
        const raw = asInt(field("_raw", s.bits), s.bits);
        instance(s.bits > 0 ? `${raw}${plus(s.lo)}` : num(s.lo), "the integer");
        return true;
      }
      case "int64": {
        const raw = asInt(field("_raw", s.bits), s.bits);
        instance(
          s.bits > 0 ? `${raw}${plus(s.lo)}` : num(s.lo),
          "the integer (beyond 2^53 a JavaScript number loses digits)",
        );
        return true;
      }
      case "quant": {
        const raw = asInt(field("_q", s.bits), s.bits);
        instance(
          s.bits > 0 ? `${num(s.qz.lo)} + ${raw} * ${num(s.qz.step)}` : num(s.qz.lo),
          `value = ${num(s.qz.lo)} + q * ${num(s.qz.step)}, at most ${num(s.qz.hi)}`,
        );
        return true;
      }
      case "fixed": {
        const raw = asInt(field("_raw", s.bits), s.bits);
        instance(
          s.bits > 0
            ? `(${raw}${plus(s.rawLo)}) * ${num(s.scale)}${plus(s.offset)}`
            : num(s.rawLo * s.scale + s.offset),
          `fixed-point value = raw * ${num(s.scale)} + ${num(s.offset)}`,
        );
        return true;
      }
      case "ieee":
        field("_bits", s.bits);
        return true;
      default:
        return false;
    }
  }

  /** A string or bytes value: length (unless fixed), then one symbol per character / one byte each. */
  function text(
    id: string,
    s: Extract<ScalarSpec, { k: "string" | "bytes" }>,
    f: Field,
    cond: string | undefined,
  ): void {
    const iff: Map_ = cond ? { if: cond } : {};
    let count: string | number = s.maxLength;
    if (!s.fixed) {
      const len = claim(`${id}_len`);
      if (s.lenBits > 0) seq.push({ id: len, type: bits(s.lenBits), ...iff });
      count = s.lenBits > 0 ? asInt(len, s.lenBits) : 0;
    }
    const symBits = s.k === "string" ? s.charBits : 8;
    const what =
      s.k === "bytes"
        ? "the bytes"
        : s.alphabet
          ? `${s.alphabet.bits}-bit symbols of the ${s.alphabet.charset} alphabet: ${s.alphabet.describe}`
          : "the UTF-8 bytes";
    seq.push({
      id: claim(`${id}_${s.k === "string" ? "sym" : "byte"}`),
      type: bits(symBits),
      repeat: "expr",
      "repeat-expr": count,
      ...iff,
      doc: `${scalarDoc(f, undefined)}; ${what}${s.fixed ? "; pad symbols fill the fixed length" : ""}`,
    });
  }

  function walk(specs: FieldSpec[], prefix: string[], cond: string | undefined): void {
    for (const spec of specs) {
      const f = spec.field;
      const keys = [...prefix, f.key];
      const id = ksyId(keys);
      let own = cond;
      if (spec.optional) {
        const present = claim(`${id}_present`);
        seq.push({ id: present, type: "b1", ...(cond ? { if: cond } : {}), doc: `${f.name}: 1 when present` });
        own = and(cond, present);
      }
      const n = spec.node;
      const t = f.type;
      if (n.k === "group" && t.kind === "group") {
        walk(n.fields, keys, own);
        continue;
      }
      if (n.k === "scalar" && t.kind !== "array" && t.kind !== "group") {
        if (!single(id, n.s, t, f, own, {})) text(id, n.s as Extract<ScalarSpec, { k: "string" | "bytes" }>, f, own);
        continue;
      }
      if (n.k === "array" && t.kind === "array") {
        let count: string | number = n.maxCount;
        if (!n.fixed) {
          const c = claim(`${id}_count`);
          if (n.countBits > 0) seq.push({ id: c, type: bits(n.countBits), ...(own ? { if: own } : {}) });
          count = n.countBits > 0 ? asInt(c, n.countBits) : 0;
        }
        const wide = "bits" in n.s && n.s.bits > MAX_FIELD_BITS;
        // elements split in two fields cannot be a repeat (Kaitai would read every high part first)
        if (!wide && single(id, n.s, t.of, f, own, { repeat: "expr", "repeat-expr": count })) continue;
        if (n.maxCount > MAX_UNROLLED)
          throw new LayoutError([
            {
              path: `fields.${keys.join(".")}`,
              message: `Kaitai (bit-packed): arrays of strings, bytes or values wider than ${MAX_FIELD_BITS} bits are unrolled, at most ${MAX_UNROLLED} elements`,
            },
          ]);
        for (let k = 0; k < n.maxCount; k++) {
          const more = typeof count === "string" ? `${count} > ${k}` : undefined;
          if (wide) single(`${id}_${k}`, n.s, t.of, f, and(own, more), {});
          else text(`${id}_${k}`, n.s as Extract<ScalarSpec, { k: "string" | "bytes" }>, f, and(own, more));
        }
      }
    }
  }

  walk(layoutSpecs(layout), [], undefined);
  const spec: Map_ = {
    meta: { id: ksyMetaId(layout.message, "bitpacked"), title: `${layout.name} (bit-packed)`, "bit-endian": "be" },
    doc: `${layout.package}.${layout.message} bit-packed: every field quantised to its range and precision, most significant bit first, no byte alignment between fields, zero bits up to the last byte. Generated by SatPayload Studio from the layout.`,
    seq,
  };
  if (Object.keys(instances).length) spec.instances = instances;
  if (Object.keys(enums).length) spec.enums = enums;
  return spec;
}
