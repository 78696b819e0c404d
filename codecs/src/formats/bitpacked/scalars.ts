// One scalar value ⇄ its bits, per ScalarSpec; writers throw ValueProblem (the caller adds the path), readers fail via the reader.
import type { ScalarSpec } from "./plan.ts";
import { dequantise, quantise } from "./quantise.ts";
import type { BitReader } from "./reader.ts";
import type { BitWriter } from "./writer.ts";
import type { ScalarValue } from "../../layout/values.ts";
import { toFloat32 } from "../../text/numbers.ts";
import { strictUtf8Decoder } from "../../text/utf8.ts";

/** A value the format cannot carry; codec.ts turns it into an EncodeError with the field path. */
export class ValueProblem {
  constructor(readonly message: string) {}
}

export interface ScalarOps {
  write(w: BitWriter, v: unknown, path: string): void;
  read(r: BitReader, keyPath: string): ScalarValue;
}

const scratch = new DataView(new ArrayBuffer(8));
const utf8 = strictUtf8Decoder;

const show = (v: unknown): string =>
  typeof v === "string"
    ? `"${v.length > 24 ? `${v.slice(0, 24)}…` : v}"`
    : typeof v === "object"
      ? v === null
        ? "null"
        : Array.isArray(v)
          ? "an array"
          : "an object"
      : `${typeof v} ${String(v)}`;

function needNumber(v: unknown, lo: number, hi: number): number {
  if (typeof v !== "number") throw new ValueProblem(`expected a number, got ${show(v)}`);
  if (Number.isNaN(v)) throw new ValueProblem("NaN cannot be bit-packed");
  if (!(v >= lo && v <= hi)) throw new ValueProblem(`${v} is outside ${lo}…${hi}`);
  return v;
}

/** UTF-8 byte count of a well-formed string; lone surrogates are refused (they have no UTF-8 form). */
function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) throw new ValueProblem("holds a lone surrogate (not valid Unicode)");
      n += 4;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) throw new ValueProblem("holds a lone surrogate (not valid Unicode)");
    else n += 3;
  }
  return n;
}

function writeUtf8(w: BitWriter, s: string): void {
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) w.write(c, 8);
    else if (c < 0x800) w.write(((0xc0 | (c >> 6)) << 8) | (0x80 | (c & 63)), 16);
    else if (c >= 0xd800 && c <= 0xdbff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(++i) - 0xdc00);
      w.write(0xf0 | (c >> 18), 8);
      w.write(((0x80 | ((c >> 12) & 63)) << 16) | ((0x80 | ((c >> 6) & 63)) << 8) | (0x80 | (c & 63)), 24);
    } else w.write(((0xe0 | (c >> 12)) << 16) | ((0x80 | ((c >> 6) & 63)) << 8) | (0x80 | (c & 63)), 24);
  }
}

