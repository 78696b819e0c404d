// The per-layout program the network-server decoders interpret (runtime.ts): for every field, what its
// typed value is (S), how it is written in the record's text representation (r) and where it sits on
// the wire (w), taken from the codecs' own plans so the decoder follows the bytes our encoders write.
import type { Field, Layout, ScalarType, TextRep } from "#codecs";
import {
  decimalPlaces,
  epochIsU32,
  type FieldSpec,
  fixedPoint,
  formatResolution,
  layoutSpecs,
  planSbe,
  planStruct,
  type PrimCode,
  type SbeField,
  sbeNull,
  type SbeScalar,
  type ScalarSpec,
  type StructField,
  type StructNode,
} from "#codecs/plans";

type Obj = { [key: string]: unknown };

/** The typed value a scalar decodes to, and what output needs to write it. */
function valueSpec(t: ScalarType): Obj {
  switch (t.kind) {
    case "bool":
      return { k: "bool" };
    case "enum":
      return { k: "enm", n: t.values.map((v) => v.name), v: t.values.map((v) => v.value) };
    case "int":
      return { k: t.bits === 64 ? "i64" : "int" };
    case "float":
      return { k: t.bits === 32 ? "f32" : "f64" };
    case "fixed":
      return { k: "fixed" };
    case "timestamp":
      return t.encoding === "text" ? { k: "ttime", f: t.textFormat } : { k: "epoch" };
    case "string":
      return { k: "str" };
    case "bytes":
      return { k: "bytes" };
  }
}

function rep(f: Field): Obj | 0 {
  const r: TextRep | undefined = f.text;
  if (r?.as !== "string") return 0;
  return {
    ...(r.decimals !== undefined ? { d: r.decimals } : {}),
    ...(r.pad !== undefined ? { p: r.pad } : {}),
    ...(r.separator !== undefined ? { sep: r.separator } : {}),
  };
}

/** Fixed-point raw → value, with the same integer-tick arithmetic as layout/fixedPoint.ts. */
export function fixedConversion(t: Extract<ScalarType, { kind: "fixed" }>): Obj {
  const fp = fixedPoint(t);
  const dS = decimalPlaces(t.scale);
  const dO = decimalPlaces(t.offset);
  const d = dS !== undefined && dO !== undefined ? Math.max(dS, dO) : undefined;
  const pw = d !== undefined ? 10 ** d : 1;
  const st = Math.round(t.scale * pw);
  const ot = Math.round(t.offset * pw);
  return {
    rmin: fp.rawMin,
    rmax: fp.rawMax,
    st,
    ot,
    pw,
    ex: d !== undefined && Number.isSafeInteger(st) && Number.isSafeInteger(ot),
    sc: t.scale,
    of: t.offset,
    min: t.min,
    max: t.max,
  };
}

/** int64 ticks → epoch seconds (a decimal resolution divides by a power of ten, as the codecs do). */
function ticksConversion(res: number): Obj {
  const decimals = Math.round(-Math.log10(res));
  const div = decimals > 0 && Math.abs(10 ** -decimals - res) < 1e-12 ? 10 ** decimals : 0;
  return { div, res };
}

/** S for Struct and SBE: numeric kinds carry their raw → value conversion. */
function bytesValueSpec(t: ScalarType): Obj {
  const s = valueSpec(t);
  if (t.kind === "fixed") s.x = fixedConversion(t);
  if (t.kind === "timestamp" && t.encoding === "epoch" && !epochIsU32(t)) s.x = ticksConversion(t.resolution);
  return s;
}

const scalarOf = (t: Field["type"]): ScalarType | undefined =>
  t.kind === "array" ? t.of : t.kind === "group" ? undefined : t;

// ---- Struct ---------------------------------------------------------------------------------

const STRUCT_MODES = ["fixed", "u8-inline", "u16-inline", "u8-appended", "u16-appended"];

function structScalarWire(n: StructNode): Obj {
  if (n.kind === "num") return { c: n.slot.code };
  if (n.kind === "text") return { m: STRUCT_MODES.indexOf(n.mode), n: n.maxLength, ...(n.exact ? { ex: 1 } : {}) };
  throw new Error("unreachable: not a scalar");
}

function structFields(fields: Field[], plan: StructField[]): Obj[] {
  return plan.map((pf, i) => {
    const f = fields[i]!;
    const base: Obj = { k: f.key, o: pf.bit >= 0 ? 1 : 0, r: rep(f) };
    const bits = { b: pf.bit, e: pf.bitEnd };
    const n = pf.node;
    if (n.kind === "group" && f.type.kind === "group")
      return { ...base, g: structFields(f.type.fields, n.fields), w: bits };
    const s = bytesValueSpec(scalarOf(f.type)!);
    if (n.kind === "array")
      return {
        ...base,
        a: 1,
        s,
        w: { ...bits, fx: n.fixed ? 1 : 0, n: n.maxCount, cc: n.countCode, el: structScalarWire(n.elem) },
      };
    return { ...base, s, w: { ...bits, ...structScalarWire(n) } };
  });
}

function structProgram(layout: Layout): Obj {
  const plan = planStruct(layout);
  return {
    f: "struct",
    le: plan.little ? 1 : 0,
    bm: plan.bitmapBytes,
    opt: plan.optionalCount,
    fs: structFields(layout.fields, plan.fields),
  };
}

// ---- SBE ------------------------------------------------------------------------------------

function nullWords(code: PrimCode): Obj {
  const raw = sbeNull(code);
  if (typeof raw === "bigint") {
    const u = BigInt.asUintN(64, raw);
    return { nh: Number(u >> 32n), nl: Number(u & 0xffffffffn) };
  }
  return Number.isNaN(raw) ? {} : { nul: raw };
}

