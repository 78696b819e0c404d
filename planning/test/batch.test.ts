// Issue 27 through planning: readings per message (fixed or as many as fit a platform), messages per
// day = readings per day ÷ readings per message in cost, fragmentation and the report, and the
// advisor's batch proposal with its freshness trade-off.
import { describe, expect, it } from "vitest";
import { CODECS, type FormatId, parseLayout, readingsThatFit } from "#codecs";
import { summarize } from "#codecs/analysis";
import { batchTracker, batchTrackerInput } from "#codecs-test/fixtures/batchTracker.ts";
import { proposeBatch } from "../src/advisor/batch.ts";
import { measureBatches } from "../src/batch/measure.ts";
import { BatchPlanError, messagesPerDayFor, readingsPerMessage } from "../src/batch/perMessage.ts";
import { evaluateFleet, type FormatSizesInput } from "../src/report/fleet.ts";
import { batchCadenceText, buildReport, type MeasuredFormat } from "../src/report/model.ts";
import { defaultScenario, type FleetScenario } from "../src/report/scenario.ts";

const fitTracker = parseLayout({
  ...batchTrackerInput,
  batch: { ...batchTrackerInput.batch!, readings: { kind: "fit", platform: "astrocast" } },
});

const fixed = (format: FormatId, bytes: number, readingsPerMessage?: number): FormatSizesInput => {
  const sizes = new Uint32Array(50).fill(bytes);
  return { format, label: CODECS[format].info.label, stats: summarize(sizes), sizes, readingsPerMessage };
};
const scenario = (perDay: number): FleetScenario => ({
  ...defaultScenario(),
  devices: 1_000,
  cadence: { kind: "per-day", messagesPerDay: perDay },
  months: 1,
  formats: ["bitpacked", "cbor"],
  platforms: ["astrocast"],
});

describe("readings per message", () => {
  it("is the layout's count, or as many as fit the platform it names", () => {
    expect(readingsPerMessage(batchTracker, "bitpacked", "delta")).toBe(6);
    const fit = readingsPerMessage(fitTracker, "bitpacked", "delta");
    expect(fit).toBe(readingsThatFit(fitTracker, "bitpacked", "delta", 160));
    expect(fit).toBeGreaterThan(6);
  });

  it("refuses a layout without a batch and a platform it cannot size for", () => {
    const plain = parseLayout({ ...batchTrackerInput, batch: undefined });
    expect(() => readingsPerMessage(plain, "cbor", "delta")).toThrow(BatchPlanError);
    const nowhere = parseLayout({
      ...batchTrackerInput,
      batch: { ...batchTrackerInput.batch!, readings: { kind: "fit", platform: "nbiot-tn" } },
    });
    expect(() => readingsPerMessage(nowhere, "cbor", "delta")).toThrow(/sets no message size limit/);
  });

  it("divides readings per day into messages per day", () => {
    expect(messagesPerDayFor(96, 8)).toBe(12);
    expect(messagesPerDayFor(96, 9)).toBeCloseTo(10.667, 3);
    expect(() => messagesPerDayFor(96, 0)).toThrow(RangeError);
  });
});

describe("cost and fragmentation of batches", () => {
  it("price a format at readings per day ÷ its readings per message", () => {
    const batched = evaluateFleet(scenario(96), [fixed("bitpacked", 120, 8), fixed("cbor", 150, 4)]);
    const bp = batched.cells.find((c) => c.format === "bitpacked")!;
    const cbor = batched.cells.find((c) => c.format === "cbor")!;
    expect([bp.readingsPerMessage, bp.messagesPerDay]).toEqual([8, 12]);
    expect([cbor.readingsPerMessage, cbor.messagesPerDay]).toEqual([4, 24]);
    expect(batched.batched).toBe(true);
    // the same bill as 12 (and 24) one-message-a-time messages of those sizes a day
    const asMessages = (perDay: number, f: FormatSizesInput) =>
      evaluateFleet(scenario(perDay), [{ ...f, readingsPerMessage: undefined }]).cells[0]!;
    expect(bp.monthly.exact).toBeCloseTo(asMessages(12, fixed("bitpacked", 120)).monthly.exact!, 9);
    expect(cbor.volume).toBeCloseTo(asMessages(24, fixed("cbor", 150)).volume, 9);
    expect(bp.fragmentation.transmissionsPerDay.max).toBe(12);
    // the interval chart counts readings too: every 15 minutes = 96 readings = 12 messages of 8
    const at15 = batched.byInterval.astrocast!.find((p) => p.x === 15)!;
    expect(at15.values.bitpacked).toBeCloseTo(bp.monthly.exact!, 9);
  });

  it("measures each format's messages at its own readings per message", () => {
    const { measured, skipped, oneReading } = measureBatches(fitTracker, ["bitpacked", "cbor"], "delta", 20);
    expect([skipped, oneReading]).toEqual([[], []]);
    for (const m of measured) {
      expect(m.readingsPerMessage).toBe(readingsPerMessage(fitTracker, m.format, "delta"));
      expect(m.stats.max).toBeLessThanOrEqual(160);
      expect(m.stats.count).toBe(20);
    }
  });

  it("measures a format in which not even one reading fits at one reading per message, and says so", () => {
    const tiny = parseLayout({
      ...batchTrackerInput,
      batch: { ...batchTrackerInput.batch!, readings: { kind: "fit", platform: "kineis-standard" } },
    });
    const { measured, oneReading } = measureBatches(tiny, ["json", "bitpacked"], "delta", 10);
    expect(oneReading.map((x) => x.format)).toEqual(["json"]);
    expect(oneReading[0]!.reason).toMatch(/not even one reading/);
    expect(measured.find((m) => m.format === "json")!.readingsPerMessage).toBe(1);
    expect(measured.find((m) => m.format === "bitpacked")!.readingsPerMessage).toBeGreaterThanOrEqual(1);
  });
});

