// Issue #28, point 3: the report's battery-life section and its CSV. The section is about the recommended platform
// (or, when that one has no radio model, the first of the scenario's that has), per format, from the cost model's
// bytes on air; the summary says the recommended format's battery life against JSON's in one sentence.
import { describe, expect, it } from "vitest";
import { CODECS, parseLayout, presetById } from "#codecs";
import { measuredFormats } from "./support/measured.ts";
import { measureBatches } from "../src/batch/measure.ts";
import { DEFAULT_TRACKER, deviceBudget } from "../src/budget/index.ts";
import { batterySwapSaving } from "../src/cost/batterySwaps.ts";
import { budgetAt } from "../src/report/budget.ts";
import { reportCsv } from "../src/report/csv.ts";
import { buildReport, type MeasuredFormat, type ReportInput } from "../src/report/model.ts";
import { defaultScenario, type FleetScenario } from "../src/report/scenario.ts";

const paper = parseLayout(presetById("paper")!.layout);
const measured: MeasuredFormat[] = measuredFormats(paper, 300);
const SIX_HOURS = { intervalSeconds: 21_600, device: DEFAULT_TRACKER };
const TEN_YEARS = { ...SIX_HOURS, years: 10 };
const report = (patch: Partial<ReportInput> & { scenario: FleetScenario }) =>
  buildReport({
    projectName: "Reefer fleet",
    layout: paper,
    samples: { count: 300, seed: 1 },
    measured,
    generatedAt: "2026-01-02T03:04:05.000Z",
    ...patch,
  });

