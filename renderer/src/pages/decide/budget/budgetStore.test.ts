// The Budget view's settings are saved with the project's cost scenarios and come back when they load again; a
// refused radio constant or swap price is shown beside its field and never replaces the value the figures use.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseLayout, presetById } from "#codecs";
import { DEFAULT_SWAP_PRICES, DEFAULT_TRACKER, defaultCostDoc, parseCostDoc } from "#planning";
import {
  editDevice,
  editRadio,
  editSwapPrice,
  setIntervalMinutes,
  setRegion,
  setSwapYears,
  stateFromSettings,
  useBudget,
  whatIfOf,
} from "./budgetStore.ts";
import { useDecide } from "../decideStore.ts";

/** What reopening the project does: the scenarios unload, then the stored document (as JSON) loads again. */
function reopen(): void {
  const stored = JSON.parse(JSON.stringify(useDecide.getState().doc)) as unknown;
  useDecide.setState({ doc: null });
  useBudget.setState(stateFromSettings(undefined));
  useDecide.setState({ doc: parseCostDoc(stored) });
}

beforeEach(() => {
  useDecide.setState({ projectId: null, doc: null });
  useDecide.setState({ doc: defaultCostDoc() });
});
afterEach(() => useDecide.setState({ doc: null }));

describe("the Budget view's settings", () => {
  it("start at the defaults for a project that never saved any", () => {
    const s = useBudget.getState();
    expect(s.device).toBe(DEFAULT_TRACKER);
    expect(s.radio).toEqual({});
    expect(s.swapPrices).toBe(DEFAULT_SWAP_PRICES);
    expect(s.intervalMinutes).toBeNull();
  });

  it("survive reopening the project: device, interval, region, radio constants, swap prices and horizon", () => {
    setIntervalMinutes(60);
    setRegion("US915");
    editDevice((d) => ({ ...d, batteryMah: 1200 }));
    editRadio("astrocast", "txMa", 400);
    editSwapPrice("labour", 90);
    setSwapYears(15);
    expect(useDecide.getState().doc!.budget).toBeDefined();
    reopen();
    const s = useBudget.getState();
    expect(s.intervalMinutes).toBe(60);
    expect(s.region).toBe("US915");
    expect(s.device).toEqual({ ...DEFAULT_TRACKER, batteryMah: 1200 });
    expect(s.radio).toEqual({ astrocast: { txMa: 400 } });
    expect(s.radioDraft).toEqual({ astrocast: { txMa: 400 } });
    expect(s.swapPrices).toEqual({ battery: DEFAULT_SWAP_PRICES.battery, labour: { amount: 90, currency: "EUR" } });
    expect(s.swapYears).toBe(15);
  });

  it("keep a refused radio constant as typed with its error, the figures on the last accepted one", () => {
    editRadio("astrocast", "txMa", 400);
    editRadio("astrocast", "txMa", -3);
    let s = useBudget.getState();
    expect(s.radioErrors.astrocast).toEqual({ txMa: expect.stringMatching(/cannot be negative/) });
    expect(s.radioDraft.astrocast).toEqual({ txMa: -3 });
    expect(s.radio.astrocast).toEqual({ txMa: 400 });
    expect(useDecide.getState().doc!.budget!.radio).toEqual({ astrocast: { txMa: 400 } });
    editRadio("astrocast", "supplyVolts", 0);
    expect(useBudget.getState().radioErrors.astrocast!.supplyVolts).toMatch(/above 0/);
    // back to the cited values: nothing of the user's is left, and the figures use the catalog again
    editRadio("astrocast", "txMa", undefined);
    editRadio("astrocast", "supplyVolts", undefined);
    s = useBudget.getState();
    expect(s.radioErrors.astrocast).toEqual({});
    expect(s.radio).toEqual({});
    expect(useDecide.getState().doc!.budget!.radio).toEqual({});
  });

  it("refuse a negative swap price beside its field and keep the last good one", () => {
    editSwapPrice("battery", 8);
    editSwapPrice("battery", -1);
    const s = useBudget.getState();
    expect(s.swapErrors.battery).toMatch(/cannot be negative/);
    expect(s.swapPrices.battery.amount).toBe(8);
    expect(useDecide.getState().doc!.budget!.swapPrices!.battery.amount).toBe(8);
  });

  it("show a stored device planning refuses with its error, the figures on the default tracker", () => {
    const bad = { ...DEFAULT_TRACKER, batteryVolts: 0 };
    const s = stateFromSettings({ intervalMinutes: null, region: "EU868", device: bad, radio: {}, swapYears: 10 });
    expect(s.draft).toEqual(bad);
    expect(s.device).toBe(DEFAULT_TRACKER);
    expect(s.deviceErrors.batteryVolts).toBeTruthy();
  });
});

describe("the what-if's reading interval", () => {
  it("starts at a batch layout's declared interval, else at the cost scenario's cadence, until the slider moves", () => {
    const tracker = parseLayout(presetById("paper-tracker")!.layout); // a reading every 15 min
    const paper = parseLayout(presetById("paper")!.layout);
    const s = { ...useBudget.getState(), intervalMinutes: null };
    expect(whatIfOf(s, 4, tracker).intervalMinutes).toBe(15);
    expect(whatIfOf(s, 4, paper).intervalMinutes).toBe(360);
    expect(whatIfOf(s, 4, null).intervalMinutes).toBe(360);
    expect(whatIfOf({ ...s, intervalMinutes: 60 }, 4, tracker).intervalMinutes).toBe(60);
  });
});