function sbeScalarWire(s: SbeScalar): Obj {
  if (s.kind === "num") return { c: s.slot.code, n: s.size, ...nullWords(s.slot.code) };
  return { ch: s.kind === "chars" ? 1 : 0, n: s.size };
}

function sbeFields(fields: Field[], plan: SbeField[]): Obj[] {
  return plan.map((pf, i) => {
    const f = fields[i]!;
    const base: Obj = { k: f.key, o: pf.optional ? 1 : 0, r: rep(f) };
    const n = pf.node;
    if (n.kind === "group" && f.type.kind === "group") return { ...base, g: sbeFields(f.type.fields, n.fields), w: {} };
    const s = bytesValueSpec(scalarOf(f.type)!);
    switch (n.kind) {
      case "fixed":
        return { ...base, s, w: { t: "fix", o: n.offset, ...sbeScalarWire(n.scalar) } };
      case "fixedArray":
        return { ...base, a: 1, s, w: { t: "arr", o: n.offset, cnt: n.count, el: sbeScalarWire(n.scalar) } };
      case "repeat":
        return {
          ...base,
          a: 1,
          s,
          w: {
            t: "rep",
            fc: n.fixedCount ? 1 : 0,
            mx: n.maxCount,
            el:
              n.elem.kind === "var"
                ? { v: n.elem.of === "string" ? 1 : 2, mx: n.elem.maxLength }
                : sbeScalarWire(n.elem),
          },
        };
      case "var":
        return { ...base, s, w: { t: "var", v: n.of === "string" ? 1 : 2, mx: n.maxLength } };
      default:
        throw new Error("unreachable");
    }
  });
}

function sbeProgram(layout: Layout): Obj {
  const plan = planSbe(layout);
  return {
    f: "sbe",
    tid: plan.templateId,
    sid: plan.schemaId,
    ver: plan.version,
    bl: plan.blockLength,
    fs: sbeFields(layout.fields, plan.fields),
  };
}

// ---- bit-packed -----------------------------------------------------------------------------

function words(v: bigint): [number, number] {
  const u = BigInt.asUintN(64, v);
  return [Number(u >> 32n), Number(u & 0xffffffffn)];
}

function bitsWire(s: ScalarSpec, t: ScalarType): Obj {
  switch (s.k) {
    case "bool":
      return { t: "bool" };
    case "enum":
      return { t: "enm", n: s.bits };
    case "int":
      return { t: "int", n: s.bits, lo: s.lo, hi: s.hi };
    case "int64": {
      const [mh, ml] = words(s.hi - s.lo);
      const [lh, ll] = words(s.lo);
      return { t: "i64", n: s.bits, mh, ml, lh, ll, sg: t.kind === "int" && t.signed ? 1 : 0 };
    }
    case "quant": {
      const q = s.qz;
      return {
        t: s.bits > 32 ? "qw" : "q",
        n: s.bits,
        qm: q.qMax,
        tk: q.ticks ? 1 : 0,
        lt: q.loTicks,
        stt: q.stepTicks,
        pw: q.pow,
        lo: q.lo,
        st: q.step,
        hi: q.hi,
      };
    }
    case "fixed":
      return { t: "fx", n: s.bits, span: s.span, x: t.kind === "fixed" ? fixedConversion(t) : {} };
    case "ieee": {
      // text timestamps are formatted at the format's own resolution (0.1 s for "ss.s")
      const res =
        t.kind === "timestamp" ? (t.encoding === "text" ? formatResolution(t.textFormat!) : t.resolution) : undefined;
      return {
        t: "ieee",
        n: s.bits,
        ...(Number.isFinite(s.min) ? { min: s.min } : {}),
        ...(Number.isFinite(s.max) ? { max: s.max } : {}),
        ...(res !== undefined ? { res } : {}),
      };
    }
    case "string": {
      const al = s.alphabet
        ? Array.from(s.alphabet.toChar, (c) => (c < 0 ? "\u0000" : String.fromCharCode(c))).join("")
        : undefined;
      return {
        t: "str",
        n: s.maxLength,
        fx: s.fixed ? 1 : 0,
        lb: s.lenBits,
        cb: s.charBits,
        pad: s.alphabet ? s.alphabet.pad : 0,
        ...(al !== undefined ? { al } : {}),
      };
    }
    case "bytes":
      return { t: "bytes", n: s.maxLength, fx: s.fixed ? 1 : 0, lb: s.lenBits };
  }
}

function bitsFields(specs: FieldSpec[]): Obj[] {
  return specs.map((spec) => {
    const f = spec.field;
    const base: Obj = { k: f.key, o: spec.optional ? 1 : 0, r: rep(f) };
    const n = spec.node;
    if (n.k === "group") return { ...base, g: bitsFields(n.fields), w: {} };
    const t = scalarOf(f.type)!;
    const s = valueSpec(t);
    if (n.k === "array")
      return { ...base, a: 1, s, w: { fx: n.fixed ? 1 : 0, n: n.maxCount, cb: n.countBits, el: bitsWire(n.s, t) } };
    return { ...base, s, w: bitsWire(n.s, t) };
  });
}

function bitsProgram(layout: Layout): Obj {
  return { f: "bitpacked", fs: bitsFields(layoutSpecs(layout)) };
}

/** The program of each wire format the decoders read; which formats they accept is their `exports.networkDecoder` flag. */
export const PROGRAM_OF = { struct: structProgram, sbe: sbeProgram, bitpacked: bitsProgram };
export type DecoderFormat = keyof typeof PROGRAM_OF;

/** Throws LayoutError when the layout cannot be expressed in the format (as its codec would). */
export function decoderProgram(layout: Layout, format: DecoderFormat): Obj {
  return PROGRAM_OF[format](layout);
}
