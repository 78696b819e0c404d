// Per-type value writers and readers: layout value ⇄ protobuf value, with the layout's limits checked both ways.
import type { ProtoInt, ValueMap } from "./model.ts";
import type { Reader } from "./reader.ts";
import { LONE_SURROGATE, NOT_IN_CHARSET, type Writer } from "./writer.ts";
import { EncodeError } from "../../errors.ts";
import type { ScalarValue } from "../../layout/values.ts";
import { compileTextTime } from "../../text/timestamp.ts";

const FORMAT = "protobuf";
/** JavaScript Date's range in seconds: text timestamps outside it cannot be formatted */

/**
 * Validates and writes one value. `tag` < 0 writes no tag (packed elements); `implicit` skips
 * proto3 default values, as every proto3 encoder does for fields without explicit presence.
 */
export type PutValue = (w: Writer, v: ScalarValue | undefined, tag: number, implicit: boolean, path: string) => void;
/** Reads one value of the field's wire type and returns the typed layout value (throws DecodeError). */
export type ReadValue = (r: Reader) => ScalarValue;

export function encodeFail(path: string, message: string): never {
  throw new EncodeError(message, FORMAT, path);
}

function describe(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v instanceof Uint8Array) return "bytes";
  if (typeof v === "string") return `"${v.length > 24 ? `${v.slice(0, 24)}…` : v}"`;
  return typeof v === "object" ? (Array.isArray(v) ? "an array" : "an object") : `${typeof v} ${String(v)}`;
}

/**
 * The charsets are single-character classes (^[…]*$), so a per-character table over ASCII says the
 * same as the pattern; anything else keeps the pattern.
 */
const tables = new Map<RegExp, Uint8Array | undefined>();
function charsetTable(re: RegExp | undefined): Uint8Array | undefined {
  if (re === undefined) return undefined;
  if (tables.has(re)) return tables.get(re);
  let table: Uint8Array | undefined;
  if (/^\^\[[^\]]*\]\*\$$/.test(re.source) && re.flags === "") {
    table = new Uint8Array(128);
    for (let c = 0; c < 128; c++) table[c] = re.test(String.fromCharCode(c)) ? 1 : 0;
  }
  tables.set(re, table);
  return table;
}

type IntPut = (w: Writer, v: number) => void;

function intPut(wire: ProtoInt): IntPut {
  switch (wire) {
    case "uint32":
      return (w, v) => w.varint32(v);
    case "int32":
      return (w, v) => w.int32(v);
    case "sint32":
      return (w, v) => w.sint32(v);
    case "fixed32":
    case "sfixed32":
      return (w, v) => w.fixed32(v);
    case "uint64":
    case "int64":
      return (w, v) => w.int64(v);
    case "sint64":
      return (w, v) => w.sint64(v);
    case "fixed64":
    case "sfixed64":
      return (w, v) => w.fixed64n(v);
  }
}

type BigPut = (w: Writer, v: bigint) => void;

function bigPut(wire: ProtoInt): BigPut {
  switch (wire) {
    case "sint64":
      return (w, v) => w.bigVarint(BigInt.asUintN(64, (v << 1n) ^ (v >> 63n)));
    case "fixed64":
    case "sfixed64":
      return (w, v) => {
        const u = BigInt.asUintN(64, v);
        w.fixed64(Number(u & 0xffffffffn), Number(u >> 32n));
      };
    default:
      return (w, v) => w.bigVarint(BigInt.asUintN(64, v));
  }
}