function stringOps(s: Extract<ScalarSpec, { k: "string" }>): ScalarOps {
  const { alphabet, maxLength, fixed, lenBits } = s;
  const buf = new Uint8Array(maxLength);
  if (!alphabet) {
    return {
      write(w, v, path) {
        if (typeof v !== "string") throw new ValueProblem(`expected a string, got ${show(v)}`);
        const n = utf8Bytes(v);
        if (n > maxLength) throw new ValueProblem(`is ${n} UTF-8 bytes, more than maxLength ${maxLength}`);
        if (fixed && v.includes("\0")) throw new ValueProblem("holds NUL, which pads fixed-length strings");
        w.owner(path, "length");
        if (!fixed) w.write(n, lenBits);
        w.owner(path, "value");
        writeUtf8(w, v);
        if (fixed) for (let i = n; i < maxLength; i++) w.write(0, 8);
      },
      read(r, keyPath) {
        const n = fixed ? maxLength : r.read(lenBits);
        if (n > maxLength) r.fail(`${keyPath}: length ${n} exceeds maxLength ${maxLength}`);
        let end = n;
        for (let i = 0; i < n; i++) {
          const b = r.read(8);
          buf[i] = b;
          if (fixed && end === n && b === 0) end = i;
          else if (fixed && end < n && b !== 0) r.fail(`${keyPath}: text after the NUL padding`);
        }
        try {
          return utf8.decode(buf.subarray(0, end));
        } catch {
          return r.fail(`${keyPath}: invalid UTF-8`);
        }
      },
    };
  }
  const { bits, toSymbol, toChar, pad, charset } = alphabet;
  return {
    write(w, v, path) {
      if (typeof v !== "string") throw new ValueProblem(`expected a string, got ${show(v)}`);
      const n = v.length;
      if (n > maxLength) throw new ValueProblem(`is ${n} characters, more than maxLength ${maxLength}`);
      if (fixed && n < maxLength && pad < 0)
        throw new ValueProblem(
          `needs exactly ${maxLength} ${charset} characters (the alphabet has no pad symbol), got ${n}`,
        );
      w.owner(path, "length");
      if (!fixed) w.write(n, lenBits);
      w.owner(path, "value");
      // validated while writing: a refused string abandons the half-written message anyway
      for (let i = 0; i < n; i++) {
        const c = v.charCodeAt(i);
        const sym = c < 128 ? toSymbol[c]! : -1;
        if (sym < 0) throw new ValueProblem(`character ${JSON.stringify(v[i])} is outside the ${charset} charset`);
        w.write(sym, bits);
      }
      if (fixed) for (let i = n; i < maxLength; i++) w.write(pad, bits);
    },
    read(r, keyPath) {
      const n = fixed ? maxLength : r.read(lenBits);
      if (n > maxLength) r.fail(`${keyPath}: length ${n} exceeds maxLength ${maxLength}`);
      let out = "";
      let padded = false;
      for (let i = 0; i < n; i++) {
        const sym = r.read(bits);
        if (fixed && sym === pad) {
          padded = true;
          continue;
        }
        const c = toChar[sym]!;
        if (c < 0) r.fail(`${keyPath}: symbol ${sym} is not a ${charset} character`);
        if (padded) r.fail(`${keyPath}: text after the padding`);
        out += String.fromCharCode(c);
      }
      return out;
    },
  };
}

