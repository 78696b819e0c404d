// A batch of readings in every format, in both forms (issue #27): round trips at the declared precision,
// typed errors for what cannot be sent or read, the derived wire layout and the readings that fit.
import { describe, expect, it } from "vitest";
import { batchCodecFor, batchPlanFor, readingsThatFit } from "../src/batch/codec.ts";
import type { BatchForm } from "../src/batch/plan.ts";
import { fromWire, type BatchRecord } from "../src/batch/transform.ts";
import { DecodeError, EncodeError, LayoutError } from "../src/errors.ts";
import { codecFor, FORMAT_IDS } from "../src/formats/registry.ts";
import type { Layout } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";
import type { TypedRecord } from "../src/layout/values.ts";
import { paperTrackerPreset } from "../src/presets/paperTracker.ts";
import { Prng } from "../src/samples/prng.ts";
import { generateBatches } from "../src/samples/series.ts";

const tracker = parseLayout(paperTrackerPreset);
const withKeyframes = parseLayout({ ...paperTrackerPreset, batch: { ...paperTrackerPreset.batch!, keyframeEvery: 3 } });
const FORMS: BatchForm[] = ["columns", "delta"];
const N = 7;

/** The declared precision, worked out here from the preset (not with the codec's own units). */
const PRECISION: Record<string, number> = {
  latitude: 0.01,
  longitude: 0.01,
  temperature: 0.01,
  humidity: 0.01,
  speed: 0.1,
};
function quantised(r: TypedRecord): TypedRecord {
  const out: TypedRecord = { time: Math.round((r.time as number) * 10) / 10 };
  for (const [k, q] of Object.entries(PRECISION)) {
    const decimals = Math.round(-Math.log10(q));
    out[k] = Math.fround(Math.round((r[k] as number) * 10 ** decimals) / 10 ** decimals);
  }
  return out;
}

/** What f throws, or (protobuf's truncations) what it returns. */
function thrown(f: () => unknown): unknown {
  try {
    return f();
  } catch (e) {
    return e;
  }
}

describe.each(FORMAT_IDS.map((f) => [f] as const))("%s", (format) => {
  describe.each(FORMS.map((f) => [f] as const))("%s form", (form) => {
    describe.each([
      ["no keyframes", tracker],
      ["a keyframe every 3", withKeyframes],
    ] as const)("%s", (_name, layout) => {
      const codec = batchCodecFor(layout, format, form, N);
      const batches = [...generateBatches(layout, 4, N, 11), ...generateBatches(layout, 2, 3, 12)];

      it("round-trips every batch; the delta form gives the readings at their declared precision", () => {
        for (const b of batches) {
          const bytes = codec.encode(b);
          const back = codec.decode(bytes);
          expect(back.readings).toHaveLength(b.readings.length);
          // decoding again what was decoded changes nothing: the only loss is the first encode's
          expect(Uint8Array.from(codec.encode(back))).toEqual(Uint8Array.from(bytes));
          if (form === "delta") expect(back.readings).toEqual(b.readings.map(quantised));
          if (form === "columns" && ["protobuf", "struct", "struct-zlib", "sbe"].includes(format))
            expect(back).toEqual(b);
        }
      });

      it("every truncation of a message is a DecodeError, never a wrong reading", () => {
        const b = batches[0]!;
        const bytes = codec.encode(b);
        const whole = codec.decode(bytes);
        for (let cut = 0; cut < bytes.length; cut++) {
          const e = thrown(() => codec.decode(bytes.subarray(0, cut)));
          // Protobuf has no end marker: cut after a whole field, the fields after it read as their
          // defaults (as for one record); the readings cannot be cut unnoticed, every column's count is checked
          if (format === "protobuf" && !(e instanceof DecodeError))
            expect((e as { readings: unknown }).readings, `cut at ${cut}`).toEqual(whole.readings);
          else expect(e, `cut at ${cut}`).toBeInstanceOf(DecodeError);
        }
      });
    });
  });

  it("delta form: values finer than their precision come back rounded to it (the one lossy step)", () => {
    const codec = batchCodecFor(tracker, format, "delta", N);
    const b = generateBatches(tracker, 1, N, 8)[0]!;
    const fine = (r: TypedRecord): TypedRecord => ({
      ...r,
      time: (r.time as number) + 0.04,
      latitude: (r.latitude as number) + 0.0037,
      temperature: (r.temperature as number) - 0.0042,
      speed: (r.speed as number) + 0.033,
    });
    const readings = b.readings.map(fine);
    const back = codec.decode(codec.encode({ ...b, readings })).readings;
    expect(back).toEqual(readings.map(quantised));
    expect(back).not.toEqual(readings);
  });

  it("delta form: a change over the declared rate is an EncodeError naming the field and the readings", () => {
    const codec = batchCodecFor(tracker, format, "delta", N);
    const b = generateBatches(tracker, 1, 4, 3)[0]!;
    const readings = b.readings.map((r, i) => ({ ...r, latitude: i === 2 ? 32 : 31.5 }));
    const e = thrown(() => codec.encode({ ...b, readings }));
    expect(e).toBeInstanceOf(EncodeError);
    expect((e as EncodeError).message).toBe(
      `${format}: latitude: Latitude changes by 0.5 ° from reading 2 to reading 3; the delta form carries at most 0.19 ° between two readings (max rate 0.0002 ° per s)`,
    );
  });

  it("no reading, or more than the message holds, is an EncodeError", () => {
    const b = generateBatches(tracker, 1, N + 1, 3)[0]!;
    for (const form of FORMS) {
      const codec = batchCodecFor(tracker, format, form, N);
      expect(() => codec.encode({ ...b, readings: [] })).toThrow(EncodeError);
      expect(() => codec.encode(b)).toThrow(/8 readings; a message of this batch holds at most 7/);
    }
  });
});

