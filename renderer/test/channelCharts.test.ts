import { describe, expect, it } from "vitest";
import { linearAxis, logDomain } from "../src/pages/channel/chartDomain.ts";

describe("Channel chart axes leave room above the highest line (issue #26: lines clipped at the top)", () => {
  it("puts a linear axis' top on a round tick at least 8 % above the largest point", () => {
    for (const max of [0.37, 1, 2.5, 9.99, 10, 19.56, 47.2, 77.5, 120, 1000]) {
      const { top, ticks } = linearAxis([0.1, max / 2, max]);
      expect(top).toBeGreaterThanOrEqual(max * 1.08);
      // not so much room that the lines are squeezed into the bottom half
      expect(top).toBeLessThanOrEqual(max * 1.6);
      expect(ticks[0]).toBe(0);
      expect(ticks.at(-1)).toBe(top);
      expect(ticks.length).toBeGreaterThanOrEqual(4);
      expect(ticks.length).toBeLessThanOrEqual(7);
    }
    // the Channel page's fleet chart: p95 up to 19.56 s had ticks 0, 7, 14, 21, 25
    expect(linearAxis([1.35, 8.32, 19.56])).toEqual({ top: 25, ticks: [0, 5, 10, 15, 20, 25] });
    expect(linearAxis([0.25])).toEqual({ top: 0.3, ticks: [0, 0.1, 0.2, 0.3] });
    expect(linearAxis([])).toEqual({ top: 1, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1] });
    expect(linearAxis([Number.NaN, 3]).top).toBe(4);
  });

  it("spans a log axis over whole decades with every point strictly inside", () => {
    expect(logDomain([0.6, 3, 42])).toEqual([0.1, 100]);
    // a point on a power of ten gets a decade of room instead of sitting on the edge
    expect(logDomain([1, 100])).toEqual([0.1, 1000]);
    for (const values of [
      [0.52, 0.9],
      [3.3, 870],
      [0.05, 12_000],
    ]) {
      const [from, to] = logDomain(values);
      expect(from).toBeLessThan(Math.min(...values));
      expect(to).toBeGreaterThan(Math.max(...values) * 1.05);
    }
    // no positive value (every band empty): still a valid log axis
    expect(logDomain([0, Number.NaN])).toEqual([0.1, 10]);
  });
});
