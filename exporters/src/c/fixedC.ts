// Fixed-point in C. The record holds the raw integer (model.ts), so the packers only range-check it
// and never scale: no floating point, no rounding, the same raw in every format.
import type { CFixed } from "./model.ts";
import { cInt } from "./names.ts";

export const SAFE = "9007199254740991.0";

/** The C integer type of a fixed-point member. */
export const fixedCType = (f: CFixed) => `${f.signed ? "" : "u"}int${f.bits}_t`;

/**
 * `if (raw outside rawMin..rawMax) return SP_ERR_RANGE;` for the member `v`, testing only the bounds
 * narrower than its C type (-Wtype-limits rejects a test that cannot fail); none when both are wider.
 */
export function fixedRangeCheck(f: CFixed, v: string): string | undefined {
  const B = BigInt(f.bits);
  const [tlo, thi] = f.signed ? [-(1n << (B - 1n)), (1n << (B - 1n)) - 1n] : [0n, (1n << B) - 1n];
  const lo = BigInt(f.rawMin);
  const hi = BigInt(f.rawMax);
  const conds: string[] = [];
  if (lo > tlo) conds.push(`${v} < ${cInt(lo, !f.signed)}`);
  if (hi < thi) conds.push(`${v} > ${cInt(hi, !f.signed)}`);
  return conds.length ? `if (${conds.join(" || ")}) return SP_ERR_RANGE;` : undefined;
}
