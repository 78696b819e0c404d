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

export function fixedPoint(t: FixedType): FixedPoint {
  const hit = cache.get(t);
  if (hit) return hit;
  const { scale, offset } = t;
  // short decimal scale/offset: form the value in integer ticks and divide once by 10^d, which rounds
  // exactly like parsing the decimal text does
  const dS = decimalPlaces(scale);
  const dO = decimalPlaces(offset);
  const d = dS !== undefined && dO !== undefined ? Math.max(dS, dO) : undefined;
  const pow = d !== undefined ? 10 ** d : 1;
  const scaleTicks = Math.round(scale * pow);
  const offsetTicks = Math.round(offset * pow);
  const exact = d !== undefined && Number.isSafeInteger(scaleTicks) && Number.isSafeInteger(offsetTicks);
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
