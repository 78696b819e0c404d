// A strict JSON reader over bytes: exact integers (bigint beyond 2^53), Python's NaN / Infinity /
// -Infinity tokens, and a DecodeError with the byte offset for anything else a strict reader refuses
// (trailing bytes, duplicate keys, bad escapes, lone surrogates, raw control characters, bad UTF-8).
import { DecodeError } from "../../errors.ts";
import type { PlainRecord, PlainValue } from "../../layout/values.ts";
import { asciiText, invalidUtf8At, utf8Text } from "../../text/utf8.ts";

// Bytes appear by code: 0x22 " · 0x2c , · 0x2d - · 0x2e . · 0x30–0x39 digits · 0x3a : · 0x5b [ ·
// 0x5c \ · 0x5d ] · 0x7b { · 0x7d } · 0x65/0x45 e/E · 0x20 0x09 0x0a 0x0d whitespace.

const FORMAT = "json";
/** groups nest; nothing a layout describes comes near this, and it keeps recursion off the stack limit */
const MAX_DEPTH = 64;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const hasOwn = Object.prototype.hasOwnProperty;

function fail(message: string, offset: number): never {
  throw new DecodeError(message, FORMAT, offset);
}

class Reader {
  i = 0;
  constructor(readonly b: Uint8Array) {}

