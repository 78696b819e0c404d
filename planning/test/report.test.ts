import { describe, expect, it } from "vitest";
import { CODECS, FORMAT_IDS, type FormatId, parseLayout, presetById } from "#codecs";
import { summarize } from "#codecs/analysis";
import { measuredFormats } from "./support/measured.ts";
import { CSV_HEADER, reportCsv } from "../src/report/csv.ts";
import { evaluateFleet, FLEET_SIZES, INTERVAL_MINUTES, type FormatSizesInput } from "../src/report/fleet.ts";
import { buildReport } from "../src/report/model.ts";
import {
  defaultCostDoc,
  defaultScenario,
  paperTable7Scenario,
  parseCostDoc,
  ScenarioError,
  type FleetScenario,
} from "../src/report/scenario.ts";

const fixed = (format: FormatId, bytes: number, n = 100): FormatSizesInput => {
  const sizes = new Uint32Array(n).fill(bytes);
  return { format, label: CODECS[format].info.label, stats: summarize(sizes), sizes };
};
const scenario = (patch: Partial<FleetScenario>): FleetScenario => ({
  ...defaultScenario(),
  devices: 10_000,
  cadence: { kind: "per-day", messagesPerDay: 4 },
  months: 1,
  ...patch,
});
const cell = (r: ReturnType<typeof evaluateFleet>, format: string, platform: string) =>
  r.cells.find((c) => c.format === format && c.platformId === platform)!;

