// Struct decoder: reads the in-place part, then the appended string bytes in the order their lengths appeared.
import { isAppended, PREFIX_BYTES, type StructField, type StructNode, type StructPlan } from "./structPlan.ts";
import { DecodeError } from "../../errors.ts";
import type { FieldValue, TypedRecord } from "../../layout/values.ts";
import { readUtf8 } from "../../text/utf8.ts";
import { recordBuilder, type ShapeNode } from "../fixed/builder.ts";
import { SlotError } from "../fixed/numeric.ts";

type Target = Record<string | number, FieldValue>;
/** Turns content bytes into the typed value; throws DecodeError. */
type Finish = (c: Ctx, start: number, len: number) => FieldValue;

interface Ctx {
  u8: Uint8Array;
  dv: DataView;
  pos: number;
  end: number;
  format: string;
  // appended strings waiting for the end of the in-place part, as parallel arrays reused across calls
  pendTarget: Target[];
  pendKey: (string | number)[];
  pendLen: number[];
  pendFinish: Finish[];
  pending: number;
  /** decoded values by slot, assembled into the record at the end */
  vals: Target;
}

type Dec = (c: Ctx, target: Target, key: string | number) => void;

const bad = (c: Ctx, msg: string, at = c.pos): never => {
  throw new DecodeError(msg, c.format, at);
};

function need(c: Ctx, n: number): void {
  if (c.pos + n > c.end) bad(c, `truncated: needs ${n} more byte${n === 1 ? "" : "s"}, ${c.end - c.pos} left`);
}

function compileNode(n: StructNode, f: StructField, little: boolean, shape: Shape): Dec {
  const { keyPath } = f;
  switch (n.kind) {
    case "num": {
      const { size, read } = n.slot;
      return (c, t, k) => {
        need(c, size);
        try {
          t[k] = read(c.dv, c.pos);
        } catch (e) {
          if (e instanceof SlotError) bad(c, `${keyPath}: ${e.message}`);
          throw e;
        }
        c.pos += size;
      };
    }
    case "text":
      return compileText(n, f, little);
    case "array": {
      const elem = compileNode(n.elem, f, little, shape);
      const { fixed, maxCount } = n;
      const wide = n.countCode === "H";
      return (c, t, k) => {
        let count = maxCount;
        if (!fixed) {
          need(c, wide ? 2 : 1);
          count = wide ? c.dv.getUint16(c.pos, little) : c.u8[c.pos]!;
          if (count > maxCount) bad(c, `${keyPath}: count ${count} exceeds maxCount ${maxCount}`);
          c.pos += wide ? 2 : 1;
        }
        const arr = new Array<FieldValue>(count);
        t[k] = arr as FieldValue;
        for (let i = 0; i < count; i++) elem(c, arr as unknown as Target, i);
      };
    }
    case "group": {
      const members = n.fields.map((m) => compileField(m, little, shape));
      return (c, t, k) => {
        // members fill their own slots; the slot of the group itself records its presence
        t[k] = true;
        for (const m of members) m(c);
      };
    }
  }
}

function compileText(n: Extract<StructNode, { kind: "text" }>, f: StructField, little: boolean): Dec {
  const { keyPath } = f;
  const { mode, maxLength, of, time } = n;
  const prefix = PREFIX_BYTES[mode];

  const finish: Finish =
    of === "string"
      ? (c, start, len) => readUtf8(c.u8, start, len) ?? bad(c, `${keyPath}: invalid UTF-8`, start)
      : of === "bytes"
        ? (c, start, len) => c.u8.slice(start, start + len)
        : (c, start, len) => {
            if (len !== maxLength) bad(c, `${keyPath}: a text timestamp is ${maxLength} bytes, got ${len}`, start);
            return time!.read(c.u8, start) ?? bad(c, `${keyPath}: not a valid timestamp text`, start);
          };

  if (mode === "fixed") {
    return (c, t, k) => {
      need(c, maxLength);
      const start = c.pos;
      let len = maxLength;
      if (of === "string") {
        // C-string semantics: content ends at the first NUL, the rest must be NUL padding
        const stop = start + maxLength;
        let nul = start;
        while (nul < stop && c.u8[nul] !== 0) nul++;
        len = nul - start;
        for (let p = nul; p < stop; p++) if (c.u8[p] !== 0) bad(c, `${keyPath}: non-NUL byte in the padding`, p);
      }
      t[k] = finish(c, start, len);
      c.pos += maxLength;
    };
  }
  const appended = isAppended(mode);
  return (c, t, k) => {
    need(c, prefix);
    const len = prefix === 2 ? c.dv.getUint16(c.pos, little) : c.u8[c.pos]!;
    if (len > maxLength) bad(c, `${keyPath}: length ${len} exceeds maxLength ${maxLength}`);
    c.pos += prefix;
    if (appended) {
      const p = c.pending++;
      c.pendTarget[p] = t;
      c.pendKey[p] = k;
      c.pendLen[p] = len;
      c.pendFinish[p] = finish;
      return;
    }
    need(c, len);
    t[k] = finish(c, c.pos, len);
    c.pos += len;
  };
}

