// A record over the platform's message size: the budget counts the messages the cost model splits it into (its
// fragmentation plan, the Cost page's) — one split for the Budget view, the report and `satpayload budget`.
import { describe, expect, it } from "vitest";
import { CODECS, generateSamples, parseLayout, presetById } from "#codecs";
import { measureSizes } from "#codecs/analysis";
import {
  DEFAULT_TRACKER,
  FRAGMENT_HEADER_BYTES,
  budgetRows,
  defaultScenario,
  deviceBudget,
  evaluateFleet,
  layoutStackId,
  sizeBudget,
} from "../src/index.ts";

const w = { intervalSeconds: 21_600, device: DEFAULT_TRACKER };
const common = { readingsPerMessage: 1, ...w };

describe("a given record size (sizeBudget)", () => {
  it("a record that fits is one message: the same budget as deviceBudget", () => {
    const r = sizeBudget("astrocast", 139, w)!;
    expect(r.messagesPerRecord).toBe(1);
    expect(r.bytesOnAir).toBe(139);
    expect(r.budget).toEqual(deviceBudget({ ...common, choice: { platform: "astrocast" }, bytesOnAir: 139 }));
  });

  it("the paper's JSON (414 B) on Astrocast: 3 fragments of 158 B room + a 2 B header, 3 messages a reading", () => {
    const r = sizeBudget("astrocast", 414, w)!;
    expect(FRAGMENT_HEADER_BYTES).toBe(2);
    expect(r.messagesPerRecord).toBe(3); // ceil(414 / 158)
    expect(r.bytesOnAir).toBe(Math.ceil((414 + 3 * 2) / 3)); // 140
    expect(r.budget!.messagesPerDay).toBeCloseTo(12, 12);
    const one = deviceBudget({ ...common, choice: { platform: "astrocast" }, bytesOnAir: 140 });
    expect(r.budget!.energyPerReadingJ.radio).toBeCloseTo(3 * one.energyPerMessageJ.total, 12);
    expect(r.budget!.batteryLifeYears).toBeLessThan(one.batteryLifeYears);
  });

  it("LoRaWAN EU868 DR0 splits at its 51 B; Sigfox's 140 messages a day count every fragment", () => {
    const dr0 = sizeBudget("lorawan-eu868-dr0", 139, w)!;
    expect(dr0.messagesPerRecord).toBe(3); // ceil(139 / 49)
    expect(dr0.bytesOnAir).toBeLessThanOrEqual(51);
    const sigfox = sizeBudget("sigfox", 139, { ...w, intervalSeconds: 3600 })!;
    expect(sigfox.messagesPerRecord).toBe(14); // ceil(139 / 10)
    const m = sigfox.budget!.limits.find((l) => l.id === "messages-a-day")!;
    expect(m.usedMessages).toBeCloseTo(24 * 14, 9);
    expect(m.ok).toBe(false);
  });

  it("a platform without a radio model has no budget", () => {
    expect(sizeBudget("swarm", 10, w)).toBeUndefined();
  });
});

describe("measured records (budgetRows over the fleet's cells)", () => {
  const paper = parseLayout(presetById("paper")!.layout);
  const measured = measureSizes(paper, generateSamples(paper, 200, 3)).map((m) => ({
    format: m.format,
    label: CODECS[m.format].info.label,
    stats: m.stats,
    sizes: m.sizes,
  }));
  const scenario = { ...defaultScenario(), platforms: ["astrocast", "lorawan-eu868-dr0"] };
  const cells = evaluateFleet(scenario, measured, { layout: layoutStackId(paper.name) }).cells;
  const rows = budgetRows(cells, w);

  it("count the cost model's mean fragments a record, each the mean fragment's bytes on air", () => {
    for (const c of cells) {
      const r = rows.find((x) => x.format === c.format && x.platformId === c.platformId)!;
      const split = c.fragmentation.mode === "fragmented" && c.fragmentation.fragments.mean > 1;
      // the Cost page's figure, not a count of the budget's own
      expect(r.messagesPerRecord).toBe(split ? c.fragmentation.fragments.mean : 1);
      expect(r.messagesPerRecord).toBeCloseTo(split ? c.fragmentsPerRecord : 1, 9);
      if (split) expect(r.bytesOnAir).toBe(Math.ceil(c.fragmentation.sentBytesPerRecord / r.messagesPerRecord));
      else expect(r.bytesOnAir).toBe(Math.ceil(c.onAir.mean));
    }
    const json = rows.find((r) => r.format === "json" && r.platformId === "astrocast")!;
    expect(json.messagesPerRecord).toBe(3);
    expect(json.budget!.messagesPerDay).toBeCloseTo(4 * 3, 9);
  });
});
