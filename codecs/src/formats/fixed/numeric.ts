// Typed scalar ⇄ fixed-width primitive for every numeric-like kind; struct and SBE share these rules.
import { PRIM_SIZE, primIntRange, primReader, primWriter, smallestIntCode, type PrimCode, type Raw } from "./prim.ts";
import { fixedPoint } from "../../layout/fixedPoint.ts";
import type { ScalarType } from "../../layout/schema.ts";
import { ticksToSeconds } from "../../layout/timeTicks.ts";
import type { ScalarValue } from "../../layout/values.ts";

/** A value cannot become (or come from) its primitive; the codec adds format, path or offset. */
export class SlotError extends Error {}

export interface NumericSlot {
  readonly code: PrimCode;
  readonly size: number;
  /** throws SlotError when the value is not representable */
  toRaw(v: unknown): Raw;
  /** throws SlotError when the wire value is not a value of the type */
  fromRaw(raw: Raw): ScalarValue;
  /** toRaw and the DataView write in one call (the hot path) */
  write(dv: DataView, pos: number, v: unknown): void;
  /** the DataView read and fromRaw in one call */
  read(dv: DataView, pos: number): ScalarValue;
  /** the wire value is the typed value (plain ints, floats, uint32 seconds) */
  readonly identity?: boolean;
}

export type NumericType = Extract<ScalarType, { kind: "bool" | "enum" | "int" | "float" | "fixed" | "timestamp" }>;

export function isNumericType(t: ScalarType): t is NumericType {
  return t.kind !== "string" && t.kind !== "bytes" && !(t.kind === "timestamp" && t.encoding === "text");
}

const U32_MAX = 4294967295;
const F32 = new Float32Array(1);

/**
 * `reserveNull`: SBE optional fields. Where the layout lets us pick the width (enums, fixed-point),
 * pick one whose null value is not a legal value.
 */
export function numericSlot(t: NumericType, little: boolean, reserveNull = false): NumericSlot {
  // a slot holds nothing but closures over its type, so one per distinct type serves every layout: an edit
  // recompiles Struct and SBE for every field, and building the slots was a third of that (2.6 ms at 500 fields)
  const key = `${little ? "<" : ">"}${reserveNull ? "?" : ""}${JSON.stringify(t)}`;
  let slot = slots.get(key);
  if (!slot) {
    const s = conversion(t, reserveNull);
    slot = Object.freeze({ ...s, size: PRIM_SIZE[s.code], ...fused(s, little) });
    if (slots.size >= SLOTS_MAX) slots.clear();
    slots.set(key, slot);
  }
  return slot;
}

const slots = new Map<string, NumericSlot>();
const SLOTS_MAX = 20_000;

interface Conversion {
  code: PrimCode;
  toRaw: NumericSlot["toRaw"];
  fromRaw: NumericSlot["fromRaw"];
  /** the wire value is the typed value itself (no check on read, no conversion either way) */
  identity?: boolean;
}

function conversion(t: NumericType, reserveNull: boolean): Conversion {
  switch (t.kind) {
    case "bool":
      return boolSlot();
    case "enum":
      return enumSlot(t, reserveNull);
    case "int":
      return t.bits === 64 ? int64Slot(t.signed) : intSlot(t.bits, t.signed);
    case "float":
      return t.bits === 32 ? float32Slot() : float64Slot();
    case "fixed":
      return fixedSlot(t, reserveNull);
    case "timestamp":
      return epochSlot(t);
  }
}

const slot = (
  code: PrimCode,
  toRaw: Conversion["toRaw"],
  fromRaw: Conversion["fromRaw"],
  identity = false,
): Conversion => ({ code, toRaw, fromRaw, identity });

// The common kinds get one closure with the DataView call inlined instead of three nested calls.
function fused(s: Conversion, little: boolean): Pick<NumericSlot, "write" | "read"> {
  const { toRaw, fromRaw } = s;
  switch (s.code) {
    case "f":
      return {
        write: (dv, p, v) => dv.setFloat32(p, toRaw(v) as number, little),
        read: (dv, p) => dv.getFloat32(p, little),
      };
    case "d":
      return {
        write: (dv, p, v) => dv.setFloat64(p, toRaw(v) as number, little),
        read: (dv, p) => dv.getFloat64(p, little),
      };
    case "B":
      return {
        write: (dv, p, v) => dv.setUint8(p, toRaw(v) as number),
        read: s.identity ? (dv, p) => dv.getUint8(p) : (dv, p) => fromRaw(dv.getUint8(p)),
      };
    default: {
      const w = primWriter(s.code, little);
      const r = primReader(s.code, little);
      return {
        write: (dv, p, v) => w(dv, p, toRaw(v)),
        read: s.identity ? r : (dv, p) => fromRaw(r(dv, p)),
      };
    }
  }
}

function boolSlot(): Conversion {
  return slot(
    "B",
    (v) => {
      if (v === true) return 1;
      if (v === false) return 0;
      throw new SlotError("must be a boolean");
    },
    (r) => {
      if (r === 1) return true;
      if (r === 0) return false;
      throw new SlotError(`${r} is not a boolean (0 or 1)`);
    },
  );
}

