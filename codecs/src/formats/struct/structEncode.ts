// Struct encoder: closures compiled once from the plan, writing through DataView into reused buffers.
import { isAppended, PREFIX_BYTES, type StructField, type StructNode, type StructPlan } from "./structPlan.ts";
import { EncodeError } from "../../errors.ts";
import type { TypedRecord } from "../../layout/values.ts";
import { writeUtf8 } from "../../text/utf8.ts";
import { SlotError } from "../fixed/numeric.ts";
import { ByteWriter, SpanList } from "../fixed/writer.ts";
import type { FieldSizer } from "../sizer.ts";
import type { EncodedWithSpans } from "../types.ts";

const FORMAT = "struct";

interface Ctx {
  head: ByteWriter;
  /** appended string bytes, placed after the in-place part */
  tail: ByteWriter;
  spans: SpanList | null;
  tailSpans: SpanList | null;
}

/** `i` is the element index inside an array, -1 otherwise (only used to name the path in errors). */
type Enc = (c: Ctx, v: unknown, i: number) => void;

const fail = (msg: string, keyPath: string, i: number): never => {
  throw new EncodeError(msg, FORMAT, i < 0 ? keyPath : `${keyPath}[${i}]`);
};

function slotMessage(e: unknown): string {
  if (e instanceof SlotError) return e.message;
  throw e;
}

function compileNode(n: StructNode, f: StructField, little: boolean): Enc {
  const { keyPath, idPath } = f;
  switch (n.kind) {
    case "num": {
      const { size, write } = n.slot;
      return (c, v, i) => {
        const w = c.head;
        w.ensure(size);
        try {
          write(w.dv, w.pos, v);
        } catch (e) {
          return fail(slotMessage(e), keyPath, i);
        }
        c.spans?.add(w.pos, w.pos + size, idPath, "value");
        w.pos += size;
      };
    }
    case "text":
      return compileText(n, f, little);
    case "array": {
      const elem = compileNode(n.elem, f, little);
      const { fixed, maxCount } = n;
      const wide = n.countCode === "H";
      return (c, v, _i) => {
        if (!Array.isArray(v)) return fail("must be an array", keyPath, -1);
        const count = v.length;
        if (fixed ? count !== maxCount : count > maxCount)
          fail(
            fixed
              ? `needs exactly ${maxCount} elements, got ${count}`
              : `holds at most ${maxCount} elements, got ${count}`,
            keyPath,
            -1,
          );
        if (!fixed) {
          const w = c.head;
          w.ensure(2);
          if (wide) w.dv.setUint16(w.pos, count, little);
          else w.buf[w.pos] = count;
          const size = wide ? 2 : 1;
          c.spans?.add(w.pos, w.pos + size, idPath, "length");
          w.pos += size;
        }
        for (let k = 0; k < count; k++) elem(c, v[k], k);
      };
    }
    case "group": {
      const members = n.fields.map((m) => compileField(m, little));
      return (c, v, _i) => {
        if (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof Uint8Array)
          return fail("must be an object", keyPath, -1);
        for (const m of members) m(c, v as TypedRecord);
      };
    }
  }
}

function compileText(n: Extract<StructNode, { kind: "text" }>, f: StructField, little: boolean): Enc {
  const { keyPath, idPath } = f;
  const { mode, maxLength, exact, of, time } = n;
  const prefix = PREFIX_BYTES[mode];
  const appended = isAppended(mode);

  /** Writes the content at w.pos (not advancing) and returns its byte count. */
  const content = (w: ByteWriter, v: unknown, i: number): number => {
    if (of === "string") {
      if (typeof v !== "string") return fail("must be a string", keyPath, i);
      if (v.length > maxLength) return fail(`is longer than maxLength ${maxLength} bytes`, keyPath, i);
      if (mode === "fixed" && v.indexOf("\0") >= 0)
        return fail("a NUL-padded fixed-width string cannot hold U+0000", keyPath, i);
      w.ensure(3 * v.length);
      const len = writeUtf8(w.buf, w.pos, v);
      if (len < 0) return fail("holds a lone surrogate (not encodable as UTF-8)", keyPath, i);
      if (len > maxLength) return fail(`is ${len} UTF-8 bytes, more than maxLength ${maxLength}`, keyPath, i);
      return len;
    }
    if (of === "bytes") {
      if (!(v instanceof Uint8Array)) return fail("must be bytes", keyPath, i);
      if (exact ? v.length !== maxLength : v.length > maxLength)
        fail(
          exact
            ? `needs exactly ${maxLength} bytes in fixed-width form, got ${v.length}`
            : `is ${v.length} bytes, more than maxLength ${maxLength}`,
          keyPath,
          i,
        );
      w.ensure(v.length);
      w.buf.set(v, w.pos);
      return v.length;
    }
    if (typeof v !== "number" || !Number.isFinite(v)) return fail("must be epoch seconds", keyPath, i);
    w.ensure(maxLength);
    if (!time!.write(w.buf, w.pos, v))
      return fail(`${v} is outside the years 0–9999 a text timestamp can show`, keyPath, i);
    return maxLength;
  };

  const writePrefix = (w: ByteWriter, len: number) => {
    if (prefix === 2) w.dv.setUint16(w.pos, len, little);
    else w.buf[w.pos] = len;
  };

  if (mode === "fixed") {
    return (c, v, i) => {
      const w = c.head;
      w.ensure(maxLength);
      const len = content(w, v, i);
      w.buf.fill(0, w.pos + len, w.pos + maxLength);
      c.spans?.add(w.pos, w.pos + len, idPath, "value");
      c.spans?.add(w.pos + len, w.pos + maxLength, idPath, "framing");
      w.pos += maxLength;
    };
  }
  if (!appended) {
    return (c, v, i) => {
      const w = c.head;
      w.ensure(prefix);
      const start = w.pos;
      w.pos += prefix;
      let len: number;
      try {
        len = content(w, v, i);
      } finally {
        w.pos = start;
      }
      writePrefix(w, len);
      c.spans?.add(start, start + prefix, idPath, "length");
      c.spans?.add(start + prefix, start + prefix + len, idPath, "value");
      w.pos = start + prefix + len;
    };
  }
  return (c, v, i) => {
    const t = c.tail;
    const len = content(t, v, i);
    c.tailSpans?.add(t.pos, t.pos + len, idPath, "value");
    t.pos += len;
    const w = c.head;
    w.ensure(prefix);
    writePrefix(w, len);
    c.spans?.add(w.pos, w.pos + prefix, idPath, "length");
    w.pos += prefix;
  };
}