export function putValue(m: ValueMap): PutValue {
  switch (m.kind) {
    case "bool":
      return (w, v, tag, implicit, path) => {
        if (typeof v !== "boolean") encodeFail(path, `expected a boolean, got ${describe(v)}`);
        if (implicit && !v) return;
        if (tag >= 0) w.varint32(tag);
        w.varint32(v ? 1 : 0);
      };
    case "enum": {
      const numberOf = m.enum.numberOf;
      return (w, v, tag, implicit, path) => {
        const n = typeof v === "string" ? numberOf.get(v) : undefined;
        if (n === undefined) encodeFail(path, `${describe(v)} is not one of ${[...numberOf.keys()].join(", ")}`);
        if (implicit && n === 0) return;
        if (tag >= 0) w.varint32(tag);
        w.varint32(n);
      };
    }
    case "int": {
      const put = intPut(m.wire);
      const { min, max } = m;
      return (w, v, tag, implicit, path) => {
        if (typeof v !== "number" || !Number.isInteger(v)) encodeFail(path, `expected an integer, got ${describe(v)}`);
        if (v < min || v > max) encodeFail(path, `${v} is outside ${min}..${max}`);
        if (implicit && v === 0) return;
        if (tag >= 0) w.varint32(tag);
        put(w, v);
      };
    }
    case "int64": {
      const put = bigPut(m.wire);
      const { min, max } = m;
      return (w, v, tag, implicit, path) => {
        let b: bigint;
        if (typeof v === "bigint") b = v;
        else if (typeof v === "number" && Number.isSafeInteger(v)) b = BigInt(v);
        else encodeFail(path, `expected a 64-bit integer (bigint), got ${describe(v)}`);
        if (b < min || b > max) encodeFail(path, `${b} is outside ${min}..${max}`);
        if (implicit && b === 0n) return;
        if (tag >= 0) w.varint32(tag);
        put(w, b);
      };
    }
    case "float": {
      const single = m.bits === 32;
      const min = single ? Math.fround(m.min) : m.min;
      const max = single ? Math.fround(m.max) : m.max;
      return (w, v, tag, implicit, path) => {
        if (typeof v !== "number") encodeFail(path, `expected a number, got ${describe(v)}`);
        const x = single ? Math.fround(v) : v;
        // NaN and ±Infinity travel bit-exactly; only finite values must respect the range
        if ((x < min || x > max) && x !== Infinity && x !== -Infinity)
          encodeFail(path, `${v} is outside ${m.min}..${m.max}`);
        // -0.0 has a non-zero bit pattern, so proto3 encoders write it
        if (implicit && x === 0 && 1 / x > 0) return;
        if (tag >= 0) w.varint32(tag);
        if (single) w.float(x);
        else w.double(x);
      };
    }
    case "fixed": {
      const put = intPut(m.wire);
      const { scale, offset, min, max } = m;
      return (w, v, tag, implicit, path) => {
        if (typeof v !== "number" || !Number.isFinite(v))
          encodeFail(path, `expected a finite number, got ${describe(v)}`);
        if (v < min || v > max) encodeFail(path, `${v} is outside ${min}..${max}`);
        const raw = Math.round((v - offset) / scale);
        if (implicit && raw === 0) return;
        if (tag >= 0) w.varint32(tag);
        put(w, raw);
      };
    }
    case "epoch": {
      const put = intPut(m.wire);
      const { min, max, rawMin, rawMax, resolution } = m;
      const mul = m.decimals > 0 ? 10 ** m.decimals : 0;
      return (w, v, tag, implicit, path) => {
        if (typeof v !== "number" || !Number.isFinite(v))
          encodeFail(path, `expected epoch seconds, got ${describe(v)}`);
        if (v < min || v > max) encodeFail(path, `${v} is outside ${min}..${max}`);
        const raw = mul ? Math.round(v * mul) : Math.round(v / resolution);
        if (raw < rawMin || raw > rawMax) encodeFail(path, `${v} s does not fit the timestamp's integer range`);
        if (implicit && raw === 0) return;
        if (tag >= 0) w.varint32(tag);
        put(w, raw);
      };
    }
    case "text-time": {
      const { min, max } = m;
      const text = compileTextTime(m.format);
      return (w, v, tag, _implicit, path) => {
        if (typeof v !== "number" || !Number.isFinite(v))
          encodeFail(path, `expected epoch seconds, got ${describe(v)}`);
        if (v < min || v > max) encodeFail(path, `${v} is outside ${min}..${max}`);
        if (tag >= 0) w.varint32(tag);
        w.string(text.format(v) ?? encodeFail(path, `${v} s is outside the years 0000–9999 a text timestamp can show`));
      };
    }
    case "string": {
      const { maxLength, charset } = m;
      const table = charsetTable(charset);
      const pattern = table === undefined ? charset : undefined;
      return (w, v, tag, implicit, path) => {
        if (typeof v !== "string") encodeFail(path, `expected a string, got ${describe(v)}`);
        // UTF-8 never has fewer bytes than UTF-16 units, so this rejects most over-long text before writing it
        if (v.length > maxLength) encodeFail(path, `is longer than maxLength ${maxLength} bytes`);
        if (pattern !== undefined && !pattern.test(v))
          encodeFail(path, `${describe(v)} has characters outside the field's charset`);
        if (implicit && v.length === 0) return;
        if (tag >= 0) w.varint32(tag);
        const len = w.string(v, table);
        if (len === LONE_SURROGATE) encodeFail(path, "string holds a lone surrogate");
        if (len === NOT_IN_CHARSET) encodeFail(path, `${describe(v)} has characters outside the field's charset`);
        if (len > maxLength) encodeFail(path, `is ${len} bytes, more than maxLength ${maxLength}`);
      };
    }
    case "bytes": {
      const { maxLength } = m;
      return (w, v, tag, implicit, path) => {
        if (!(v instanceof Uint8Array)) encodeFail(path, `expected bytes, got ${describe(v)}`);
        if (v.length > maxLength) encodeFail(path, `is ${v.length} bytes, more than maxLength ${maxLength}`);
        if (implicit && v.length === 0) return;
        if (tag >= 0) w.varint32(tag);
        w.bytes(v);
      };
    }
  }
}

