// Percentiles and the figures' text for the designer bench: nearest rank (a reported time is one that happened),
// with the load average read when the figure was taken.
import os from "node:os";

/** One measured quantity of a scenario: values in ms, plus the 1-minute load average when it was taken. */
export interface Figure {
  values: number[];
  /** values that were below what the source can report (Event Timing leaves out interactions under 16 ms) */
  under?: { count: number; bound: number };
  load: number;
}

export const load1 = (): number => os.loadavg()[0]!;

export function figure(values: number[], under?: Figure["under"]): Figure {
  return { values, ...(under ? { under } : {}), load: load1() };
}

/** p-th percentile (nearest rank) counting the unreported values as the lowest; null if it falls among them. */
export function pct(f: Figure, p: number): number | null {
  const under = f.under?.count ?? 0;
  const n = f.values.length + under;
  if (n === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * n));
  if (rank <= under) return null;
  const sorted = [...f.values].sort((a, b) => a - b);
  return sorted[rank - under - 1]!;
}

export const count = (f: Figure): number => f.values.length + (f.under?.count ?? 0);

/** "12.3" or "< 16" (a percentile inside the unreported part) or "–" (nothing measured). */
export function ms(f: Figure | undefined, p: number): string {
  if (!f || count(f) === 0) return "–";
  const v = pct(f, p);
  if (v === null) return `< ${f.under!.bound}`;
  return v >= 100 ? v.toFixed(0) : v.toFixed(1);
}

export function meets(f: Figure | undefined, p: number, goal: number): boolean | null {
  if (!f || count(f) === 0) return null;
  const v = pct(f, p);
  return v === null || v <= goal;
}
