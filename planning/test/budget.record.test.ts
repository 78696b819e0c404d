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
