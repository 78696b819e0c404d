// Typed records ⇄ the token lines the generated C harnesses read and print. Exact by construction:
// floats travel as their IEEE bits in hex, text and bytes as hex bytes, so a comparison in Node sees
// every bit the C code produced.
import type { TypedRecord, FieldValue, ScalarType } from "#codecs";
import { fixedPoint } from "#codecs/plans";
import type { CField, CModel, CScalar, CStruct } from "../../../src/c/model.ts";

const dv = new DataView(new ArrayBuffer(8));
const utf8 = new TextEncoder();
const utf8d = new TextDecoder("utf-8", { fatal: true });

export const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
export const unhex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "hex"));

export function f32Bits(x: number): string {
  dv.setFloat32(0, x);
  return dv.getUint32(0).toString(16).padStart(8, "0");
}
export function f64Bits(x: number): string {
  dv.setFloat64(0, x);
  return dv.getBigUint64(0).toString(16).padStart(16, "0");
}
export function bitsF32(h: string): number {
  dv.setUint32(0, parseInt(h, 16));
  return dv.getFloat32(0);
}
export function bitsF64(h: string): number {
  dv.setBigUint64(0, BigInt(`0x${h}`));
  return dv.getFloat64(0);
}

/** The raw integer the C record holds for a fixed-point value (the codecs' own rounding). */
function fixedRaw(t: ScalarType, v: number): number {
  if (t.kind !== "fixed") throw new Error("not a fixed-point type");
  return fixedPoint(t).toRaw(v);
}

/** Epoch seconds as the C record's int64_t ticks, as the codecs turn them into ticks (secondsToTicks). */
const timeTicks = (decimals: number, v: number) => Math.round(decimals > 0 ? v * 10 ** decimals : v) + 0;

function scalarOut(s: CScalar, t: ScalarType, v: FieldValue): string {
  switch (s.k) {
    case "bool":
      return v ? "1" : "0";
    case "enum":
      return String(s.e.values.find((e) => e.name === v)!.value);
    case "int":
      return String(v);
    case "float":
      return s.bits === 32 ? f32Bits(v as number) : f64Bits(v as number);
    case "fixed":
      return String(fixedRaw(t, v as number));
    case "time":
      return s.ticks ? String(timeTicks(s.ticks.decimals, v as number)) : f64Bits(v as number);
    case "string":
      return `x${hex(utf8.encode(v as string))}`;
    case "bytes":
      return `x${hex(v as Uint8Array)}`;
  }
}

function scalarIn(s: CScalar, t: string): FieldValue {
  switch (s.k) {
    case "bool":
      return t === "1";
    case "enum": {
      const e = s.e.values.find((x) => x.value === Number(t));
      if (!e) throw new Error(`enum value ${t} unknown`);
      return e.name;
    }
    case "int":
      return s.bits === 64 ? BigInt(t) : Number(t);
    case "float":
      return s.bits === 32 ? bitsF32(t) : bitsF64(t);
    case "fixed":
      return Number(t);
    case "time":
      return s.ticks ? Number(t) : bitsF64(t);
    case "string":
      return utf8d.decode(unhex(t.slice(1)));
    case "bytes":
      return unhex(t.slice(1));
  }
}

function structOut(st: CStruct, rec: TypedRecord, out: string[]): void {
  for (const f of st.fields) fieldOut(f, rec[f.field.key], out);
}

function fieldOut(f: CField, v: FieldValue | undefined, out: string[]): void {
  if (f.optional) {
    out.push(v === undefined ? "0" : "1");
    if (v === undefined) return;
  }
  const n = f.node;
  if (n.k === "group") structOut(n.struct, v as TypedRecord, out);
  else if (n.k === "array") {
    const arr = v as FieldValue[];
    if (!n.fixed) out.push(String(arr.length));
    for (const x of arr) out.push(scalarOut(n.s, n.type, x));
  } else out.push(scalarOut(n.s, n.type, v!));
}

/** The token line of a record (what the harness's reader expects after "E "). */
export function recordTokens(m: CModel, rec: TypedRecord): string {
  const out: string[] = [];
  structOut(m.root, rec, out);
  return out.join(" ");
}

/**
 * The record as the C type holds it: fixed-point values as their raws and epoch timestamps as their
 * integer ticks, so a decoded record compares
 * with what C prints whether the codec clamps the value to min..max (Struct) or not (bit-packed).
 */
export function asCRecord(m: CModel, rec: TypedRecord): TypedRecord {
  const walk = (st: CStruct, r: TypedRecord): TypedRecord => {
    const out: TypedRecord = {};
    for (const f of st.fields) {
      const v = r[f.field.key];
      const n = f.node;
      if (v === undefined) continue;
      if (n.k === "group") out[f.field.key] = walk(n.struct, v as TypedRecord);
      else if (n.s.k === "time" && n.s.ticks) {
        const d = n.s.ticks.decimals;
        out[f.field.key] = n.k === "array" ? (v as number[]).map((x) => timeTicks(d, x)) : timeTicks(d, v as number);
      } else if (n.s.k !== "fixed") out[f.field.key] = v;
      else if (n.k === "array") out[f.field.key] = (v as number[]).map((x) => fixedRaw(n.type, x));
      else out[f.field.key] = fixedRaw(n.type, v as number);
    }
    return out;
  };
  return walk(m.root, rec);
}

/** The record a harness printed after "OK " for a decode (fixed-point values as raws, see asCRecord). */
export function tokensRecord(m: CModel, line: string): TypedRecord {
  const toks = line.split(" ").filter((t) => t.length > 0);
  let i = 0;
  const next = () => {
    if (i >= toks.length) throw new Error(`harness printed too few tokens: ${line}`);
    return toks[i++]!;
  };
  const readStruct = (st: CStruct): TypedRecord => {
    const rec: TypedRecord = {};
    for (const f of st.fields) {
      if (f.optional && next() === "0") continue;
      const n = f.node;
      if (n.k === "group") rec[f.field.key] = readStruct(n.struct);
      else if (n.k === "array") {
        const count = n.fixed ? n.maxCount : Number(next());
        rec[f.field.key] = Array.from({ length: count }, () => scalarIn(n.s, next())) as FieldValue;
      } else rec[f.field.key] = scalarIn(n.s, next());
    }
    return rec;
  };
  const rec = readStruct(m.root);
  if (i !== toks.length) throw new Error(`harness printed ${toks.length - i} extra tokens`);
  return rec;
}
