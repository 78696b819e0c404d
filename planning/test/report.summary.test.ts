// The stakeholder report as a board reads it: the project's name as title, an executive summary computed from the
// figures, platforms without a price said so (and priced once the user sets one), sources named as documents.
import { describe, expect, it } from "vitest";
import { CODECS, FORMAT_IDS, type FormatId, parseLayout, presetById } from "#codecs";
import { summarize } from "#codecs/analysis";
import { measuredFormats } from "./support/measured.ts";
import { PLATFORMS } from "../src/platforms/catalog.ts";
import { reportCsv } from "../src/report/csv.ts";
import { buildReport, type MeasuredFormat, type ReportInput } from "../src/report/model.ts";
import { formatMoney } from "../src/report/money.ts";
import { defaultScenario, paperTable7Scenario, type FleetScenario } from "../src/report/scenario.ts";

const paper = parseLayout(presetById("paper")!.layout);
const measured: MeasuredFormat[] = measuredFormats(paper, 300);
const fixed = (format: FormatId, bytes: number): MeasuredFormat => {
  const sizes = new Uint32Array(50).fill(bytes);
  return { format, label: CODECS[format].info.label, lossy: false, errors: 0, stats: summarize(sizes), sizes };
};
const report = (patch: Partial<ReportInput> & { scenario: FleetScenario }) =>
  buildReport({
    projectName: "Reefer fleet",
    layout: paper,
    layoutVersion: 7,
    samples: { count: 300, seed: 1 },
    measured,
    generatedAt: "2026-01-02T03:04:05.000Z",
    ...patch,
  });
const cellOf = (m: ReturnType<typeof report>, format: string, platform: string) =>
  m.fleet.cells.find((c) => c.format === format && c.platformId === platform)!;

describe("the report's title", () => {
  it("is the project's name, with what the document is and the layout's version under it", () => {
    const m = report({ scenario: paperTable7Scenario() });
    expect(m.title).toBe("Reefer fleet");
    expect(m.subtitle).toBe("Payload size and fleet cost");
    expect(m.layout).toMatchObject({ name: paper.name, version: 7 });
  });

  it("falls back to the layout's name when the project has none", () => {
    expect(report({ scenario: paperTable7Scenario(), projectName: "  " }).title).toBe(paper.name);
  });
});