type RawRead = (r: Reader) => number | undefined;

/** Raw integer of a number-valued field; undefined when it is outside the safe range or the proto type. */
function rawRead(wire: ProtoInt): RawRead {
  switch (wire) {
    case "uint32":
      return (r) => (r.varint(), r.hi === 0 ? r.lo : undefined);
    case "int32":
      return (r) => {
        r.varint();
        if (r.hi === 0) return r.lo <= 0x7fffffff ? r.lo : undefined;
        return r.hi === 0xffffffff && r.lo > 0x7fffffff ? r.lo | 0 : undefined;
      };
    case "sint32":
      return (r) => (r.varint(), r.hi === 0 ? (r.lo >>> 1) ^ -(r.lo & 1) : undefined);
    case "fixed32":
      return (r) => r.fixed32();
    case "sfixed32":
      return (r) => r.fixed32() | 0;
    case "uint64":
      return (r) => (r.varint(), r.unsignedNumber());
    case "int64":
      return (r) => (r.varint(), r.signedNumber());
    case "sint64":
      return (r) => (r.varint(), r.unzigzag(), r.signedNumber());
    case "fixed64":
      return (r) => (r.fixed64(), r.unsignedNumber());
    case "sfixed64":
      return (r) => (r.fixed64(), r.signedNumber());
  }
}

function bigRead(wire: ProtoInt): (r: Reader) => bigint {
  switch (wire) {
    case "uint64":
      return (r) => (r.varint(), r.bigUnsigned());
    case "fixed64":
      return (r) => (r.fixed64(), r.bigUnsigned());
    case "sfixed64":
      return (r) => (r.fixed64(), BigInt.asIntN(64, r.bigUnsigned()));
    case "sint64":
      return (r) => (r.varint(), r.unzigzag(), BigInt.asIntN(64, r.bigUnsigned()));
    default:
      return (r) => (r.varint(), BigInt.asIntN(64, r.bigUnsigned()));
  }
}

