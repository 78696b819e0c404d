import { describe, expect, it } from "vitest";
import { axisLabelRoom, niceAxis } from "../src/ui/sizes/axis.ts";

describe("size axis", () => {
  it("rounds to readable ticks with headroom above the tallest bar or limit", () => {
    expect(niceAxis(414)).toEqual({ max: 500, ticks: [0, 100, 200, 300, 400, 500] });
    expect(niceAxis(160)).toEqual({ max: 200, ticks: [0, 50, 100, 150, 200] });
    expect(niceAxis(303)).toEqual({ max: 400, ticks: [0, 100, 200, 300, 400] });
    expect(niceAxis(72)).toEqual({ max: 80, ticks: [0, 20, 40, 60, 80] });
    expect(niceAxis(1)).toEqual({ max: 2, ticks: [0, 1, 2] });
    expect(niceAxis(12)).toEqual({ max: 15, ticks: [0, 5, 10, 15] });
  });

  it("leaves room for the longest tick label (5-digit ticks of a 2 000-field layout were cut at the edge)", () => {
    expect(axisLabelRoom(niceAxis(160).ticks)).toBe(48);
    // "40000 B": 7 characters
    expect(axisLabelRoom(niceAxis(30_049).ticks)).toBe(59);
    expect(axisLabelRoom(niceAxis(300_000).ticks)).toBeGreaterThan(axisLabelRoom(niceAxis(30_049).ticks));
  });
});
