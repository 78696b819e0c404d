// A record over the platform's message size: the budget counts the fragments the cost model splits it into.
import { describe, expect, it } from "vitest";
import { DEFAULT_TRACKER, FRAGMENT_HEADER_BYTES, deviceBudget, recordBudget } from "../src/index.ts";

const common = { readingsPerMessage: 1, intervalSeconds: 21_600, device: DEFAULT_TRACKER };

describe("recordBudget", () => {
  it("a record that fits is one message: the same budget as deviceBudget", () => {
    const r = recordBudget({ ...common, choice: { platform: "astrocast" }, recordBytes: 139 });
    const d = deviceBudget({ ...common, choice: { platform: "astrocast" }, bytesOnAir: 139 });
    expect(r.fragmentsPerRecord).toBe(1);
    expect(r.bytesPerMessage).toBe(139);
    expect(r.batteryLifeYears).toBe(d.batteryLifeYears);
  });

  it("the paper's JSON (414 B) on Astrocast: 3 fragments of 158 B room + a 2 B header, 3 messages a reading", () => {
    const r = recordBudget({ ...common, choice: { platform: "astrocast" }, recordBytes: 414 });
    expect(FRAGMENT_HEADER_BYTES).toBe(2);
    expect(r.fragmentsPerRecord).toBe(3); // ceil(414 / 158)
    expect(r.bytesPerMessage).toBe(Math.ceil((414 + 3 * 2) / 3)); // 140
    expect(r.messagesPerDay).toBeCloseTo(12, 12);
    const one = deviceBudget({ ...common, choice: { platform: "astrocast" }, bytesOnAir: 140 });
    expect(r.energyPerReadingJ.radio).toBeCloseTo(3 * one.energyPerMessageJ.total, 12);
    expect(r.batteryLifeYears).toBeLessThan(one.batteryLifeYears);
  });

  it("LoRaWAN EU868 DR0 splits at its 51 B", () => {
    const r = recordBudget({ ...common, choice: { platform: "lorawan-eu868-dr0" }, recordBytes: 139 });
    expect(r.fragmentsPerRecord).toBe(3); // ceil(139 / 49)
    expect(r.bytesPerMessage).toBeLessThanOrEqual(51);
  });
});

describe("recordBudget over every measured size", () => {
  it("averages the costs of the sizes, not the cost of the mean size (Astrocast's second burst is a step)", () => {
    const at = (recordSizes?: number[]) =>
      recordBudget({ ...common, choice: { platform: "astrocast" }, recordBytes: 67, recordSizes });
    const small = deviceBudget({ ...common, choice: { platform: "astrocast" }, bytesOnAir: 39 });
    const big = deviceBudget({ ...common, choice: { platform: "astrocast" }, bytesOnAir: 94 });
    const exact = at([39, 94]);
    expect(exact.energyPerMessageJ.total).toBeCloseTo(
      (small.energyPerMessageJ.total + big.energyPerMessageJ.total) / 2,
      12,
    );
    expect(exact.airtimePerMessageS).toBeCloseTo((small.airtimePerMessageS + big.airtimePerMessageS) / 2, 12);
    // the mean size (67 B) is one burst of 5 fragments: cheaper than the average of a 3-fragment and a 2-burst message
    expect(at().energyPerMessageJ.total).toBeLessThan(exact.energyPerMessageJ.total);
    // fragments and bursts of "one message" are not shown when the messages differ
    expect(exact.fragments).toBeUndefined();
    expect(at([57, 57]).fragments).toBe(4);
  });

  it("fragments per record are averaged; the dwell time is judged on the longest message", () => {
    const r = recordBudget({
      ...common,
      choice: { platform: "lorawan-us915-dr0" },
      recordBytes: 11,
      recordSizes: [5, 11, 20],
    });
    // 5 and 11 B fit the 11 B of DR0; 20 B takes 3 fragments of 9 B room (ceil(20 / 9))
    expect(r.fragmentsPerRecord).toBeCloseTo((1 + 1 + 3) / 3, 12);
    expect(r.messagesPerDay).toBeCloseTo((4 * 5) / 3, 12);
    const dwell = r.limits.find((l) => l.id === "dwell-time")!;
    expect(dwell.usedS).toBeCloseTo(
      deviceBudget({ ...common, choice: { platform: "lorawan-us915-dr0" }, bytesOnAir: 11 }).airtimePerMessageS,
      12,
    );
  });

  it("Sigfox's 140 messages a day count every fragment", () => {
    const r = recordBudget({ ...common, intervalSeconds: 3600, choice: { platform: "sigfox" }, recordBytes: 139 });
    expect(r.fragmentsPerRecord).toBe(14); // ceil(139 / 10)
    const m = r.limits.find((l) => l.id === "messages-a-day")!;
    expect(m.usedMessages).toBeCloseTo(24 * 14, 9);
    expect(m.ok).toBe(false);
  });

  it("a size that is not a whole number of bytes is reported at recordSizes", () => {
    expect(() =>
      recordBudget({ ...common, choice: { platform: "astrocast" }, recordBytes: 10, recordSizes: [10, 1.5] }),
    ).toThrow("The record must be a whole number of bytes");
  });
});
