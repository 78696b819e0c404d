// The advisor's wire verdict on a batch layout whose readings per message is "as many as fit": the counts are
// measured as the decoder and the CLI measure them, so the verdict is the batch wire's, not "not compared".
import { describe, expect, it } from "vitest";
import { type Batch, parseLayout, presetById } from "#codecs";
import { wireVerdict } from "../src/advisor/wire.ts";

describe("advisor wire verdict of a batch change", () => {
  it("keyframes added to the paper tracker (fit: astrocast) break the bit-packed delta form, said in words", () => {
    const before = parseLayout(presetById("paper-tracker")!.layout);
    const after = parseLayout({ ...before, batch: { ...(before.batch as Batch), keyframeEvery: 2 } });
    const v = wireVerdict(before, after, "bitpacked");
    expect(v.compat).toBe("breaking");
    expect(v.reasons.some((r) => r.startsWith("delta form, ") && r.includes("keyframes none → every 2"))).toBe(true);
    expect(v.reasons.some((r) => r.includes("was not compared"))).toBe(false);
    // the columns form has no keyframes: unchanged
    expect(v.reasons.every((r) => !r.startsWith("columns form"))).toBe(true);
  });
});
