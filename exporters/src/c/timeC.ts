// Epoch timestamps in C. The record holds int64_t ticks of the resolution (model.ts); the runtime's text
// formatting and the bit-packed quantiser work on epoch seconds as a double, so these two expressions
// cross over: ticks / 10^d is the double nearest the decimal (what the studio's values are), and
// seconds × 10^d rounded as Math.round gives the ticks back (the codecs' secondsToTicks).
import type { CBody } from "./emit.ts";
import type { CScalar } from "./model.ts";
import { cDouble } from "./names.ts";

export const timeTicks = (cs: CScalar) => (cs.k === "time" ? cs.ticks : undefined);

/** The member as a double of epoch seconds (the member itself when it is a double already). */
export function timeSeconds(cs: CScalar, v: string): string {
  const t = timeTicks(cs);
  if (!t) return v;
  return t.decimals > 0 ? `((double)${v} / ${cDouble(10 ** t.decimals)})` : `(double)${v}`;
}

/** Epoch seconds `secs` (a double) into the ticks member `dst`; beyond int64_t is SP_ERR_RANGE. */
export function storeTicks(cs: CScalar, secs: string, dst: string, b: CBody): void {
  const pow = 10 ** (timeTicks(cs)?.decimals ?? 0);
  const x = pow > 1 ? `${secs} * ${cDouble(pow)}` : secs;
  b.line(`if (!(${x} > -9.2e18 && ${x} < 9.2e18)) return SP_ERR_RANGE;`);
  b.line(`${dst} = (int64_t)sp_round(${x});`);
}
