// PSON (Thinger.io; seed 001, Sensors 2021, §3 and Table 1): every value starts with one header
// byte, the wire type in the 3 high bits and a 5-bit payload below. Payload 0–30 carries a small
// unsigned value, length or count inline; 31 says an unsigned LEB128 varint follows with it.
//
// Inferences, because the seed shows only the header layout and one example:
// - signed (001) holds the magnitude of a negative number: the 5-bit payload has no room for a
//   sign, the type is the sign, and Protoson's earlier wire format also stored negatives as the
//   magnitude under a separate "signed" type. Non-negative numbers are always unsigned (000).
// - floats follow their header in little-endian order: Protoson writes a float's memory as it is
//   (its fixed32/fixed64 writers copy the value's bytes), and its targets (ESP32, AVR, ARM
//   Cortex-M) are little-endian.
// - Table 1 says bytes switch to a varint at "greater than or equal to 0x1E" while every other
//   type says "greater than 0x1E"; the text's general rule (31 flags a varint for anything that
//   does not fit, i.e. above 30) is used for all types.
import { DecodeError } from "../../errors.ts";
import type { PlainRecord, PlainValue } from "../../layout/values.ts";
import { invalidUtf8At, utf8Text } from "../../text/utf8.ts";
import type { ByteWriter } from "../selfdescribing/byteWriter.ts";

export const PSON_UNSIGNED = 0;
export const PSON_SIGNED = 1;
export const PSON_FLOAT = 2;
export const PSON_DISCRETE = 3;
export const PSON_STRING = 4;
export const PSON_BYTES = 5;
export const PSON_MAP = 6;
export const PSON_ARRAY = 7;

export const PSON_FALSE = 0x60;
export const PSON_TRUE = 0x61;
export const PSON_NULL = 0x62;
export const PSON_FLOAT32 = 0x40;
export const PSON_FLOAT64 = 0x41;

const INLINE_MAX = 30;
const VARINT_FLAG = 31;
const U64_MAX = (1n << 64n) - 1n;

export function writeHeader(out: ByteWriter, type: number, n: number | bigint): void {
  if (n <= INLINE_MAX) {
    out.byte((type << 5) | Number(n));
    return;
  }
  out.byte((type << 5) | VARINT_FLAG);
  if (typeof n === "number" && n <= Number.MAX_SAFE_INTEGER) {
    while (n >= 128) {
      out.byte((n % 128) | 0x80);
      n = Math.floor(n / 128);
    }
    out.byte(n);
    return;
  }
  let big = BigInt(n);
  if (big > U64_MAX) throw new RangeError("integer beyond 64 bits");
  while (big >= 128n) {
    out.byte(Number(big & 127n) | 0x80);
    big >>= 7n;
  }
  out.byte(Number(big));
}

const FORMAT = "pson";
const MAX_DEPTH = 64;
const hasOwn = Object.prototype.hasOwnProperty;

function fail(message: string, offset: number): never {
  throw new DecodeError(message, FORMAT, offset);
}

class Reader {
  i = 0;
  private readonly view: DataView;
  constructor(readonly b: Uint8Array) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }

  /** The header's value: inline, or the varint after it (minimal form only, at most 64 bits). */
  private size(payload: number, at: number): number | bigint {
    if (payload !== VARINT_FLAG) return payload;
    const b = this.b;
    let n = 0;
    let big: bigint | undefined;
    let shift = 0;
    for (;;) {
      if (this.i >= b.length) fail("truncated varint", at);
      const byte = b[this.i++]!;
      const low = byte & 0x7f;
      if (big === undefined && shift <= 42) n += low * 2 ** shift;
      else {
        big ??= BigInt(n);
        big += BigInt(low) << BigInt(shift);
      }
      shift += 7;
      if (byte < 0x80) {
        if (byte === 0 && shift > 7) fail("varint is not in its shortest form", at);
        break;
      }
      if (shift >= 70) fail("varint longer than 64 bits", at);
    }
    if (big !== undefined) {
      if (big > U64_MAX) fail("varint longer than 64 bits", at);
      if (big > BigInt(Number.MAX_SAFE_INTEGER)) return big;
      n = Number(big);
    }
    // the reference writer puts 0–30 in the header; a varint for them is not its output
    if (n <= INLINE_MAX) fail("small value written as a varint", at);
    return n;
  }

  /** A size that counts bytes or items: bounded by what is left, so nothing huge is allocated. */
  private count(payload: number, at: number, perItem: number, what: string): number {
    const n = this.size(payload, at);
    if (typeof n === "bigint" || n * perItem > this.b.length - this.i) fail(`${what} runs past the end`, at);
    return n;
  }

  value(depth: number): PlainValue {
    const b = this.b;
    const at = this.i;
    if (at >= b.length) fail("unexpected end of input", at);
    const h = b[this.i++]!;
    const type = h >> 5;
    const payload = h & 31;
    switch (type) {
      case PSON_UNSIGNED:
        return this.size(payload, at);
      case PSON_SIGNED: {
        const m = this.size(payload, at);
        if (m === 0) fail("signed zero", at);
        return -m;
      }
      case PSON_FLOAT: {
        const width = payload === 0 ? 4 : payload === 1 ? 8 : fail("unknown float width", at);
        if (this.i + width > b.length) fail("truncated float", at);
        const x = width === 4 ? this.view.getFloat32(this.i, true) : this.view.getFloat64(this.i, true);
        this.i += width;
        return x;
      }
      case PSON_DISCRETE:
        if (payload === 0) return false;
        if (payload === 1) return true;
        if (payload === 2) return null;
        return fail("unknown discrete value", at);
      case PSON_STRING:
        return this.text(this.count(payload, at, 1, "string"));
      case PSON_BYTES: {
        const n = this.count(payload, at, 1, "bytes");
        const out = b.slice(this.i, this.i + n);
        this.i += n;
        return out;
      }
      case PSON_MAP: {
        if (depth >= MAX_DEPTH) fail("nesting too deep", at);
        const n = this.count(payload, at, 2, "map");
        const out: PlainRecord = {};
        for (let k = 0; k < n; k++) {
          const keyAt = this.i;
          const kh = b[keyAt];
          if (kh === undefined) fail("unexpected end of input", keyAt);
          if (kh >> 5 !== PSON_STRING) fail("map key is not a string", keyAt);
          this.i++;
          const key = this.text(this.count(kh & 31, keyAt, 1, "string"));
          if (hasOwn.call(out, key)) fail(`duplicate key "${key}"`, keyAt);
          const v = this.value(depth + 1);
          if (key === "__proto__")
            Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
          else out[key] = v;
        }
        return out;
      }
      default: {
        if (depth >= MAX_DEPTH) fail("nesting too deep", at);
        const n = this.count(payload, at, 1, "array");
        const out: PlainValue[] = new Array(n);
        for (let k = 0; k < n; k++) out[k] = this.value(depth + 1);
        return out;
      }
    }
  }

  private text(n: number): string {
    const bad = invalidUtf8At(this.b, this.i, this.i + n);
    if (bad >= 0) fail("invalid UTF-8", bad);
    const s = utf8Text(this.b, this.i, this.i + n);
    this.i += n;
    return s;
  }
}

/** Reads exactly one PSON value; anything after it is an error. */
export function readPson(bytes: Uint8Array): PlainValue {
  const r = new Reader(bytes);
  const v = r.value(0);
  if (r.i !== bytes.length) fail("trailing bytes after the value", r.i);
  return v;
}
