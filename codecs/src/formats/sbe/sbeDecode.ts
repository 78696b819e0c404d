// SBE decoder: checks the header, reads the root block at fixed offsets (one bounds check for the
// block), walks repeating groups, then var data; optional slots holding their null value are absent.
import {
  GROUP_HEADER_BYTES,
  HEADER_BYTES,
  VAR_LENGTH_BYTES,
  type SbeField,
  type SbeNode,
  type SbePlan,
  type SbeScalar,
} from "./sbePlan.ts";
import { scalarOps, type ScalarOps } from "./sbeScalar.ts";
import { DecodeError } from "../../errors.ts";
import type { ScalarValue, TypedRecord } from "../../layout/values.ts";
import { readUtf8 } from "../../text/utf8.ts";
import { recordBuilder, type ShapeNode } from "../fixed/builder.ts";
import { SlotError } from "../fixed/numeric.ts";

const FORMAT = "sbe";

interface Ctx {
  u8: Uint8Array;
  dv: DataView;
  /** next unread byte after the root block: repeating groups, then var data */
  cur: number;
  end: number;
  marks: Uint8Array;
  /** var data readers in the order their fields were walked */
  pendFinish: FieldDec[];
  pending: number;
  /** decoded values by slot, assembled into the record at the end */
  vals: unknown[];
}

type FieldDec = (c: Ctx) => void;

const bad = (msg: string, at: number): never => {
  throw new DecodeError(msg, FORMAT, at);
};

function need(c: Ctx, n: number): void {
  if (c.cur + n > c.end) bad(`truncated: needs ${n} more byte${n === 1 ? "" : "s"}, ${c.end - c.cur} left`, c.cur);
}

function readValue(ops: ScalarOps, c: Ctx, pos: number, keyPath: string): ScalarValue {
  try {
    return ops.read(c.u8, c.dv, pos);
  } catch (e) {
    if (e instanceof SlotError) return bad(`${keyPath}: ${e.message}`, pos);
    throw e;
  }
}

/** A null slot of a required member of an optional group: keep its value when it has one (NaN, 255 …). */
function readLenient(ops: ScalarOps, c: Ctx, pos: number): ScalarValue | undefined {
  try {
    return ops.read(c.u8, c.dv, pos);
  } catch (e) {
    if (e instanceof SlotError) return undefined;
    throw e;
  }
}

function compileFixed(n: Extract<SbeNode, { kind: "fixed" }>, f: SbeField, slot: number): FieldDec {
  const ops = scalarOps(n.scalar);
  const pos = HEADER_BYTES + n.offset;
  const { keyPath, optional, og } = f;
  if (!optional && og < 0) {
    if (n.scalar.kind === "num") {
      // the common case, kept to one closure call and a DataView read
      const { read } = n.scalar.slot;
      return (c) => {
        try {
          c.vals[slot] = read(c.dv, pos);
        } catch (e) {
          if (e instanceof SlotError) bad(`${keyPath}: ${e.message}`, pos);
          throw e;
        }
      };
    }
    return (c) => {
      c.vals[slot] = readValue(ops, c, pos, keyPath);
    };
  }
  return (c) => {
    if (ops.isNull(c.u8, c.dv, pos)) {
      if (!optional) {
        const v = readLenient(ops, c, pos);
        if (v !== undefined) c.vals[slot] = v;
      }
      return;
    }
    c.vals[slot] = readValue(ops, c, pos, keyPath);
    if (og >= 0) c.marks[og] = 1;
  };
}

function compileFixedArray(n: Extract<SbeNode, { kind: "fixedArray" }>, f: SbeField, slot: number): FieldDec {
  const ops = scalarOps(n.scalar);
  const base = HEADER_BYTES + n.offset;
  const { count } = n;
  const size = ops.size;
  const { keyPath, optional, og } = f;
  const plain = !optional && og < 0;
  return (c) => {
    const arr = new Array<ScalarValue>(count);
    let allNull = !plain;
    let unreadable = false;
    for (let i = 0; i < count; i++) {
      const p = base + i * size;
      if (allNull && !ops.isNull(c.u8, c.dv, p)) allNull = false;
      if (plain) arr[i] = readValue(ops, c, p, `${keyPath}[${i}]`);
      else {
        const v = readLenient(ops, c, p);
        if (v === undefined) unreadable = true;
        else arr[i] = v;
      }
    }
    if (!plain) {
      if (allNull && (optional || unreadable)) return;
      // not all null, so every element must be a value
      if (unreadable) for (let i = 0; i < count; i++) arr[i] = readValue(ops, c, base + i * size, `${keyPath}[${i}]`);
      if (!allNull && og >= 0) c.marks[og] = 1;
    }
    c.vals[slot] = arr;
  };
}

