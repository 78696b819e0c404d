// A reusable, growing output buffer and a span recorder for the fixed-layout encoders.
import type { Span } from "../types.ts";

export class ByteWriter {
  buf: Uint8Array;
  dv: DataView;
  pos = 0;

  constructor(initial: number) {
    this.buf = new Uint8Array(Math.max(16, initial));
    this.dv = new DataView(this.buf.buffer);
  }

  /** Room for n more bytes at pos. */
  ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(this.pos + n);
  }

  private grow(min: number): void {
    const next = new Uint8Array(Math.max(min, this.buf.length * 2));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
    this.dv = new DataView(next.buffer);
  }
}

/** Ordered spans; a span continuing the previous one with the same field and role extends it. */
export class SpanList {
  readonly spans: Span[] = [];

  add(start: number, end: number, field: string, role: Span["role"]): void {
    if (end <= start) return;
    const last = this.spans[this.spans.length - 1];
    if (last && last.end === start && last.field === field && last.role === role) last.end = end;
    else this.spans.push({ start, end, field, role });
  }

  /** Appends another list's spans moved by `shift` bytes. */
  append(other: SpanList, shift: number): void {
    for (const s of other.spans) this.add(s.start + shift, s.end + shift, s.field, s.role);
  }
}
