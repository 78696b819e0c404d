// MSB-first bit writer: one per compiled codec, reused across encodes so the hot path allocates only the result.
import type { Span } from "../types.ts";

/** A run of bits owned by one field (or framing): [start, end) in bits. */
export interface BitSpan {
  start: number;
  end: number;
  field: string;
  role: Span["role"];
}

const TWO_32 = 4294967296;

export class BitWriter {
  private buf = new Uint8Array(256);
  /** whole bytes flushed to buf */
  private pos = 0;
  /** pending bits not yet a whole byte: the low `nacc` bits of `acc` (nacc < 8 between writes) */
  private acc = 0;
  private nacc = 0;
  private spans: BitSpan[] | undefined;

  /** bits written so far */
  get length(): number {
    return this.pos * 8 + this.nacc;
  }

  /** Starts a new message; `track` records which field owns each bit (encodeWithSpans). */
  reset(track: boolean): void {
    this.pos = 0;
    this.acc = 0;
    this.nacc = 0;
    this.spans = track ? [] : undefined;
  }

  /** Marks that the following bits belong to `field` in `role`; free when not tracking. */
  owner(field: string, role: Span["role"]): void {
    const s = this.spans;
    if (!s) return;
    const at = this.length;
    let last = s[s.length - 1];
    if (last && last.start === last.end) {
      s.pop();
      last = s[s.length - 1];
    }
    if (last && last.end === at && last.field === field && last.role === role) return;
    s.push({ start: at, end: at, field, role });
  }

  /** Writes the low `n` bits (n ≤ 32) of an unsigned value. */
  write(value: number, n: number): void {
    if (n > 24) {
      // keeps acc within 31 bits: at most 7 pending + 24 new
      this.write(Math.floor(value / 65536) & 0xffff, n - 16);
      this.write(value & 0xffff, 16);
      return;
    }
    if (this.pos + 4 > this.buf.length) this.grow();
    let acc = (this.acc << n) | (value & ((1 << n) - 1));
    let nacc = this.nacc + n;
    while (nacc >= 8) {
      nacc -= 8;
      this.buf[this.pos++] = acc >>> nacc;
    }
    this.acc = acc & ((1 << nacc) - 1);
    this.nacc = nacc;
    const s = this.spans;
    if (s && s.length) s[s.length - 1]!.end = this.pos * 8 + nacc;
  }

  /** Writes an unsigned integer of up to 53 bits (quantised steps, fixed-point raw values). */
  writeWide(value: number, n: number): void {
    if (n <= 32) return this.write(value, n);
    const hi = Math.floor(value / TWO_32);
    this.write(hi, n - 32);
    this.write(value - hi * TWO_32, 32);
  }

  /** Writes an unsigned bigint of up to 64 bits. */
  writeBig(value: bigint, n: number): void {
    if (n <= 32) return this.write(Number(value), n);
    this.write(Number(value >> 32n), n - 32);
    this.write(Number(value & 0xffffffffn), 32);
  }

  /** The message so far, zero-padded to whole bytes, as a fresh array. */
  finish(): Uint8Array {
    const s = this.spans;
    if (s && s.length && s[s.length - 1]!.start === s[s.length - 1]!.end) s.pop();
    if (this.nacc) {
      const padBits = 8 - this.nacc;
      if (s) s.push({ start: this.length, end: this.length + padBits, field: "", role: "framing" });
      if (this.pos + 1 > this.buf.length) this.grow();
      const out = this.buf.slice(0, this.pos + 1);
      out[this.pos] = (this.acc << padBits) & 0xff;
      return out;
    }
    return this.buf.slice(0, this.pos);
  }

  /** Bit spans of the last tracked message, padding included (valid after finish()). */
  bitSpans(): BitSpan[] {
    return this.spans ?? [];
  }

  private grow(): void {
    const next = new Uint8Array(this.buf.length * 2);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }
}