function compileRepeat(n: Extract<SbeNode, { kind: "repeat" }>, f: SbeField, slot: number): FieldDec {
  const { elem, fixedCount, maxCount } = n;
  const { keyPath, optional, og } = f;
  const isVar = elem.kind === "var";
  const ops = isVar ? undefined : scalarOps(elem as SbeScalar);
  const entryBytes = ops ? ops.size : 0;
  return (c) => {
    need(c, GROUP_HEADER_BYTES);
    const at = c.cur;
    const blockLength = c.dv.getUint16(at, true);
    const count = c.dv.getUint16(at + 2, true);
    if (blockLength < entryBytes)
      bad(`${keyPath}: group blockLength ${blockLength} is less than the ${entryBytes}-byte entry`, at);
    if (fixedCount ? count !== maxCount : count > maxCount)
      bad(
        `${keyPath}: numInGroup ${count} ${fixedCount ? `is not the fixed count ${maxCount}` : `exceeds maxCount ${maxCount}`}`,
        at + 2,
      );
    c.cur += GROUP_HEADER_BYTES;
    const arr = new Array<ScalarValue>(count);
    for (let i = 0; i < count; i++) {
      need(c, blockLength);
      const entry = c.cur;
      // a newer schema version may have widened the entry: skip what we do not know
      c.cur += blockLength;
      if (!isVar) {
        arr[i] = readValue(ops!, c, entry, `${keyPath}[${i}]`);
        continue;
      }
      need(c, VAR_LENGTH_BYTES);
      const len = c.dv.getUint16(c.cur, true);
      if (len > elem.maxLength) bad(`${keyPath}[${i}]: length ${len} exceeds maxLength ${elem.maxLength}`, c.cur);
      c.cur += VAR_LENGTH_BYTES;
      need(c, len);
      arr[i] = varValue(c, elem.of, len, `${keyPath}[${i}]`);
      c.cur += len;
    }
    if (count === 0 && optional) return;
    if (count > 0 && og >= 0) c.marks[og] = 1;
    c.vals[slot] = arr;
  };
}

function varValue(c: Ctx, of: "string" | "bytes", len: number, keyPath: string): ScalarValue {
  if (of === "bytes") return c.u8.slice(c.cur, c.cur + len);
  return readUtf8(c.u8, c.cur, len) ?? bad(`${keyPath}: invalid UTF-8`, c.cur);
}

function compileVar(n: Extract<SbeNode, { kind: "var" }>, f: SbeField, slot: number, deferred: boolean): FieldDec {
  const { of, maxLength } = n;
  const { keyPath, optional, og } = f;
  const finish: FieldDec = (c) => {
    need(c, VAR_LENGTH_BYTES);
    const len = c.dv.getUint16(c.cur, true);
    if (len > maxLength) bad(`${keyPath}: length ${len} exceeds maxLength ${maxLength}`, c.cur);
    c.cur += VAR_LENGTH_BYTES;
    need(c, len);
    if (len > 0 || !optional) c.vals[slot] = varValue(c, of, len, keyPath);
    if (len > 0 && og >= 0) c.marks[og] = 1;
    c.cur += len;
  };
  // without repeating groups the walk meets var data in wire order; otherwise it follows them all
  if (!deferred) return finish;
  return (c) => {
    c.pendFinish[c.pending++] = finish;
  };
}

const present = (ds: (FieldDec | null)[]): FieldDec[] => ds.filter((d): d is FieldDec => d !== null);

/** Collects the record tree while fields get their value slots. */
interface Shape {
  nodes: ShapeNode[];
  slots: number;
  /** slot of each optional group's presence, and the slots of its required members */
  ogSlot: number[];
  ogRequired: number[][];
  deferVar: boolean;
}

