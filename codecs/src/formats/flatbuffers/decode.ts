// FlatBuffers reader with the checks of flatc's verifier, from the layout's model: the npm runtime
// reads without verifying, so every offset, vtable, length, alignment and string is checked here and
// bad bytes are a DecodeError, never an out-of-range read. The same walk attributes every byte (spans).
import type { FbField, FbModel, FbNum, FbStr, FbTable } from "./model.ts";
import { DecodeError } from "../../errors.ts";
import type { ScalarValue, TypedRecord } from "../../layout/values.ts";
import { readUtf8 } from "../../text/utf8.ts";
import { SlotError } from "../fixed/numeric.ts";
import { SpanList } from "../fixed/writer.ts";
import type { Span } from "../types.ts";

const FORMAT = "flatbuffers";

interface Ctx {
  u8: Uint8Array;
  dv: DataView;
  /** collected spans (unordered; vtables shared by two tables appear twice), or null when not asked */
  spans: Span[] | null;
  /** the largest alignment the message holds: the builder pads the whole message to a multiple of it */
  maxAlign: number;
}

const bad = (msg: string, at: number): never => {
  throw new DecodeError(msg, FORMAT, at);
};

function mark(c: Ctx, start: number, end: number, field: string, role: Span["role"]): void {
  c.spans?.push({ start, end, field, role });
}

/** `n` bytes at `pos`, inside the buffer and aligned to `align` (FlatBuffers aligns from the buffer's start). */
function need(c: Ctx, pos: number, n: number, align: number, what: string): void {
  if (pos < 0 || pos + n > c.u8.length)
    bad(`${what} lies outside the ${c.u8.length}-byte message (needs bytes ${pos}…${pos + n - 1})`, Math.max(0, pos));
  if (pos % align !== 0) bad(`${what} is not aligned to ${align} bytes`, pos);
  if (align > c.maxAlign) c.maxAlign = align;
}

/** Follows the uoffset at `pos` (already checked) to the object it points to. */
function follow(c: Ctx, pos: number, what: string): number {
  const off = c.dv.getUint32(pos, true);
  if (off === 0) bad(`${what}: an offset of 0 points at itself`, pos);
  return pos + off;
}

function readNum(c: Ctx, n: FbNum, pos: number, path: string): ScalarValue {
  need(c, pos, n.slot.size, n.slot.size, path);
  let v: ScalarValue;
  try {
    v = n.slot.read(c.dv, pos);
  } catch (e) {
    if (e instanceof SlotError) return bad(`${path}: ${e.message}`, pos);
    throw e;
  }
  if (n.range && ((v as number) < n.range[0] || (v as number) > n.range[1]))
    bad(`${path}: ${String(v)} is outside the layout's range ${n.range[0]} … ${n.range[1]}`, pos);
  return v;
}

/** A vector's length prefix at `at` and its element bytes; returns the element count. */
function vectorAt(c: Ctx, at: number, elemSize: number, path: string, idPath: string): number {
  need(c, at, 4, 4, `${path}: the length`);
  const n = c.dv.getUint32(at, true);
  if (n > (c.u8.length - at - 4) / elemSize) bad(`${path}: a length of ${n} runs past the end of the message`, at);
  need(c, at + 4, n * elemSize, Math.min(elemSize, 8), `${path}: the elements`);
  mark(c, at, at + 4, idPath, "length");
  return n;
}

function readString(c: Ctx, s: FbStr, at: number, path: string, idPath: string): ScalarValue {
  const n = vectorAt(c, at, 1, path, idPath);
  const start = at + 4;
  if (start + n >= c.u8.length) bad(`${path}: the string has no terminating NUL`, start + n);
  if (c.u8[start + n] !== 0) bad(`${path}: the string's terminating byte is not NUL`, start + n);
  mark(c, start, start + n, idPath, "value");
  mark(c, start + n, start + n + 1, idPath, "length");
  if (s.time) {
    if (n !== s.time.length) bad(`${path}: a timestamp text of ${n} bytes, the format has ${s.time.length}`, start);
    const v = s.time.read(c.u8, start);
    if (v === undefined) bad(`${path}: not a valid timestamp text`, start);
    return v!;
  }
  if (n > s.maxLength) bad(`${path}: ${n} bytes, more than maxLength ${s.maxLength}`, at);
  const v = readUtf8(c.u8, start, n);
  if (v === undefined) bad(`${path}: invalid UTF-8`, start);
  return v!;
}

function countCheck(n: number, max: number, fixed: boolean, path: string, at: number): void {
  if (fixed && n !== max) bad(`${path}: ${n} elements, the layout has exactly ${max}`, at);
  if (n > max) bad(`${path}: ${n} elements, more than maxCount ${max}`, at);
}

