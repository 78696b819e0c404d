// The Budget view's inputs and words: which platforms it shows, the interval slider's stops, and energy, airtime
// and battery life as people read them. The figures themselves are planning's (budgetRows, budgetAt).
import {
  budgetAt,
  budgetRows as planningRows,
  radioChoiceFor,
  type BudgetRow,
  type BudgetWhatIf,
  type DeviceModel,
  type FleetCell,
} from "#planning";

export { lifeText, type BudgetRow } from "#planning";

export type Region = "EU868" | "US915";

export const LORAWAN_DATA_RATES: Record<Region, readonly number[]> = {
  EU868: [0, 1, 2, 3, 4, 5],
  US915: [0, 1, 2, 3, 4],
};

export const loraPlatformId = (region: Region, dr: number) => `lorawan-${region.toLowerCase()}-dr${dr}`;

/** Astrocast, the region's LoRaWAN data rates, Iridium SBD, then the scenario's other platforms that have a radio. */
export function budgetPlatformIds(region: Region, scenarioPlatforms: readonly string[]): string[] {
  const ids = ["astrocast", ...LORAWAN_DATA_RATES[region].map((dr) => loraPlatformId(region, dr)), "iridium-sbd"];
  for (const p of scenarioPlatforms) if (!ids.includes(p) && !p.startsWith("lorawan-")) ids.push(p);
  return ids.filter((id) => radioChoiceFor(id) !== undefined);
}

export interface WhatIf {
  /** minutes between two readings */
  intervalMinutes: number;
}

/** Slider stops: one minute to one day, the steps people choose. */
export const INTERVAL_STOPS = [1, 2, 5, 10, 15, 20, 30, 60, 120, 180, 240, 360, 480, 720, 1440] as const;

export function intervalText(m: number): string {
  if (m < 60) return `every ${m} min`;
  const h = m / 60;
  return h === 24 ? "once a day" : `every ${h.toLocaleString("en-US", { maximumFractionDigits: 1 })} h`;
}

/** The stop nearest a cadence that came from elsewhere (the scenario's 4 messages a day = every 360 min). */
export function nearestStop(m: number): number {
  let best = 0;
  for (let i = 1; i < INTERVAL_STOPS.length; i++)
    if (Math.abs(Math.log(INTERVAL_STOPS[i]! / m)) < Math.abs(Math.log(INTERVAL_STOPS[best]! / m))) best = i;
  return best;
}

/**
 * One row per fleet cell whose platform has a radio (planning's budgetRows: the report reads the same). The bytes on
 * air come from the cost model's cell, payload plus the platform's transport headers, never recounted here.
 */
export function budgetRows(
  cells: readonly FleetCell[],
  whatIf: WhatIf,
  device: DeviceModel,
  radio: RadioOverrides = {},
): BudgetRow[] {
  return planningRows(cells, toPlanning(whatIf, device, radio));
}

/** per platform id, the radio constants the user replaced */
export type RadioOverrides = Readonly<Record<string, Record<string, number>>>;

/** The what-if as planning takes it (the report's input too). */
export const toPlanning = (w: WhatIf, device: DeviceModel, radio: RadioOverrides = {}): BudgetWhatIf => ({
  intervalSeconds: w.intervalMinutes * 60,
  device,
  radioOverrides: radio,
});

/**
 * Battery life in years as a function of a mean message size on one platform (the advisor's battery objective);
 * null for a platform without a radio model. Messages the radio cannot carry have no life (null).
 */
export function lifeAtFor(
  platformId: string,
  whatIf: WhatIf,
  device: DeviceModel,
  radio: RadioOverrides = {},
): ((meanBytes: number) => number | null) | null {
  const w = toPlanning(whatIf, device, radio);
  if (!radioChoiceFor(platformId)) return null;
  return (mean) => budgetAt(platformId, Math.ceil(mean), w)?.budget?.batteryLifeYears ?? null;
}

/**
 * ", 13 readings per message in Bit-packed, 4 in Struct …" for rows of a batch layout (each format's own count), ""
 * when every message carries one reading.
 */
export function batchText(rows: readonly BudgetRow[]): string {
  const counts = [...new Map(rows.map((r) => [r.format, r] as const)).values()].filter((r) => r.readingsPerMessage > 1);
  if (!counts.length) return "";
  const [first, ...rest] = counts;
  return `, ${first!.readingsPerMessage} readings per message in ${first!.formatLabel}${rest.map((r) => `, ${r.readingsPerMessage} in ${r.formatLabel}`).join("")}`;
}

/** Energy in J, mJ or µJ, three significant figures. */
export function energyText(joules: number): string {
  const a = Math.abs(joules);
  if (a >= 1) return `${joules.toPrecision(3)} J`;
  if (a >= 1e-3) return `${(joules * 1e3).toPrecision(3)} mJ`;
  return `${(joules * 1e6).toPrecision(3)} µJ`;
}

/** Airtime in s or ms. */
export function secondsText(s: number): string {
  if (s >= 100) return `${s.toFixed(0)} s`;
  if (s >= 1) return `${s.toPrecision(3)} s`;
  return `${(s * 1e3).toPrecision(3)} ms`;
}
