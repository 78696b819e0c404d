import { describe, expect, it } from "vitest";
import { labelRow, labelRows } from "../src/ui/sizes/axis.ts";
import { limitMarks } from "../src/ui/sizes/limitLabels.ts";
import type { Limit } from "../src/ui/sizes/PlatformPicker.tsx";
import {
  airtimeText,
  airtimeVerdict,
  fitLabel,
  fitOf,
  reach,
  reachColor,
  shareOverShort,
  shareOverText,
  strictestFit,
} from "../src/ui/sizes/verdict.ts";

// strictest first, as chosenLimits gives them
const SIGFOX: Limit = { id: "sigfox", name: "Sigfox", bytes: 12 };
const KINEIS: Limit = { id: "kineis", name: "Kinéis", bytes: 30 };
const ASTRO: Limit = { id: "astrocast", name: "Astrocast", bytes: 160 };
const THREE = [SIGFOX, KINEIS, ASTRO];

describe("a size judged against every chosen limit (issue #26: every bar turned red over the strictest)", () => {
  it("tells 'over the strictest but fits a looser one' apart from 'over every limit'", () => {
    expect(reach(10, THREE)).toBe("all");
    expect(reach(12, THREE)).toBe("all");
    // Struct at 25 B: over Sigfox's 12 B, fits Kinéis' 30 B
    expect(reach(25, THREE)).toBe("some");
    expect(reach(160, THREE)).toBe("some");
    expect(reach(161, THREE)).toBe("none");
    expect(reach(1_000, [])).toBe("all");
  });

  it("colours a bar by that reach: its own colour, orange, red", () => {
    expect(reachColor(reach(10, THREE), "var(--bar-max)")).toBe("var(--bar-max)");
    expect(reachColor(reach(25, THREE), "var(--bar-max)")).toBe("var(--over-some)");
    expect(reachColor(reach(200, THREE), "var(--bar-max)")).toBe("var(--over)");
  });

  it("labels a format with the strictest limit its largest message fits", () => {
    expect(fitLabel(25, THREE)).toBe("fits 30 B");
    expect(fitLabel(31, THREE)).toBe("fits 160 B");
    expect(fitLabel(8, THREE)).toBe("fits all");
    expect(fitLabel(400, THREE)).toBe("over all");
    expect(fitLabel(8, [KINEIS])).toBe("fits");
    expect(fitLabel(40, [KINEIS])).toBe("over");
    expect(fitLabel(40, [])).toBe("");
    // whatever order the limits come in
    expect(strictestFit(25, [ASTRO, SIGFOX, KINEIS])).toBe(KINEIS);
  });

  it("judges one limit by max and p95", () => {
    expect(fitOf({ p95: 20, max: 30 }, 30)).toBe("fits");
    expect(fitOf({ p95: 20, max: 31 }, 30)).toBe("p95");
    expect(fitOf({ p95: 31, max: 40 }, 30)).toBe("over");
  });

  it("words the share over a limit so that it cannot be read as a size ('100 % over 30 B' was)", () => {
    expect(shareOverText(1, 30)).toBe("all samples exceed 30 B");
    expect(shareOverText(0.37, 12, "messages")).toBe("exceeds 12 B in 37 % of messages");
    expect(shareOverText(0.052, 12)).toBe("exceeds 12 B in 5.2 % of samples");
    expect(shareOverShort(1)).toBe("all exceed");
    expect(shareOverShort(0.37)).toBe("37 % exceed");
    // a rare overflow never rounds to "0 %"
    expect(shareOverText(0.0004, 12)).toBe("exceeds 12 B in 0.04 % of samples");
  });
});

