// Little-endian fields and fixed-width ASCII strings as the module lays them out.
import { BadAnswerError } from "../errors.ts";

export function u16le(v: number): Uint8Array {
  return Uint8Array.of(v & 0xff, (v >>> 8) & 0xff);
}

export function u32le(v: number): Uint8Array {
  return Uint8Array.of(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
}

export function i32le(v: number): Uint8Array {
  return u32le(v >>> 0);
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Bounds-checked reads: a short or malformed answer becomes a BadAnswerError naming the command, never a RangeError. */
export class Reader {
  private o = 0;
  constructor(
    private readonly b: Uint8Array,
    private readonly what: string,
  ) {}

  private need(n: number): number {
    if (this.o + n > this.b.length)
      throw new BadAnswerError(
        `${this.what}: answer too short (${this.b.length} bytes, needed at least ${this.o + n})`,
      );
    const at = this.o;
    this.o += n;
    return at;
  }

  u8(): number {
    return this.b[this.need(1)]!;
  }

  u16(): number {
    const at = this.need(2);
    return this.b[at]! | (this.b[at + 1]! << 8);
  }

  u32(): number {
    const at = this.need(4);
    return (this.b[at]! | (this.b[at + 1]! << 8) | (this.b[at + 2]! << 16) | (this.b[at + 3]! << 24)) >>> 0;
  }

  i32(): number {
    return this.u32() | 0;
  }

  bytes(n: number): Uint8Array {
    const at = this.need(n);
    return this.b.slice(at, at + n);
  }

  rest(): Uint8Array {
    return this.bytes(this.b.length - this.o);
  }

  get remaining(): number {
    return this.b.length - this.o;
  }

  end(): void {
    if (this.o !== this.b.length)
      throw new BadAnswerError(`${this.what}: ${this.b.length - this.o} unexpected trailing bytes`);
  }
}

/** The text up to the first NUL; the module pads fixed-width ASCII fields with zeros. */
export function asciiField(b: Uint8Array): string {
  let end = b.indexOf(0);
  if (end < 0) end = b.length;
  let s = "";
  for (let i = 0; i < end; i++) s += String.fromCharCode(b[i]!);
  return s;
}

/** `text` in a zero-padded field of `width` bytes; the caller has checked it fits and is ASCII. */
export function asciiPadded(text: string, width: number): Uint8Array {
  const out = new Uint8Array(width);
  for (let i = 0; i < text.length && i < width; i++) out[i] = text.charCodeAt(i);
  return out;
}

export function isPrintableAscii(s: string): boolean {
  return /^[\x20-\x7e]*$/.test(s);
}