describe("the wire layout", () => {
  it("columns: each per-reading leaf an array of its own type, once fields unchanged", () => {
    const c = batchCodecFor(tracker, "protobuf", "columns", N);
    const lat = c.wireLayout.fields.find((f) => f.key === "latitude")!;
    expect(lat.type).toEqual({
      kind: "array",
      of: tracker.fields.find((f) => f.id === "latitude")!.type,
      maxCount: N,
      fixed: false,
    });
    // a scalar per-reading field keeps its protobuf number: the column is its packed repeated field
    expect(lat.options?.protobuf?.number).toBe(17);
    expect(c.wireLayout.fields.find((f) => f.key === "msisdn")).toEqual(tracker.fields.find((f) => f.key === "msisdn"));
    expect("batch" in c.wireLayout).toBe(false);
    expect(c.origin("latitude")).toEqual({ field: "latitude", part: "column" });
    expect(c.origin("msisdn")).toEqual({ field: "msisdn", part: "once" });
  });

  it("delta: first in units, differences as wide as the rate, offsets of the time", () => {
    const c = batchCodecFor(withKeyframes, "bitpacked", "delta", N);
    const byKey = new Map(c.wireLayout.fields.map((f) => [f.key, f] as const));
    expect(byKey.get("latitude")!.type).toEqual({ kind: "int", bits: 16, signed: true, min: -9000, max: 9000 });
    // 0.0002 °/s × 900 s = 0.18 ° = 18 units of 0.01, plus one for rounding both ends
    expect(byKey.get("latitude_d")!.type).toEqual({
      kind: "array",
      of: { kind: "int", bits: 8, signed: true, min: -19, max: 19 },
      maxCount: 4,
      fixed: false,
    });
    expect(byKey.get("latitude_k")!.type).toMatchObject({ kind: "array", maxCount: 2 });
    expect(byKey.get("time")!.type).toEqual(tracker.fields.find((f) => f.id === "time")!.type);
    // offsets in tenths of a second, up to twice the interval per reading
    expect(byKey.get("time_t")!.type).toMatchObject({ of: { kind: "int", min: 0, max: 2 * 6 * 9000 }, maxCount: 6 });
    expect(c.origin("latitude_d")).toEqual({ field: "latitude", part: "next" });
    expect(c.origin("latitude_k")).toEqual({ field: "latitude", part: "keyframe" });
    expect(c.origin("time")).toEqual({ field: "time", part: "time-base" });
    expect(c.origin("time_t")).toEqual({ field: "time", part: "time-offset" });
    expect(c.origin("nope")).toBeUndefined();
    // one reading per message: no columns of next readings at all
    const one = batchCodecFor(tracker, "bitpacked", "delta", 1);
    expect(one.wireLayout.fields.map((f) => f.key)).not.toContain("latitude_d");
  });

  it("a batch that breaks the rules (a draft not validated) is a LayoutError in the rules' words", () => {
    const draft = { ...tracker, batch: { ...tracker.batch!, intervalSeconds: 0 } };
    expect(() => batchCodecFor(draft, "cbor", "delta", 3)).toThrow(
      "Interval is 0 s; it must be more than 0 s, because it is the time between two readings.",
    );
    expect(() => batchCodecFor({ ...tracker, batch: undefined }, "cbor", "delta", 3)).toThrow(LayoutError);
  });

  it("is cached per layout object, format, form and count", () => {
    expect(batchCodecFor(tracker, "cbor", "delta", 5)).toBe(batchCodecFor(tracker, "cbor", "delta", 5));
    expect(batchCodecFor(tracker, "cbor", "delta", 5).wireLayout).toBe(
      batchCodecFor(tracker, "json", "delta", 5).wireLayout,
    );
    expect(batchCodecFor(tracker, "cbor", "delta", 6)).not.toBe(batchCodecFor(tracker, "cbor", "delta", 5));
  });
});