export function scalarOps(s: ScalarSpec): ScalarOps {
  switch (s.k) {
    case "bool":
      return {
        write(w, v, path) {
          if (typeof v !== "boolean") throw new ValueProblem(`expected a boolean, got ${show(v)}`);
          w.owner(path, "value");
          w.write(v ? 1 : 0, 1);
        },
        read: (r) => r.read(1) === 1,
      };
    case "enum": {
      const { names, index, bits } = s;
      return {
        write(w, v, path) {
          const i = typeof v === "string" ? index.get(v) : undefined;
          if (i === undefined) throw new ValueProblem(`${show(v)} is not one of ${names.join(", ")}`);
          w.owner(path, "value");
          w.write(i, bits);
        },
        read(r, keyPath) {
          const i = r.read(bits);
          if (i >= names.length) r.fail(`${keyPath}: enum index ${i} beyond the ${names.length} values`);
          return names[i]!;
        },
      };
    }
    case "int": {
      const { lo, hi, bits } = s;
      return {
        write(w, v, path) {
          if (typeof v !== "number" || !Number.isInteger(v))
            throw new ValueProblem(`expected an integer, got ${show(v)}`);
          if (v < lo || v > hi) throw new ValueProblem(`${v} is outside ${lo}…${hi}`);
          w.owner(path, "value");
          w.write(v - lo, bits);
        },
        read(r, keyPath) {
          const q = r.read(bits);
          if (q > hi - lo) r.fail(`${keyPath}: ${lo + q} is outside ${lo}…${hi}`);
          return lo + q;
        },
      };
    }
    case "int64": {
      const { lo, hi, bits } = s;
      return {
        write(w, v, path) {
          if (typeof v !== "bigint") throw new ValueProblem(`expected a 64-bit integer (bigint), got ${show(v)}`);
          if (v < lo || v > hi) throw new ValueProblem(`${v} is outside ${lo}…${hi}`);
          w.owner(path, "value");
          w.writeBig(v - lo, bits);
        },
        read(r, keyPath) {
          const q = r.readBig(bits);
          if (q > hi - lo) r.fail(`${keyPath}: ${lo + q} is outside ${lo}…${hi}`);
          return lo + q;
        },
      };
    }
    case "quant": {
      const { qz, bits, float32 } = s;
      return {
        write(w, v, path) {
          const x = needNumber(v, qz.lo, qz.hi);
          w.owner(path, "value");
          w.writeWide(quantise(qz, x), bits);
        },
        read(r, keyPath) {
          const q = r.readWide(bits);
          if (q > qz.qMax) r.fail(`${keyPath}: step ${q} beyond the last step ${qz.qMax}`);
          const v = dequantise(qz, q);
          return float32 ? toFloat32(v) : v;
        },
      };
    }
    case "fixed": {
      const { rawLo, span, scale, offset, min, max, bits, fromRaw } = s;
      return {
        write(w, v, path) {
          const x = needNumber(v, min, max);
          let q = Math.round((x - offset) / scale) - rawLo;
          if (q < 0) q = 0;
          else if (q > span) q = span;
          w.owner(path, "value");
          w.writeWide(q, bits);
        },
        read(r, keyPath) {
          const q = r.readWide(bits);
          if (q > span) r.fail(`${keyPath}: raw step ${q} beyond ${span}`);
          return fromRaw(rawLo + q);
        },
      };
    }
    case "ieee": {
      const { bits, min, max } = s;
      return {
        write(w, v, path) {
          const x = needNumber(v, min, max);
          if (!Number.isFinite(x)) throw new ValueProblem(`${x} cannot be bit-packed`);
          w.owner(path, "value");
          if (bits === 32) {
            scratch.setFloat32(0, x);
            w.write(scratch.getUint32(0), 32);
          } else {
            scratch.setFloat64(0, x);
            w.write(scratch.getUint32(0), 32);
            w.write(scratch.getUint32(4), 32);
          }
        },
        read(r, keyPath) {
          let v: number;
          if (bits === 32) {
            scratch.setUint32(0, r.read(32));
            v = scratch.getFloat32(0);
          } else {
            scratch.setUint32(0, r.read(32));
            scratch.setUint32(4, r.read(32));
            v = scratch.getFloat64(0);
          }
          if (!Number.isFinite(v)) r.fail(`${keyPath}: ${v} is not a finite number`);
          if (v < min || v > max) r.fail(`${keyPath}: ${v} is outside ${min}…${max}`);
          return v;
        },
      };
    }
    case "string":
      return stringOps(s);
    case "bytes": {
      const { maxLength, fixed, lenBits } = s;
      return {
        write(w, v, path) {
          if (!(v instanceof Uint8Array)) throw new ValueProblem(`expected bytes, got ${show(v)}`);
          const n = v.length;
          if (fixed ? n !== maxLength : n > maxLength)
            throw new ValueProblem(
              fixed ? `needs exactly ${maxLength} bytes, got ${n}` : `is ${n} bytes, more than maxLength ${maxLength}`,
            );
          w.owner(path, "length");
          w.write(n, lenBits);
          w.owner(path, "value");
          for (let i = 0; i < n; i++) w.write(v[i]!, 8);
        },
        read(r, keyPath) {
          const n = fixed ? maxLength : r.read(lenBits);
          if (n > maxLength) r.fail(`${keyPath}: length ${n} exceeds maxLength ${maxLength}`);
          const out = new Uint8Array(n);
          for (let i = 0; i < n; i++) out[i] = r.read(8);
          return out;
        },
      };
    }
  }
}
