// A format's verdict against each chosen limit, as the size chart, its legend and the tables word it.
// With several limits a single "over the strictest" colour hid what matters when choosing a platform: a
// Struct message over Sigfox's 12 B still fits Kinéis' 30 B. So a bar is judged against every limit.
import { BudgetError, DEFAULT_TRACKER, deviceBudget, radioChoiceFor } from "#planning";
import type { Limit } from "./PlatformPicker.tsx";
import { percent } from "../format.ts";

/** One format against one limit: every message fits, only the p95 does, or not even the p95. */
export type Fit = "fits" | "p95" | "over";

export function fitOf(s: { p95: number; max: number }, bytes: number): Fit {
  return s.max <= bytes ? "fits" : s.p95 <= bytes ? "p95" : "over";
}

export const FIT_TEXT: Record<Fit, string> = {
  fits: "fits",
  p95: "largest messages over, p95 fits",
  over: "does not fit",
};

/**
 * How far a size gets through the chosen limits: under every one ("all"), over the strictest but under a
 * looser one ("some"), or over all of them ("none"). Without limits everything is "all" (nothing to be over).
 */
export type Reach = "all" | "some" | "none";

export function reach(value: number, limits: readonly Limit[]): Reach {
  if (!limits.length) return "all";
  const fitting = limits.filter((l) => value <= l.bytes).length;
  return fitting === limits.length ? "all" : fitting > 0 ? "some" : "none";
}

/** The fill of a bar of this size: its statistic's own colour under every limit, orange or red above. */
export function reachColor(r: Reach, own: string): string {
  return r === "all" ? own : r === "some" ? "var(--over-some)" : "var(--over)";
}

/** The strictest limit a size fits, if any. */
export function strictestFit(value: number, limits: readonly Limit[]): Limit | undefined {
  return [...limits].sort((a, b) => a.bytes - b.bytes).find((l) => value <= l.bytes);
}

/**
 * The few words under a format's name on the chart, judged on its largest message: "fits all" (or "fits" with one
 * limit), "fits 30 B" (the strictest limit it fits, so also every looser one), or "over all" ("over" with one).
 */
export function fitLabel(max: number, limits: readonly Limit[]): string {
  if (!limits.length) return "";
  const r = reach(max, limits);
  if (r === "all") return limits.length === 1 ? "fits" : "fits all";
  if (r === "none") return limits.length === 1 ? "over" : "over all";
  return `fits ${strictestFit(max, limits)!.bytes} B`;
}

/**
 * How many messages exceed a limit, worded so it cannot be read as a size ("100 % over 30 B" was): "all samples
 * exceed 30 B", "exceeds 30 B in 37 % of samples". Tiny shares keep two decimals so they never round to 0 %.
 */
export function shareOverText(share: number, bytes: number, what = "samples"): string {
  if (share >= 1) return `all ${what} exceed ${bytes} B`;
  return `exceeds ${bytes} B in ${sharePercent(share)} of ${what}`;
}

/** The same in a column whose heading names the limit: "all exceed", "37 % exceed". */
export function shareOverShort(share: number): string {
  return share >= 1 ? "all exceed" : `${sharePercent(share)} exceed`;
}

const sharePercent = (share: number): string => percent(share, share < 0.01 ? 2 : share < 0.1 ? 1 : 0);

/** A message's airtime on a platform's radio and how many a day its airtime limits allow. */
export interface AirtimeVerdict {
  seconds: number;
  /** messages a day the strictest daily airtime limit allows (duty cycle, fair use); null: the radio has none */
  perDay: number | null;
  /** that limit's name ("The Things Network fair use (airtime a day)") */
  perDayLimit: string | null;
  /** a per-message limit (US915's 400 ms dwell time) the message breaks, if any */
  over: string | null;
}

/**
 * The airtime of one message of `bytes` on a platform with a radio model (undefined without one, or when the
 * message cannot be sent). Worked out by planning's device budget at one message a day, so every daily limit's
 * allowance over that day's use is how many messages a day it allows; the device does not enter airtime.
 */
export function airtimeVerdict(platformId: string, bytes: number): AirtimeVerdict | undefined {
  const choice = radioChoiceFor(platformId);
  if (!choice) return undefined;
  try {
    const b = deviceBudget({
      choice,
      bytesOnAir: bytes,
      readingsPerMessage: 1,
      intervalSeconds: 86_400,
      device: DEFAULT_TRACKER,
    });
    const daily = b.limits
      .filter((l) => l.id !== "dwell-time" && l.usedS > 0)
      .map((l) => ({ label: l.label, perDay: Math.floor(l.allowedS / l.usedS) }))
      .sort((a, c) => a.perDay - c.perDay)[0];
    const over = b.limits.find((l) => l.id === "dwell-time" && !l.ok);
    return {
      seconds: b.airtimePerMessageS,
      perDay: daily?.perDay ?? null,
      perDayLimit: daily?.label ?? null,
      over: over ? over.label : null,
    };
  } catch (e) {
    if (e instanceof BudgetError) return undefined;
    throw e;
  }
}

/** "1.48 s on air · at most 20 a day (The Things Network fair use)", said under a verdict. */
export function airtimeText(v: AirtimeVerdict): string {
  const s = v.seconds >= 1 ? `${v.seconds.toFixed(2)} s` : `${Math.round(v.seconds * 1000)} ms`;
  const limit = v.perDayLimit ? v.perDayLimit.replace(/\s*\(.*\)$/, "") : "";
  const parts = [`${s} on air`];
  if (v.over) parts.push(`over the ${v.over.replace(/\s*\(.*\)$/, "").toLowerCase()}`);
  if (v.perDay !== null) parts.push(`at most ${v.perDay.toLocaleString("en-US")} a day (${limit})`);
  return parts.join(" · ");
}