describe("time as a base plus offsets", () => {
  const codec = batchCodecFor(tracker, "protobuf", "delta", N);
  const b = generateBatches(tracker, 1, 5, 21)[0]!;
  const at = (times: number[]): BatchRecord => ({
    ...b,
    readings: b.readings.map((r, i) => ({ ...r, time: times[i]! })),
  });
  const t0 = b.readings[0]!.time as number;

  it("an irregular or missing reading keeps its own time, never shifted", () => {
    // tenths of a second, the time field's resolution
    const times = [t0, t0 + 903.4, t0 + 2700, t0 + 2701.1, t0 + 4500].map((t) => Math.round(t * 10) / 10);
    expect(codec.decode(codec.encode(at(times))).readings.map((r) => r.time)).toEqual(times);
  });

  it("a reading before the first, or later than the message can span, is an EncodeError", () => {
    expect(() => codec.encode(at([t0, t0 - 1, t0 + 1800, t0 + 2700, t0 + 3600]))).toThrow(
      /reading 2 is earlier than reading 1; the readings of a message go oldest first/,
    );
    expect(() => codec.encode(at([t0, t0 + 900, t0 + 1800, t0 + 2700, t0 + 10801]))).toThrow(
      /reading 5 is 10801 s after reading 1; a message of 7 readings spans at most 10800 s/,
    );
  });
});

