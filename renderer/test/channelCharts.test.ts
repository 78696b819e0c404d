import { describe, expect, it } from "vitest";
import { linearTop, logDomain } from "../src/pages/channel/chartDomain.ts";

describe("Channel chart axes leave room above the highest line (issue #26: lines clipped at the top)", () => {
  it("puts a linear axis' top at a round value at least 8 % above the largest point", () => {
    for (const max of [0.37, 1, 2.5, 9.99, 10, 47.2, 120, 1000]) {
      const top = linearTop([0.1, max / 2, max]);
      expect(top).toBeGreaterThanOrEqual(max * 1.08);
      // not so much room that the lines are squeezed into the bottom half
      expect(top).toBeLessThanOrEqual(max * 1.5);
    }
    expect(linearTop([2, 5, 10])).toBe(12);
    expect(linearTop([])).toBe(1);
    expect(linearTop([Number.NaN, 3])).toBe(4);
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
