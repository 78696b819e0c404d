// The readings of one message written as SenML (RFC 8428), the IETF's own way to batch sensor readings:
// a pack of records, the first carrying the base name and base time, each record a name, a time
// relative to the base and a value. The yardstick the delta form is measured against in bench:batch.
import type { Field, TypedRecord } from "#codecs";

/** RFC 8428 §6, Table 4: the CBOR labels of the SenML fields used here */
const LABEL = { bn: -2, bt: -3, n: 0, v: 2, vs: 3, vb: 4, t: 6, vd: 8 } as const;
type SenmlKey = keyof typeof LABEL;
export type SenmlRecord = Partial<Record<SenmlKey, number | string | boolean | Uint8Array>>;

/**
 * One record per value: the per-reading fields of every reading (the time field becomes each
 * record's t, relative to the first reading's time, sent once as bt), then the once-fields at the
 * base time. Groups and arrays are flattened to names such as "gps.lat" and "acc.0".
 */
export function senmlPack(
  batch: { once: TypedRecord; readings: readonly TypedRecord[] },
  fields: { once: readonly Field[]; perReading: readonly Field[] },
  opts: { baseName: string; timeKey?: string | undefined; intervalSeconds: number },
): SenmlRecord[] {
  const time = (r: TypedRecord, i: number): number => {
    const t = opts.timeKey === undefined ? undefined : r[opts.timeKey];
    return typeof t === "number" ? t : i * opts.intervalSeconds;
  };
  const bt = batch.readings.length > 0 ? time(batch.readings[0]!, 0) : 0;
  const pack: SenmlRecord[] = [];
  batch.readings.forEach((r, i) => {
    const t = time(r, i) - bt;
    for (const f of fields.perReading)
      if (f.key !== opts.timeKey)
        leaves(f, r[f.key], f.key, (n, v) => pack.push({ n, ...value(v), ...(t ? { t } : {}) }));
  });
  for (const f of fields.once) leaves(f, batch.once[f.key], f.key, (n, v) => pack.push({ n, ...value(v) }));
  if (pack.length === 0) pack.push({});
  pack[0] = { bn: opts.baseName, bt, ...pack[0] };
  return pack;
}

function leaves(f: Field, v: unknown, name: string, out: (n: string, v: unknown) => void): void {
  if (v === undefined) return;
  if (f.type.kind === "group") {
    for (const g of f.type.fields) leaves(g, (v as TypedRecord)[g.key], `${name}.${g.key}`, out);
    return;
  }
  if (f.type.kind === "array") {
    (v as unknown[]).forEach((x, i) => out(`${name}.${i}`, x));
    return;
  }
  out(name, v);
}

function value(v: unknown): SenmlRecord {
  if (typeof v === "number") return { v };
  if (typeof v === "bigint") return { v: Number(v) };
  if (typeof v === "boolean") return { vb: v };
  if (v instanceof Uint8Array) return { vd: v };
  return { vs: String(v) };
}

/**
 * The pack in SenML's CBOR representation (RFC 8428 §6): an array of maps with integer labels; with
 * `labels: "json"`, the SenML JSON's own text labels ("bn", "v" …) written in CBOR instead.
 */
export function senmlCbor(pack: readonly SenmlRecord[], labels: "rfc8428" | "json" = "rfc8428"): Uint8Array {
  const out: number[] = [];
  head(out, 4, pack.length);
  for (const r of pack) {
    const entries = Object.entries(r);
    head(out, 5, entries.length);
    for (const [k, v] of entries) {
      item(out, labels === "json" ? k : LABEL[k as SenmlKey]);
      item(out, v);
    }
  }
  return Uint8Array.from(out);
}

/** The pack as SenML JSON (RFC 8428 §5), UTF-8, no spaces. */
export function senmlJson(pack: readonly SenmlRecord[]): Uint8Array {
  return new TextEncoder().encode(
    JSON.stringify(pack, (_k, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString("base64url") : v)),
  );
}

// A small CBOR writer rather than cbor-x: SenML gets RFC 8949 §4.2.2 preferred serialization, every
// float in the shortest of half, single and double that holds it exactly (cbor-x has no half floats),
// so the yardstick is as small as a careful SenML encoder makes it.

function head(out: number[], major: number, n: number): void {
  const m = major << 5;
  if (n < 24) out.push(m | n);
  else if (n < 0x100) out.push(m | 24, n);
  else if (n < 0x10000) out.push(m | 25, n >> 8, n & 0xff);
  else if (n < 0x1_0000_0000) out.push(m | 26, ...bigEndian(n, 4));
  else out.push(m | 27, ...bigEndian(n, 8));
}

function bigEndian(n: number, bytes: number): number[] {
  const b: number[] = [];
  let x = BigInt(n);
  for (let i = 0; i < bytes; i++, x >>= 8n) b.unshift(Number(x & 0xffn));
  return b;
}

function item(out: number[], v: unknown): void {
  if (typeof v === "boolean") out.push(v ? 0xf5 : 0xf4);
  else if (typeof v === "string") {
    const b = new TextEncoder().encode(v);
    head(out, 3, b.length);
    out.push(...b);
  } else if (v instanceof Uint8Array) {
    head(out, 2, v.length);
    out.push(...v);
  } else if (typeof v === "number" && Number.isSafeInteger(v)) {
    if (v >= 0) head(out, 0, v);
    else head(out, 1, -1 - v);
  } else if (typeof v === "number") float(out, v);
  else throw new Error(`SenML value of an unexpected kind: ${typeof v}`);
}

const view = new DataView(new ArrayBuffer(8));

function float(out: number[], v: number): void {
  const half = toHalf(v);
  if (half !== undefined) {
    out.push(0xf9, half >> 8, half & 0xff);
    return;
  }
  view.setFloat32(0, v);
  if (view.getFloat32(0) === v || Number.isNaN(v)) {
    out.push(0xfa, ...new Uint8Array(view.buffer, 0, 4));
    return;
  }
  view.setFloat64(0, v);
  out.push(0xfb, ...new Uint8Array(view.buffer, 0, 8));
}

/** the IEEE 754 half-precision bits of v when a half holds it exactly (normal numbers and ±∞) */
function toHalf(v: number): number | undefined {
  if (v === Number.POSITIVE_INFINITY) return 0x7c00;
  if (v === Number.NEGATIVE_INFINITY) return 0xfc00;
  if (!Number.isFinite(v) || v === 0) return undefined;
  const sign = v < 0 ? 0x8000 : 0;
  const a = Math.abs(v);
  const e = Math.floor(Math.log2(a));
  if (e < -14 || e > 15) return undefined;
  const mantissa = a / 2 ** e - 1; // in [0, 1)
  const m = mantissa * 1024;
  if (!Number.isInteger(m) || m >= 1024) return undefined;
  return sign | ((e + 15) << 10) | m;
}
