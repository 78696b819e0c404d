import { describe, expect, it } from "vitest";
import { parseLayout } from "../src/layout/validate.ts";
import { presetById, PRESETS } from "../src/presets/index.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";
import { fromPlain, toPlain } from "../src/text/plain.ts";

const N = 500;

describe("preset list", () => {
  it("lists the paper preset, the two platform-sized ones and the paper as a tracker, ids unique", () => {
    expect(PRESETS.map((p) => p.id)).toEqual(["paper", "kineis-tracker", "lorawan-env", "paper-tracker"]);
    expect(presetById("paper")!.layout).toBe(paperPreset);
    expect(presetById("nope")).toBeUndefined();
  });

  describe.each(PRESETS.map((p) => [p.id, p] as const))("%s", (_id, preset) => {
    const layout = parseLayout(preset.layout);

    it("parses, and its name and description are filled", () => {
      expect(layout.name).toBe(preset.layout.name);
      expect(preset.name.length).toBeGreaterThan(0);
      expect(preset.description.length).toBeGreaterThan(20);
      for (const f of layout.fields) expect(f.options?.protobuf?.number, f.id).toBeGreaterThan(0);
    });

    it("generates valid, reproducible samples", () => {
      const a = generateSamples(layout, N, 7);
      const b = generateSamples(layout, N, 7);
      expect(a).toEqual(b);
      expect(generateSamples(layout, N, 8)).not.toEqual(a);
      // fromPlain checks every type, range, enum and length against the layout
      for (const rec of a) expect(fromPlain(layout, toPlain(layout, rec, "json"), "json")).toEqual(rec);
    });
  });
});