describe("decoding checks what a malformed message can break", () => {
  const codec = batchCodecFor(withKeyframes, "protobuf", "delta", N);
  const plan = batchPlanFor(withKeyframes, "delta", N);
  const wire = codecFor(codec.wireLayout, "protobuf");
  const good = wire.decode(codec.encode(generateBatches(withKeyframes, 1, 6, 4)[0]!));
  /** the batch's own checks, on a wire record any format could have read (some formats check less) */
  const bad = (change: TypedRecord) => {
    const e = thrown(() => fromWire(plan, "protobuf", { ...good, ...change }));
    expect(e).toBeInstanceOf(DecodeError);
    return (e as DecodeError).message;
  };
  const lat = good.latitude_d as number[];

  it("the message as sent decodes; a count past the wire's bounds is the format's DecodeError", () => {
    expect(fromWire(plan, "protobuf", good).readings).toHaveLength(6);
    const loose = codecFor(
      {
        ...codec.wireLayout,
        fields: codec.wireLayout.fields.map((f) =>
          f.key === "count" ? { ...f, type: { kind: "int", bits: 32, signed: false } } : f,
        ),
      },
      "protobuf",
    );
    expect(() => codec.decode(loose.encode({ ...good, count: 10 }))).toThrow(DecodeError);
  });

  it("a column that disagrees with the count", () => {
    expect(bad({ speed_d: [...(good.speed_d as number[]), 0] })).toMatch(
      /the message says 6 readings, but Speed has 7/,
    );
    expect(bad({ count: 5 })).toMatch(/the message says 5 readings, but UTC time has 6/);
  });

  it("no reading, or more than the batch holds", () => {
    expect(bad({ count: 0 })).toMatch(/the message holds no reading/);
    expect(bad({ count: 10 })).toMatch(/10 readings; a message of this batch holds at most 7/);
  });

  it("a difference past its width, though its integer type holds it", () => {
    expect(bad({ latitude_d: [100, ...lat.slice(1)] })).toMatch(
      /Latitude: the difference 100 to reading 2 is past its width ±19/,
    );
  });

  it("a reading that comes out past the declared range", () => {
    expect(bad({ latitude: 9000, latitude_d: [19, 0, 0, 0] })).toMatch(
      /Latitude: reading 2 comes out at 9019 units, outside -9000 … 9000/,
    );
  });

  it("keyframes that do not match the count", () => {
    expect(bad({ latitude_d: lat.slice(1), latitude_k: [3000, 3000] })).toMatch(/Latitude: 2 keyframes for 6 readings/);
  });

  it("a time offset past the span", () => {
    const t = good.time_t as number[];
    expect(bad({ time_t: [...t.slice(0, -1), 2 * 6 * 9000 + 1] })).toMatch(
      /UTC time: reading 6's offset 108001 is outside 0 … 108000/,
    );
  });
});

describe("readings that fit", () => {
  it("n readings fit the limit in every generated message, n + 1 do not", () => {
    for (const [format, form] of [
      ["bitpacked", "delta"],
      ["protobuf", "delta"],
      ["bitpacked", "columns"],
    ] as const) {
      const n = readingsThatFit(tracker, format, form, 160, 1);
      expect(n, `${format} ${form}`).toBeGreaterThan(0);
      // every one of as many messages as make 1024 readings, at least 16
      const messages = (k: number) => Math.max(16, Math.ceil(1024 / k));
      const size = (k: number) =>
        Math.max(
          ...generateBatches(tracker, messages(k), k, 1).map(
            (b) => batchCodecFor(tracker, format, form, k).encode(b).length,
          ),
        );
      expect(size(n)).toBeLessThanOrEqual(160);
      expect(size(n + 1)).toBeGreaterThan(160);
    }
    expect(readingsThatFit(tracker, "bitpacked", "delta", 160)).toBeGreaterThan(
      readingsThatFit(tracker, "bitpacked", "columns", 160),
    );
    expect(readingsThatFit(tracker, "json", "delta", 160)).toBe(0);
  });

  it("a value that is rare but large is met: the messages checked hold at least 1024 readings", () => {
    const rare = parseLayout({
      format: "satlayout",
      version: 1,
      name: "Rare",
      fields: [
        {
          id: "v",
          key: "v",
          name: "V",
          type: { kind: "int", bits: 32, signed: false },
          // a 1-byte varint, and one reading in 500 a 5-byte one
          sample: { kind: "choice", values: [1, 4_000_000_000], weights: [0.998, 0.002] },
        },
      ],
      batch: { perReading: [{ field: "v" }], intervalSeconds: 60, readings: { kind: "fixed", count: 10 } },
    });
    const largest = (messages: number, k: number) =>
      Math.max(
        ...generateBatches(rare, messages, k, 1).map(
          (b) => batchCodecFor(rare, "protobuf", "columns", k).encode(b).length,
        ),
      );
    // eight messages of 38 readings happen to hold no large value: 38 would have been the answer
    expect(largest(8, 38)).toBeLessThanOrEqual(40);
    expect(largest(Math.ceil(1024 / 38), 38)).toBeGreaterThan(40);
    const n = readingsThatFit(rare, "protobuf", "columns", 40, 1);
    expect(n).toBe(34);
    expect(largest(Math.ceil(1024 / n), n)).toBeLessThanOrEqual(40);
  });
});