describe("the advisor's batch proposal", () => {
  it("proposes as many readings as fit, with messages saved and the wait of the oldest reading", () => {
    const p = proposeBatch(batchTracker, "bitpacked", "delta", "astrocast");
    const fit = readingsThatFit(batchTracker, "bitpacked", "delta", 160);
    expect(p.readingsPerMessage).toBe(fit);
    expect(p.messageBytes).toBeLessThanOrEqual(160);
    expect(p.bytesPerReading).toBeLessThan(p.singleReadingBytes);
    expect(p.messagesPerDay).toEqual({ single: 96, batched: 96 / fit });
    expect(p.oldestWaitMinutes).toBe(fit * 15);
    expect(p.text).toContain(`send ${fit} readings per message`);
    expect(p.text).toContain(`1 Astrocast (Astronode S) message instead of ${fit}`);
  });

  it("keeps the oldest reading within a wait limit", () => {
    const p = proposeBatch(batchTracker, "bitpacked", "delta", "astrocast", { maxWaitMinutes: 60 });
    expect(p.readingsPerMessage).toBe(4);
    expect(p.oldestWaitMinutes).toBe(60);
    expect(p.text).toMatch(/would fit; the wait limit of 60 min keeps it at 4/);
  });
});

describe("the report shows the batch choice", () => {
  const measured = (batched: boolean): MeasuredFormat[] =>
    [fixed("bitpacked", 120, batched ? 8 : undefined), fixed("cbor", 150, batched ? 4 : undefined)].map((f) => ({
      ...f,
      lossy: false,
      errors: 0,
    }));
  const report = (batched: boolean) =>
    buildReport({
      projectName: "Tracker",
      layout: batchTracker,
      samples: { count: 50, seed: 1 },
      measured: measured(batched),
      scenario: scenario(96),
      generatedAt: "2026-11-29T00:00:00Z",
    });

  it("per format: readings per message, messages a day and the oldest reading's wait", () => {
    const r = report(true);
    expect(r.batch).toEqual({
      readingsPerDay: 96,
      intervalSeconds: 900,
      formats: [
        {
          format: "bitpacked",
          label: CODECS.bitpacked.info.label,
          readingsPerMessage: 8,
          messagesPerDay: 12,
          oldestWaitMinutes: 120,
        },
        {
          format: "cbor",
          label: CODECS.cbor.info.label,
          readingsPerMessage: 4,
          messagesPerDay: 24,
          oldestWaitMinutes: 60,
        },
      ],
    });
    expect(r.assumptions.join(" ")).toMatch(/96 readings\/day, sent 8 per message in .* \(12 messages\/day\)/);
  });

  it("says when the priced readings a day differ from what the batch samples, never both as one", () => {
    // the batch samples every 15 min (96 a day); a scenario priced at 4 a day must not read "4 a day (every 15 min)"
    const at = (perDay: number) =>
      batchCadenceText(
        buildReport({
          projectName: "Tracker",
          layout: batchTracker,
          samples: { count: 50, seed: 1 },
          measured: measured(true),
          scenario: scenario(perDay),
          generatedAt: "2026-11-29T00:00:00Z",
        }).batch!,
      );
    expect(at(96)).toBe("Each device takes 96 readings a day (one every 15 min)");
    expect(at(4)).toBe(
      "Priced at 4 readings a day per device (the cost scenario's cadence), while the layout's batch samples one " +
        "every 15 min, 96 a day: set the scenario's cadence to 96 a day to price every reading",
    );
  });

  it("says nothing of batches when every message carries one reading", () => {
    const r = report(false);
    expect(r.batch).toBeNull();
    expect(r.assumptions.join(" ")).toMatch(/96 messages\/day = 2,880,000 messages per month/);
  });
});
