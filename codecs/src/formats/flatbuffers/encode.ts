// FlatBuffers encoder: the npm `flatbuffers` Builder driven the way flatc's generated Python object API
// (`Pack`) drives the official Python builder, so both write the same bytes: first every string, vector
// and sub-table in ascending field id, then the table's fields in ascending id, then Finish without a
// file identifier. Scalars equal to their default are left out (force_defaults off), as both builders do.
import { Builder } from "flatbuffers";
import type { FbField, FbModel, FbNum, FbStr, FbTable } from "./model.ts";
import { EncodeError } from "../../errors.ts";
import type { TypedRecord } from "../../layout/values.ts";
import { hasLoneSurrogate } from "../../text/utf8.ts";
import { SlotError } from "../fixed/numeric.ts";
import type { Raw } from "../fixed/prim.ts";

const FORMAT = "flatbuffers";
const utf8 = new TextEncoder();

const fail = (msg: string, path: string): never => {
  throw new EncodeError(msg, FORMAT, path);
};

function toRaw(n: FbNum, v: unknown, path: string): Raw {
  try {
    return n.slot.toRaw(v);
  } catch (e) {
    if (e instanceof SlotError) return fail(e.message, path);
    throw e;
  }
}

/** The record member a field carries: the value, one element of an expanded array, or undefined. */
function valueOf(rec: TypedRecord, f: FbField): unknown {
  const v = rec[f.key];
  if (f.element === undefined || v === undefined) return v;
  if (!Array.isArray(v)) return fail("must be an array", f.keyPath);
  return v[f.element];
}

function checkExpanded(rec: TypedRecord, t: FbTable): void {
  for (const lf of t.layoutFields) {
    const expand = lf.options?.protobuf?.expand;
    const v = rec[lf.key];
    if (expand && lf.type.kind === "array" && Array.isArray(v) && v.length !== expand.length)
      fail(`needs exactly ${expand.length} elements (one field each), got ${v.length}`, lf.key);
  }
}

function stringBytes(s: FbStr, v: unknown, path: string): Uint8Array {
  if (s.time) {
    if (typeof v !== "number" || !Number.isFinite(v)) return fail("must be epoch seconds", path);
    const b = new Uint8Array(s.time.length);
    if (!s.time.write(b, 0, v)) return fail(`${v} is outside the years 0–9999 a text timestamp can show`, path);
    return b;
  }
  if (typeof v !== "string") return fail("must be a string", path);
  if (v.length > s.maxLength) return fail(`is longer than maxLength ${s.maxLength} bytes`, path);
  if (hasLoneSurrogate(v)) return fail("holds a lone surrogate (not encodable as UTF-8)", path);
  const b = utf8.encode(v);
  if (b.length > s.maxLength) return fail(`is ${b.length} UTF-8 bytes, more than maxLength ${s.maxLength}`, path);
  return b;
}

/** Prepends one vector element (Python's builder.Prepend<Type>). */
function prependNum(b: Builder, n: FbNum, raw: Raw): void {
  switch (n.code) {
    case "b":
    case "B":
      return b.addInt8(raw as number);
    case "h":
    case "H":
      return b.addInt16(raw as number);
    case "i":
    case "I":
      return b.addInt32(raw as number);
    case "q":
    case "Q":
      return b.addInt64(raw as bigint);
    case "f":
      return b.addFloat32(raw as number);
    case "d":
      return b.addFloat64(raw as number);
  }
}

/** Adds a scalar slot (Python's builder.Prepend<Type>Slot): left out when it equals the default. */
function addSlot(b: Builder, id: number, n: FbNum, raw: Raw): void {
  const d = n.def;
  switch (n.code) {
    case "b":
    case "B":
      return b.addFieldInt8(id, raw as number, d as number | null);
    case "h":
    case "H":
      return b.addFieldInt16(id, raw as number, d as number | null);
    case "i":
    case "I":
      return b.addFieldInt32(id, raw as number, d as number | null);
    case "q":
    case "Q":
      return b.addFieldInt64(id, raw as bigint, d as bigint | null);
    case "f":
      return b.addFieldFloat32(id, raw as number, keepNegativeZero(raw, d));
    case "d":
      return b.addFieldFloat64(id, raw as number, keepNegativeZero(raw, d));
  }
}