describe("groups, fixed arrays and every numeric kind per reading", () => {
  const layout = parseLayout({
    format: "satlayout",
    version: 1,
    name: "Everything per reading",
    fields: [
      {
        id: "name",
        key: "name",
        name: "Name",
        type: { kind: "string", maxLength: 8 },
        sample: { kind: "constant", value: "buoy-1" },
      },
      {
        id: "t",
        key: "t",
        name: "Time",
        type: { kind: "timestamp", encoding: "epoch", resolution: 0.1, min: 1.7e9, max: 1.9e9 },
        sample: { kind: "constant", value: 1748779200.5 },
      },
      {
        id: "gps",
        key: "gps",
        name: "GPS",
        type: {
          kind: "group",
          fields: [
            {
              id: "la",
              key: "lat",
              name: "Lat",
              type: { kind: "fixed", scale: 0.0001, offset: 0, min: -90, max: 90 },
              sample: { kind: "randomWalk", start: 45, maxRate: 0.00001 },
            },
            {
              id: "lo",
              key: "lon",
              name: "Lon",
              type: { kind: "float", bits: 64, min: -180, max: 180, precision: 0.001 },
              sample: { kind: "randomWalk", start: 7, maxRate: 0.00001, decimals: 3 },
            },
            {
              id: "st",
              key: "state",
              name: "State",
              type: {
                kind: "enum",
                values: [
                  { name: "FIX", value: 0 },
                  { name: "NOFIX", value: 1 },
                ],
              },
              sample: { kind: "hold", chance: 0.2, from: { kind: "choice", values: ["FIX", "NOFIX"] } },
            },
          ],
        },
      },
      {
        id: "acc",
        key: "acc",
        name: "Acc",
        type: {
          kind: "array",
          of: { kind: "int", bits: 16, signed: true, min: -2000, max: 2000 },
          maxCount: 3,
          fixed: true,
        },
        sample: { kind: "elements", each: [{ kind: "randomWalk", start: 0, maxRate: 0.5, min: -100, max: 100 }] },
      },
      {
        id: "seq",
        key: "seq",
        name: "Seq",
        type: { kind: "int", bits: 32, signed: false },
        sample: { kind: "counter", start: 10, step: 1 },
      },
      { id: "big", key: "big", name: "Big", type: { kind: "int", bits: 64, signed: true } },
    ],
    batch: {
      perReading: [
        { field: "t" },
        { field: "gps", maxRate: 0.00001 },
        { field: "acc", maxRate: 1 },
        { field: "seq", maxRate: 0.1 },
        { field: "big" },
      ],
      intervalSeconds: 10,
      readings: { kind: "fixed", count: 9 },
      time: "t",
      keyframeEvery: 4,
    },
  });

  it("leaves by path: keys joined with _, array elements by index, 64-bit ints and enums as columns", () => {
    const c = batchCodecFor(layout, "protobuf", "delta", 9);
    expect(c.wireLayout.fields.map((f) => f.key)).toEqual([
      "count",
      "name",
      "t",
      "t_t",
      "gps_lat",
      "gps_lat_d",
      "gps_lat_k",
      "gps_lon",
      "gps_lon_d",
      "gps_lon_k",
      "gps_state",
      "acc_0",
      "acc_0_d",
      "acc_0_k",
      "acc_1",
      "acc_1_d",
      "acc_1_k",
      "acc_2",
      "acc_2_d",
      "acc_2_k",
      "seq",
      "seq_d",
      "seq_k",
      "big",
    ]);
    expect(c.origin("gps_lat_d")).toEqual({ field: "gps/la", part: "next" });
    expect(c.origin("acc_2_k")).toEqual({ field: "acc", part: "keyframe", element: 2 });
    expect(c.origin("big")).toEqual({ field: "big", part: "column" });
    // 0.00001 °/s × 10 s = 0.0001 ° = 1 unit of the fixed scale, plus one for rounding
    const d = c.wireLayout.fields.find((f) => f.key === "gps_lat_d")!;
    expect(d.type).toMatchObject({ of: { min: -2, max: 2 }, maxCount: 6 });
  });

  it.each(FORMAT_IDS.map((f) => [f] as const))(
    "%s: both forms give back the readings exactly (values on the grid)",
    (format) => {
      for (const form of FORMS) {
        const codec = batchCodecFor(layout, format, form, 9);
        for (const b of generateBatches(layout, 3, 9, 2)) {
          const back = codec.decode(codec.encode(b));
          expect(back, form).toEqual(b);
        }
      }
    },
  );

  it("values outside their declared range, or not of their type, are EncodeErrors", () => {
    const codec = batchCodecFor(layout, "cbor", "delta", 9);
    const b = generateBatches(layout, 1, 3, 2)[0]!;
    const with_ = (i: number, change: TypedRecord) => ({
      ...b,
      readings: b.readings.map((r, j) => (j === i ? { ...r, ...change } : r)),
    });
    expect(() => codec.encode(with_(1, { seq: 1.5 }))).toThrow(/reading 2: Seq is 1.5, not a value of its type/);
    expect(() => codec.encode(with_(0, { acc: [3000, 0, 0] }))).toThrow(
      /reading 1: Acc \[1\] 3000 is outside its range -2000 … 2000/,
    );
    const { seq: _seq, ...noSeq } = b.readings[2]!;
    expect(() => codec.encode({ ...b, readings: [b.readings[0]!, b.readings[1]!, noSeq] })).toThrow(
      /reading 3 has no value for Seq/,
    );
  });
});

