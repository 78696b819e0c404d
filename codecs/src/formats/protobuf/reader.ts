// Bounds-checked wire reading for the compiled decoder: every failure is a DecodeError with the offset.
import { DecodeError } from "../../errors.ts";
import { strictUtf8Decoder } from "../../text/utf8.ts";

const TWO32 = 4294967296;
const FORMAT = "protobuf";
const utf8 = strictUtf8Decoder;

// Floats are assembled in a scratch buffer rather than through a DataView per decode (one less
// allocation per message); the wire is little-endian, so big-endian hosts fill it in reverse.
const F64 = new Float64Array(1);
const F32 = new Float32Array(F64.buffer, 0, 1);
const SCRATCH = new Uint8Array(F64.buffer);
const LITTLE = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

export class Reader {
  buf: Uint8Array = new Uint8Array(0);
  pos = 0;
  /** end of the message being read (nested messages narrow it) */
  end = 0;
  /** the last varint, as uint32 halves */
  lo = 0;
  hi = 0;

  reset(bytes: Uint8Array): void {
    this.buf = bytes;
    this.pos = 0;
    this.end = bytes.length;
  }

  fail(message: string, at = this.pos): never {
    throw new DecodeError(message, FORMAT, at);
  }

  /** Reads a varint of up to ten bytes into lo/hi and returns lo. */
  varint(): number {
    const buf = this.buf;
    const end = this.end;
    let p = this.pos;
    if (p >= end) this.fail("truncated varint");
    let b = buf[p++]!;
    if (b < 128) {
      this.pos = p;
      this.lo = b;
      this.hi = 0;
      return b;
    }
    let lo = b & 127;
    for (let shift = 7; shift < 28; shift += 7) {
      if (p >= end) this.fail("truncated varint");
      b = buf[p++]!;
      lo |= (b & 127) << shift;
      if (b < 128) {
        this.pos = p;
        this.lo = lo >>> 0;
        this.hi = 0;
        return this.lo;
      }
    }
    if (p >= end) this.fail("truncated varint");
    b = buf[p++]!;
    lo = (lo | ((b & 15) << 28)) >>> 0;
    let hi = (b & 127) >> 4;
    if (b >= 128) {
      for (let shift = 3; ; shift += 7) {
        if (shift > 31) this.fail("varint longer than ten bytes", this.pos);
        if (p >= end) this.fail("truncated varint");
        b = buf[p++]!;
        hi |= (b & 127) << shift;
        if (b < 128) break;
      }
    }
    this.pos = p;
    this.lo = lo;
    this.hi = hi >>> 0;
    return lo;
  }

  /** the last varint as an unsigned safe integer, or undefined beyond 2^53 */
  unsignedNumber(): number | undefined {
    return this.hi < 0x200000 ? this.hi * TWO32 + this.lo : undefined;
  }

  /** the last varint (or fixed64) as a signed safe integer, or undefined outside ±2^53 */
  signedNumber(): number | undefined {
    const hi = this.hi | 0;
    const v = hi * TWO32 + this.lo;
    return hi >= -0x200000 && hi < 0x200000 ? v : undefined;
  }

  /** zigzag-decodes lo/hi in place */
  unzigzag(): void {
    const sign = -(this.lo & 1);
    this.lo = (((this.lo >>> 1) | (this.hi << 31)) ^ sign) >>> 0;
    this.hi = ((this.hi >>> 1) ^ sign) >>> 0;
  }

  bigUnsigned(): bigint {
    return (BigInt(this.hi) << 32n) | BigInt(this.lo);
  }

  private u32(p: number): number {
    const b = this.buf;
    return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
  }

  /** Sets lo/hi from 8 little-endian bytes. */
  fixed64(): void {
    this.need(8);
    this.lo = this.u32(this.pos);
    this.hi = this.u32(this.pos + 4);
    this.pos += 8;
  }

  fixed32(): number {
    this.need(4);
    const v = this.u32(this.pos);
    this.pos += 4;
    return v;
  }

  float(): number {
    this.need(4);
    this.scratch(4);
    return F32[0]!;
  }

  double(): number {
    this.need(8);
    this.scratch(8);
    return F64[0]!;
  }

  private scratch(n: number): void {
    const b = this.buf;
    const p = this.pos;
    if (LITTLE) for (let i = 0; i < n; i++) SCRATCH[i] = b[p + i]!;
    else for (let i = 0; i < n; i++) SCRATCH[n - 1 - i] = b[p + i]!;
    this.pos = p + n;
  }

  need(n: number): void {
    if (this.end - this.pos < n) this.fail(`truncated: ${n} bytes needed, ${this.end - this.pos} left`);
  }

  /** Reads a length prefix and checks the bytes are there; returns the length. */
  length(): number {
    const at = this.pos;
    const n = this.varint();
    if (this.hi !== 0 || n > this.end - this.pos)
      this.fail(`length ${this.hi ? "≥ 2^32" : n} runs past the end of the message`, at);
    return n;
  }

  bytes(n: number): Uint8Array {
    const out = this.buf.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /**
   * UTF-8 text of n bytes; short ASCII skips the TextDecoder call (most telemetry strings are short
   * ASCII). `allowed` is an ASCII table for charset-restricted fields, checked while reading.
   */
  string(n: number, allowed?: Uint8Array): string {
    const buf = this.buf;
    const start = this.pos;
    const stop = start + n;
    this.pos = stop;
    if (n <= 32 || allowed !== undefined) {
      let s = "";
      let i = start;
      for (; i < stop; i++) {
        const c = buf[i]!;
        if (c >= 128) break;
        if (allowed !== undefined && allowed[c] === 0) this.fail("character outside the field's charset", i);
        s += String.fromCharCode(c);
      }
      if (i === stop) return s;
      if (allowed !== undefined) this.fail("character outside the field's charset", i);
    }
    try {
      return utf8.decode(buf.subarray(start, stop));
    } catch {
      return this.fail("invalid UTF-8 in a string field", start);
    }
  }

  /** Skips the value of an unknown field (groups included, depth-limited). */
  skip(wireType: number, fieldNumber: number, depth = 0): void {
    switch (wireType) {
      case 0:
        this.varint();
        return;
      case 1:
        this.need(8);
        this.pos += 8;
        return;
      case 2: {
        // the length prefix moves pos, so read it before adding
        const n = this.length();
        this.pos += n;
        return;
      }
      case 5:
        this.need(4);
        this.pos += 4;
        return;
      case 3: {
        if (depth > 32) this.fail("groups nested too deeply");
        for (;;) {
          const at = this.pos;
          const tag = this.varint();
          if (this.hi !== 0) this.fail("field tag out of range", at);
          const no = tag >>> 3;
          const wt = tag & 7;
          if (no === 0) this.fail("field number 0", at);
          if (wt === 4) {
            if (no !== fieldNumber) this.fail(`end-group ${no} does not close group ${fieldNumber}`, at);
            return;
          }
          this.skip(wt, no, depth + 1);
        }
      }
      default:
        this.fail(wireType === 4 ? "end-group without a start" : `invalid wire type ${wireType}`);
    }
  }
}
