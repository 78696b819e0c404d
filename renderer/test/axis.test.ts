import { describe, expect, it } from "vitest";
import { niceAxis } from "../src/components/analysis/axis.ts";

describe("size axis", () => {
  it("rounds to readable ticks with headroom above the tallest bar or limit", () => {
    expect(niceAxis(414)).toEqual({ max: 500, ticks: [0, 100, 200, 300, 400, 500] });
    expect(niceAxis(160)).toEqual({ max: 200, ticks: [0, 50, 100, 150, 200] });
    expect(niceAxis(303)).toEqual({ max: 400, ticks: [0, 100, 200, 300, 400] });
    expect(niceAxis(72)).toEqual({ max: 80, ticks: [0, 20, 40, 60, 80] });
    expect(niceAxis(1)).toEqual({ max: 2, ticks: [0, 1, 2] });
    expect(niceAxis(12)).toEqual({ max: 15, ticks: [0, 5, 10, 15] });
  });
});
