// The Budget view's what-if state: reading interval, the device model as typed (a field that does not check out
// keeps its text and says why beside it), the LoRaWAN region, the radio constants the user replaced and the
// battery-swap prices. Every valid setting is saved with the project's cost scenarios (decideStore's document, the
// same debounced save), and read back when the project's scenarios load, so a reopened project shows the same budget.
import { create } from "zustand";
import type { Layout } from "#codecs";
import {
  BudgetError,
  checkDeviceModel,
  DEFAULT_SWAP_PRICES,
  DEFAULT_TRACKER,
  resolveRadio,
  type BatterySwapPrices,
  type BudgetSettings,
  type DeviceModel,
} from "#planning";
import { INTERVAL_STOPS, nearestStop, type Region, type WhatIf } from "./budgetModel.ts";
import { editBudgetSettings, useDecide } from "../decideStore.ts";

export type SwapPart = keyof BatterySwapPrices;

export interface BudgetState {
  /** minutes between readings; null follows the cost scenario's cadence */
  intervalMinutes: number | null;
  /** the device model as edited; `device` is the last one that checked out */
  draft: DeviceModel;
  device: DeviceModel;
  /** field path → what is wrong with it ("batteryMah" → "Battery capacity must be above 0 mAh") */
  deviceErrors: Record<string, string>;
  region: Region;
  /** per platform id, the radio constants the user replaced that check out: the figures use these */
  radio: Record<string, Record<string, number>>;
  /** per platform id, the values as typed (a refused one stays, with its error beside it) */
  radioDraft: Record<string, Record<string, number>>;
  /** per platform id, constant name → what is wrong with the typed value */
  radioErrors: Record<string, Record<string, string>>;
  /** battery + labour per swap (the report's saving); `swapDraft` as typed, `swapErrors` why one is refused */
  swapPrices: BatterySwapPrices;
  swapDraft: BatterySwapPrices;
  swapErrors: Partial<Record<SwapPart, string>>;
  /** years battery swaps are counted over (the report's saving) */
  swapYears: number;
  /** the platform whose energy breakdown, details and radio constants are shown; null: the first one */
  detailPlatform: string | null;
}

const initial = (): BudgetState => ({
  intervalMinutes: null,
  draft: DEFAULT_TRACKER,
  device: DEFAULT_TRACKER,
  deviceErrors: {},
  region: "EU868",
  radio: {},
  radioDraft: {},
  radioErrors: {},
  swapPrices: DEFAULT_SWAP_PRICES,
  swapDraft: DEFAULT_SWAP_PRICES,
  swapErrors: {},
  swapYears: 10,
  detailPlatform: null,
});

export const useBudget = create<BudgetState>()(initial);

/** What the project stores: the settings the figures use (a refused value is not saved over a good one). */
export function settingsOf(s: BudgetState): BudgetSettings {
  return {
    intervalMinutes: s.intervalMinutes,
    region: s.region,
    ...(s.device !== DEFAULT_TRACKER && { device: s.device }),
    radio: s.radio,
    ...(s.swapPrices !== DEFAULT_SWAP_PRICES && { swapPrices: s.swapPrices }),
    swapYears: s.swapYears,
  };
}

/** Changes the state and saves what the figures use with the project. */
function change(patch: Partial<BudgetState>): void {
  useBudget.setState(patch);
  editBudgetSettings(settingsOf(useBudget.getState()));
}

/** The issues resolveRadio finds with a platform's typed constants, by name. */
function radioIssues(platformId: string, values: Record<string, number>): Record<string, string> {
  try {
    resolveRadio({ platform: platformId }, values);
    return {};
  } catch (e) {
    if (!(e instanceof BudgetError)) throw e;
    return Object.fromEntries(e.issues.map((i) => [i.path.replace(/^radio\./, ""), i.message]));
  }
}

/**
 * The state a project's stored settings give (none: the defaults). A stored value planning refuses (a document
 * edited by hand) is shown as typed with its error, and the figures use the default in its place.
 */
export function stateFromSettings(b: BudgetSettings | undefined): BudgetState {
  const s = initial();
  if (!b) return s;
  const device = b.device ?? DEFAULT_TRACKER;
  const deviceIssues = checkDeviceModel(device);
  const radio: BudgetState["radio"] = {};
  const radioErrors: BudgetState["radioErrors"] = {};
  for (const [id, values] of Object.entries(b.radio)) {
    const issues = radioIssues(id, values);
    if (Object.keys(issues).length) radioErrors[id] = issues;
    else radio[id] = values;
  }
  return {
    ...s,
    intervalMinutes: b.intervalMinutes,
    region: b.region,
    draft: device,
    device: deviceIssues.length ? DEFAULT_TRACKER : device,
    deviceErrors: Object.fromEntries(deviceIssues.map((i) => [i.path, i.message])),
    radio,
    radioDraft: b.radio,
    radioErrors,
    ...(b.swapPrices && { swapPrices: b.swapPrices, swapDraft: b.swapPrices }),
    swapYears: b.swapYears,
  };
}