export function readValue(m: ValueMap, path: string): ReadValue {
  switch (m.kind) {
    case "bool":
      return (r) => (r.varint(), r.lo !== 0 || r.hi !== 0);
    case "enum": {
      const nameOf = m.enum.nameOf;
      return (r) => {
        const at = r.pos;
        const n = r.varint();
        const name = r.hi === 0 ? nameOf.get(n) : undefined;
        if (name === undefined)
          return r.fail(`${path}: ${r.hi === 0 ? n : r.signedNumber()} is not a value of the enum`, at);
        return name;
      };
    }
    case "int": {
      const { min, max } = m;
      // the usual wire types read in one step
      if (m.wire === "uint32")
        return (r) => {
          const at = r.pos;
          const v = r.varint();
          if (r.hi !== 0 || v < min || v > max) return r.fail(`${path}: value outside ${min}..${max}`, at);
          return v;
        };
      if (m.wire === "sint32")
        return (r) => {
          const at = r.pos;
          const u = r.varint();
          const v = (u >>> 1) ^ -(u & 1);
          if (r.hi !== 0 || v < min || v > max) return r.fail(`${path}: value outside ${min}..${max}`, at);
          return v;
        };
      const read = rawRead(m.wire);
      return (r) => {
        const at = r.pos;
        const v = read(r);
        if (v === undefined || v < min || v > max) return r.fail(`${path}: value outside ${min}..${max}`, at);
        return v;
      };
    }
    case "int64": {
      const read = bigRead(m.wire);
      const { min, max } = m;
      return (r) => {
        const at = r.pos;
        const v = read(r);
        if (v < min || v > max) return r.fail(`${path}: ${v} is outside ${min}..${max}`, at);
        return v;
      };
    }
    case "float": {
      const single = m.bits === 32;
      const min = single ? Math.fround(m.min) : m.min;
      const max = single ? Math.fround(m.max) : m.max;
      return (r) => {
        const at = r.pos;
        const v = single ? r.float() : r.double();
        if ((v < min || v > max) && v !== Infinity && v !== -Infinity)
          return r.fail(`${path}: ${v} is outside ${m.min}..${m.max}`, at);
        return v;
      };
    }
    case "fixed": {
      const read = rawRead(m.wire);
      const { rawMin, rawMax, fromRaw, min, max } = m;
      return (r) => {
        const at = r.pos;
        const raw = read(r);
        if (raw === undefined || raw < rawMin || raw > rawMax)
          return r.fail(`${path}: raw ${raw ?? "value"} is outside ${rawMin}..${rawMax}`, at);
        const v = fromRaw(raw);
        return v < min ? min : v > max ? max : v;
      };
    }
    case "epoch": {
      const read = rawRead(m.wire);
      const { rawMin, rawMax, resolution, min, max } = m;
      const div = m.decimals > 0 ? 10 ** m.decimals : 0;
      return (r) => {
        const at = r.pos;
        const raw = read(r);
        if (raw === undefined || raw < rawMin || raw > rawMax)
          return r.fail(`${path}: timestamp ${raw ?? "value"} is outside the layout's range`, at);
        // dividing by an exact power of ten gives the double nearest the decimal (1748778312.3)
        const v = div ? raw / div : raw * resolution;
        return v < min ? min : v > max ? max : v;
      };
    }
    case "text-time": {
      const { format, min, max } = m;
      const text = compileTextTime(format);
      return (r) => {
        const at = r.pos;
        const s = r.string(r.length());
        const v = text.parse(s);
        if (v === undefined) return r.fail(`${path}: "${s.slice(0, 40)}" does not match ${format}`, at);
        if (v < min || v > max) return r.fail(`${path}: ${v} is outside ${min}..${max}`, at);
        return v;
      };
    }
    case "string": {
      const { maxLength, charset } = m;
      const table = charsetTable(charset);
      const pattern = table === undefined ? charset : undefined;
      return (r) => {
        const at = r.pos;
        const n = r.length();
        if (n > maxLength) return r.fail(`${path}: ${n} bytes, more than maxLength ${maxLength}`, at);
        const s = r.string(n, table);
        if (pattern !== undefined && !pattern.test(s))
          return r.fail(`${path}: characters outside the field's charset`, at);
        return s;
      };
    }
    case "bytes": {
      const { maxLength } = m;
      return (r) => {
        const at = r.pos;
        const n = r.length();
        if (n > maxLength) return r.fail(`${path}: ${n} bytes, more than maxLength ${maxLength}`, at);
        return r.bytes(n);
      };
    }
  }
}
