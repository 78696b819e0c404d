// Issue #26, points 1 and 2: the levers a firmware engineer reaches for (ranges from the values seen, shorter
// arrays, steps that fit the bits, field removal, shorter keys), positions never coarser than the user allows, and
// every change marked with what it does to receivers already deployed.
import { describe, expect, it } from "vitest";
import { codecFor, generateSamples, type LayoutInput, parseLayout, presetById } from "#codecs";
import { adviseFit, adviseStaged, applyAll, withBudget } from "../src/advisor/advise.ts";
import { fieldCandidates } from "../src/advisor/candidates.ts";
import type { Suggestion } from "../src/advisor/types.ts";

/** A 7-field tracker as a new user builds it: an int16 × 3 accelerometer that only reads ±2 g. */
const tracker = parseLayout({
  format: "satlayout",
  version: 1,
  name: "Tracker",
  fields: [
    {
      id: "lat",
      key: "lat",
      name: "Latitude",
      unit: "°",
      type: { kind: "fixed", scale: 0.00001, offset: 0, min: -90, max: 90 },
      sample: { kind: "uniform", min: 40, max: 50, decimals: 5 },
    },
    {
      id: "lon",
      key: "lon",
      name: "Longitude",
      unit: "°",
      type: { kind: "fixed", scale: 0.00001, offset: 0, min: -180, max: 180 },
      sample: { kind: "uniform", min: -5, max: 10, decimals: 5 },
    },
    {
      id: "acc",
      key: "acc",
      name: "Accelerometer",
      unit: "mg",
      type: { kind: "array", of: { kind: "int", bits: 16, signed: true }, maxCount: 3, fixed: true },
      sample: { kind: "uniform", min: -2000, max: 2000, decimals: 0 },
    },
    {
      id: "temp",
      key: "temperature",
      name: "Temperature",
      unit: "°C",
      type: { kind: "fixed", scale: 0.1, offset: 0, min: -40, max: 85 },
      sample: { kind: "uniform", min: -10, max: 40, decimals: 1 },
    },
    {
      id: "bat",
      key: "battery",
      name: "Battery",
      unit: "%",
      type: { kind: "int", bits: 8, signed: false, min: 0, max: 100 },
      sample: { kind: "uniform", min: 20, max: 100, decimals: 0 },
    },
    {
      id: "moving",
      key: "moving",
      name: "Moving",
      type: { kind: "bool" },
    },
    {
      id: "events",
      key: "events",
      name: "Events",
      type: { kind: "array", of: { kind: "int", bits: 8, signed: false }, maxCount: 10, fixed: false },
      sample: {
        kind: "elements",
        each: [{ kind: "uniform", min: 0, max: 200, decimals: 0 }],
        minCount: 0,
        maxCount: 4,
      },
    },
  ],
} satisfies LayoutInput);

const of = (s: readonly Suggestion[], id: string, kind?: string) =>
  s.find((x) => x.fieldId === id && (kind === undefined || x.transform.kind === kind));

/** 10 m in degrees, written out here rather than taken from the code under test. */
const TEN_METRES_DEG = 10 / (40_075_016.686 / 360);