function enumSlot(t: Extract<ScalarType, { kind: "enum" }>, reserveNull: boolean): Conversion {
  const byName = new Map(t.values.map((e) => [e.name, e.value]));
  const byValue = new Map(t.values.map((e) => [e.value, e.name]));
  const max = Math.max(...t.values.map((e) => e.value));
  return slot(
    max <= (reserveNull ? 254 : 255) ? "B" : "H",
    (v) => {
      const n = byName.get(v as string);
      if (n === undefined) throw new SlotError(`${JSON.stringify(v)} is not a value of the enum`);
      return n;
    },
    (r) => {
      const name = byValue.get(r as number);
      if (name === undefined) throw new SlotError(`${r} is not a value of the enum`);
      return name;
    },
  );
}

function intSlot(bits: 8 | 16 | 32, signed: boolean): Conversion {
  const code: PrimCode = bits === 8 ? (signed ? "b" : "B") : bits === 16 ? (signed ? "h" : "H") : signed ? "i" : "I";
  const [blo, bhi] = primIntRange(code)!;
  const lo = Number(blo);
  const hi = Number(bhi);
  return slot(
    code,
    (v) => {
      if (typeof v === "number" && Number.isInteger(v) && v >= lo && v <= hi) return v;
      if (typeof v === "bigint" && v >= blo && v <= bhi) return Number(v);
      throw new SlotError(
        typeof v === "number" || typeof v === "bigint"
          ? `${v} does not fit ${signed ? "" : "u"}int${bits}`
          : "must be an integer",
      );
    },
    (r) => r,
    true,
  );
}

function int64Slot(signed: boolean): Conversion {
  const code: PrimCode = signed ? "q" : "Q";
  const [lo, hi] = primIntRange(code)!;
  return slot(
    code,
    (v) => {
      const b = typeof v === "bigint" ? v : typeof v === "number" && Number.isInteger(v) ? BigInt(v) : undefined;
      if (b === undefined) throw new SlotError("must be a 64-bit integer");
      if (b < lo || b > hi) throw new SlotError(`${b} does not fit ${signed ? "" : "u"}int64`);
      return b;
    },
    (r) => r,
    true,
  );
}

function float32Slot(): Conversion {
  return slot(
    "f",
    (v) => {
      if (typeof v !== "number") throw new SlotError("must be a number");
      F32[0] = v;
      // Python's struct raises OverflowError here rather than writing an infinity
      if (!Number.isFinite(F32[0]!) && Number.isFinite(v)) throw new SlotError(`${v} is too large for a float32`);
      return v;
    },
    (r) => r,
    true,
  );
}

function float64Slot(): Conversion {
  return slot(
    "d",
    (v) => {
      if (typeof v !== "number") throw new SlotError("must be a number");
      return v;
    },
    (r) => r,
    true,
  );
}

/** Raw range of a fixed-point type: the wire integer is round((value − offset) / scale). */
export function fixedRawRange(t: Extract<ScalarType, { kind: "fixed" }>): [number, number] {
  const { rawMin, rawMax } = fixedPoint(t);
  return [rawMin, rawMax];
}

function fixedSlot(t: Extract<ScalarType, { kind: "fixed" }>, reserveNull: boolean): Conversion {
  const [rawMin, rawMax] = fixedRawRange(t);
  const code = smallestIntCode(rawMin, rawMax, reserveNull);
  if (!code) throw new SlotError(`raw range ${rawMin}..${rawMax} does not fit a 64-bit integer`);
  const big = code === "q" || code === "Q";
  const { min, max } = t;
  const fp = fixedPoint(t);
  return slot(
    code,
    (v) => {
      if (typeof v !== "number" || !Number.isFinite(v)) throw new SlotError("fixed-point needs a finite number");
      const raw = fp.toRaw(v);
      if (raw < rawMin || raw > rawMax) throw new SlotError(`${v} is outside ${min}..${max}`);
      return big ? BigInt(raw) : raw;
    },
    (r) => {
      const raw = Number(r);
      if (raw < rawMin || raw > rawMax) throw new SlotError(`raw ${r} is outside ${rawMin}..${rawMax}`);
      return Math.min(Math.max(fp.fromRaw(raw), min), max);
    },
  );
}

/** True when epoch timestamps travel as uint32 whole seconds rather than int64 ticks. */
export function epochIsU32(t: Extract<ScalarType, { kind: "timestamp" }>): boolean {
  return Number.isInteger(t.resolution) && (t.min ?? 0) >= 0 && (t.max ?? U32_MAX) <= U32_MAX;
}

function epochSlot(t: Extract<ScalarType, { kind: "timestamp" }>): Conversion {
  const res = t.resolution;
  if (epochIsU32(t)) {
    return slot(
      "I",
      (v) => {
        if (typeof v !== "number" || !Number.isFinite(v)) throw new SlotError("must be epoch seconds");
        const s = res === 1 ? Math.round(v) : Math.round(v / res) * res;
        if (s < 0 || s > U32_MAX) throw new SlotError(`${v} is outside the uint32 seconds range`);
        return s;
      },
      (r) => r,
      true,
    );
  }
  return slot(
    "q",
    (v) => {
      if (typeof v !== "number" || !Number.isFinite(v)) throw new SlotError("must be epoch seconds");
      const ticks = Math.round(v / res);
      if (!Number.isSafeInteger(ticks)) throw new SlotError(`${v} is too far from 1970 for ${res} s ticks`);
      return BigInt(ticks);
    },
    (r) => {
      const n = Number(r);
      if (!Number.isSafeInteger(n)) throw new SlotError(`${r} ticks are beyond the representable range`);
      return ticksToSeconds(n, res);
    },
  );
}