describe("fleet cost scenarios", () => {
  const sizes = [fixed("json", 418), fixed("protobuf", 138), fixed("struct-zlib", 127)];

  it("prices every format on every platform from the catalog, per 30-day month", () => {
    // the raw payload on NB-IoT (Non-IP delivery), so the bill counts the payload alone
    const r = evaluateFleet(
      scenario({
        formats: ["json", "protobuf", "struct-zlib"],
        platforms: ["astrocast", "nbiot-tn"],
        transport: { "nbiot-tn": "raw" },
      }),
      sizes,
    );
    expect(r.messagesPerMonth).toBe(1_200_000);
    expect(r.cells).toHaveLength(6);
    // 1.2 M × 418 B = 489 843.75 KB (2^10) × €0.183 — the general model, not Table 7's rounded KB
    expect(cell(r, "json", "nbiot-tn").monthly.exact).toBeCloseTo((1_200_000 * 418 * 0.02) / 2 ** 20, 9);
    // JSON is sent in fragmented mode on Astrocast (414 > 160): 3 messages and 6 header bytes per record
    const json = cell(r, "json", "astrocast");
    expect(json.fragmentsPerRecord).toBe(3);
    expect(json.monthly.exact).toBeCloseTo((1_200_000 * 424 * 0.183) / 1024, 9);
    const pb = cell(r, "protobuf", "astrocast");
    expect(pb.fitsMax).toBe(true);
    expect(pb.monthly.exact).toBeCloseTo((1_200_000 * 138 * 0.183) / 1024, 9);
    expect(pb.savingVsJson).toBeCloseTo(json.monthly.exact! - pb.monthly.exact!, 9);
    expect(pb.volumeUnit).toBe("KB (binary)");
    expect(r.warnings).toEqual([]);
  });

  it("multiplies by the months of the period", () => {
    const r = evaluateFleet(scenario({ formats: ["protobuf"], platforms: ["nbiot-tn"], months: 12 }), sizes);
    expect(r.cells[0]!.total).toBeCloseTo(12 * r.cells[0]!.monthly.exact!, 9);
  });

  it("counts credit-boundary crossings: 12 % of messages cost two credits", () => {
    const sizes49 = new Uint32Array(100).fill(48);
    sizes49.fill(53, 88);
    const measured: FormatSizesInput = {
      format: "protobuf",
      label: "Protocol Buffers",
      stats: summarize(sizes49),
      sizes: sizes49,
    };
    const r = evaluateFleet(
      scenario({
        devices: 10,
        cadence: { kind: "per-day", messagesPerDay: 24 },
        formats: ["protobuf"],
        platforms: ["iridium-sbd"],
        currency: "GBP",
        billing: {
          "iridium-sbd": {
            kind: "per-credit",
            bytesPerCredit: 50,
            minCredits: 1,
            price: { amount: 0.1, currency: "GBP" },
          },
        },
      }),
      [measured],
    );
    const c = r.cells[0]!;
    expect(c.unitName).toBe("credits");
    expect(c.unitShares).toEqual([
      { units: 1, share: 0.88 },
      { units: 2, share: 0.12 },
    ]);
    expect(c.monthly.exact).toBeCloseTo(806.4, 9);
    expect(c.monthly.mean).toBeCloseTo(720, 9);
    expect(c.monthly.p95).toBeCloseTo(1440, 9);
  });

  it("converts currencies only at a rate the user gave", () => {
    const usd = evaluateFleet(scenario({ formats: ["protobuf"], platforms: ["astrocast"], currency: "USD" }), sizes);
    expect(usd.cells[0]!.monthly.exact).toBeUndefined();
    expect(usd.warnings).toEqual([
      "Astrocast (Astronode S) is priced in EUR: enter the EUR → USD rate to see its cost",
    ]);
    const rated = evaluateFleet(
      scenario({ formats: ["protobuf"], platforms: ["astrocast"], currency: "USD", rates: { EUR: 1.1 } }),
      sizes,
    );
    expect(rated.cells[0]!.monthly.exact).toBeCloseTo(((1_200_000 * 138 * 0.183) / 1024) * 1.1, 9);
  });

  it("uses an edited price instead of the catalog's", () => {
    const r = evaluateFleet(
      scenario({
        formats: ["protobuf"],
        platforms: ["astrocast"],
        billing: {
          astrocast: {
            kind: "per-volume",
            unit: { symbol: "KB", base: "decimal" },
            price: { amount: 0.1, currency: "EUR" },
          },
        },
      }),
      sizes,
    );
    expect(r.cells[0]!.monthly.exact).toBeCloseTo((1_200_000 * 138 * 0.1) / 1000, 9);
  });

  it("a monthly plan with included bytes and overage", () => {
    const plan = {
      kind: "monthly-plan" as const,
      fee: { amount: 2, currency: "EUR" as const },
      includedBytes: 10_000,
      overageUnit: { symbol: "KB" as const, base: "decimal" as const },
      overagePrice: { amount: 0.5, currency: "EUR" as const },
    };
    const r = evaluateFleet(
      scenario({
        devices: 100,
        formats: ["protobuf"],
        platforms: ["nbiot-tn"],
        billing: { "nbiot-tn": plan },
        transport: { "nbiot-tn": "raw" },
      }),
      sizes,
    );
    // 120 messages × 138 B = 16 560 B per device: 6.56 KB over at €0.5, plus the €2 fee
    expect(r.cells[0]!.monthly.exact).toBeCloseTo(100 * (2 + 6.56 * 0.5), 9);
  });

  it("draws cost over fleet size (1 k → 100 k) and reporting interval", () => {
    const r = evaluateFleet(scenario({ formats: ["json", "protobuf"], platforms: ["nbiot-tn"] }), sizes);
    const fleet = r.byFleet["nbiot-tn"]!;
    expect(fleet.map((p) => p.x)).toEqual(FLEET_SIZES);
    expect(fleet[6]!.values.protobuf).toBeCloseTo(10 * fleet[3]!.values.protobuf!, 9);
    expect(fleet[3]!.values.protobuf).toBeCloseTo(cell(r, "protobuf", "nbiot-tn").monthly.exact!, 9);
    const every = r.byInterval["nbiot-tn"]!;
    expect(every.map((p) => p.x)).toEqual(INTERVAL_MINUTES);
    // one message every 6 h is the scenario's 4 per day
    expect(every.find((p) => p.x === 360)!.values.json).toBeCloseTo(cell(r, "json", "nbiot-tn").monthly.exact!, 9);
  });

  it("takes a reporting interval instead of messages per day", () => {
    const r = evaluateFleet(
      scenario({ cadence: { kind: "interval", minutes: 15 }, formats: ["protobuf"], platforms: ["nbiot-tn"] }),
      sizes,
    );
    expect(r.messagesPerDay).toBe(96);
    expect(r.messagesPerMonth).toBe(10_000 * 96 * 30);
  });
});

describe("cost documents", () => {
  it("accepts the default and the paper's Table 7 scenario", () => {
    expect(parseCostDoc(defaultCostDoc())).toEqual(defaultCostDoc());
    const doc = { version: 1, active: 1, scenarios: [defaultScenario(), paperTable7Scenario()] };
    expect(parseCostDoc(doc).scenarios[1]!.paperTable7).toBe(true);
  });

  it("names every problem with its path", () => {
    const bad = { version: 1, active: 0, scenarios: [{ ...defaultScenario(), platforms: ["astrocast", "nope"] }] };
    expect(() => parseCostDoc(bad)).toThrow(ScenarioError);
    expect(() => parseCostDoc(bad)).toThrow('scenarios.0.platforms.1 is not a known platform ("nope")');
    expect(() => parseCostDoc({ ...defaultCostDoc(), active: 3 })).toThrow("active points past the last scenario");
    expect(() => parseCostDoc({ version: 1, active: 0, scenarios: [{ ...defaultScenario(), devices: -1 }] })).toThrow(
      /scenarios\.0\.devices/,
    );
    expect(() =>
      parseCostDoc({ version: 1, active: 0, scenarios: [{ ...defaultScenario(), formats: ["json", "json"] }] }),
    ).toThrow("lists a format twice");
  });
});