type FieldDec = (c: Ctx) => void;

/** Collects the record tree while fields get their value slots. */
interface Shape {
  nodes: ShapeNode[];
  slots: number;
}

function compileField(f: StructField, little: boolean, shape: Shape): FieldDec {
  const slot = shape.slots++;
  const node: ShapeNode = { key: f.key, optional: f.bit >= 0, slot };
  shape.nodes.push(node);
  let dec: Dec;
  if (f.node.kind === "group") {
    const inner: Shape = { nodes: [], slots: shape.slots };
    dec = compileNode(f.node, f, little, inner);
    shape.slots = inner.slots;
    node.children = inner.nodes;
  } else dec = compileNode(f.node, f, little, shape);
  const { bit, bitEnd, keyPath } = f;
  if (bit < 0) return (c) => dec(c, c.vals, slot);
  const present = (c: Ctx, b: number) => (c.u8[b >> 3]! >> (b & 7)) & 1;
  return (c) => {
    if (present(c, bit)) return dec(c, c.vals, slot);
    // an absent group's own optional members cannot be present
    for (let b = bit + 1; b < bitEnd; b++)
      if (present(c, b)) bad(c, `${keyPath} is absent but presence bit ${b} of a member is set`, b >> 3);
  };
}

export type StructDecoder = (bytes: Uint8Array) => TypedRecord;

export function structDecoder(plan: StructPlan, format = "struct"): StructDecoder {
  const shape: Shape = { nodes: [], slots: 0 };
  const fields = plan.fields.map((f) => compileField(f, plan.little, shape));
  const build = recordBuilder(shape.nodes, plan.little);
  const nb = plan.bitmapBytes;
  const unusedMask = plan.optionalCount % 8 ? 0xff & ~((1 << (plan.optionalCount % 8)) - 1) : 0;
  const ctx: Ctx = {
    u8: new Uint8Array(0),
    dv: new DataView(new ArrayBuffer(0)),
    pos: 0,
    end: 0,
    format,
    pendTarget: [],
    pendKey: [],
    pendLen: [],
    pendFinish: [],
    pending: 0,
    vals: new Array<FieldValue>(shape.slots) as unknown as Target,
  };

  return (bytes) => {
    if (!(bytes instanceof Uint8Array)) throw new DecodeError("input must be bytes", format);
    const c = ctx;
    c.u8 = bytes;
    c.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    c.pos = 0;
    c.end = bytes.length;
    c.pending = 0;
    (c.vals as unknown as FieldValue[]).fill(undefined as unknown as FieldValue);
    need(c, nb);
    if (nb && c.u8[nb - 1]! & unusedMask) bad(c, "presence bitmap has bits set beyond the optional fields", nb - 1);
    c.pos = nb;
    for (const f of fields) f(c);
    for (let p = 0; p < c.pending; p++) {
      const len = c.pendLen[p]!;
      need(c, len);
      c.pendTarget[p]![c.pendKey[p]!] = c.pendFinish[p]!(c, c.pos, len);
      c.pos += len;
    }
    if (c.pos !== c.end) bad(c, `${c.end - c.pos} trailing byte${c.end - c.pos === 1 ? "" : "s"}`);
    return build(c.vals as unknown as unknown[], c.dv);
  };
}
