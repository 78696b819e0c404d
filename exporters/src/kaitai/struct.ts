// The Struct format (docs/design/struct-mapping.md) as a Kaitai Struct spec, built from the codec's
// own plan: presence bitmap, values in place, length prefixes, appended strings after the in-place part.
import { type Field, type Layout, LayoutError, type ScalarType } from "#codecs";
import { isAppended, planStruct, type PrimCode, type StructField, type StructNode } from "#codecs/plans";
import { ksyEnumIds, ksyId, ksyMetaId } from "./names.ts";
import type { YamlValue } from "./yaml.ts";

type Map_ = { [key: string]: YamlValue };

const KSY_PRIM: Readonly<Record<PrimCode, string>> = {
  b: "s1",
  B: "u1",
  h: "s2",
  H: "u2",
  i: "s4",
  I: "u4",
  q: "s8",
  Q: "u8",
  f: "f4",
  d: "f8",
};

const num = (x: number) => (Number.isInteger(x) ? String(x) : String(x));

export function scalarDoc(f: Field, t: ScalarType | undefined): string {
  const parts = [f.unit ? `${f.name} [${f.unit}]` : f.name];
  if (t?.kind === "fixed")
    parts.push(`fixed-point raw: value = raw * ${num(t.scale)} + ${num(t.offset)} (${num(t.min)}..${num(t.max)})`);
  if (t?.kind === "timestamp") parts.push(t.encoding === "text" ? `UTC "${t.textFormat}"` : "epoch time (UTC)");
  if (t?.kind === "bool") parts.push("0 = false, 1 = true");
  if (f.presence === "optional") parts.push("optional");
  return parts.join("; ");
}

