// A growable output buffer reused across encodes, so the per-keystroke re-encode of every sample
// does not allocate a fresh buffer per piece; only the final copy leaves the writer.

const MIN_CAPACITY = 1024;

export class ByteWriter {
  buf = new Uint8Array(MIN_CAPACITY);
  view = new DataView(this.buf.buffer);
  pos = 0;

  reset(): void {
    this.pos = 0;
  }

  ensure(extra: number): void {
    const need = this.pos + extra;
    if (need <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /** Big-endian IEEE 754 single: the byte order CBOR and MessagePack mandate. */
  float32BE(x: number): void {
    this.ensure(4);
    this.view.setFloat32(this.pos, x);
    this.pos += 4;
  }

  float64BE(x: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, x);
    this.pos += 8;
  }

  /** Little-endian IEEE 754, for formats that copy a microcontroller's float from memory (PSON). */
  float32LE(x: number): void {
    this.ensure(4);
    this.view.setFloat32(this.pos, x, true);
    this.pos += 4;
  }

  float64LE(x: number): void {
    this.ensure(8);
    this.view.setFloat64(this.pos, x, true);
    this.pos += 8;
  }

  /**
   * Appends `s` as UTF-8. Returns false (writing nothing usable) when `s` holds a lone surrogate,
   * which has no UTF-8 form; callers turn that into an EncodeError.
   */
  utf8(s: string): boolean {
    const n = s.length;
    this.ensure(n * 3);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) buf[p++] = c;
      else if (c < 0x800) {
        buf[p++] = 0xc0 | (c >> 6);
        buf[p++] = 0x80 | (c & 0x3f);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
        if (c > 0xdbff || d < 0xdc00 || d > 0xdfff) return false;
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        buf[p++] = 0xf0 | (c >> 18);
        buf[p++] = 0x80 | ((c >> 12) & 0x3f);
        buf[p++] = 0x80 | ((c >> 6) & 0x3f);
        buf[p++] = 0x80 | (c & 0x3f);
      } else {
        buf[p++] = 0xe0 | (c >> 12);
        buf[p++] = 0x80 | ((c >> 6) & 0x3f);
        buf[p++] = 0x80 | (c & 0x3f);
      }
    }
    this.pos = p;
    return true;
  }

  /** Text known to be ASCII (numbers, tokens, escapes). */
  ascii(s: string): void {
    const n = s.length;
    this.ensure(n);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) buf[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** A copy of what was written: the caller owns it, the writer's buffer is reused. */
  take(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}
