// Issue #28 gaps: the Budget view's settings are stored with the project's cost scenarios, and the user's radio
// constants and battery-swap prices reach every figure (the rows the view and the report read, the report's saving).
import { describe, expect, it } from "vitest";
import { parseLayout, presetById } from "#codecs";
import { measuredFormats } from "./support/measured.ts";
import { DEFAULT_TRACKER, deviceBudget } from "../src/budget/index.ts";
import { batterySwapSaving } from "../src/cost/batterySwaps.ts";
import { budgetAt } from "../src/report/budget.ts";
import { buildReport, type MeasuredFormat } from "../src/report/model.ts";
import { defaultCostDoc, defaultScenario, parseCostDoc, ScenarioError } from "../src/report/scenario.ts";

const SIX_HOURS = { intervalSeconds: 21_600, device: DEFAULT_TRACKER };

describe("the budget settings in the cost document", () => {
  it("round-trips through JSON with every setting, and a document without them still parses", () => {
    const doc = {
      ...defaultCostDoc(),
      budget: {
        intervalMinutes: 60,
        region: "US915" as const,
        device: { ...DEFAULT_TRACKER, batteryMah: 1200 },
        radio: { astrocast: { txMa: 400 } },
        swapPrices: {
          battery: { amount: 7, currency: "EUR" as const },
          labour: { amount: 90, currency: "EUR" as const },
        },
        swapYears: 15,
      },
    };
    expect(parseCostDoc(JSON.parse(JSON.stringify(doc)))).toEqual(doc);
    expect(parseCostDoc(JSON.parse(JSON.stringify(defaultCostDoc()))).budget).toBeUndefined();
    // missing keys take their defaults: a half-written document is not refused
    expect(parseCostDoc({ ...defaultCostDoc(), budget: {} }).budget).toEqual({
      intervalMinutes: null,
      region: "EU868",
      radio: {},
      swapYears: 10,
    });
  });

  it("refuses a negative swap price or a region it does not know, naming the field", () => {
    const bad = (budget: unknown) => () => parseCostDoc({ ...defaultCostDoc(), budget });
    expect(
      bad({ swapPrices: { battery: { amount: -1, currency: "EUR" }, labour: { amount: 1, currency: "EUR" } } }),
    ).toThrow(/budget\.swapPrices\.battery\.amount/);
    expect(bad({ region: "AS923" })).toThrow(ScenarioError);
  });
});

describe("the user's radio constants", () => {
  it("replace the catalog's in budgetAt for their platform only", () => {
    const plain = budgetAt("astrocast", 40, SIX_HOURS)!.budget!;
    const w = { ...SIX_HOURS, radioOverrides: { astrocast: { txMa: 1000 } } };
    const mine = budgetAt("astrocast", 40, w)!.budget!;
    expect(mine).toEqual(
      deviceBudget({
        choice: { platform: "astrocast" },
        bytesOnAir: 40,
        readingsPerMessage: 1,
        ...SIX_HOURS,
        radioOverrides: { txMa: 1000 },
      }),
    );
    expect(mine.energyPerMessageJ.tx).toBeGreaterThan(plain.energyPerMessageJ.tx);
    expect(mine.batteryLifeYears).toBeLessThan(plain.batteryLifeYears);
    // another platform's figures do not move
    expect(budgetAt("iridium-sbd", 40, w)).toEqual(budgetAt("iridium-sbd", 40, SIX_HOURS));
  });

  it("a bad value is the row's error, in plain words", () => {
    const at = budgetAt("astrocast", 40, { ...SIX_HOURS, radioOverrides: { astrocast: { txMa: -5 } } })!;
    expect(at.budget).toBeNull();
    expect(at.error).toMatch(/TX current cannot be negative/);
  });
});

describe("the report with the user's constants and swap prices", () => {
  const paper = parseLayout(presetById("paper")!.layout);
  const measured: MeasuredFormat[] = measuredFormats(paper, 200);
  const scenario = { ...defaultScenario(), platforms: ["astrocast"] };
  const report = (budget: Parameters<typeof buildReport>[0]["budget"]) =>
    buildReport({
      projectName: "x",
      layout: paper,
      samples: { count: 200, seed: 1 },
      measured,
      generatedAt: "t",
      scenario,
      budget,
    });

  it("follows a replaced radio constant and prices the swaps at the user's prices", () => {
    const base = report({ ...SIX_HOURS, years: 10 }).budget!;
    const prices = {
      battery: { amount: 10, currency: "EUR" as const },
      labour: { amount: 200, currency: "EUR" as const },
    };
    const mine = report({ ...SIX_HOURS, years: 10, radioOverrides: { astrocast: { txMa: 1000 } }, prices }).budget!;
    const json = (b: typeof base) => b.rows.find((r) => r.format === "json")!.budget!.batteryLifeYears;
    expect(json(mine)).toBeLessThan(json(base));
    const best = mine.rows.find((r) => r.format === mine.saving!.format)!.budget!.batteryLifeYears;
    const expected = batterySwapSaving(best, json(mine), { devices: scenario.devices, years: 10, prices });
    expect(mine.saving!.saved).toBeCloseTo(expected.saved, 6);
    expect(expected.saved).not.toBe(
      batterySwapSaving(best, json(mine), { devices: scenario.devices, years: 10 }).saved,
    );
  });
});
