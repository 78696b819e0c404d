// Fleet battery swaps: counted per device over the horizon, priced battery + labour, compared between formats.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SWAP_PRICES,
  DEFAULT_TRACKER,
  SwapCostError,
  batterySwapCost,
  batterySwapSaving,
  deviceBudget,
} from "../src/index.ts";

const eur = (amount: number) => ({ amount, currency: "EUR" as const });

describe("batterySwapCost", () => {
  it("10 000 devices, 10 years, a 3-year battery: 3 swaps each at battery + labour", () => {
    const c = batterySwapCost({
      batteryLifeYears: 3,
      devices: 10_000,
      years: 10,
      prices: { battery: eur(5), labour: eur(60) },
    });
    expect(c).toEqual({ swapsPerDevice: 3, swaps: 30_000, perSwap: 65, total: 1_950_000, currency: "EUR" });
  });

  it("a battery that runs out exactly at the horizon is replaced; one that outlives it is not", () => {
    expect(batterySwapCost({ batteryLifeYears: 5, devices: 1, years: 10 }).swapsPerDevice).toBe(2);
    expect(batterySwapCost({ batteryLifeYears: 0.1 * 3, devices: 1, years: 0.9 }).swapsPerDevice).toBe(3);
    expect(batterySwapCost({ batteryLifeYears: 12.5, devices: 1, years: 10 }).swapsPerDevice).toBe(0);
  });

  it("the defaults are estimates, in euros", () => {
    const c = batterySwapCost({ batteryLifeYears: 1, devices: 2, years: 1 });
    expect(c.perSwap).toBe(DEFAULT_SWAP_PRICES.battery.amount + DEFAULT_SWAP_PRICES.labour.amount);
    expect(c.total).toBe(2 * c.perSwap);
  });

  it("bad input says which field", () => {
    const f = (i: Parameters<typeof batterySwapCost>[0]) => {
      try {
        batterySwapCost(i);
      } catch (e) {
        expect(e).toBeInstanceOf(SwapCostError);
        return (e as SwapCostError).path;
      }
      return "no error";
    };
    expect(f({ batteryLifeYears: 0, devices: 1, years: 1 })).toBe("batteryLifeYears");
    expect(f({ batteryLifeYears: 1, devices: -1, years: 1 })).toBe("devices");
    expect(f({ batteryLifeYears: 1, devices: 1, years: Number.NaN })).toBe("years");
    expect(
      f({
        batteryLifeYears: 1,
        devices: 1,
        years: 1,
        prices: { battery: eur(1), labour: { amount: 1, currency: "USD" } },
      }),
    ).toBe("prices.labour.currency");
  });
});

describe("the report's sentence: a smaller format on Astrocast, battery years and money saved", () => {
  it("a 39 B message (3 fragments) against a 94 B one (2 bursts): longer life, fewer swaps", () => {
    const life = (bytes: number) =>
      deviceBudget({
        choice: { platform: "astrocast" },
        bytesOnAir: bytes,
        readingsPerMessage: 1,
        intervalSeconds: 3_600,
        device: DEFAULT_TRACKER,
      }).batteryLifeYears;
    const small = life(39);
    const big = life(94);
    expect(small).toBeGreaterThan(big);
    const s = batterySwapSaving(small, big, { devices: 10_000, years: 10 });
    expect(s.moreYears).toBeCloseTo(small - big, 12);
    const swaps = (l: number) => Math.floor(10 / l + 1e-9);
    expect(s.saved).toBe((swaps(big) - swaps(small)) * 10_000 * 65);
    expect(s.saved).toBeGreaterThan(0);
  });
});