describe("spans and malformed bytes", () => {
  it.each(FORMAT_IDS.map((f) => [f] as const))("%s: every span names a wire field origin() knows", (format) => {
    for (const form of FORMS) {
      const codec = batchCodecFor(withKeyframes, format, form, N);
      const encoded = codec.encodeWithSpans(generateBatches(withKeyframes, 1, N, 5)[0]!);
      // a compressed format's spans are the stream's before compression
      const { spans } = encoded.uncompressed ?? encoded;
      const named = spans.filter((s) => s.field !== "");
      expect(named.length).toBeGreaterThan(0);
      for (const s of named) expect(codec.origin(s.field), `${form} ${s.field}`).toBeDefined();
      const parts = [...new Set(named.map((s) => codec.origin(s.field)!.part))].sort();
      const all =
        form === "delta"
          ? ["count", "first", "keyframe", "next", "once", "time-base", "time-offset"]
          : ["column", "once"];
      // bit-packing gives a byte shared by several fields to one of them: a 3-bit count may own none
      if (format === "bitpacked") expect(all).toEqual(expect.arrayContaining(parts));
      else expect(parts).toEqual(all);
    }
  });

  it.each(FORMAT_IDS.map((f) => [f] as const))(
    "%s: changed bytes give a DecodeError or readings that encode again to the same readings",
    (format) => {
      const rng = new Prng(`mutate ${format}`);
      for (const form of FORMS) {
        const codec = batchCodecFor(withKeyframes, format, form, N);
        const bytes = codec.encode(generateBatches(withKeyframes, 1, N, 6)[0]!);
        let decoded = 0;
        for (let k = 0; k < 300; k++) {
          const m = Uint8Array.from(bytes);
          for (let j = rng.int(1, 3); j > 0; j--) m[rng.int(0, m.length - 1)] = rng.int(0, 255);
          let back: BatchRecord;
          try {
            back = codec.decode(m);
          } catch (e) {
            expect(e, `${form} mutation ${k}`).toBeInstanceOf(DecodeError);
            continue;
          }
          decoded++;
          expect(codec.decode(codec.encode(back)).readings, `${form} mutation ${k}`).toEqual(back.readings);
        }
        // some mutations land in values and still decode: the property was exercised
        expect(decoded, form).toBeGreaterThan(0);
      }
    },
  );
});
