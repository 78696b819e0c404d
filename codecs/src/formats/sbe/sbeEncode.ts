// SBE encoder: header, root block at fixed offsets, repeating groups, then var data, in one walk.
import {
  GROUP_HEADER_BYTES,
  HEADER_BYTES,
  VAR_LENGTH_BYTES,
  type SbeField,
  type SbeNode,
  type SbePlan,
  type SbeScalar,
} from "./sbePlan.ts";
import { scalarOps } from "./sbeScalar.ts";
import { EncodeError } from "../../errors.ts";
import type { TypedRecord } from "../../layout/values.ts";
import { writeUtf8 } from "../../text/utf8.ts";
import { SlotError } from "../fixed/numeric.ts";
import { ByteWriter, SpanList } from "../fixed/writer.ts";
import type { FieldSizer } from "../sizer.ts";
import type { EncodedWithSpans } from "../types.ts";

const FORMAT = "sbe";

interface Ctx {
  /** header and root block; var data too when the layout has no repeating groups */
  head: ByteWriter;
  groups: ByteWriter;
  /** where var data goes: head or its own writer */
  vw: ByteWriter;
  rootSpans: SpanList | null;
  groupSpans: SpanList | null;
  varSpans: SpanList | null;
  /** per optional group: some slot below it holds a non-null value / the record has the group */
  marks: Uint8Array;
  present: Uint8Array;
}

/** Writes the value (or the null when v is undefined); returns true when what was written is the null. */
type NodeEnc = (c: Ctx, v: unknown, f: SbeField) => boolean;

const fail = (msg: string, path: string): never => {
  throw new EncodeError(msg, FORMAT, path);
};

/** Rethrows a SlotError as the EncodeError of element i. */
function elementError(e: unknown, keyPath: string, i: number): never {
  if (e instanceof SlotError) return fail(e.message, `${keyPath}[${i}]`);
  throw e;
}

const elementPath = (f: SbeField, i: number): string => (i < 0 ? f.keyPath : `${f.keyPath}[${i}]`);

/** `i`: element index in a repeating group, -1 for a var-data field (names the path in errors). */
function writeVar(
  w: ByteWriter,
  spans: SpanList | null,
  v: unknown,
  of: "string" | "bytes",
  maxLength: number,
  f: SbeField,
  i: number,
): number {
  w.ensure(VAR_LENGTH_BYTES);
  const start = w.pos;
  let len: number;
  if (of === "string") {
    if (typeof v !== "string") return fail("must be a string", elementPath(f, i));
    if (v.length > maxLength) return fail(`is longer than maxLength ${maxLength} bytes`, elementPath(f, i));
    w.ensure(VAR_LENGTH_BYTES + 3 * v.length);
    len = writeUtf8(w.buf, start + VAR_LENGTH_BYTES, v);
    if (len < 0) return fail("holds a lone surrogate (not encodable as UTF-8)", elementPath(f, i));
    if (len > maxLength) return fail(`is ${len} UTF-8 bytes, more than maxLength ${maxLength}`, elementPath(f, i));
  } else {
    if (!(v instanceof Uint8Array)) return fail("must be bytes", elementPath(f, i));
    if (v.length > maxLength) return fail(`is ${v.length} bytes, more than maxLength ${maxLength}`, elementPath(f, i));
    len = v.length;
    w.ensure(VAR_LENGTH_BYTES + len);
    w.buf.set(v, start + VAR_LENGTH_BYTES);
  }
  w.dv.setUint16(start, len, true);
  spans?.add(start, start + VAR_LENGTH_BYTES, f.idPath, "length");
  spans?.add(start + VAR_LENGTH_BYTES, start + VAR_LENGTH_BYTES + len, f.idPath, "value");
  w.pos = start + VAR_LENGTH_BYTES + len;
  return len;
}

/** Span roles inside a char array: content, then NUL padding. */
function charsSpans(spans: SpanList, buf: Uint8Array, pos: number, size: number, id: string): void {
  let end = pos;
  while (end < pos + size && buf[end] !== 0) end++;
  spans.add(pos, end, id, "value");
  spans.add(end, pos + size, id, "framing");
}

