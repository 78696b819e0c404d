// The batch settings of a layout (issue #27): old files open as before, bad settings are told in words
// with their paths, and the series generator steps by the interval within the declared rates.
import { describe, expect, it } from "vitest";
import { checkLayout, parseLayout } from "../src/layout/validate.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { paperTrackerPreset } from "../src/presets/paperTracker.ts";
import { generateSamples } from "../src/samples/generate.ts";
import { generateBatches, generateSeries } from "../src/samples/series.ts";

const f32 = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  key: id,
  name,
  type: { kind: "float", bits: 32, min: -90, max: 90, precision: 0.01 },
  ...extra,
});
const fields = [
  { id: "dev", key: "dev", name: "Device", type: { kind: "int", bits: 16, signed: false } },
  { id: "t", key: "t", name: "Time", type: { kind: "timestamp", encoding: "epoch", resolution: 1 } },
  f32("lat", "Latitude"),
  {
    id: "gps",
    key: "gps",
    name: "GPS",
    type: { kind: "group", fields: [f32("alt", "Altitude"), f32("hdop", "HDOP", { presence: "optional" })] },
  },
  { id: "soil", key: "soil", name: "Soil", type: { kind: "array", of: { kind: "bool" }, maxCount: 4 } },
  { id: "door", key: "door", name: "Door", type: { kind: "bool" } },
  f32("temp", "Temperature", { presence: "optional" }),
];
const batch = (extra: Record<string, unknown> = {}) => ({
  perReading: [{ field: "t" }, { field: "lat", maxRate: 0.001 }],
  intervalSeconds: 60,
  readings: { kind: "fixed", count: 10 },
  time: "t",
  ...extra,
});
const doc = (b: unknown) => ({ format: "satlayout", version: 1, name: "Tracker", fields, batch: b });

function problems(input: unknown): [string, string][] {
  const r = checkLayout(input);
  if (r.ok) throw new Error("expected the layout to be refused");
  return r.issues.map((i) => [i.path, i.message]);
}