/** The value of one present non-scalar field, its uoffset at `pos`. */
function readRef(c: Ctx, f: FbField, pos: number): unknown {
  need(c, pos, 4, 4, `${f.keyPath}: the offset`);
  mark(c, pos, pos + 4, f.idPath, "length");
  const at = follow(c, pos, f.keyPath);
  const node = f.node;
  switch (node.kind) {
    case "string":
      return readString(c, node, at, f.keyPath, f.idPath);
    case "bytes": {
      const n = vectorAt(c, at, 1, f.keyPath, f.idPath);
      if (node.fixed && n !== node.maxLength)
        bad(`${f.keyPath}: ${n} bytes, the layout has exactly ${node.maxLength}`, at);
      if (n > node.maxLength) bad(`${f.keyPath}: ${n} bytes, more than maxLength ${node.maxLength}`, at);
      mark(c, at + 4, at + 4 + n, f.idPath, "value");
      return c.u8.slice(at + 4, at + 4 + n);
    }
    case "vector": {
      const elem = node.elem;
      const size = elem.kind === "num" ? elem.slot.size : 4;
      const n = vectorAt(c, at, size, f.keyPath, f.idPath);
      countCheck(n, node.maxCount, node.fixed, f.keyPath, at);
      const out: ScalarValue[] = [];
      for (let i = 0; i < n; i++) {
        const p = at + 4 + i * size;
        const path = `${f.keyPath}[${i}]`;
        if (elem.kind === "num") {
          out.push(readNum(c, elem, p, path));
          mark(c, p, p + size, f.idPath, "value");
        } else {
          mark(c, p, p + 4, f.idPath, "length");
          out.push(readString(c, elem, follow(c, p, path), path, f.idPath));
        }
      }
      return out;
    }
    case "table":
      return readTable(c, node.table, at, f.keyPath);
    case "num":
      throw new Error("unreachable: scalars are stored inline");
  }
}

function readTable(c: Ctx, t: FbTable, at: number, path: string): TypedRecord {
  const what = path === "" ? "the root table" : `${path}: the table`;
  need(c, at, 4, 4, what);
  const vt = at - c.dv.getInt32(at, true);
  need(c, vt, 4, 2, `${what}'s vtable`);
  const vtSize = c.dv.getUint16(vt, true);
  const tSize = c.dv.getUint16(vt + 2, true);
  if (vtSize < 4 || vtSize % 2 !== 0) bad(`${what}'s vtable size ${vtSize} is not an even number of at least 4`, vt);
  need(c, vt, vtSize, 2, `${what}'s vtable`);
  if (tSize < 4) bad(`${what}'s size ${tSize} is smaller than its 4-byte vtable offset`, vt + 2);
  need(c, at, tSize, 4, what);
  mark(c, at, at + 4, "", "framing");
  mark(c, vt, vt + vtSize, "", "framing");
  const slots = (vtSize - 4) / 2;
  const rec: TypedRecord = {};
  const expanded = new Map<string, (ScalarValue | undefined)[]>();
  for (const f of t.fields) {
    const vo = f.id < slots ? c.dv.getUint16(vt + 4 + 2 * f.id, true) : 0;
    let v: unknown;
    if (vo !== 0) {
      const size = f.node.kind === "num" ? f.node.slot.size : 4;
      if (vo < 4 || vo + size > tSize) bad(`${f.keyPath}: its slot lies outside the table`, vt + 4 + 2 * f.id);
      const pos = at + vo;
      if (f.node.kind === "num") {
        v = readNum(c, f.node, pos, f.element === undefined ? f.keyPath : `${f.keyPath}[${f.element}]`);
        mark(c, pos, pos + size, f.idPath, "value");
      } else v = readRef(c, f, pos);
    } else if (f.node.kind === "num" && f.node.def !== null) {
      // left out because it equals the default: FlatBuffers' readers restore it
      v = f.node.slot.fromRaw(f.node.def);
    } else if (!f.optional && f.element === undefined) bad(`${f.keyPath} is required but absent`, at);
    if (f.element === undefined) {
      if (v !== undefined) rec[f.key] = v as ScalarValue;
      continue;
    }
    let arr = expanded.get(f.key);
    if (!arr) expanded.set(f.key, (arr = []));
    arr[f.element] = v as ScalarValue | undefined;
  }
  for (const [key, arr] of expanded) {
    const present = arr.filter((x) => x !== undefined).length;
    if (present === arr.length) rec[key] = arr as ScalarValue[];
    else if (present > 0) bad(`${path === "" ? "" : `${path}.`}${key}: only some of its elements are present`, at);
  }
  // the layout's key order, as every other decoder returns it
  const ordered: TypedRecord = {};
  for (const lf of t.layoutFields) if (rec[lf.key] !== undefined) ordered[lf.key] = rec[lf.key]!;
  return ordered;
}

function read(model: FbModel, bytes: Uint8Array, spans: Span[] | null): TypedRecord {
  const c: Ctx = { u8: bytes, dv: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), spans, maxAlign: 4 };
  need(c, 0, 4, 4, "the root offset");
  mark(c, 0, 4, "", "framing");
  const rec = readTable(c, model.root, c.dv.getUint32(0, true), "");
  // Finish pads the message to a multiple of its largest alignment: a shorter or longer one lost or gained
  // bytes at its end (a cut after the last value is otherwise invisible, only padding follows it)
  if (bytes.length % c.maxAlign !== 0)
    bad(
      `the message is ${bytes.length} bytes, not a multiple of its ${c.maxAlign}-byte alignment: bytes are missing or extra at its end`,
      bytes.length,
    );
  return rec;
}

export function flatbuffersDecode(model: FbModel, bytes: Uint8Array): TypedRecord {
  return read(model, bytes, null);
}

/** Every byte attributed, in order: what the walk read, and padding between as framing. */
export function flatbuffersSpans(model: FbModel, bytes: Uint8Array): Span[] {
  const found: Span[] = [];
  read(model, bytes, found);
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out = new SpanList();
  let pos = 0;
  for (const s of found) {
    // a vtable two tables share is read twice
    if (s.start < pos) continue;
    out.add(pos, s.start, "", "framing");
    out.add(s.start, s.end, s.field, s.role);
    pos = s.end;
  }
  out.add(pos, bytes.length, "", "framing");
  return out.spans;
}