export function structKsy(layout: Layout): Map_ {
  const plan = planStruct(layout);
  const seq: Map_[] = [];
  const tail: Map_[] = [];
  const instances: Map_ = {};
  const enums: Map_ = {};
  const types: Map_ = {};
  const taken = new Set<string>();
  const claim = (id: string) => {
    if (taken.has(id))
      throw new LayoutError([
        { path: "fields", message: `Kaitai id "${id}" is derived from two fields; rename one key` },
      ]);
    taken.add(id);
    return id;
  };
  const presence = (bit: number) => `(presence[${bit >> 3}] & ${1 << (bit & 7)}) != 0`;

  const encodingOf = (of: "string" | "bytes" | "time") =>
    of === "bytes" ? undefined : of === "time" ? "ASCII" : "UTF-8";
  const lenType = (mode: string) => (mode.startsWith("u8") ? "u1" : "u2");

  /** An element type for strings with an inline length prefix (arrays of them need one type per element). */
  const inlineType = (n: Extract<StructNode, { kind: "text" }>): string => {
    const name = `${n.of === "bytes" ? "bytes" : "str"}_${lenType(n.mode)}_${n.of === "time" ? "ascii" : "utf8"}`;
    types[name] = {
      seq: [
        { id: "len", type: lenType(n.mode) },
        { id: "value", ...(n.of === "bytes" ? {} : { type: "str", encoding: encodingOf(n.of)! }), size: "len" },
      ],
    };
    return name;
  };

  function textInPlace(id: string, n: Extract<StructNode, { kind: "text" }>, base: Map_, repeat: Map_): void {
    const enc = encodingOf(n.of);
    if (n.mode === "fixed") {
      const body: Map_ =
        n.of === "bytes"
          ? { size: n.maxLength }
          : n.of === "time"
            ? { type: "str", size: n.maxLength, encoding: enc! }
            : { type: "strz", size: n.maxLength, encoding: enc! };
      seq.push({ id: claim(id), ...body, ...base, ...repeat });
      return;
    }
    if (isAppended(n.mode)) {
      const len = claim(`${id}_len`);
      seq.push({ id: len, type: lenType(n.mode), ...base, ...repeat });
      const size = Object.keys(repeat).length ? `${len}[_index]` : len;
      tail.push({
        id: claim(id),
        ...(enc ? { type: "str", encoding: enc } : {}),
        size,
        ...base,
        ...repeat,
        doc: `${String(base.doc ?? "")}${base.doc ? "; " : ""}appended after the in-place part`,
      });
      return;
    }
    if (Object.keys(repeat).length) {
      seq.push({ id: claim(id), type: inlineType(n), ...base, ...repeat });
      return;
    }
    const len = claim(`${id}_len`);
    seq.push({ id: len, type: lenType(n.mode), ...base });
    seq.push({ id: claim(id), ...(enc ? { type: "str", encoding: enc } : {}), size: len, ...base });
  }

  /**
   * Signed 64-bit values as a (hi: s4, lo: u4) pair with `value` = hi·2³² + lo: the kaitai-struct
   * 0.11.0 JavaScript runtime's readS8be/le return negative values whose low word has bit 31 clear
   * 2³² too high (docs/exports.md), and the pair is exact in every target up to 2⁵³.
   */
  const S8 = "s8_hi_lo";
  const s8Type = (): string => {
    types[S8] = {
      doc: "signed 64-bit integer read as two 32-bit words (works around kaitai-struct 0.11.0 JavaScript readS8)",
      seq: plan.little
        ? [
            { id: "lo", type: "u4" },
            { id: "hi", type: "s4" },
          ]
        : [
            { id: "hi", type: "s4" },
            { id: "lo", type: "u4" },
          ],
      instances: { value: { value: "hi * 4294967296 + lo" } },
    };
    return S8;
  };

  function scalarInPlace(id: string, n: StructNode, t: ScalarType, base: Map_, repeat: Map_, f: Field): void {
    if (n.kind === "text") return textInPlace(id, n, base, repeat);
    if (n.kind !== "num") return;
    const split = n.slot.code === "q";
    const type = split ? s8Type() : KSY_PRIM[n.slot.code];
    const valueOf = (field: string) => (split ? `${field}.value` : field);
    const isArray = Object.keys(repeat).length > 0;
    if (t.kind === "enum") {
      const ids = ksyEnumIds(t.values.map((v) => v.name));
      const enumId = claim(`${id}_values`);
      enums[enumId] = Object.fromEntries(t.values.map((v, i) => [String(v.value), ids[i]!]));
      seq.push({ id: claim(id), type, enum: enumId, ...base, ...repeat });
    } else if (t.kind === "bool") {
      seq.push({ id: claim(id), type, ...(isArray ? {} : { valid: { "any-of": [0, 1] } }), ...base, ...repeat });
    } else if (t.kind === "fixed" && !isArray) {
      const raw = claim(`${id}_raw`);
      seq.push({ id: raw, type, ...base });
      instances[claim(id)] = {
        value: `${valueOf(raw)} * ${num(t.scale)}${t.offset ? ` + ${num(t.offset)}` : ""}`,
        ...(base.if ? { if: base.if } : {}),
        doc: scalarDoc(f, t),
      };
    } else if (t.kind === "timestamp" && n.slot.code === "q" && !isArray) {
      const raw = claim(`${id}_ticks`);
      seq.push({ id: raw, type, ...base, doc: `${scalarDoc(f, t)}; ticks of ${num(t.resolution)} s` });
      instances[claim(id)] = {
        value: `${valueOf(raw)} * ${num(t.resolution)}`,
        ...(base.if ? { if: base.if } : {}),
        doc: "epoch seconds",
      };
    } else seq.push({ id: claim(id), type, ...base, ...repeat });
  }

  function walk(fields: Field[], planned: StructField[], prefix: string[], cond: string | undefined): void {
    planned.forEach((pf, i) => {
      const f = fields[i]!;
      const keys = [...prefix, f.key];
      const id = ksyId(keys);
      const own = pf.bit >= 0 ? presence(pf.bit) : cond;
      const t = f.type;
      const n = pf.node;
      const scalarT = t.kind === "array" ? t.of : t.kind === "group" ? undefined : t;
      const base: Map_ = { ...(own ? { if: own } : {}), doc: scalarDoc(f, scalarT) };
      if (n.kind === "group" && t.kind === "group") return walk(t.fields, n.fields, keys, own);
      if (n.kind === "array" && t.kind === "array") {
        let repeat: Map_;
        if (n.fixed) repeat = { repeat: "expr", "repeat-expr": n.maxCount };
        else {
          const count = claim(`${id}_count`);
          seq.push({ id: count, type: n.countCode === "H" ? "u2" : "u1", ...(own ? { if: own } : {}) });
          repeat = { repeat: "expr", "repeat-expr": count };
        }
        return scalarInPlace(id, n.elem, t.of, base, repeat, f);
      }
      if (scalarT) scalarInPlace(id, n, scalarT, base, {}, f);
    });
  }

  if (plan.bitmapBytes > 0) {
    taken.add("presence");
    seq.push({
      id: "presence",
      type: "u1",
      repeat: "expr",
      "repeat-expr": plan.bitmapBytes,
      doc: `presence bitmap of the ${plan.optionalCount} optional fields in layout order, depth first: field i is bit i % 8 of byte i / 8 (LSB first), 1 = present`,
    });
  }
  walk(layout.fields, plan.fields, [], undefined);

  const spec: Map_ = {
    meta: {
      id: ksyMetaId(layout.message, "struct"),
      title: `${layout.name} (Struct)`,
      endian: plan.little ? "le" : "be",
    },
    doc: `${layout.package}.${layout.message} in the Struct format: packed like Python struct.pack("${plan.little ? "<" : ">"}…"), no padding. Generated by SatPayload Studio from the layout.`,
    seq: [...seq, ...tail],
  };
  if (Object.keys(instances).length) spec.instances = instances;
  if (Object.keys(types).length) spec.types = types;
  if (Object.keys(enums).length) spec.enums = enums;
  return spec;
}