describe("batch in the layout", () => {
  it("is optional: a file without it opens exactly as before, with no batch key", () => {
    const layout = parseLayout(paperPreset);
    expect("batch" in layout).toBe(false);
    expect(JSON.parse(JSON.stringify(layout))).toEqual(JSON.parse(JSON.stringify(parseLayout(paperPreset))));
    expect(parseLayout(doc(batch())).batch).toEqual(batch());
  });

  it("a good batch passes, and the tracker preset is one", () => {
    expect(checkLayout(doc(batch())).ok).toBe(true);
    expect(parseLayout(paperTrackerPreset).batch?.readings).toEqual({ kind: "fit", platform: "astrocast" });
  });

  it("per-reading fields: top-level, known, once each, required, fixed count", () => {
    const per = (...perReading: unknown[]) => problems(doc(batch({ perReading, time: undefined })));
    expect(per({ field: "alt" })).toEqual([
      [
        "batch.perReading[0].field",
        'Per-reading field 1 is "alt", a field inside the group "GPS"; only top-level fields repeat per reading, so choose the group itself.',
      ],
    ]);
    expect(per({ field: "nope" })).toEqual([
      [
        "batch.perReading[0].field",
        'Per-reading field 1 is "nope", which is no field of this layout; choose a top-level field.',
      ],
    ]);
    expect(per({ field: "lat" }, { field: "lat" })).toEqual([
      [
        "batch.perReading[1].field",
        'Per-reading field 2 ("Latitude") is also per-reading field 1; list each field once.',
      ],
    ]);
    expect(per({ field: "soil" })).toEqual([
      [
        "batch.perReading[0].field",
        'Per-reading field 1 ("Soil") cannot repeat per reading: it is an array without a fixed count; every reading needs the same number of values (tick Fixed count).',
      ],
    ]);
    expect(per({ field: "temp" })[0]![1]).toBe(
      'Per-reading field 1 ("Temperature") cannot repeat per reading: it is optional; every reading carries each per-reading value, so make it required.',
    );
    expect(per({ field: "gps" })[0]![1]).toBe(
      'Per-reading field 1 ("GPS") cannot repeat per reading: its field "HDOP" is optional; every reading carries each per-reading value, so make that field required.',
    );
    expect(per()).toEqual([
      [
        "batch.perReading",
        "The batch has no per-reading fields; it needs at least one field whose value is taken at every reading.",
      ],
    ]);
  });

  it("max rate: more than 0, and only on fields that hold numbers", () => {
    const rate = (field: string, maxRate: number) =>
      problems(doc(batch({ perReading: [{ field: "t" }, { field, maxRate }] })));
    expect(rate("lat", 0)).toEqual([
      [
        "batch.perReading[1].maxRate",
        'Max rate of per-reading field 2 is 0; it must be more than 0, because it is the most "Latitude" changes per second.',
      ],
    ]);
    expect(rate("door", 1)[0]![1]).toBe(
      'Max rate of per-reading field 2 is set, but "Door" is a bool and holds no numbers; clear it.',
    );
  });

  it("interval, count, platform and keyframes", () => {
    expect(problems(doc(batch({ intervalSeconds: 0 })))).toEqual([
      [
        "batch.intervalSeconds",
        "Interval is 0 s; it must be more than 0 s, because it is the time between two readings.",
      ],
    ]);
    expect(problems(doc(batch({ intervalSeconds: -5 })))[0]![0]).toBe("batch.intervalSeconds");
    expect(problems(doc(batch({ readings: { kind: "fixed", count: 0 } })))).toEqual([
      ["batch.readings.count", "Readings per message is 0; the least is 1."],
    ]);
    expect(problems(doc(batch({ readings: { kind: "fixed", count: 2.5 } })))[0]![1]).toBe(
      "Readings per message is 2.5; it must be a whole number.",
    );
    expect(problems(doc(batch({ readings: { kind: "fixed", count: 70_000 } })))[0]![1]).toMatch(
      /^Readings per message is 70,000; the most is 65,535, because Struct writes a variable count as a uint16/,
    );
    expect(problems(doc(batch({ readings: { kind: "fit", platform: " " } })))).toEqual([
      ["batch.readings.platform", "Platform is empty; choose the platform whose message the readings must fit."],
    ]);
    expect(problems(doc(batch({ keyframeEvery: 0 })))).toEqual([
      [
        "batch.keyframeEvery",
        "Keyframe every is 0; it must be a whole number of at least 1 (the reading count after which one is sent whole again).",
      ],
    ]);
  });

  it("the time field: a per-reading timestamp", () => {
    expect(problems(doc(batch({ time: "lat" })))).toEqual([
      [
        "batch.time",
        'Time field is "Latitude", a float; it must be a timestamp, because its readings are sent as a base time plus offsets.',
      ],
    ]);
    expect(problems(doc(batch({ time: "dev" })))).toEqual([
      [
        "batch.time",
        'Time field is "Device", which is not one of the per-reading fields; choose the per-reading timestamp.',
      ],
    ]);
  });

  it("a value that rarely changes: the values it changes to are values of the field's type", () => {
    const door = fields.find((f) => f.id === "door")!;
    const hold = { kind: "hold", chance: 0.1, from: { kind: "choice", values: [true, "open"] } };
    const input = { ...doc(batch()), fields: fields.map((f) => (f === door ? { ...door, sample: hold } : f)) };
    expect(problems(input)).toEqual([
      ["fields[5].sample.from.values[1]", 'Choice 2 it changes to is "open"; it must be true or false.'],
    ]);
    const bad = { ...hold, chance: 1.5 };
    const input2 = { ...doc(batch()), fields: fields.map((f) => (f === door ? { ...door, sample: bad } : f)) };
    expect(problems(input2)).toEqual([["fields[5].sample.chance", "Chance of a change is 1.5; the most is 1."]]);
  });

  it("shape problems are told like every other layout issue", () => {
    expect(problems(doc(batch({ every: 3 })))).toEqual([
      [
        "batch",
        'Readings per message settings has a property "every" that layout files do not have; remove it or correct the name.',
      ],
    ]);
    expect(problems(doc(batch({ readings: { kind: "all" } })))[0]).toEqual([
      "batch.readings.kind",
      'Readings per message is "all"; allowed: "fixed", "fit".',
    ]);
  });
});

