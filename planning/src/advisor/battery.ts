// The advisor's second objective: battery life instead of bytes. Battery life follows bytes on air in steps (a
// LoRa symbol, an Astrocast fragment, a burst), so a change that saves bytes may gain nothing and a small one may
// cross a step. The advice itself is unchanged; only the order the suggestions and the formats are offered in.
import type { Suggestion } from "./types.ts";

export type AdvisorObjective = "bytes" | "battery";

export interface BatteryGain {
  /** battery life with only this change; null when the radio cannot carry its messages */
  lifeYears: number | null;
  /** lifeYears minus the current layout's life; null when either is unknown */
  gainYears: number | null;
}

/**
 * Battery life of each suggestion's mean message, longest first: the same order as most gained, and it still holds
 * when the current layout's messages cannot be sent at all (a layout over the target, whose gain is unknown). Equal
 * lives keep the byte order (lossless first, then bytes per bit), and a change whose life is unknown goes last.
 * `lifeAt` turns a mean message size in bytes into years (the caller's device, radio and cadence); `baseMean` is the
 * layout's now.
 */
export function rankByBattery(
  suggestions: readonly Suggestion[],
  baseMean: number,
  lifeAt: (meanBytes: number) => number | null,
): (Suggestion & BatteryGain)[] {
  const base = lifeAt(baseMean);
  const scored = suggestions.map((s, order) => {
    const lifeYears = lifeAt(s.sizes.mean);
    const gainYears = lifeYears === null || base === null ? null : lifeYears - base;
    return { s: { ...s, lifeYears, gainYears }, order };
  });
  scored.sort((a, b) => {
    const la = a.s.lifeYears;
    const lb = b.s.lifeYears;
    if (la === null || lb === null) return la === lb ? a.order - b.order : la === null ? 1 : -1;
    return lb !== la ? lb - la : a.order - b.order;
  });
  return scored.map((x) => x.s);
}