describe("levers beyond powers of ten", () => {
  // 20 B bit-packed; 17 B is as close as the levers get without leaving data out, positions kept to 10 m
  const r = adviseFit(tracker, { targetBytes: 17, samples: 600 });

  it("narrows the int16 × 3 accelerometer to the values seen, losing nothing they hold", () => {
    expect(r.base.max).toBeGreaterThan(16);
    const acc = of(r.suggestions, "acc")!;
    expect(acc.transform.kind).toBe("narrow-range");
    const t = acc.transform as { min: number; max: number };
    // ±2000 with a margin, on 13 bits instead of 16, centred on the values seen
    expect(t.min).toBeLessThanOrEqual(-2000);
    expect(t.max).toBeGreaterThanOrEqual(2000);
    expect(t.max - t.min).toBe(2 ** 13 - 1);
    expect(Math.abs(t.max + t.min)).toBeLessThan(200);
    expect(acc.infoLostBits).toBe(0);
    expect(acc.loss!.measured).toBe(0);
    // 3 elements × 3 bits
    expect(acc.bytesSaved).toBeCloseTo(1.125, 9);
    expect(acc.caveat).toMatch(/values outside .* can no longer be sent/);
    expect(acc.inPlan).toBe(true);
  });

  it("never narrows a declared range to the samples: the paper's battery 0…100 % stays, whatever the samples hold", () => {
    const paper = parseLayout(presetById("paper")!.layout);
    const advice = adviseFit(paper, { targetBytes: 30, samples: 300 });
    // the samples of bat-soc, nsat and rssi use far less than their declared 0…100, 0…64, 0…99
    for (const id of ["bat-soc", "nsat", "rssi"])
      expect(
        advice.suggestions.filter((x) => x.transform.kind === "narrow-range" && x.transform.fieldId === id),
        id,
      ).toEqual([]);
    // an undeclared int16 (the tracker's accelerometer) is still narrowed: see above
    expect(of(r.suggestions, "acc", "narrow-range")).toBeDefined();
  });

  it("cuts a variable-length array to the most elements seen", () => {
    const ev = of(r.suggestions, "events", "array-length")!;
    expect(ev.transform).toEqual({ kind: "array-length", fieldId: "events", maxCount: 4 });
    expect(ev.infoLostBits).toBe(0);
    expect(ev.bytesSaved).toBeGreaterThan(0);
  });

  it("plans a layout whose every sample fits and decodes to the values sent", () => {
    expect(r.plan.fits).toBe(true);
    const layout = applyAll(tracker, r.plan.transforms);
    expect(parseLayout(layout)).toEqual(layout);
    for (const l of r.plan.losses) expect(l.measured, l.field).toBeLessThanOrEqual(l.bound + 1e-9);
  });

  it("lists leaving a field out as information lost, apart, and never plans it", () => {
    expect(r.removals.length).toBeGreaterThan(0);
    for (const x of r.removals) {
      expect(x.inPlan).toBe(false);
      expect(x.infoLostBits).toBeGreaterThan(0);
      expect(x.caveat).toMatch(/^information lost/);
      expect(x.loss!.text).toMatch(/not sent/);
    }
    expect(of(r.removals, "acc")!.title).toBe("Leave Accelerometer out");
    expect(r.plan.transforms.some((t) => t.kind === "remove-field")).toBe(false);
    // bit-packed, leaving the battery out gives up its 7 declared bits
    expect(of(r.removals, "bat")!.infoLostBits).toBe(7);
  });

  it("offers steps that are not powers of ten: the finest that fits fewer bits, π/180 for radians", () => {
    const angle = parseLayout({
      format: "satlayout",
      version: 1,
      name: "Angle",
      fields: [
        {
          id: "roll",
          key: "roll",
          name: "Roll",
          unit: "rad",
          type: { kind: "float", bits: 32, min: -3.15, max: 3.15, precision: 0.0001 },
          sample: { kind: "uniform", min: -3.1, max: 3.1, decimals: 4 },
        },
      ],
    } satisfies LayoutInput);
    const a = adviseFit(angle, { targetBytes: 1, samples: 200 });
    // one byte: 6.3 rad over 254 codes, rounded up to three digits, rather than the 1-2-5 step 0.05
    expect(a.plan.transforms).toEqual([{ kind: "fixed-point", fieldId: "roll", step: 0.0249 }]);
    expect(a.plan.fits).toBe(true);
    const steps = fieldCandidates(angle, generateSamples(angle, 200, 1))[0]!.options.map(
      (o) => (o as { step: number }).step,
    );
    expect(steps).toContain(Math.PI / 180);
    expect(steps).toContain(Math.PI / 1800);
  });
});

describe("a byte budget out of reach without leaving data out", () => {
  it("says what fitting it costs: which fields go, which are rounded, how many declared bits", () => {
    const kt = parseLayout(presetById("kineis-tracker")!.layout);
    const r = adviseFit(kt, { targetBytes: 12, samples: 300 });
    expect(r.plan.partial).toBe(true);
    // the plan itself still leaves nothing out and rounds nothing
    expect(r.plan.transforms.some((t) => t.kind === "remove-field")).toBe(false);
    const b = r.plan.budget!;
    expect(b.fits).toBe(true);
    expect(b.sizes.max).toBeLessThanOrEqual(12);
    expect(b.left.length).toBeGreaterThan(0);
    expect(b.transforms.filter((t) => t.kind === "remove-field" || t.kind === "array-length").length).toBe(
      b.left.length,
    );
    expect(applyAll(kt, b.transforms)).toEqual(b.layout);
    expect(b.bitsLost).toBeGreaterThan(0);
    expect(b.wire.compat).toBe("breaking");
  });

  it("works the budget out as a second stage: the advice first (budget pending), then the same budget plan", () => {
    const kt = parseLayout(presetById("kineis-tracker")!.layout);
    const staged = adviseStaged(kt, { targetBytes: 12, samples: 300 });
    expect(staged.result.plan.budgetPending).toBe(true);
    expect(staged.result.plan.budget).toBeNull();
    const whole = adviseFit(kt, { targetBytes: 12, samples: 300 });
    expect(whole.plan.budgetPending).toBe(false);
    expect(withBudget(staged.result, staged.budget())).toEqual(whole);
    // a plan that fits has nothing to wait for
    expect(adviseStaged(tracker, { targetBytes: 17, samples: 300 }).result.plan.budgetPending).toBe(false);
  });

  it("has no budget plan when the plan fits", () => {
    const r = adviseFit(tracker, { targetBytes: 17, samples: 300 });
    expect(r.plan.fits).toBe(true);
    expect(r.plan.budget).toBeNull();
  });
});

