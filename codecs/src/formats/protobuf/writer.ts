// A reusable output buffer for the compiled encoder: direct writes, one copy per encode, no per-field objects.
const TWO32 = 4294967296;

/** Writer.string's answers other than a byte length */
export const NOT_IN_CHARSET = -1;
export const LONE_SURROGATE = -2;

export class Writer {
  buf: Uint8Array;
  view: DataView;
  pos = 0;

  constructor(size = 512) {
    this.buf = new Uint8Array(size);
    this.view = new DataView(this.buf.buffer);
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }

  /** 0 ≤ v < 2^32 */
  varint32(v: number): void {
    this.ensure(5);
    const buf = this.buf;
    let p = this.pos;
    while (v > 127) {
      buf[p++] = (v & 127) | 128;
      v >>>= 7;
    }
    buf[p++] = v;
    this.pos = p;
  }

  /** unsigned 64-bit value as two uint32 halves */
  varint64(lo: number, hi: number): void {
    this.ensure(10);
    const buf = this.buf;
    let p = this.pos;
    while (hi !== 0) {
      buf[p++] = (lo & 127) | 128;
      lo = ((lo >>> 7) | (hi << 25)) >>> 0;
      hi >>>= 7;
    }
    while (lo > 127) {
      buf[p++] = (lo & 127) | 128;
      lo >>>= 7;
    }
    buf[p++] = lo;
    this.pos = p;
  }

  /** int32 on the wire: negatives are sign-extended to ten bytes, as protobuf requires */
  int32(v: number): void {
    if (v >= 0) this.varint32(v);
    else this.varint64(v >>> 0, 0xffffffff);
  }

  sint32(v: number): void {
    this.varint32(((v << 1) ^ (v >> 31)) >>> 0);
  }

  /** any safe integer as a two's-complement 64-bit varint (int64 / uint64) */
  int64(v: number): void {
    const hi = Math.floor(v / TWO32);
    this.varint64(v - hi * TWO32, hi >>> 0);
  }

  sint64(v: number): void {
    const hi = Math.floor(v / TWO32) | 0;
    const lo = (v - hi * TWO32) >>> 0;
    const sign = hi >> 31;
    this.varint64(((lo << 1) ^ sign) >>> 0, (((hi << 1) | (lo >>> 31)) ^ sign) >>> 0);
  }

  bigVarint(u: bigint): void {
    this.varint64(Number(u & 0xffffffffn), Number(u >> 32n));
  }

  fixed32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.pos, v >>> 0, true);
    this.pos += 4;
  }

  fixed64(lo: number, hi: number): void {
    this.ensure(8);
    this.view.setUint32(this.pos, lo >>> 0, true);
    this.view.setUint32(this.pos + 4, hi >>> 0, true);
    this.pos += 8;
  }

  /** any safe integer as 8 little-endian two's-complement bytes */
  fixed64n(v: number): void {
    const hi = Math.floor(v / TWO32);
    this.fixed64(v - hi * TWO32, hi);
  }

  float(v: number): void {
    this.ensure(4);
    this.view.setFloat32(this.pos, v, true);
    this.pos += 4;
  }

  double(v: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  bytes(b: Uint8Array): void {
    this.varint32(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /**
   * Length-prefixed UTF-8, written in place; returns the byte length so the caller can enforce
   * maxLength, NOT_IN_CHARSET when a character is not in `allowed` (an ASCII table:
   * charset-restricted fields check while they copy), or LONE_SURROGATE for a surrogate without
   * its other half: UTF-8 cannot carry one, and writing U+FFFD instead (as TextEncoder does) would
   * change the user's text without a word, so the caller refuses it as the other formats do.
   */
  string(s: string, allowed?: Uint8Array): number {
    const n = s.length;
    this.ensure(n * 3 + 5);
    const buf = this.buf;
    const start = this.pos + 1;
    let p = start;
    for (let i = 0; i < n; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        if (allowed !== undefined && allowed[c] === 0) return NOT_IN_CHARSET;
        buf[p++] = c;
        continue;
      }
      if (allowed !== undefined) return NOT_IN_CHARSET;
      if (c < 0x800) {
        buf[p++] = 0xc0 | (c >> 6);
        buf[p++] = 0x80 | (c & 63);
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
          buf[p++] = 0xf0 | (c >> 18);
          buf[p++] = 0x80 | ((c >> 12) & 63);
          buf[p++] = 0x80 | ((c >> 6) & 63);
          buf[p++] = 0x80 | (c & 63);
          continue;
        }
        return LONE_SURROGATE;
      }
      buf[p++] = 0xe0 | (c >> 12);
      buf[p++] = 0x80 | ((c >> 6) & 63);
      buf[p++] = 0x80 | (c & 63);
    }
    const len = p - start;
    this.pos = this.closeLength(start, p);
    return len;
  }

  /** Reserves one byte for a length prefix; most payloads are < 128 bytes, so the prefix rarely moves. */
  openLength(): number {
    this.ensure(1);
    return ++this.pos;
  }

  endLength(start: number): void {
    this.pos = this.closeLength(start, this.pos);
  }

  /** Writes the varint length of buf[start, end) at start − 1, moving the content if the prefix needs more than one byte. */
  private closeLength(start: number, end: number): number {
    let len = end - start;
    if (len < 128) {
      this.buf[start - 1] = len;
      return end;
    }
    let extra = 0;
    for (let v = len >>> 7; v > 0; v >>>= 7) extra++;
    const saved = this.pos;
    this.pos = end;
    this.ensure(extra);
    this.pos = saved;
    const buf = this.buf;
    buf.copyWithin(start + extra, start, end);
    let p = start - 1;
    while (len > 127) {
      buf[p++] = (len & 127) | 128;
      len >>>= 7;
    }
    buf[p] = len;
    return end + extra;
  }
}