describe("series", () => {
  const layout = parseLayout(paperTrackerPreset);
  const batchOf = layout.batch!;

  it("is reproducible, and reading i is the same whatever the count", () => {
    const a = generateSeries(layout, 40, 3);
    expect(generateSeries(layout, 40, 3)).toEqual(a);
    expect(generateSeries(layout, 10, 3)).toEqual(a.slice(0, 10));
    expect(generateSeries(layout, 40, 4)).not.toEqual(a);
  });

  it("holds only the per-reading fields, the time advancing by exactly the interval", () => {
    const s = generateSeries(layout, 30, 1);
    const keys = batchOf.perReading.map((p) => layout.fields.find((f) => f.id === p.field)!.key).sort();
    for (const r of s) expect(Object.keys(r).sort()).toEqual(keys);
    for (let i = 1; i < s.length; i++) expect((s[i]!.time as number) - (s[i - 1]!.time as number)).toBeCloseTo(900, 6);
  });

  it("never moves a field faster than its declared rate", () => {
    const s = generateSeries(layout, 400, 9);
    for (const p of batchOf.perReading.filter((x) => x.maxRate !== undefined)) {
      const step = p.maxRate! * batchOf.intervalSeconds;
      let moved = 0;
      for (let i = 1; i < s.length; i++) {
        const d = Math.abs((s[i]![p.field] as number) - (s[i - 1]![p.field] as number));
        // float32 values: a few ulps over the quantised step
        expect(d, `${p.field} reading ${i}`).toBeLessThanOrEqual(step * (1 + 1e-5) + 1e-4);
        moved = Math.max(moved, d);
      }
      expect(moved, p.field).toBeGreaterThan(0);
    }
  });

  it("the series models: a random walk within its bounds, drift around its start, hold that rarely changes", () => {
    const walk = { kind: "randomWalk", start: 10, maxRate: 0.01, min: 5, max: 15 };
    const drift = { kind: "drift", start: 20, amplitude: 4, periodSeconds: 3600 };
    const hold = { kind: "hold", chance: 0.1, from: { kind: "uniform", min: 0, max: 100, decimals: 0 } };
    const l = parseLayout({
      format: "satlayout",
      version: 1,
      name: "Models",
      fields: [
        { id: "w", key: "w", name: "W", type: { kind: "float", bits: 64 }, sample: walk },
        { id: "d", key: "d", name: "D", type: { kind: "float", bits: 64 }, sample: drift },
        { id: "h", key: "h", name: "H", type: { kind: "int", bits: 8, signed: false }, sample: hold },
      ],
      batch: {
        perReading: [{ field: "w" }, { field: "d" }, { field: "h" }],
        intervalSeconds: 60,
        readings: { kind: "fixed", count: 4 },
      },
    });
    const s = generateSeries(l, 600, 2);
    const col = (k: string) => s.map((r) => r[k] as number);
    const w = col("w");
    expect(w[0]).toBe(10);
    for (let i = 1; i < w.length; i++) expect(Math.abs(w[i]! - w[i - 1]!)).toBeLessThanOrEqual(0.6 + 1e-9);
    expect(Math.min(...w)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...w)).toBeLessThanOrEqual(15);
    // drift: 60 readings of 60 s are one period: the sine is back at its start
    const d = col("d");
    expect(d[0]).toBe(20);
    expect(d[15]).toBeCloseTo(24, 9);
    expect(d[60]).toBeCloseTo(20, 9);
    const changes = col("h").filter((v, i, a) => i > 0 && v !== a[i - 1]).length;
    expect(changes).toBeGreaterThan(20);
    expect(changes).toBeLessThan(120);
    // independent samples step 1 s at a time: the walk moves at most 0.01 per sample
    const one = generateSamples(l, 50, 2).map((r) => r.w as number);
    for (let i = 1; i < one.length; i++) expect(Math.abs(one[i]! - one[i - 1]!)).toBeLessThanOrEqual(0.01 + 1e-12);
  });

  it("batches are cut from one continuous series; once fields drawn per message", () => {
    const bs = generateBatches(layout, 3, 4, 5);
    expect(bs.flatMap((b) => b.readings)).toEqual(generateSeries(layout, 12, 5));
    const once = generateSamples(layout, 3, 5);
    bs.forEach((b, m) => {
      expect(Object.keys(b.once)).not.toContain("latitude");
      expect(b.once.msisdn).toBe(once[m]!.msisdn);
    });
  });
});
