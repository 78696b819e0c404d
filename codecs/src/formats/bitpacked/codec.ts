// Bit-packed (DCCL-style): every field quantised to its range and precision and packed MSB-first; see docs/design/bitpacked-mapping.md.
import { layoutSpecs, type FieldSpec } from "./plan.ts";
import { BitReader } from "./reader.ts";
import { scalarOps, ValueProblem } from "./scalars.ts";
import { BitWriter, type BitSpan } from "./writer.ts";
import { DecodeError, EncodeError } from "../../errors.ts";
import type { Layout } from "../../layout/schema.ts";
import type { FieldValue, TypedRecord } from "../../layout/values.ts";
import type { FieldSizer } from "../sizer.ts";
import type { Codec, CompiledCodec, EncodedWithSpans, FormatInfo, Span } from "../types.ts";

export { bitpackedPlan, type BitpackedFieldPlan, type BitpackedPlan } from "./plan.ts";
export type { BitSpan } from "./writer.ts";

const FORMAT = "bitpacked";

const info: FormatInfo = {
  id: "bitpacked",
  label: "Bit-packed",
  short: "Bit-packed",
  exports: { networkDecoder: true, kaitai: true, firmware: true },
  selfDescribing: false,
  compressed: false,
  lossy: true,
  implementation: "SatPayload bit packer (DCCL-style quantisation, MSB-first, zero-padded to a byte)",
};

interface FieldOps {
  write(w: BitWriter, rec: TypedRecord): void;
  read(r: BitReader, out: TypedRecord): void;
}

const isRecord = (v: unknown): v is TypedRecord =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

function compileField(spec: FieldSpec): FieldOps {
  const { path, keyPath, optional, node } = spec;
  const key = spec.field.key;
  let writeValue: (w: BitWriter, v: FieldValue) => void;
  let readValue: (r: BitReader) => FieldValue;
  if (node.k === "scalar") {
    const ops = scalarOps(node.s);
    writeValue = (w, v) => {
      try {
        ops.write(w, v, path);
      } catch (e) {
        if (e instanceof ValueProblem) throw new EncodeError(e.message, FORMAT, keyPath);
        throw e;
      }
    };
    readValue = (r) => ops.read(r, keyPath);
  } else if (node.k === "array") {
    const ops = scalarOps(node.s);
    const { maxCount, fixed, countBits } = node;
    writeValue = (w, v) => {
      if (!Array.isArray(v)) throw new EncodeError("expected an array", FORMAT, keyPath);
      const n = v.length;
      if (fixed ? n !== maxCount : n > maxCount)
        throw new EncodeError(
          fixed ? `needs exactly ${maxCount} elements, got ${n}` : `holds at most ${maxCount} elements, got ${n}`,
          FORMAT,
          keyPath,
        );
      w.owner(path, "length");
      w.write(n, countBits);
      for (let i = 0; i < n; i++) {
        try {
          ops.write(w, v[i], path);
        } catch (e) {
          if (e instanceof ValueProblem) throw new EncodeError(e.message, FORMAT, `${keyPath}[${i}]`);
          throw e;
        }
      }
    };
    readValue = (r) => {
      const n = fixed ? maxCount : r.read(countBits);
      if (n > maxCount) r.fail(`${keyPath}: ${n} elements, more than maxCount ${maxCount}`);
      const out = new Array(n);
      for (let i = 0; i < n; i++) out[i] = ops.read(r, keyPath);
      return out;
    };
  } else {
    const children = node.fields.map(compileField);
    writeValue = (w, v) => {
      if (!isRecord(v)) throw new EncodeError("expected an object", FORMAT, keyPath);
      for (const c of children) c.write(w, v);
    };
    readValue = (r) => {
      const out: TypedRecord = {};
      for (const c of children) c.read(r, out);
      return out;
    };
  }
  return {
    write(w, rec) {
      const v = rec[key];
      if (optional) {
        w.owner(path, "framing");
        w.write(v === undefined ? 0 : 1, 1);
        if (v === undefined) return;
      } else if (v === undefined) throw new EncodeError("is required", FORMAT, keyPath);
      writeValue(w, v);
    },
    read(r, out) {
      if (optional && r.read(1) === 0) return;
      out[key] = readValue(r);
    },
  };
}