// when a project's scenarios arrive (a load sets the document from null), its budget settings come with them
const loaded = useDecide.getState().doc;
if (loaded) useBudget.setState(stateFromSettings(loaded.budget));
useDecide.subscribe((s, prev) => {
  if (s.doc && !prev.doc) useBudget.setState(stateFromSettings(s.doc.budget));
});

export function setIntervalMinutes(v: number): void {
  change({ intervalMinutes: v });
}

export function setRegion(region: Region): void {
  change({ region, detailPlatform: null });
}

export function setSwapYears(years: number): void {
  change({ swapYears: years });
}

export function setDetailPlatform(id: string): void {
  useBudget.setState({ detailPlatform: id });
}

/** Applies an edit to the draft; the budget uses it only when planning's check finds nothing wrong. */
export function editDevice(fn: (d: DeviceModel) => DeviceModel): void {
  const draft = fn(useBudget.getState().draft);
  const issues = checkDeviceModel(draft);
  const deviceErrors = Object.fromEntries(issues.map((i) => [i.path, i.message]));
  if (issues.length) useBudget.setState({ draft, deviceErrors });
  else change({ draft, device: draft, deviceErrors });
}

export function resetDevice(): void {
  change({ draft: DEFAULT_TRACKER, device: DEFAULT_TRACKER, deviceErrors: {} });
}

/**
 * Sets one radio constant of a platform as typed (undefined: back to the cited value). The figures take the
 * platform's typed constants when resolveRadio accepts all of them; otherwise they keep the last accepted ones and
 * the error shows beside the field.
 */
export function editRadio(platformId: string, name: string, value: number | undefined): void {
  const s = useBudget.getState();
  const { [name]: _old, ...others } = s.radioDraft[platformId] ?? {};
  const typed = value === undefined ? others : { ...others, [name]: value };
  const issues = radioIssues(platformId, typed);
  const radioDraft = { ...s.radioDraft, [platformId]: typed };
  const radioErrors = { ...s.radioErrors, [platformId]: issues };
  if (Object.keys(issues).length) {
    useBudget.setState({ radioDraft, radioErrors });
    return;
  }
  const { [platformId]: _gone, ...rest } = s.radio;
  change({ radioDraft, radioErrors, radio: Object.keys(typed).length ? { ...rest, [platformId]: typed } : rest });
}

/** A swap price as typed, in the prices' currency; a negative one is refused beside the field. */
export function editSwapPrice(part: SwapPart, amount: number | undefined): void {
  const s = useBudget.getState();
  const swapDraft = {
    ...s.swapDraft,
    [part]: { ...s.swapDraft[part], amount: amount ?? DEFAULT_SWAP_PRICES[part].amount },
  };
  const swapErrors = { ...s.swapErrors };
  delete swapErrors[part];
  if (swapDraft[part].amount < 0) swapErrors[part] = "A price cannot be negative";
  if (Object.keys(swapErrors).length) useBudget.setState({ swapDraft, swapErrors });
  else
    change({
      swapDraft,
      swapErrors,
      swapPrices:
        swapDraft.battery.amount === DEFAULT_SWAP_PRICES.battery.amount &&
        swapDraft.labour.amount === DEFAULT_SWAP_PRICES.labour.amount
          ? DEFAULT_SWAP_PRICES
          : swapDraft,
    });
}

/**
 * The what-if the budget is worked out for: the slider's interval, else the stop nearest the interval a layout's
 * batch declares (the device samples at it), else the cost scenario's cadence (4 messages a day: every 6 h).
 * Readings per message are not a what-if: a layout's batch sets them per format (the designer's Readings tab sizes
 * other counts), and the fleet cells carry them.
 */
export function whatIfOf(s: BudgetState, scenarioMessagesPerDay: number, layout?: Layout | null): WhatIf {
  const perDay = layout?.batch ? 86_400 / layout.batch.intervalSeconds : scenarioMessagesPerDay;
  return { intervalMinutes: s.intervalMinutes ?? INTERVAL_STOPS[nearestStop(1440 / perDay)]! };
}