/** Null when the record builder reads the field itself. */
function compileField(f: SbeField, shape: Shape, required: number[] | null): FieldDec | null {
  const slot = shape.slots++;
  const node: ShapeNode = { key: f.key, optional: f.optional, slot };
  shape.nodes.push(node);
  if (!f.optional && required) required.push(slot);
  const n = f.node;
  if (
    (n.kind === "fixed" || n.kind === "fixedArray") &&
    !f.optional &&
    f.og < 0 &&
    n.scalar.kind === "num" &&
    n.scalar.slot.identity
  ) {
    node.direct = {
      code: n.scalar.slot.code,
      pos: HEADER_BYTES + n.offset,
      ...(n.kind === "fixedArray" ? { count: n.count } : {}),
    };
    return null;
  }
  switch (n.kind) {
    case "fixed":
      return compileFixed(n, f, slot);
    case "fixedArray":
      return compileFixedArray(n, f, slot);
    case "repeat":
      return compileRepeat(n, f, slot);
    case "var":
      return compileVar(n, f, slot, shape.deferVar);
    case "group": {
      const outer = shape.nodes;
      shape.nodes = [];
      // members of an optional group are checked against its presence; nested required groups add theirs
      let req = required;
      if (n.og >= 0) {
        shape.ogSlot[n.og] = slot;
        req = shape.ogRequired[n.og] = [];
      }
      const members = present(n.fields.map((m) => compileField(m, shape, req)));
      node.children = shape.nodes;
      shape.nodes = outer;
      return (c) => {
        c.vals[slot] = true;
        for (const m of members) m(c);
      };
    }
  }
}

function hasOptional(fields: SbeField[]): boolean {
  return fields.some((f) => f.optional || (f.node.kind === "group" && hasOptional(f.node.fields)));
}

export type SbeDecoder = (bytes: Uint8Array) => TypedRecord;

export function sbeDecoder(plan: SbePlan): SbeDecoder {
  const shape: Shape = { nodes: [], slots: 0, ogSlot: [], ogRequired: [], deferVar: plan.hasRepeats };
  const fields = present(plan.fields.map((f) => compileField(f, shape, null)));
  const build = recordBuilder(shape.nodes, true);
  const ogCount = plan.ogParent.length;
  const resets = ogCount > 0 || hasOptional(plan.fields);
  const { blockLength: ourBlock, templateId, schemaId, version } = plan;
  const ctx: Ctx = {
    u8: new Uint8Array(0),
    dv: new DataView(new ArrayBuffer(0)),
    cur: 0,
    end: 0,
    marks: new Uint8Array(ogCount),
    pendFinish: [],
    pending: 0,
    vals: new Array<unknown>(shape.slots),
  };

  return (bytes) => {
    if (!(bytes instanceof Uint8Array)) throw new DecodeError("input must be bytes", FORMAT);
    const c = ctx;
    const len = bytes.length;
    if (len < HEADER_BYTES) bad(`truncated: ${len} bytes cannot hold the 8-byte message header`, 0);
    const dv = new DataView(bytes.buffer, bytes.byteOffset, len);
    const blockLength = dv.getUint16(0, true);
    const tid = dv.getUint16(2, true);
    const sid = dv.getUint16(4, true);
    const ver = dv.getUint16(6, true);
    if (tid !== templateId) bad(`templateId ${tid} is not this layout's ${templateId}`, 2);
    if (sid !== schemaId) bad(`schemaId ${sid} is not this layout's ${schemaId}`, 4);
    if (blockLength < ourBlock)
      bad(`blockLength ${blockLength} is shorter than this layout's root block (${ourBlock})`, 0);
    if (HEADER_BYTES + blockLength > len)
      bad(`truncated: the root block needs ${blockLength} bytes, ${len - HEADER_BYTES} left`, HEADER_BYTES);
    c.u8 = bytes;
    c.dv = dv;
    c.end = len;
    // a longer root block (a newer version's extra fields) is skipped: groups start after it
    c.cur = HEADER_BYTES + blockLength;
    c.pending = 0;
    // slots of required fields are always written; only optional ones can keep a previous value
    if (resets) for (let i = 0; i < c.vals.length; i++) c.vals[i] = undefined;
    if (ogCount) c.marks.fill(0);
    for (const f of fields) f(c);
    for (let p = 0; p < c.pending; p++) c.pendFinish[p]!(c);
    // a newer version may append groups or var data this layout does not know
    if (c.cur !== len && ver <= version) bad(`${len - c.cur} trailing byte${len - c.cur === 1 ? "" : "s"}`, c.cur);
    if (ogCount) finishGroups(plan, shape, c);
    return build(c.vals, dv);
  };
}

/** An all-null optional group is absent; a present one needs every required member to be a value. */
function finishGroups(plan: SbePlan, shape: Shape, c: Ctx): void {
  const { marks, vals } = c;
  for (let g = marks.length - 1; g >= 0; g--) {
    const parent = plan.ogParent[g]!;
    if (marks[g] && parent >= 0) marks[parent] = 1;
  }
  for (let g = 0; g < marks.length; g++) {
    if (!marks[g]) {
      vals[shape.ogSlot[g]!] = undefined;
      continue;
    }
    for (const s of shape.ogRequired[g]!)
      if (vals[s] === undefined)
        bad(`${plan.ogFields[g]!.keyPath} is present but a required member holds its null value`, HEADER_BYTES);
  }
}