  ws(): void {
    const b = this.b;
    let i = this.i;
    for (;;) {
      const c = b[i];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.i = i;
  }

  literal(text: string, value: PlainValue): PlainValue {
    const b = this.b;
    for (let k = 0; k < text.length; k++)
      if (b[this.i + k] !== text.charCodeAt(k)) fail(`invalid token, expected ${text}`, this.i);
    this.i += text.length;
    return value;
  }

  value(depth: number): PlainValue {
    const c = this.b[this.i];
    switch (c) {
      case 0x7b:
        return this.object(depth + 1);
      case 0x5b:
        return this.array(depth + 1);
      case 0x22:
        return this.string();
      case 0x74:
        return this.literal("true", true);
      case 0x66:
        return this.literal("false", false);
      case 0x6e:
        return this.literal("null", null);
      case 0x4e:
        return this.literal("NaN", Number.NaN);
      case 0x49:
        return this.literal("Infinity", Number.POSITIVE_INFINITY);
      case undefined:
        return fail("unexpected end of input", this.i);
      default:
        if (c === 0x2d && this.b[this.i + 1] === 0x49) {
          this.i++;
          return this.literal("Infinity", Number.NEGATIVE_INFINITY);
        }
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
        return fail(`unexpected byte 0x${c.toString(16).padStart(2, "0")}`, this.i);
    }
  }

  object(depth: number): PlainRecord {
    if (depth > MAX_DEPTH) fail("nesting too deep", this.i);
    const b = this.b;
    const out: PlainRecord = {};
    this.i++;
    this.ws();
    if (b[this.i] === 0x7d) {
      this.i++;
      return out;
    }
    for (;;) {
      if (b[this.i] !== 0x22)
        fail(b[this.i] === undefined ? "unexpected end of input" : "expected a string key", this.i);
      const keyAt = this.i;
      const key = this.string();
      this.ws();
      if (b[this.i] !== 0x3a) fail("expected ':'", this.i);
      this.i++;
      this.ws();
      const v = this.value(depth);
      if (hasOwn.call(out, key)) fail(`duplicate key "${key}"`, keyAt);
      // a "__proto__" key must become an own property, not the object's prototype
      if (key === "__proto__")
        Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      else out[key] = v;
      this.ws();
      const c = b[this.i];
      if (c === 0x2c) {
        this.i++;
        this.ws();
        continue;
      }
      if (c === 0x7d) {
        this.i++;
        return out;
      }
      fail(c === undefined ? "unexpected end of input" : "expected ',' or '}'", this.i);
    }
  }

  array(depth: number): PlainValue[] {
    if (depth > MAX_DEPTH) fail("nesting too deep", this.i);
    const b = this.b;
    const out: PlainValue[] = [];
    this.i++;
    this.ws();
    if (b[this.i] === 0x5d) {
      this.i++;
      return out;
    }
    for (;;) {
      out.push(this.value(depth));
      this.ws();
      const c = b[this.i];
      if (c === 0x2c) {
        this.i++;
        this.ws();
        continue;
      }
      if (c === 0x5d) {
        this.i++;
        return out;
      }
      fail(c === undefined ? "unexpected end of input" : "expected ',' or ']'", this.i);
    }
  }

  number(): number | bigint {
    const b = this.b;
    const start = this.i;
    let i = start;
    if (b[i] === 0x2d) i++;
    const intStart = i;
    if (b[i] === 0x30) i++;
    else if (b[i]! >= 0x31 && b[i]! <= 0x39) while (b[i]! >= 0x30 && b[i]! <= 0x39) i++;
    else fail("expected a digit", i);
    const intEnd = i;
    let isInt = true;
    if (b[i] === 0x2e) {
      isInt = false;
      i++;
      if (!(b[i]! >= 0x30 && b[i]! <= 0x39)) fail("expected a digit after '.'", i);
      while (b[i]! >= 0x30 && b[i]! <= 0x39) i++;
    }
    if (b[i] === 0x65 || b[i] === 0x45) {
      isInt = false;
      i++;
      if (b[i] === 0x2b || b[i] === 0x2d) i++;
      if (!(b[i]! >= 0x30 && b[i]! <= 0x39)) fail("expected a digit in the exponent", i);
      while (b[i]! >= 0x30 && b[i]! <= 0x39) i++;
    }
    this.i = i;
    if (!isInt) return Number(asciiText(b, start, i));
    if (intEnd - intStart <= 15) {
      let n = 0;
      for (let k = intStart; k < intEnd; k++) n = n * 10 + (b[k]! - 0x30);
      return start === intStart ? n : -n;
    }
    // beyond 15 digits a double may not hold the integer; int64 fields need it exactly
    const big = BigInt(asciiText(b, start, i));
    return big <= MAX_SAFE && big >= -MAX_SAFE ? Number(big) : big;
  }

  string(): string {
    const b = this.b;
    const start = this.i + 1;
    let i = start;
    let high = false;
    for (;;) {
      const c = b[i];
      if (c === undefined) fail("unterminated string", this.i);
      if (c === 0x22) break;
      if (c === 0x5c) return this.escapedString(start, i, high);
      if (c < 0x20) fail("control character in string", i);
      if (c >= 0x80) high = true;
      i++;
    }
    this.i = i + 1;
    if (!high) return asciiText(b, start, i);
    const bad = invalidUtf8At(b, start, i);
    if (bad >= 0) fail("invalid UTF-8", bad);
    return utf8Text(b, start, i);
  }

  /** The slow path, taken from the first backslash: text so far plus escapes and further runs. */
  private escapedString(start: number, firstEscape: number, high: boolean): string {
    const b = this.b;
    let out = this.run(start, firstEscape, high);
    let i = firstEscape;
    for (;;) {
      const c = b[i];
      if (c === undefined) fail("unterminated string", this.i);
      if (c === 0x22) {
        this.i = i + 1;
        return out;
      }
      if (c === 0x5c) {
        const e = b[i + 1];
        switch (e) {
          case 0x22:
            out += '"';
            i += 2;
            break;
          case 0x5c:
            out += "\\";
            i += 2;
            break;
          case 0x2f:
            out += "/";
            i += 2;
            break;
          case 0x62:
            out += "\b";
            i += 2;
            break;
          case 0x66:
            out += "\f";
            i += 2;
            break;
          case 0x6e:
            out += "\n";
            i += 2;
            break;
          case 0x72:
            out += "\r";
            i += 2;
            break;
          case 0x74:
            out += "\t";
            i += 2;
            break;
          case 0x75: {
            const u = this.hex4(i + 2);
            if (u >= 0xdc00 && u <= 0xdfff) fail("lone low surrogate escape", i);
            if (u >= 0xd800 && u <= 0xdbff) {
              if (b[i + 6] !== 0x5c || b[i + 7] !== 0x75) fail("high surrogate escape without its low half", i);
              const lo = this.hex4(i + 8);
              if (lo < 0xdc00 || lo > 0xdfff) fail("high surrogate escape without its low half", i);
              out += String.fromCharCode(u, lo);
              i += 12;
            } else {
              out += String.fromCharCode(u);
              i += 6;
            }
            break;
          }
          default:
            fail("invalid escape", i);
        }
        continue;
      }
      const runStart = i;
      let runHigh = false;
      for (;;) {
        const d = b[i];
        if (d === undefined || d === 0x22 || d === 0x5c) break;
        if (d < 0x20) fail("control character in string", i);
        if (d >= 0x80) runHigh = true;
        i++;
      }
      out += this.run(runStart, i, runHigh);
    }
  }

  private run(start: number, end: number, high: boolean): string {
    if (!high) return asciiText(this.b, start, end);
    const bad = invalidUtf8At(this.b, start, end);
    if (bad >= 0) fail("invalid UTF-8", bad);
    return utf8Text(this.b, start, end);
  }

  private hex4(at: number): number {
    let v = 0;
    for (let k = 0; k < 4; k++) {
      const c = this.b[at + k];
      let d: number;
      if (c === undefined) return fail("truncated \\u escape", at - 2);
      if (c >= 0x30 && c <= 0x39) d = c - 0x30;
      else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
      else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
      else return fail("invalid \\u escape", at - 2);
      v = (v << 4) | d;
    }
    return v;
  }
}

/** Parses one JSON document (whitespace around it allowed, nothing else). */
export function parseJson(bytes: Uint8Array): PlainValue {
  const r = new Reader(bytes);
  r.ws();
  if (r.i >= bytes.length) fail("empty input", r.i);
  const v = r.value(0);
  r.ws();
  if (r.i !== bytes.length) fail("trailing bytes after the document", r.i);
  return v;
}
