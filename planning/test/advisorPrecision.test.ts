// Issue #13, item 1: the declared step is the user's contract. Information lost follows from it (log2(new/old) bits per
// value), never from what the samples contain; a plan that misses the target gives up nothing and says it is partial.
import { describe, expect, it } from "vitest";
import { codecFor, generateSamples, type LayoutInput, parseLayout, presetById } from "#codecs";
import { adviseFit, applyAll } from "../src/advisor/advise.ts";
import { fieldCandidates } from "../src/advisor/candidates.ts";
import type { Suggestion } from "../src/advisor/types.ts";

/** A tracker declared at 0.00001° whose samples only ever hold two decimals: the samples hide the loss. */
const gps = parseLayout({
  format: "satlayout",
  version: 1,
  name: "Container GPS tracker",
  fields: [
    {
      id: "lat",
      key: "latitude",
      name: "Latitude",
      unit: "°",
      type: { kind: "fixed", scale: 0.00001, offset: 0, min: -90, max: 90 },
      sample: { kind: "uniform", min: -90, max: 90, decimals: 2 },
    },
    {
      id: "lon",
      key: "longitude",
      name: "Longitude",
      unit: "°",
      type: { kind: "fixed", scale: 0.00001, offset: 0, min: -180, max: 180 },
      sample: { kind: "uniform", min: -180, max: 180, decimals: 2 },
    },
    {
      id: "t",
      key: "time",
      name: "Time",
      unit: "s",
      type: { kind: "timestamp", encoding: "epoch", resolution: 1, min: 1735689600, max: 2051222400 },
      sample: { kind: "walk", start: 1767225600, stepMin: 3600, stepMax: 3600 },
    },
  ],
} satisfies LayoutInput);

/** WGS 84 equatorial circumference / 360, written out here rather than taken from the code under test. */
const M_PER_DEG = 40_075_016.686 / 360;

const byField = (s: readonly Suggestion[], id: string) => s.find((x) => x.fieldId === id)!;

describe("precision lost follows from the declared step", () => {
  it("longitude fixed-point 0.00001 → 0.0055 is not lossless, even when every sample has two decimals", () => {
    // 26 bits bit-packed; 2 bytes hold 16: the finest three-digit step that fits them is 360° / 65 534 → 0.0055°
    // (a 1-2-5 step would have been 0.01°, twice as coarse)
    // 0.0055° is about 600 m: only offered once the user allows positions that coarse (the default is 10 m)
    const lonOnly = parseLayout({ ...gps, fields: gps.fields.filter((f) => f.id === "lon") });
    const r = adviseFit(lonOnly, { targetBytes: 2, samples: 400, limits: { positionMetres: 2000 } });
    expect(r.plan.fits).toBe(true);
    const lon = byField(r.suggestions, "lon");
    expect(lon.transform).toEqual({ kind: "fixed-point", fieldId: "lon", step: 0.0055 });
    // 550 times coarser: log2(550) ≈ 9.1 bits per value
    expect(lon.infoLostBits).toBeCloseTo(Math.log2(550), 9);
    expect(lon.bytesPerBit).not.toBeNull();
    expect(lon.bytesPerBit!).toBeCloseTo(lon.bytesSaved / Math.log2(550), 9);
    // the worst error, ±0.00275°, in metres
    expect(lon.loss!.bound).toBeCloseTo(0.00275, 12);
    expect(lon.loss!.text).toBe(`±${Math.round(0.00275 * M_PER_DEG)} m at the equator (0.00275°)`);
    expect(lon.title).toContain("0.0055°");
  });

  it("a timestamp made coarser loses log2(new/declared) bits although the samples are hourly", () => {
    const r = adviseFit(gps, { targetBytes: 5, samples: 400, limits: { locked: ["lat", "lon"] } });
    const t = byField(r.suggestions, "t");
    expect(t.transform.kind).toBe("timestamp");
    const res = (t.transform as { resolution: number }).resolution;
    expect(res).toBeGreaterThan(1);
    expect(t.infoLostBits).toBeCloseTo(Math.log2(res), 9);
    expect(t.loss!.text).toBe(`±${res / 2} s`);
    // what the samples show is reported apart from the guarantee: hourly samples come back exactly
    expect(t.loss!.measured).toBe(0);
  });

  it("never rounds a locked field, nor any field coarser than its minimum precision", () => {
    const locked = adviseFit(gps, { targetBytes: 6, samples: 300, limits: { locked: ["lat"] } });
    expect(locked.suggestions.some((s) => s.fieldId === "lat")).toBe(false);
    expect(locked.plan.transforms.some((t) => t.fieldId === "lat")).toBe(false);
    const limited = adviseFit(gps, { targetBytes: 6, samples: 300, limits: { maxStep: { lon: 0.001, lat: 0.001 } } });
    for (const s of limited.suggestions)
      if (s.transform.kind === "fixed-point") expect(s.transform.step).toBeLessThanOrEqual(0.001);
    for (const t of limited.plan.transforms) if (t.kind === "fixed-point") expect(t.step).toBeLessThanOrEqual(0.001);
  });

  it("rounds no more than the target needs: the next finer step offered for any rounded field no longer fits", () => {
    const samples = generateSamples(gps, 400, 1);
    const limits = { locked: ["t"], positionMetres: 100_000 };
    const r = adviseFit(gps, { targetBytes: 8, records: samples, limits });
    expect(r.plan.fits).toBe(true);
    const fixed = r.plan.transforms.filter((t) => t.kind === "fixed-point");
    expect(fixed.length).toBeGreaterThan(0);
    const offered = fieldCandidates(gps, samples, limits);
    for (const t of fixed) {
      // the finer steps the advisor could have taken instead (1-2-5 multiples and bit-fitting steps), or none
      const steps = offered
        .find((fc) => fc.field.id === t.fieldId)!
        .options.flatMap((o) => (o.kind === "fixed-point" && o.step < t.step ? [o.step] : []));
      const finer = steps.length ? Math.max(...steps) : undefined;
      const others = r.plan.transforms.filter((x) => x !== t);
      const layout = finer === undefined ? applyAll(gps, others) : applyAll(gps, [...others, { ...t, step: finer }]);
      const codec = codecFor(layout, "bitpacked");
      expect(Math.max(...samples.map((x) => codec.encode(x).length)), `${t.fieldId} at ${finer}`).toBeGreaterThan(8);
    }
  });
});

describe("a target out of reach: Kinéis 19 B in Protobuf", () => {
  const tracker = parseLayout(presetById("kineis-tracker")!.layout);
  const r = adviseFit(tracker, { targetBytes: 19, format: "protobuf", samples: 500 });

  it("says the plan is partial and gives up no precision for a target it misses", () => {
    expect(r.base.max).toBeGreaterThan(19);
    expect(r.plan.fits).toBe(false);
    expect(r.plan.partial).toBe(true);
    expect(r.plan.losses.every((l) => l.bound === 0)).toBe(true);
    expect(r.plan.transforms.every((t) => t.kind !== "fixed-point" && t.kind !== "timestamp")).toBe(true);
    // how close every allowed change would get, for the page to say
    expect(r.plan.closest!.max).toBeGreaterThan(19);
  });

  it("still lists what each field could give, with its declared cost", () => {
    const lat = byField(r.suggestions, "lat");
    expect(lat.infoLostBits).toBeCloseTo(Math.log2((lat.transform as { step: number }).step / 0.00001), 9);
    expect(lat.inPlan).toBe(false);
  });
});