/**
 * −0.0 equals the default 0.0 to every builder (IEEE ==) and would be left out, to be read back as +0.0;
 * a float must keep its sign (docs/design/codec-core.md), so −0.0 is written as if it had no default.
 * The one place our bytes differ from the official Python builder's (docs/design/flatbuffers-mapping.md).
 */
function keepNegativeZero(raw: Raw, d: Raw | null): number | null {
  return Object.is(raw, -0) ? null : (d as number | null);
}

function elements(v: unknown, maxCount: number, fixed: boolean, path: string): unknown[] {
  if (!Array.isArray(v)) return fail("must be an array", path);
  if (fixed && v.length !== maxCount) return fail(`needs exactly ${maxCount} elements, got ${v.length}`, path);
  if (v.length > maxCount) return fail(`has ${v.length} elements, more than maxCount ${maxCount}`, path);
  return v;
}

/** Everything a table refers to, written before the table itself (Pack's first half). */
function create(b: Builder, f: FbField, v: unknown): number {
  const node = f.node;
  switch (node.kind) {
    case "string":
      return b.createString(stringBytes(node, v, f.keyPath));
    case "bytes": {
      if (!(v instanceof Uint8Array)) return fail("must be bytes", f.keyPath);
      if (node.fixed && v.length !== node.maxLength)
        return fail(`needs exactly ${node.maxLength} bytes, got ${v.length}`, f.keyPath);
      if (v.length > node.maxLength)
        return fail(`is ${v.length} bytes, more than maxLength ${node.maxLength}`, f.keyPath);
      return b.createByteVector(v);
    }
    case "vector": {
      const items = elements(v, node.maxCount, node.fixed, f.keyPath);
      const elem = node.elem;
      if (elem.kind === "string") {
        const offs = items.map((s, i) => b.createString(stringBytes(elem, s, `${f.keyPath}[${i}]`)));
        b.startVector(4, offs.length, 4);
        for (let i = offs.length - 1; i >= 0; i--) b.addOffset(offs[i]!);
        return b.endVector();
      }
      const raws = items.map((x, i) => toRaw(elem, x, `${f.keyPath}[${i}]`));
      b.startVector(elem.slot.size, raws.length, elem.slot.size);
      for (let i = raws.length - 1; i >= 0; i--) prependNum(b, elem, raws[i]!);
      return b.endVector();
    }
    case "table":
      if (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof Uint8Array)
        return fail("must be a group (an object)", f.keyPath);
      return pack(b, node.table, v as TypedRecord);
    case "num":
      throw new Error("unreachable: scalars are stored inline");
  }
}

function pack(b: Builder, t: FbTable, rec: TypedRecord): number {
  checkExpanded(rec, t);
  const offsets: (number | undefined)[] = [];
  for (const f of t.fields) {
    if (f.node.kind === "num") continue;
    const v = valueOf(rec, f);
    if (v === undefined) {
      if (!f.optional) fail("is required but missing", f.keyPath);
      continue;
    }
    offsets[f.id] = create(b, f, v);
  }
  b.startObject(t.slots);
  for (const f of t.fields) {
    if (f.node.kind !== "num") {
      const off = offsets[f.id];
      if (off !== undefined) b.addFieldOffset(f.id, off, 0);
      continue;
    }
    const v = valueOf(rec, f);
    if (v === undefined) {
      if (!f.optional) fail("is required but missing", f.keyPath);
      continue;
    }
    addSlot(b, f.id, f.node, toRaw(f.node, v, f.element === undefined ? f.keyPath : `${f.keyPath}[${f.element}]`));
  }
  return b.endObject();
}

export function flatbuffersEncode(model: FbModel, rec: TypedRecord): Uint8Array {
  const b = new Builder(256);
  b.finish(pack(b, model.root, rec));
  // asUint8Array is a view of the builder's buffer
  return b.asUint8Array().slice();
}
