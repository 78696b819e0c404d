import { describe, expect, it } from "vitest";
import { codecFor } from "../src/formats/registry.ts";
import type { FormatId } from "../src/formats/types.ts";
import { parseLayout } from "../src/layout/validate.ts";
import { platformById } from "../src/platforms/catalog.ts";
import { presetById, PRESETS } from "../src/presets/index.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";
import { fromPlain, toPlain } from "../src/text/plain.ts";

const N = 500;

describe("preset list", () => {
  it("lists the paper preset and the two platform-sized ones, ids unique", () => {
    expect(PRESETS.map((p) => p.id)).toEqual(["paper", "kineis-tracker", "lorawan-env"]);
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

/** Largest encoded size over N samples. */
function maxSize(layout: ReturnType<typeof parseLayout>, format: FormatId): number {
  const codec = codecFor(layout, format);
  let max = 0;
  for (const rec of generateSamples(layout, N, 3)) max = Math.max(max, codec.encode(rec).length);
  return max;
}

describe("presets fit the platform they are named after", () => {
  it("the Kinéis tracker fits 30 bytes in the fixed-layout formats (bit-packed even 19), and not as JSON or Protobuf", () => {
    const layout = parseLayout(presetById("kineis-tracker")!.layout);
    const limit = platformById("kineis")!.uplinkBytes!;
    expect(limit).toBe(30);
    const sizes = Object.fromEntries(
      (["struct", "sbe", "bitpacked", "protobuf", "json"] as const).map((f) => [f, maxSize(layout, f)]),
    );
    expect(sizes.struct).toBe(22);
    expect(sizes.sbe).toBe(30);
    expect(sizes.bitpacked).toBeLessThanOrEqual(platformById("kineis-standard")!.uplinkBytes!);
    expect(sizes.protobuf).toBeGreaterThan(limit);
    expect(sizes.json).toBeGreaterThan(limit);
  });

  it("the LoRaWAN sensor fits EU868 DR0 (51 bytes) in struct, SBE and Protobuf", () => {
    const layout = parseLayout(presetById("lorawan-env")!.layout);
    const limit = platformById("lorawan-eu868-dr0")!.uplinkBytes!;
    expect(limit).toBe(51);
    for (const f of ["struct", "sbe", "protobuf", "bitpacked"] as const)
      expect(maxSize(layout, f), f).toBeLessThanOrEqual(limit);
    expect(maxSize(layout, "json")).toBeGreaterThan(limit);
  });
});
