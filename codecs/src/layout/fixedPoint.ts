// Fixed-point value ⇄ raw integer (value = raw × scale + offset), in one place for every format and
// the sample generator, so the same raw always gives the same double on every path.
import type { ScalarType } from "./schema.ts";
import { decimalPlaces } from "../text/numbers.ts";

type FixedType = Extract<ScalarType, { kind: "fixed" }>;

export interface FixedPoint {
  rawMin: number;
  rawMax: number;
  toRaw(value: number): number;
  /** the double nearest the decimal raw × scale + offset (13.7, not 13.700000000000001) */
  fromRaw(raw: number): number;
}

const cache = new WeakMap<FixedType, FixedPoint>();

export interface FixedTicks {
  /** 10^d where d is the decimals of scale and offset */
  pow: number;
  scaleTicks: number;
  offsetTicks: number;
  /** false when scale/offset are not short decimals: then value = raw × scale + offset in doubles */
  exact: boolean;
}

/**
 * Short decimal scale/offset: the value is formed in integer ticks and divided once by 10^d, which
 * rounds exactly like parsing the decimal text does. Exported for generated C that must agree.
 */
export function fixedTicks(t: Pick<FixedType, "scale" | "offset">): FixedTicks {
  const dS = decimalPlaces(t.scale);
  const dO = decimalPlaces(t.offset);
  const d = dS !== undefined && dO !== undefined ? Math.max(dS, dO) : undefined;
  const pow = d !== undefined ? 10 ** d : 1;
  const scaleTicks = Math.round(t.scale * pow);
  const offsetTicks = Math.round(t.offset * pow);
  return {
    pow,
    scaleTicks,
    offsetTicks,
    exact: d !== undefined && Number.isSafeInteger(scaleTicks) && Number.isSafeInteger(offsetTicks),
  };
}

export function fixedPoint(t: FixedType): FixedPoint {
  const hit = cache.get(t);
  if (hit) return hit;
  const { scale, offset } = t;
  const { pow, scaleTicks, offsetTicks, exact } = fixedTicks(t);
  const rawMin = Math.round((t.min - offset) / scale);
  const rawMax = Math.round((t.max - offset) / scale);
  const fp: FixedPoint = {
    rawMin,
    rawMax,
    toRaw: (v) => Math.round((v - offset) / scale) + 0,
    fromRaw: (raw) => {
      const ticks = raw * scaleTicks + offsetTicks;
      return exact && Number.isSafeInteger(ticks) ? ticks / pow : raw * scale + offset;
    },
  };
  cache.set(t, fp);
  return fp;
}
