// Number quantisation for bit-packing: which integer q a value becomes, how many bits q needs, and the error it costs.
import { decimalPlaces } from "../../text/numbers.ts";

/** Bits that hold every integer in 0..span (ceil(log2(span + 1))); 0 for a single possible value. */
export function bitLength(span: number): number {
  let b = 0;
  while (b < 64 && 2 ** b <= span) b++;
  return b;
}

export function bitLengthBig(span: bigint): number {
  return span <= 0n ? 0 : span.toString(2).length;
}

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

/** Distance from |x| to the next larger double. */
export function ulp64(x: number): number {
  F64[0] = Math.abs(x);
  U64[0]! += 1n;
  return F64[0]! - Math.abs(x);
}

/** Half the float32 spacing at magnitude m: the most a float32 store moves a value of that size. */
export function halfUlp32(m: number): number {
  if (m === 0) return 2 ** -150;
  const e = Math.max(Math.floor(Math.log2(m)), -126);
  return 2 ** (e - 24);
}

/**
 * A value v in [lo, hi] travels as q = round((v − lo) / step) in `bits` bits and comes back as
 * lo + q·step. When lo and step are short decimals the sum is formed in integer "ticks" and
 * divided once by 10^d, which yields exactly the double nearest the decimal (what Number("17.23")
 * gives), so on-grid values such as generated samples survive bit for bit.
 */
export interface Quantiser {
  lo: number;
  hi: number;
  step: number;
  qMax: number;
  bits: number;
  /** integer arithmetic is exact: (loTicks + q·stepTicks) / pow */
  loTicks: number;
  stepTicks: number;
  pow: number;
  ticks: boolean;
}

const MAX_Q = 2 ** 53 - 1;

/** undefined when the grid has more than 2^53 points (then the raw IEEE bits are used). */
export function quantiser(lo: number, hi: number, step: number): Quantiser | undefined {
  const qMax = Math.round((hi - lo) / step);
  if (!(qMax >= 0 && qMax <= MAX_Q)) return undefined;
  const dLo = decimalPlaces(lo);
  const dStep = decimalPlaces(step);
  let ticks = false;
  let loTicks = 0;
  let stepTicks = 0;
  let pow = 1;
  if (dLo !== undefined && dStep !== undefined) {
    pow = 10 ** Math.max(dLo, dStep);
    loTicks = Math.round(lo * pow);
    stepTicks = Math.round(step * pow);
    ticks = Math.abs(loTicks) + qMax * stepTicks <= MAX_Q;
  }
  return { lo, hi, step, qMax, bits: bitLength(qMax), loTicks, stepTicks, pow, ticks };
}

/** q for a finite v already checked to lie in [lo, hi]. */
export function quantise(qz: Quantiser, v: number): number {
  const q = Math.round((v - qz.lo) / qz.step);
  return q < 0 ? 0 : q > qz.qMax ? qz.qMax : q;
}

/** The value q stands for, never above hi (the last step may overshoot a range that is not a whole number of steps). */
export function dequantise(qz: Quantiser, q: number): number {
  const v = qz.ticks ? (qz.loTicks + q * qz.stepTicks) / qz.pow : qz.lo + q * qz.step;
  return v > qz.hi ? qz.hi : v;
}

/**
 * Worst |decoded − original| over [lo, hi]: half a step, plus the rounding of double arithmetic
 * (two ulps at the largest magnitude involved) and, for float32 fields, the float32 store.
 */
export function worstError(qz: Quantiser, float32: boolean): number {
  const m = Math.max(Math.abs(qz.lo), Math.abs(qz.hi), qz.hi - qz.lo);
  return qz.step / 2 + 2 * ulp64(m) + (float32 ? halfUlp32(Math.max(Math.abs(qz.lo), Math.abs(qz.hi))) : 0);
}