describe("the executive summary", () => {
  it("recommends the cheapest format that fits, with its bytes, its limits and its yearly cost against the runner-up", () => {
    const m = report({ scenario: paperTable7Scenario(), fitPlatforms: ["kineis"] });
    const rec = m.summary.recommendation!;
    // terrestrial NB-IoT bills the raw payload here: Struct+Zlib is the smallest, Protobuf next
    expect([rec.format, rec.platformId]).toEqual(["struct-zlib", "nbiot-tn"]);
    expect([rec.runnerUp!.format, rec.runnerUp!.platformId]).toEqual(["protobuf", "nbiot-tn"]);
    const best = cellOf(m, "struct-zlib", "nbiot-tn");
    const runner = cellOf(m, "protobuf", "nbiot-tn");
    expect(rec.yearly).toBeCloseTo(best.monthly.exact! * 12, 9);
    const size = m.sizes.find((s) => s.format === "struct-zlib")!.stats;
    const t = m.summary.text;
    expect(t).toMatch(/^Recommendation: Struct\+Zlib on Terrestrial NB-IoT \/ LTE-M\. /);
    expect(t).toContain(`largest ${size.max} B`);
    expect(t).toContain(
      `Its largest message fits Astrocast (Astronode S) 160 B; not Kinéis (max) 30 B, where 100 % of messages are over.`,
    );
    expect(t).toContain(
      `For 10,000 devices sending 4 messages a day it costs ${formatMoney(rec.yearly, "EUR")} a year`,
    );
    expect(t).toContain(
      `${formatMoney(runner.monthly.exact! * 12 - rec.yearly, "EUR")} (${Math.round(((runner.monthly.exact! - best.monthly.exact!) / runner.monthly.exact!) * 100)} %) less than the runner-up, Protocol Buffers (${formatMoney(runner.monthly.exact! * 12, "EUR")})`,
    );
    // a terrestrial pick says what it takes, and what satellite-only sites get instead
    const sat = cellOf(m, "struct-zlib", "astrocast");
    expect(m.summary.caveats).toContain(
      `Terrestrial NB-IoT / LTE-M needs cellular coverage; where only satellites reach, the best is Struct+Zlib on Astrocast (Astronode S) at ${formatMoney(sat.monthly.exact! * 12, "EUR")} a year.`,
    );
    expect(t).toContain(`Caveats: ${m.summary.caveats.join(" ")}`);
  });

  it("prefers a format that fits one message over a cheaper one that must be split", () => {
    // per message on Kinéis: 25 B fits its 30 B, 40 B needs two messages (and is billed twice)
    const m = report({
      scenario: {
        ...defaultScenario(),
        formats: ["bitpacked", "struct"],
        platforms: ["kineis"],
        billing: { kineis: { kind: "per-message", price: { amount: 0.01, currency: "EUR" } } },
      },
      measured: [fixed("bitpacked", 25), fixed("struct", 40)],
    });
    expect(m.summary.recommendation).toMatchObject({ format: "bitpacked", platformId: "kineis" });
    expect(m.summary.recommendation!.runnerUp).toMatchObject({ format: "struct", platformId: "kineis" });
  });

  it("says why a platform has no price, and uses the price the user sets for it", () => {
    const scenario: FleetScenario = {
      ...defaultScenario(),
      formats: ["bitpacked", "protobuf"],
      platforms: ["kineis", "astrocast"],
    };
    const before = report({ scenario, measured: [fixed("bitpacked", 20), fixed("protobuf", 60)] });
    expect(before.unpriced).toEqual([
      {
        platformId: "kineis",
        name: "Kinéis (max)",
        kind: "no-price",
        reason:
          "Kinéis (max) publishes no price list (it is priced per contract): enter your contract's price to compare it",
      },
    ]);
    expect(before.summary.recommendation).toMatchObject({ format: "bitpacked", platformId: "astrocast" });
    expect(before.summary.text).toContain("Kinéis (max) publishes no price list");
    expect(reportCsv(before)).toContain("summary,,kineis,no_price,,Kinéis (max) publishes no price list");

    // €0.001 a message beats Astrocast's €0.183/KB for 20 B (€0.0036): the priced Kinéis now wins
    const after = report({
      scenario: {
        ...scenario,
        billing: { kineis: { kind: "per-message", price: { amount: 0.001, currency: "EUR" } } },
      },
      measured: [fixed("bitpacked", 20), fixed("protobuf", 60)],
    });
    expect(after.unpriced).toEqual([]);
    expect(after.summary.recommendation).toMatchObject({ format: "bitpacked", platformId: "kineis" });
    expect(after.summary.recommendation!.yearly).toBeCloseTo(10_000 * 4 * 30 * 12 * 0.001, 6);
    expect(after.summary.text).not.toContain("no price list");
  });

  it("names a missing exchange rate as the reason, not a missing price", () => {
    const m = report({
      scenario: {
        ...defaultScenario(),
        formats: ["protobuf"],
        platforms: ["kineis"],
        billing: { kineis: { kind: "per-message", price: { amount: 0.01, currency: "USD" } } },
      },
    });
    expect(m.unpriced).toMatchObject([{ platformId: "kineis", kind: "no-rate" }]);
    expect(m.summary.recommendation).toBeNull();
    expect(m.summary.text).toMatch(/^No recommendation yet: none of the chosen platforms has a price in EUR\. /);
    expect(m.summary.text).toContain("Kinéis (max) is priced in USD: enter the USD → EUR rate to compare it.");
  });

  it("states the caveats of a lossy pick and of an estimated price", () => {
    const bit = fixed("bitpacked", 100);
    const m = report({
      scenario: { ...defaultScenario(), formats: ["bitpacked"], platforms: ["iridium-sbd"] },
      measured: [{ ...bit, lossy: true, errors: 3 }],
    });
    expect(m.summary.caveats.slice(0, 3)).toEqual([
      "Bit-packed rounds values to the precision the layout declares.",
      "Bit-packed could not encode 3 of 300 samples.",
      expect.stringMatching(/^The Iridium SBD \(9602\/9603\) price is an estimate: the paper's NTN rate/),
    ]);
  });
});

/** What a reader cannot look up: a file or folder of this repository. */
const REPO_PATH = /[\w./-]+\.(md|tsx?|json)\b|\b(docs|src|planning|renderer|codecs)\//;

describe("the report's sources", () => {
  it("are documents, never repository files, in the report's text and its CSV, for every platform", () => {
    expect("see docs/channel.md and domain-facts.md").toMatch(REPO_PATH);
    const ids = PLATFORMS.map((p) => p.id);
    for (let i = 0; i < ids.length; i += 12) {
      const m = report({
        scenario: { ...paperTable7Scenario(), formats: [...FORMAT_IDS], platforms: ids.slice(i, i + 12) },
        fitPlatforms: ids,
      });
      const text = JSON.stringify({ ...m, fleet: { ...m.fleet, scenario: undefined } });
      expect(text.match(REPO_PATH)).toBeNull();
      expect(reportCsv(m).match(REPO_PATH)).toBeNull();
    }
  });

  it("cite the paper in full", () => {
    expect(report({ scenario: paperTable7Scenario() }).references).toEqual([
      'Kumar et al., "Evaluating Binary Serialization Protocols for IoT/M2M Applications over Hybrid Terrestrial and Non-Terrestrial Networks", Telecom 2026, 7(2), 43',
    ]);
  });
});