describe("the stakeholder report", () => {
  const paper = parseLayout(presetById("paper")!.layout);
  const measured = measuredFormats(paper, 1000);
  const report = buildReport({
    projectName: "Containers",
    layout: paper,
    samples: { count: 1000, seed: 1 },
    measured,
    scenario: paperTable7Scenario(),
    fitPlatforms: ["kineis", "sigfox"],
    generatedAt: "2026-01-02T03:04:05.000Z",
  });

  it("summarises the layout, sizes and savings versus JSON", () => {
    expect(report.title).toBe("Containers");
    expect(report.layout.fieldCount).toBe(20);
    expect(report.layout.fields.find((f) => f.key === "acc")!.type).toBe("3 × float32 ±0.00005");
    expect(report.sizes).toHaveLength(FORMAT_IDS.length);
    const pb = report.sizes.find((s) => s.format === "protobuf")!;
    const json = report.sizes.find((s) => s.format === "json")!;
    expect(pb.savingVsJson).toBeCloseTo(json.stats.mean - pb.stats.mean, 12);
  });

  it("has a fit table over the scenario's and the chosen platforms, strictest first", () => {
    expect(report.fit.platforms.map((p) => `${p.id} ${p.limit}`)).toEqual(["sigfox 12", "kineis 30", "astrocast 160"]);
    expect(report.fit.unlimited).toEqual(["Terrestrial NB-IoT / LTE-M"]);
    const bp = report.fit.rows.find((r) => r.format === "bitpacked")!;
    expect(bp.cells.map((c) => c.fitsMax)).toEqual([false, false, true]);
    const pb = report.fit.rows.find((r) => r.format === "protobuf")!.cells.find((c) => c.platformId === "astrocast")!;
    expect(pb).toEqual({ platformId: "astrocast", fitsMax: true, fitsP95: true, shareOver: 0 });
  });

  it("reproduces Table 7 and states the units that make it so", () => {
    expect(report.table7!.rows.map((r) => [r.label, r.mbPerMonth, r.tnEur, r.kbPerMonth, r.ntnEurShown])).toEqual([
      ["JSON", 478.4, 9.57, 489882, 89648],
      ["Protocol Buffers", 157.9, 3.16, 161690, 29589],
      ["Struct+Zlib", 145.3, 2.91, 148787, 27228],
    ]);
    expect(report.assumptions.at(-1)).toContain("MB = 2^20 B, KB = 2^10 B");
    expect(report.sources.map((s) => s.price)).toEqual([
      "€0.02/MB (2^20 B) · from the paper: Kumar et al. 2026, Table 7 (TN rate) (2026)",
      "€0.183/KB (2^10 B) · from the paper: Kumar et al. 2026, Table 7 (NTN rate, measured on Astrocast) (2026)",
    ]);
    expect(report.sources[1]!.source).toContain("Table 7");
  });

  it("lists the fragmentation of every record that does not fit, with the reassembly rule", () => {
    expect(report.fragmentation.map((f) => `${f.format}@${f.plan.platformId}×${f.plan.fragments.max}`)).toEqual([
      "json@astrocast×3",
    ]);
    expect(report.reassemblyRule).toContain("record id (0–255");
  });

  it("writes the same numbers as CSV", () => {
    const csv = reportCsv(report);
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe(CSV_HEADER.join(","));
    const json = report.fleet.cells.find((c) => c.format === "json" && c.platformId === "astrocast")!;
    expect(lines).toContain(`cost,json,astrocast,monthly_every_message,,${json.monthly.exact},EUR`);
    expect(lines).toContain("paper_table7,JSON,astrocast,kb_per_month,418,489882,KB (2^10 B)");
    expect(lines).toContain(`sizes,protobuf,,max,,${report.sizes.find((s) => s.format === "protobuf")!.stats.max},B`);
    expect(lines.every((l) => l.split(",").length >= 7)).toBe(true);
  });

  it("quotes what needs quoting", () => {
    const csv = reportCsv({
      ...report,
      sizes: [{ ...report.sizes[0]!, format: 'a,"b"' as FormatId }],
      fit: { ...report.fit, rows: [] },
      fleet: { ...report.fleet, cells: [], byFleet: {}, byInterval: {} },
      fragmentation: [],
      table7: null,
      summary: { ...report.summary, recommendation: null },
      unpriced: [],
    });
    expect(csv.split("\r\n")[1]).toBe('sizes,"a,""b""",,min,,411,B');
  });
});

describe("a new scenario", () => {
  it("compares the fixed-layout formats a tight budget ends up with: Struct and SBE are ticked", () => {
    expect(defaultScenario().formats).toEqual(["json", "protobuf", "struct", "struct-zlib", "sbe", "bitpacked"]);
  });
});
