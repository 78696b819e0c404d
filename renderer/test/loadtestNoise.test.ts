import { describe, expect, it } from "vitest";
import type { TimelinePoint } from "#contracts/loadtest/result.ts";
import { axisTick, axisWidth } from "../src/pages/loadtest/axis.ts";
import { bestWithinNoise, estimate } from "../src/pages/loadtest/noise.ts";

const points = (rps: number[], phase: TimelinePoint["phase"] = "measure"): TimelinePoint[] =>
  rps.map((r, t) => ({ t, phase, rps: r, p95: 10 + (t % 3), failures: 0, inFlight: 1, activeDevices: 1 }));

describe("run-to-run noise in the compare view", () => {
  it("estimates the mean and its standard error from the measured window only", () => {
    const e = estimate([...points([1, 1000], "warmup"), ...points([98, 102, 100, 96, 104])], "rps")!;
    expect(e.n).toBe(5);
    expect(e.mean).toBe(100);
    // sample sd of 98,102,100,96,104 is √10; se = √10/√5 = √2 (a value anyone can check by hand)
    expect(e.se).toBeCloseTo(Math.SQRT2, 12);
    expect(estimate(points([5]), "rps")).toBeNull();
  });

  it("calls a lead inside twice the combined error noise, and a clear one not", () => {
    const a = estimate(points([98, 102, 100, 96, 104]), "rps");
    const b = estimate(points([99, 103, 101, 97, 105]), "rps");
    const c = estimate(points([148, 152, 150, 146, 154]), "rps");
    expect(bestWithinNoise([a, b], "high")).toMatchObject({ best: 1, next: 0, delta: 1 });
    expect(bestWithinNoise([a, c], "high")).toBeNull();
    expect(bestWithinNoise([a, null], "high")).toBeNull();
  });
});

describe("requests/s axis labels", () => {
  it("fit their gutter: 12 500 reads 12.5k, never a clipped 2500", () => {
    expect(axisTick(12500)).toBe("12.5k");
    expect(axisTick(10000)).toBe("10k");
    expect(axisTick(950)).toBe("950");
    expect(axisTick(2.25)).toBe("2.3");
    for (const max of [5, 80, 950, 9999, 12500, 113000, 2_500_000]) {
      const widest = Math.max(...[max, max * 1.25, max / 2].map((v) => axisTick(v).length));
      expect(axisWidth(max), String(max)).toBeGreaterThanOrEqual(widest * 7);
    }
  });
});