describe("positions", () => {
  it("never offers a latitude or longitude coarser than 10 m by default, even when the target is out of reach", () => {
    const r = adviseFit(tracker, { targetBytes: 6, samples: 300 });
    for (const s of [...r.suggestions, ...r.plan.transforms.map((t) => ({ transform: t }))])
      if (s.transform.kind === "fixed-point" && (s.transform.fieldId === "lat" || s.transform.fieldId === "lon"))
        expect(s.transform.step).toBeLessThanOrEqual(TEN_METRES_DEG);
    expect(of(r.suggestions, "lat")!.loss!.text).toMatch(/^±[\d.]+ m \(/);
  });

  it("goes coarser only as far as the precision the user sets, and treats an unnamed ±90° as a latitude", () => {
    const unnamed = parseLayout({
      ...tracker,
      fields: tracker.fields.map((f) => (f.id === "lat" ? { ...f, key: "p1", name: "P1" } : f)),
    });
    const samples = generateSamples(unnamed, 300, 1);
    const coarsest = (metres: number) =>
      Math.max(
        ...fieldCandidates(unnamed, samples, { positionMetres: metres })
          .find((fc) => fc.field.id === "lat")!
          .options.map((o) => (o.kind === "fixed-point" ? o.step : 0)),
      );
    expect(coarsest(10)).toBeLessThanOrEqual(TEN_METRES_DEG);
    expect(coarsest(1000)).toBeGreaterThan(TEN_METRES_DEG);
    expect(coarsest(1000)).toBeLessThanOrEqual(100 * TEN_METRES_DEG);
    // the error is said in metres although nothing in its name says "latitude"
    const r = adviseFit(unnamed, { targetBytes: 6, samples: 300 });
    expect(of(r.suggestions, "lat")!.loss!.text).toMatch(/^±[\d.]+ m \(/);
  });
});

describe("self-describing formats", () => {
  it("JSON: shorter keys measured with the real codec, lossless, and named as wire-breaking", () => {
    const r = adviseFit(tracker, { targetBytes: 40, format: "json", samples: 300 });
    const temp = of(r.suggestions, "temp", "short-key")!;
    expect(temp.transform).toEqual({ kind: "short-key", fieldId: "temp", key: "t" });
    // "temperature" → "t": 10 characters fewer in every message
    expect(temp.bytesSaved).toBe(10);
    expect(temp.infoLostBits).toBe(0);
    expect(temp.wire.compat).toBe("breaking");
    expect(temp.wire.reasons.join(" ")).toMatch(/temperature/);
    expect(temp.detail).toMatch(/Integer keys .* not supported/);
    // the plan's messages really are what the JSON codec writes for the renamed keys
    expect(r.plan.transforms).toContainEqual(temp.transform);
    const layout = applyAll(tracker, r.plan.transforms);
    const json = new TextDecoder().decode(codecFor(layout, "json").encode(generateSamples(layout, 1, 3)[0]!));
    expect(json).toMatch(/"t":/);
    expect(json).not.toMatch(/"temperature":/);
  });
});

describe("wire verdicts", () => {
  it("marks a Protobuf sint32 → uint32 change as breaking, with the reason, before it is applied", () => {
    const proto = parseLayout(presetById("kineis-tracker")!.layout);
    const r = adviseFit(proto, { targetBytes: 19, format: "protobuf", samples: 300 });
    // the latitude's scaled integer re-based on its minimum: no longer negative, so Protobuf writes uint32
    const lat = of(r.suggestions, "lat")!;
    expect(lat.wire.compat).toBe("breaking");
    expect(lat.wire.reasons.join(" ")).toMatch(/sint32 → uint32/);
    for (const s of r.suggestions.filter((x) => x.wire.compat !== "compatible"))
      expect(s.wire.reasons.length, s.id).toBeGreaterThan(0);
  });

  it("checks the plan against the version marked deployed too, which may already differ from the current layout", () => {
    const t = parseLayout(presetById("kineis-tracker")!.layout);
    // the receivers in the field were built before `seq` was added at the end
    const older = { ...t, fields: t.fields.slice(0, -1) };
    const r = adviseFit(t, {
      targetBytes: 24,
      format: "struct",
      samples: 200,
      deployed: { version: 3, label: "Field trial", layout: older },
    });
    expect(r.plan.deployedWire).toMatchObject({ compat: "breaking", version: 3, label: "Field trial" });
    expect(r.plan.deployedWire!.reasons.join(" ")).toMatch(/seq/);
    // deployed = current: the same verdict as against the current layout
    const same = adviseFit(t, {
      targetBytes: 24,
      format: "struct",
      samples: 200,
      deployed: { version: 5, label: null, layout: t },
    });
    expect(same.plan.deployedWire).toEqual({ ...same.plan.wire, version: 5, label: null });
    // no version marked deployed: nothing to say
    expect(adviseFit(t, { targetBytes: 24, format: "struct", samples: 200 }).plan.deployedWire).toBeNull();
  });

  it("says a change is compatible when the evolution check finds nothing on the wire", () => {
    // CBOR writes numbers as they are: the same value as float or as fixed-point reads the same
    const paper = parseLayout(presetById("paper")!.layout);
    const r = adviseFit(paper, { targetBytes: 30, format: "cbor", samples: 200 });
    const temp = r.suggestions.find((x) => x.fieldId === "temperature" && x.transform.kind === "fixed-point")!;
    expect(temp.wire).toEqual({ compat: "compatible", reasons: [] });
  });
});