describe("the report's battery life", () => {
  it("is the budget of every format on the platform, from the cost model's bytes on air", () => {
    const scenario = { ...defaultScenario(), platforms: ["astrocast", "lorawan-eu868-dr5"] };
    const m = report({ scenario, budget: TEN_YEARS });
    const rec = m.summary.recommendation!;
    const b = m.budget!;
    expect(b.platformId).toBe(rec.platformId);
    expect(b.why).toBeNull();
    const cells = m.fleet.cells.filter((c) => c.platformId === b.platformId && c.fragmentation.mode === "single");
    expect(cells.length).toBeGreaterThan(2);
    for (const c of cells) {
      const row = b.rows.find((r) => r.format === c.format)!;
      expect(row.bytesOnAir).toBe(Math.ceil(c.onAir.mean));
      const expected = deviceBudget({
        choice: { platform: b.platformId },
        bytesOnAir: row.bytesOnAir,
        readingsPerMessage: 1,
        ...SIX_HOURS,
      });
      expect(row.budget!.batteryLifeYears, c.format).toBeCloseTo(expected.batteryLifeYears, 12);
    }
  });

  it("charges a batch layout's message to each of its readings: each format's own count from the cost model", () => {
    // issue #27 × #28: the paper tracker sends as many readings as fit Astrocast, a different count per format
    const tracker = parseLayout(presetById("paper-tracker")!.layout);
    const { measured: batches } = measureBatches(tracker, ["protobuf", "bitpacked"], "delta", 30);
    const m = report({
      layout: tracker,
      measured: batches.map((x) => ({ ...x, lossy: CODECS[x.format].info.lossy, errors: 0 })),
      scenario: { ...defaultScenario(), platforms: ["astrocast"] },
      budget: TEN_YEARS,
    });
    const rows = m.budget!.rows;
    expect(rows.map((r) => r.format).sort()).toEqual(["bitpacked", "protobuf"]);
    for (const row of rows) {
      const cell = m.fleet.cells.find((c) => c.format === row.format && c.platformId === "astrocast")!;
      expect(row.readingsPerMessage).toBe(cell.readingsPerMessage);
      const expected = deviceBudget({
        choice: { platform: "astrocast" },
        bytesOnAir: row.bytesOnAir,
        readingsPerMessage: cell.readingsPerMessage,
        ...SIX_HOURS,
      });
      expect(row.budget!.batteryLifeYears, row.format).toBeCloseTo(expected.batteryLifeYears, 12);
    }
    const bitpacked = rows.find((r) => r.format === "bitpacked")!;
    expect(bitpacked.readingsPerMessage).toBeGreaterThan(1);
    // one message a batch: the radio's energy per reading is the message's shared by its readings
    const single = deviceBudget({
      choice: { platform: "astrocast" },
      bytesOnAir: bitpacked.bytesOnAir,
      readingsPerMessage: 1,
      ...SIX_HOURS,
    });
    expect(bitpacked.budget!.energyPerReadingJ.radio).toBeCloseTo(
      single.energyPerReadingJ.radio / bitpacked.readingsPerMessage,
      12,
    );
    expect(reportCsv(m)).toContain(`bitpacked,astrocast,readings_per_message,,${bitpacked.readingsPerMessage},`);
  });

  it("falls back to a platform with a radio when the recommended one has none, and says so", () => {
    // Swarm (discontinued) has no radio model; priced here so that it is the cheapest and recommended
    const scenario: FleetScenario = {
      ...defaultScenario(),
      platforms: ["swarm", "astrocast"],
      billing: { swarm: { kind: "per-message", price: { amount: 0.0001, currency: "EUR" } } },
    };
    const m = report({ scenario, budget: TEN_YEARS });
    expect(m.summary.recommendation!.platformId).toBe("swarm");
    expect(m.budget!.platformId).toBe("astrocast");
    expect(m.budget!.why).toBe("Swarm has no radio model yet: the budget is shown for Astrocast (Astronode S)");
  });

  it("is on the recommended platform when it has a radio: terrestrial NB-IoT, its transport headers on air", () => {
    const m = report({ scenario: defaultScenario(), budget: TEN_YEARS });
    expect(m.summary.recommendation!.platformId).toBe("nbiot-tn");
    expect(m.budget!.platformId).toBe("nbiot-tn");
    expect(m.budget!.why).toBeNull();
    const cell = m.fleet.cells.find((c) => c.platformId === "nbiot-tn" && c.format === "protobuf")!;
    // CoAP / UDP / IP travel with every message: the bytes on air are more than the payload
    expect(m.budget!.rows.find((r) => r.format === "protobuf")!.bytesOnAir).toBe(Math.ceil(cell.onAir.mean));
    expect(cell.onAir.mean).toBeGreaterThan(cell.sizes.mean);
  });

  it("says the recommended format's battery life against JSON's and the swaps it saves, and lists the figures in the CSV", () => {
    // Astrocast, every 6 h: JSON's 414 B go as three fragments, so its battery runs out years sooner
    const scenario: FleetScenario = { ...defaultScenario(), platforms: ["astrocast"] };
    const m = report({ scenario, budget: TEN_YEARS });
    const rec = m.summary.recommendation!;
    const row = (f: string) => m.budget!.rows.find((r) => r.format === f)!;
    const json = row("json");
    const best = row(rec.format);
    expect(json.messagesPerRecord).toBeGreaterThan(1);
    const [lb, lj] = [best.budget!.batteryLifeYears, json.budget!.batteryLifeYears];
    expect(lb).toBeGreaterThan(lj);
    expect(lj).toBeGreaterThan(1); // both said in years
    // the swaps come from the cost model's swap prices: 10 000 devices over 10 years
    const saving = batterySwapSaving(lb, lj, { devices: 10_000, years: 10 });
    expect(saving.saved).toBeGreaterThan(0);
    expect(m.budget!.saving).toEqual({ format: rec.format, moreYears: lb - lj, saved: saving.saved, currency: "EUR" });
    const euros = `€${Math.round(saving.saved).toLocaleString("en-US")}`;
    const sentence = `${rec.formatLabel} instead of JSON on Astrocast (Astronode S): the battery lasts ${lb.toFixed(1)} years instead of ${lj.toFixed(1)} years, ${euros} saved on battery swaps over 10 years for 10,000 devices.`;
    expect(m.budget!.sentence).toBe(sentence);
    // said with the recommendation it qualifies, before the caveats
    expect(m.summary.text).toContain(sentence);
    expect(m.summary.text.indexOf(sentence)).toBeLessThan(m.summary.text.indexOf("Caveats:"));

    const csv = reportCsv(m).split("\r\n");
    expect(csv).toContain(`budget,${rec.format},astrocast,battery_life,,${lb},years`);
    expect(csv).toContain(`budget,json,astrocast,messages_per_record,,${json.messagesPerRecord},`);
    expect(csv).toContain("budget,,astrocast,reading_interval,,21600,s");
    expect(csv).toContain(`budget,${rec.format},astrocast,battery_swaps_saved_vs_json,,${saving.saved},EUR`);
  });

  it("judges LoRaWAN's airtime against the fair-use limit in the CSV", () => {
    const scenario: FleetScenario = {
      ...defaultScenario(),
      platforms: ["lorawan-eu868-dr0"],
      formats: ["bitpacked"],
      billing: { "lorawan-eu868-dr0": { kind: "per-message", price: { amount: 0.001, currency: "EUR" } } },
    };
    // every 5 minutes at SF12: 288 messages of ~2 s a day, far over The Things Network's 30 s
    const m = report({ scenario, budget: { ...TEN_YEARS, intervalSeconds: 300 } });
    const csv = reportCsv(m).split("\r\n");
    expect(csv).toContain("budget,bitpacked,lorawan-eu868-dr0,limit_fair-use_ok,,false,");
    expect(csv).toContain("budget,bitpacked,lorawan-eu868-dr0,limit_fair-use_allowed,,30,s");
  });

  it("is absent without a device, and the summary has no battery sentence", () => {
    const m = report({ scenario: defaultScenario() });
    expect(m.budget).toBeNull();
    expect(m.summary.text).not.toMatch(/battery/);
    expect(reportCsv(m)).not.toMatch(/^budget,/m);
  });

  it("reaches planning's budget for the catalog id (the hand-computed Astrocast case of docs/budget.md)", () => {
    expect(budgetAt("astrocast", 40, SIX_HOURS)!.budget!.batteryLifeYears).toBeCloseTo(5.172, 3);
    expect(budgetAt("swarm", 40, SIX_HOURS)).toBeUndefined();
    expect(budgetAt("lorawan-eu868-dr0", 52, SIX_HOURS)!.error).toMatch(/51/);
  });
});
