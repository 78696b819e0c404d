// Fixed-point raw → value in C, exactly as layout/fixedPoint.ts's fromRaw computes it (same ticks).
import type { ScalarType } from "#codecs";
import { fixedTicks } from "#codecs/plans";
import type { CBody } from "./emit.ts";
import { cDouble } from "./names.ts";

export const SAFE = "9007199254740991.0";

type FixedType = Pick<Extract<ScalarType, { kind: "fixed" }>, "scale" | "offset">;

/** C expression of fromRaw(raw) for a fixed-point type: the double nearest the decimal when it can be. */
export function fixedFromRaw(t: FixedType, raw: string, b: CBody): string {
  const c = fixedTicks(t);
  const plain = `(double)${raw} * ${cDouble(t.scale)} + ${cDouble(t.offset)}`;
  if (!c.exact) return plain;
  const ticks = b.local("ticks", "double ticks;");
  b.line(`${ticks} = (double)${raw} * ${cDouble(c.scaleTicks)} + ${cDouble(c.offsetTicks)};`);
  return `((${ticks} >= -${SAFE} && ${ticks} <= ${SAFE} && ${ticks} == sp_floor(${ticks})) ? ${ticks} / ${cDouble(c.pow)} : ${plain})`;
}