/**
 * Byte-level spans for the hex view: a byte shared by several fields belongs to the one that owns
 * most of its bits (the earlier on a tie); padding only counts when nothing else is in the byte.
 */
export function byteSpansFromBits(bits: readonly BitSpan[], dataBits: number, byteCount: number): Span[] {
  const out: Span[] = [];
  let j = 0;
  for (let b = 0; b < byteCount; b++) {
    const lo = b * 8;
    const hi = Math.min(lo + 8, dataBits);
    while (j < bits.length - 1 && bits[j]!.end <= lo) j++;
    let best = bits[j]!;
    let bestBits = 0;
    for (let k = j; k < bits.length && bits[k]!.start < hi; k++) {
      const s = bits[k]!;
      const ov = Math.min(hi, s.end) - Math.max(lo, s.start);
      if (ov > bestBits) {
        best = s;
        bestBits = ov;
      }
    }
    const last = out[out.length - 1];
    if (last && last.field === best.field && last.role === best.role) last.end = b + 1;
    else out.push({ start: b, end: b + 1, field: best.field, role: best.role });
  }
  return out;
}

export interface BitEncoded extends EncodedWithSpans {
  /** which field owns every bit, padding included */
  bits: BitSpan[];
  /** bits before the zero padding */
  dataBits: number;
}

export class BitpackedCompiled implements CompiledCodec {
  readonly info = info;
  private readonly fields: FieldOps[];
  private readonly writer = new BitWriter();
  private readonly reader = new BitReader(FORMAT);

  /** size-only, in bits: fields are packed back to back with no alignment, the message is padded to whole bytes */
  readonly sizer: FieldSizer;

  constructor(readonly layout: Layout) {
    const specs = layoutSpecs(layout);
    this.fields = specs.map(compileField);
    const fields = this.fields;
    const scratch = new BitWriter();
    this.sizer = {
      keys: specs.map((s) => s.field.key),
      field(rec, i) {
        scratch.reset(false);
        fields[i]!.write(scratch, rec);
        return scratch.length;
      },
      total: (bits) => Math.ceil(bits / 8),
    };
  }

  private run(record: TypedRecord, track: boolean): Uint8Array {
    if (!isRecord(record)) throw new EncodeError("expected a record object", FORMAT);
    const w = this.writer;
    w.reset(track);
    for (const f of this.fields) f.write(w, record);
    return w.finish();
  }

  encode(record: TypedRecord): Uint8Array {
    return this.run(record, false);
  }

  encodeWithBitSpans(record: TypedRecord): BitEncoded {
    const bytes = this.run(record, true);
    const dataBits = this.writer.length;
    // reset() starts a fresh list, so the caller may keep this one
    const bits = this.writer.bitSpans();
    return { bytes, spans: byteSpansFromBits(bits, dataBits, bytes.length), bits, dataBits };
  }

  encodeWithSpans(record: TypedRecord): EncodedWithSpans {
    const { bytes, spans } = this.encodeWithBitSpans(record);
    return { bytes, spans };
  }

  decode(bytes: Uint8Array): TypedRecord {
    if (!(bytes instanceof Uint8Array)) throw new DecodeError("expected bytes", FORMAT);
    const r = this.reader;
    r.reset(bytes);
    try {
      const out: TypedRecord = {};
      for (const f of this.fields) f.read(r, out);
      r.finish();
      return out;
    } finally {
      r.reset(EMPTY);
    }
  }
}

const EMPTY = new Uint8Array(0);

export const bitpackedCodec: Codec = {
  info,
  compile: (layout) => new BitpackedCompiled(layout),
};