function compileNode(n: SbeNode): NodeEnc {
  switch (n.kind) {
    case "fixed": {
      const ops = scalarOps(n.scalar);
      const pos = HEADER_BYTES + n.offset;
      const { size } = ops;
      const chars = n.scalar.kind === "chars";
      return (c, v, f) => {
        const { buf, dv } = c.head;
        if (v === undefined) {
          ops.writeNull(buf, dv, pos);
          c.rootSpans?.add(pos, pos + size, f.idPath, "framing");
          return true;
        }
        try {
          ops.write(buf, dv, pos, v);
        } catch (e) {
          if (e instanceof SlotError) return fail(e.message, f.keyPath);
          throw e;
        }
        if (c.rootSpans) {
          if (chars) charsSpans(c.rootSpans, buf, pos, size, f.idPath);
          else c.rootSpans.add(pos, pos + size, f.idPath, "value");
        }
        return (f.optional || f.og >= 0) && ops.isNull(buf, dv, pos);
      };
    }
    case "fixedArray": {
      const ops = scalarOps(n.scalar);
      const base = HEADER_BYTES + n.offset;
      const { size } = ops;
      const { count } = n;
      return (c, v, f) => {
        const { buf, dv } = c.head;
        if (v === undefined) {
          for (let i = 0; i < count; i++) ops.writeNull(buf, dv, base + i * size);
          c.rootSpans?.add(base, base + count * size, f.idPath, "framing");
          return true;
        }
        if (!Array.isArray(v)) return fail("must be an array", f.keyPath);
        if (v.length !== count) return fail(`needs exactly ${count} elements, got ${v.length}`, f.keyPath);
        let allNull = true;
        for (let i = 0; i < count; i++) {
          const p = base + i * size;
          try {
            ops.write(buf, dv, p, v[i]);
          } catch (e) {
            elementError(e, f.keyPath, i);
          }
          if (allNull && !ops.isNull(buf, dv, p)) allNull = false;
        }
        c.rootSpans?.add(base, base + count * size, f.idPath, "value");
        return allNull;
      };
    }
    case "repeat":
      return compileRepeat(n);
    case "var": {
      const { of, maxLength } = n;
      return (c, v, f) => {
        if (v === undefined) {
          const w = c.vw;
          w.ensure(VAR_LENGTH_BYTES);
          w.dv.setUint16(w.pos, 0, true);
          c.varSpans?.add(w.pos, w.pos + VAR_LENGTH_BYTES, f.idPath, "length");
          w.pos += VAR_LENGTH_BYTES;
          return true;
        }
        return writeVar(c.vw, c.varSpans, v, of, maxLength, f, -1) === 0;
      };
    }
    case "group": {
      const members = n.fields.map(compileField);
      const own = n.og;
      return (c, v, f) => {
        if (v !== undefined && (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof Uint8Array))
          return fail("must be an object", f.keyPath);
        if (own >= 0 && v !== undefined) c.present[own] = 1;
        for (const m of members) m(c, v as TypedRecord | undefined);
        // a group's emptiness is settled from the marks once the whole record is written
        return false;
      };
    }
  }
}

function compileRepeat(n: Extract<SbeNode, { kind: "repeat" }>): NodeEnc {
  const { elem, fixedCount, maxCount } = n;
  const isVar = elem.kind === "var";
  const ops = isVar ? undefined : scalarOps(elem as SbeScalar);
  const entryBytes = ops ? ops.size : 0;
  return (c, v, f) => {
    const w = c.groups;
    const sp = c.groupSpans;
    let count = 0;
    if (v !== undefined) {
      if (!Array.isArray(v)) return fail("must be an array", f.keyPath);
      count = v.length;
      if (fixedCount ? count !== maxCount : count > maxCount)
        fail(
          fixedCount
            ? `needs exactly ${maxCount} elements, got ${count}`
            : `holds at most ${maxCount} elements, got ${count}`,
          f.keyPath,
        );
    }
    w.ensure(GROUP_HEADER_BYTES);
    w.dv.setUint16(w.pos, entryBytes, true);
    w.dv.setUint16(w.pos + 2, count, true);
    sp?.add(w.pos, w.pos + 2, f.idPath, "framing");
    sp?.add(w.pos + 2, w.pos + 4, f.idPath, "length");
    w.pos += GROUP_HEADER_BYTES;
    const items = v as unknown[];
    for (let i = 0; i < count; i++) {
      if (isVar) {
        writeVar(w, sp, items[i], elem.of, elem.maxLength, f, i);
        continue;
      }
      // room for a char array's UTF-8 before its length is checked
      w.ensure(3 * entryBytes);
      try {
        ops!.write(w.buf, w.dv, w.pos, items[i]);
      } catch (e) {
        elementError(e, f.keyPath, i);
      }
      if (sp && elem.kind === "chars") charsSpans(sp, w.buf, w.pos, entryBytes, f.idPath);
      else sp?.add(w.pos, w.pos + entryBytes, f.idPath, "value");
      w.pos += entryBytes;
    }
    return count === 0;
  };
}

type FieldEnc = (c: Ctx, rec: TypedRecord | undefined) => void;

function compileField(f: SbeField): FieldEnc {
  const enc = compileNode(f.node);
  const { key, optional, og, keyPath } = f;
  const isGroup = f.node.kind === "group";
  return (c, rec) => {
    const v = rec === undefined ? undefined : rec[key];
    if (v === undefined && rec !== undefined && !optional) fail("is required", keyPath);
    const wroteNull = enc(c, v, f);
    if (v === undefined || isGroup) return;
    if (wroteNull) {
      if (optional) fail("equals the SBE null value, which reads back as absent", keyPath);
    } else if (og >= 0) c.marks[og] = 1;
  };
}

export interface SbeEncoder {
  encode(rec: TypedRecord): Uint8Array;
  encodeWithSpans(rec: TypedRecord): EncodedWithSpans;
}

