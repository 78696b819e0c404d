// The presets named after a platform fit that platform's message, measured with the codecs on samples
// (the preset list itself is tested with the wire, codecs/test/presets.test.ts).
import { describe, expect, it } from "vitest";
import { codecFor, type FormatId, generateSamples, parseLayout, presetById, readingsThatFit } from "#codecs";
import { platformById } from "../src/platforms/catalog.ts";

const N = 500;

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

  it("the container tracker sends a pass's readings in one Astrocast message: 13 bit-packed in the delta form", () => {
    const layout = parseLayout(presetById("paper-tracker")!.layout);
    const batch = layout.batch!;
    expect(batch.readings).toEqual({ kind: "fit", platform: "astrocast" });
    const limit = platformById(batch.readings.kind === "fit" ? batch.readings.platform : "")!.uplinkBytes!;
    expect(limit).toBe(160);
    const fit = (f: FormatId, form: "columns" | "delta") => readingsThatFit(layout, f, form, limit);
    // the paper's record is heavy once per message: its text forms leave no room for a reading
    expect(fit("json", "delta")).toBe(0);
    expect([fit("bitpacked", "columns"), fit("bitpacked", "delta")]).toEqual([8, 13]);
    for (const f of ["protobuf", "struct", "sbe", "bitpacked"] as const)
      expect(fit(f, "delta"), f).toBeGreaterThan(fit(f, "columns"));
  });
});