describe("limit labels on the size chart", () => {
  // a 0…400 B axis drawn 200 px high from y = 16
  const y = (b: number) => 16 + 200 * (1 - b / 400);

  it("moves labels of close limits apart, in the order of their lines, and writes an equal limit once", () => {
    const marks = limitMarks([SIGFOX, { id: "astro19", name: "Astronode", bytes: 19 }, KINEIS, ASTRO], y, 12, 16, 216);
    expect(marks.map((m) => m.bytes)).toEqual([160, 30, 19, 12]);
    for (let i = 1; i < marks.length; i++) expect(marks[i]!.labelY - marks[i - 1]!.labelY).toBeGreaterThanOrEqual(12);
    // the label nearest the axis stays on its line or above it, never below the plot
    expect(marks.at(-1)!.labelY).toBeLessThanOrEqual(216);
    // a label far from the others does not move
    expect(marks[0]!.labelY).toBe(marks[0]!.lineY);

    const twice = limitMarks([SIGFOX, { id: "other", name: "Other 12", bytes: 12 }], y, 12, 16, 216);
    expect(twice).toHaveLength(1);
    expect(twice[0]!.names).toEqual(["Sigfox", "Other 12"]);
  });

  it("keeps labels inside the plot when the lines sit at its bottom edge", () => {
    const marks = limitMarks(
      [
        { ...SIGFOX, bytes: 1 },
        { ...KINEIS, bytes: 2 },
      ],
      y,
      12,
      16,
      216,
    );
    expect(Math.max(...marks.map((m) => m.labelY))).toBeLessThanOrEqual(216);
    expect(marks[1]!.labelY - marks[0]!.labelY).toBeGreaterThanOrEqual(12);
  });
});

describe("format names under the bars", () => {
  const names = ["JSON", "Protobuf", "Struct", "Struct+Zlib", "MsgPack", "PSON", "Bit-packed", "SBE", "CBOR"];
  it("stagger on two rows when a name is wider than its column ('StructStruct+Zlib')", () => {
    expect(labelRows(names, 90)).toBe(1);
    expect(labelRows(names, 50)).toBe(2);
  });

  it("take a third row when names two columns apart would still touch ('CBOR-intMsgPack-int' at 1024 px)", () => {
    const eleven = ["JSON", "CBOR", "CBOR-int", "MsgPack", "MsgPack-int", "Protobuf", "Struct", "Struct+Zlib"];
    // the designer's sizes chart at 1024 px: about 30 px a column
    expect(labelRows(eleven, 30)).toBe(3);
    expect(labelRows(eleven, 40)).toBe(2);
    expect(labelRow(4, 3)).toBe(1);
  });
});

describe("the verdict's airtime (issue #28): a LoRaWAN message that fits its bytes can still break its airtime limits", () => {
  it("says a DR0 message's time on air and how many a day The Things Network's 30 s allow", () => {
    // 40 B at EU868 DR0 (SF12): 2.466 s on air (docs/budget.md, case 1); 30 s / 2.466 s → 12 a day
    const v = airtimeVerdict("lorawan-eu868-dr0", 40)!;
    expect(v.seconds).toBeCloseTo(2.465792, 6);
    expect(v.perDay).toBe(12);
    expect(v.perDayLimit).toMatch(/fair use/);
    expect(airtimeText(v)).toBe("2.47 s on air · at most 12 a day (The Things Network fair use)");
  });

  it("at DR5 the fair use still binds before the 1 % duty cycle", () => {
    // 40 B at SF7: 102.656 ms; 30 s / 0.102656 s → 292 a day (the duty cycle would allow 8 416)
    const v = airtimeVerdict("lorawan-eu868-dr5", 40)!;
    expect(v.perDay).toBe(292);
    expect(airtimeText(v)).toBe("103 ms on air · at most 292 a day (The Things Network fair use)");
  });

  it("keeps a US915 DR0 message under the 400 ms dwell time, and counts the fair use", () => {
    // SF10/125 kHz, 11 B + 13 B of framing: 12.25 × 8.192 ms of preamble + 33 symbols = 370.688 ms
    const v = airtimeVerdict("lorawan-us915-dr0", 11)!;
    expect(v.seconds).toBeCloseTo(0.370688, 6);
    expect(v.over).toBeNull();
    expect(airtimeText(v)).toBe("371 ms on air · at most 80 a day (The Things Network fair use)");
  });

  it("has nothing to say without a radio model, or for a message the data rate cannot carry", () => {
    expect(airtimeVerdict("swarm", 20)).toBeUndefined();
    expect(airtimeVerdict("lorawan-eu868-dr0", 52)).toBeUndefined();
    // Astrocast has no airtime limit: the time on air only
    expect(airtimeText(airtimeVerdict("astrocast", 40)!)).toBe("1.60 s on air");
  });
});