export function sbeEncoder(plan: SbePlan): SbeEncoder {
  const fields = plan.fields.map(compileField);
  const rootEnd = HEADER_BYTES + plan.blockLength;
  const ogCount = plan.ogParent.length;
  const head = new ByteWriter(rootEnd + 256);
  // char arrays write their UTF-8 before the length check: slack past the root block
  head.ensure(rootEnd * 3);
  const groups = new ByteWriter(plan.hasRepeats ? 256 : 16);
  const ctx: Ctx = {
    head,
    groups,
    vw: plan.hasRepeats ? new ByteWriter(256) : head,
    rootSpans: null,
    groupSpans: null,
    varSpans: null,
    marks: new Uint8Array(ogCount),
    present: new Uint8Array(ogCount),
  };

  function run(rec: TypedRecord): Uint8Array {
    if (typeof rec !== "object" || rec === null) throw new EncodeError("a record must be an object", FORMAT);
    const c = ctx;
    const dv = c.head.dv;
    dv.setUint16(0, plan.blockLength, true);
    dv.setUint16(2, plan.templateId, true);
    dv.setUint16(4, plan.schemaId, true);
    dv.setUint16(6, plan.version, true);
    c.rootSpans?.add(0, HEADER_BYTES, "", "framing");
    c.head.pos = rootEnd;
    c.groups.pos = 0;
    c.vw.pos = c.vw === c.head ? rootEnd : 0;
    if (ogCount) {
      c.marks.fill(0);
      c.present.fill(0);
    }
    for (const f of fields) f(c, rec);
    if (ogCount) checkGroups(plan, c.marks, c.present);
    const headLen = c.head.pos;
    // slice() allocates and copies in one step; a subarray() view per part would cost as much again
    if (c.vw === c.head) return c.head.buf.slice(0, headLen);
    // slice() needs the room, even though the bytes past the head are overwritten
    c.head.ensure(c.groups.pos + c.vw.pos);
    const out = c.head.buf.slice(0, headLen + c.groups.pos + c.vw.pos);
    copyInto(out, headLen, c.groups);
    copyInto(out, headLen + c.groups.pos, c.vw);
    return out;
  }

  return {
    encode: run,
    encodeWithSpans(rec) {
      const rootSpans = new SpanList();
      const groupSpans = new SpanList();
      const varSpans = new SpanList();
      Object.assign(ctx, { rootSpans, groupSpans, varSpans });
      try {
        const bytes = run(rec);
        const separate = ctx.vw !== ctx.head;
        // root-block spans were added in offset order; var data in head sits after the root block
        const spans = new SpanList();
        for (const s of rootSpans.spans) if (s.start < rootEnd) spans.add(s.start, s.end, s.field, s.role);
        spans.append(groupSpans, ctx.head.pos);
        spans.append(varSpans, separate ? ctx.head.pos + ctx.groups.pos : 0);
        return { bytes, spans: spans.spans };
      } finally {
        Object.assign(ctx, { rootSpans: null, groupSpans: null, varSpans: null });
      }
    },
  };
}

function copyInto(out: Uint8Array, at: number, w: ByteWriter): void {
  const src = w.buf;
  for (let i = 0; i < w.pos; i++) out[at + i] = src[i]!;
}

/** An optional group that is present must differ from its all-null form, or it would read back absent. */
function checkGroups(plan: SbePlan, marks: Uint8Array, present: Uint8Array): void {
  for (let g = marks.length - 1; g >= 0; g--) {
    const parent = plan.ogParent[g]!;
    if (marks[g] && parent >= 0) marks[parent] = 1;
  }
  for (let g = 0; g < marks.length; g++) {
    if (present[g] && !marks[g])
      fail("every member is absent or null, which reads back as an absent group", plan.ogFields[g]!.keyPath);
  }
}

/**
 * Size-only: header and root block are fixed, and each field adds its repeating-group entries and
 * var data, which its own compiled writer produces; an optional group's emptiness check only looks
 * at its own members, so it runs per field as encode() runs it per record.
 */
export function sbeSizer(plan: SbePlan): FieldSizer {
  const fields = plan.fields.map(compileField);
  const rootEnd = HEADER_BYTES + plan.blockLength;
  const ogCount = plan.ogParent.length;
  const head = new ByteWriter(rootEnd + 256);
  head.ensure(rootEnd * 3);
  const ctx: Ctx = {
    head,
    groups: new ByteWriter(plan.hasRepeats ? 256 : 16),
    vw: plan.hasRepeats ? new ByteWriter(256) : head,
    rootSpans: null,
    groupSpans: null,
    varSpans: null,
    marks: new Uint8Array(ogCount),
    present: new Uint8Array(ogCount),
  };
  const separate = ctx.vw !== head;
  return {
    keys: plan.fields.map((f) => f.key),
    field(rec, i) {
      const c = ctx;
      c.head.pos = rootEnd;
      c.groups.pos = 0;
      if (separate) c.vw.pos = 0;
      if (ogCount) {
        c.marks.fill(0);
        c.present.fill(0);
      }
      fields[i]!(c, rec);
      if (ogCount) checkGroups(plan, c.marks, c.present);
      return c.head.pos - rootEnd + c.groups.pos + (separate ? c.vw.pos : 0);
    },
    total: (sum) => rootEnd + sum,
  };
}
