// Issue #28: the advisor ranks its suggestions by battery life gained when asked to. Battery life moves in steps of
// bytes on air, so the order differs from the bytes order: a change that crosses a step comes first, equal gains
// keep the bytes order, and a change the radio cannot carry goes last.
import { describe, expect, it } from "vitest";
import { rankByBattery } from "../src/advisor/battery.ts";
import type { Suggestion } from "../src/advisor/types.ts";

/** Only what the ranking reads: the id (to see the order) and the mean size with the change. */
const suggestion = (id: string, mean: number) => ({ id, sizes: { mean } }) as unknown as Suggestion;

/** A radio that sends 10-byte blocks: life falls by a step per block; over 45 B it cannot send at all. */
const lifeAt = (bytes: number) => (bytes > 45 ? null : 100 / Math.ceil(bytes / 10));

describe("rankByBattery", () => {
  it("puts the changes that cross a step first, keeps the bytes order on equal gains, unknown lives last", () => {
    // in the bytes order: a saves 0.4 B (stays in the 5th block), b and d cross into the 4th, c grows past 45 B
    const ranked = rankByBattery(
      [suggestion("a", 40.1), suggestion("b", 39.9), suggestion("c", 46), suggestion("d", 35)],
      40.5,
      lifeAt,
    );
    expect(ranked.map((s) => s.id)).toEqual(["b", "d", "a", "c"]);
    expect(ranked.map((s) => s.gainYears)).toEqual([5, 5, 0, null]);
    expect(ranked.map((s) => s.lifeYears)).toEqual([25, 25, 20, null]);
  });

  it("ranks by the life with the change when the current layout's messages cannot be sent (no gain to give)", () => {
    // the layout is over the radio's 45 B now: a makes 50 B (still unsendable), b 30 B, c 20 B
    const ranked = rankByBattery([suggestion("a", 50), suggestion("b", 30), suggestion("c", 20)], 48, lifeAt);
    expect(ranked.map((s) => [s.id, s.gainYears])).toEqual([
      ["c", null],
      ["b", null],
      ["a", null],
    ]);
    expect(ranked.map((s) => s.lifeYears)).toEqual([50, 100 / 3, null]);
  });
});