type FieldEnc = (c: Ctx, rec: TypedRecord) => void;

function compileField(f: StructField, little: boolean): FieldEnc {
  const enc = compileNode(f.node, f, little);
  const { key, keyPath, bit } = f;
  if (bit < 0) {
    return (c, rec) => {
      const v = rec[key];
      if (v === undefined) return fail("is required", keyPath, -1);
      enc(c, v, -1);
    };
  }
  const byte = bit >> 3;
  const mask = 1 << (bit & 7);
  return (c, rec) => {
    const v = rec[key];
    if (v === undefined) return;
    // the bitmap is the first bytes of the head buffer
    c.head.buf[byte]! |= mask;
    enc(c, v, -1);
  };
}

export interface StructEncoder {
  encode(rec: TypedRecord): Uint8Array;
  encodeWithSpans(rec: TypedRecord): EncodedWithSpans;
}

export function structEncoder(plan: StructPlan): StructEncoder {
  const fields = plan.fields.map((f) => compileField(f, plan.little));
  const nb = plan.bitmapBytes;
  const initial = Math.min(plan.maxSize, 1 << 16);
  const ctx: Ctx = {
    head: new ByteWriter(initial),
    tail: new ByteWriter(plan.hasAppended ? initial : 16),
    spans: null,
    tailSpans: null,
  };

  function run(rec: TypedRecord): Uint8Array {
    if (typeof rec !== "object" || rec === null) throw new EncodeError("a record must be an object", FORMAT);
    const { head, tail } = ctx;
    head.pos = 0;
    tail.pos = 0;
    head.ensure(nb);
    head.buf.fill(0, 0, nb);
    head.pos = nb;
    ctx.spans?.add(0, nb, "", "framing");
    for (const f of fields) f(ctx, rec);
    // slice() allocates and copies in one step; the (short) tail is copied over what follows the head
    head.ensure(tail.pos);
    const out = head.buf.slice(0, head.pos + tail.pos);
    const src = tail.buf;
    for (let i = 0, at = head.pos; i < tail.pos; i++) out[at + i] = src[i]!;
    return out;
  }

  return {
    encode: run,
    encodeWithSpans(rec) {
      const spans = new SpanList();
      const tailSpans = new SpanList();
      ctx.spans = spans;
      ctx.tailSpans = tailSpans;
      try {
        const bytes = run(rec);
        spans.append(tailSpans, ctx.head.pos);
        return { bytes, spans: spans.spans };
      } finally {
        ctx.spans = null;
        ctx.tailSpans = null;
      }
    },
  };
}

/**
 * Size-only: the message is the presence bitmap, then each field's in-place bytes, then the appended
 * strings, so a field's share is what its own compiled writer adds to head and tail.
 */
export function structSizer(plan: StructPlan): FieldSizer {
  const fields = plan.fields.map((f) => compileField(f, plan.little));
  const nb = plan.bitmapBytes;
  const ctx: Ctx = { head: new ByteWriter(nb + 64), tail: new ByteWriter(64), spans: null, tailSpans: null };
  return {
    keys: plan.fields.map((f) => f.key),
    field(rec, i) {
      ctx.head.pos = nb;
      ctx.tail.pos = 0;
      fields[i]!(ctx, rec);
      return ctx.head.pos - nb + ctx.tail.pos;
    },
    total: (sum) => nb + sum,
  };
}
