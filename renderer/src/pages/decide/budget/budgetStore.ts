// The Budget view's what-if state: reading interval, the device model as typed (a field that
// does not check out keeps its text and says why beside it) and the LoRaWAN region. Kept for the session, not saved
// with the project.
import { create } from "zustand";
import { checkDeviceModel, DEFAULT_TRACKER, type DeviceModel } from "#planning";
import { INTERVAL_STOPS, nearestStop, type Region, type WhatIf } from "./budgetModel.ts";

export interface BudgetState {
  /** minutes between readings; null follows the cost scenario's cadence */
  intervalMinutes: number | null;
  /** the device model as edited; `device` is the last one that checked out */
  draft: DeviceModel;
  device: DeviceModel;
  /** field path → what is wrong with it ("batteryMah" → "Battery capacity must be above 0 mAh") */
  deviceErrors: Record<string, string>;
  region: Region;
  /** years battery swaps are counted over (the report's saving) */
  swapYears: number;
  /** the platform whose energy breakdown and details are shown; null: the first one */
  detailPlatform: string | null;
}

export const useBudget = create<BudgetState>()(() => ({
  intervalMinutes: null,
  draft: DEFAULT_TRACKER,
  device: DEFAULT_TRACKER,
  deviceErrors: {},
  region: "EU868",
  swapYears: 10,
  detailPlatform: null,
}));

export function setIntervalMinutes(v: number): void {
  useBudget.setState({ intervalMinutes: v });
}

export function setRegion(region: Region): void {
  useBudget.setState({ region, detailPlatform: null });
}

export function setSwapYears(years: number): void {
  useBudget.setState({ swapYears: years });
}

export function setDetailPlatform(id: string): void {
  useBudget.setState({ detailPlatform: id });
}

/** Applies an edit to the draft; the budget uses it only when planning's check finds nothing wrong. */
export function editDevice(fn: (d: DeviceModel) => DeviceModel): void {
  const draft = fn(useBudget.getState().draft);
  const issues = checkDeviceModel(draft);
  const deviceErrors = Object.fromEntries(issues.map((i) => [i.path, i.message]));
  useBudget.setState(issues.length ? { draft, deviceErrors } : { draft, device: draft, deviceErrors });
}

export function resetDevice(): void {
  useBudget.setState({ draft: DEFAULT_TRACKER, device: DEFAULT_TRACKER, deviceErrors: {} });
}

/**
 * The what-if the budget is worked out for: the slider's interval, else the stop nearest the cost scenario's
 * cadence (4 messages a day: every 6 h). Readings per message are not a what-if: a layout's batch sets them per
 * format (the designer's Readings tab sizes other counts), and the fleet cells carry them.
 */
export function whatIfOf(s: BudgetState, scenarioMessagesPerDay: number): WhatIf {
  return { intervalMinutes: s.intervalMinutes ?? INTERVAL_STOPS[nearestStop(1440 / scenarioMessagesPerDay)]! };
}
