// Proofs nobody here wrote (issue #27, point 6): a reference decoder written in Python from
// docs/design/batch-wire.md and docs/design/bitpacked-mapping.md alone (codecs/reference/ref_batch.py)
// derives the wire layout itself, reads our messages with its own bit-packed reader and with cbor2,
// msgpack and Python's json, and rebuilds the readings: thousands of generated readings over several
// layouts and seeds come back at their declared precision, exactly as our decoder returns them. Bad
// input (truncated, a count over the limit, a difference past its width, a value pushed out of range)
// is refused by both, never turned into a reading.
import { Decoder, Encoder } from "cbor-x";
import { describe, expect, test } from "vitest";
import { batchCodecFor, readingsThatFit, type BatchCodec } from "../../src/batch/codec.ts";
import type { BatchForm } from "../../src/batch/plan.ts";
import type { BatchRecord } from "../../src/batch/transform.ts";
import { DecodeError } from "../../src/errors.ts";
import type { FormatId } from "../../src/formats/registry.ts";
import type { Field, Layout, LayoutInput, ScalarType } from "../../src/layout/schema.ts";
import { parseLayout } from "../../src/layout/validate.ts";
import type { TypedRecord } from "../../src/layout/values.ts";
import { presetById } from "../../src/presets/index.ts";
import { generateBatches } from "../../src/samples/series.ts";
import { buoyBatch } from "../fixtures/batchExample.ts";
import { gpsTrackBatchInput } from "../fixtures/gpsTrack.ts";
import { runPython, safeBigints, untagFromPython } from "../helpers/python.ts";

const SCRIPT = "codecs/reference/ref_batch.py";
const LIMIT = 160; // Astrocast: the message size maxReadings is fitted to
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
type Result = { once?: unknown; readings?: unknown[]; error?: { kind: string; message: string } };
interface Job {
  format: FormatId;
  form: BatchForm;
  maxReadings: number;
  messages: string[];
  /** integer-keyed formats: the wire layout's numbers, the one thing Python is handed (as the integer-keys export would) */
  keys?: Record<string, string>;
}

/** Groups, a fixed array, fixed-point, a plain int, an epoch leaf that is not the time, an enum column, keyframes. */
const rigInput: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "Rig",
  fields: [
    { id: "dev", key: "dev", name: "Device", type: { kind: "string", maxLength: 8, charset: "alnum" } },
    { id: "t", key: "t", name: "Time", type: { kind: "timestamp", encoding: "epoch", resolution: 0.1 } },
    {
      id: "gps",
      key: "gps",
      name: "GPS",
      type: {
        kind: "group",
        fields: [
          { id: "lat", key: "lat", name: "Lat", type: { kind: "fixed", scale: 1e-5, min: -90, max: 90 } },
          { id: "alt", key: "alt", name: "Alt", type: { kind: "int", bits: 16, signed: true, min: -500, max: 9000 } },
        ],
      },
    },
    {
      id: "acc",
      key: "acc",
      name: "Acc",
      type: {
        kind: "array",
        of: { kind: "float", bits: 32, min: -20, max: 20, precision: 0.01 },
        maxCount: 3,
        fixed: true,
      },
    },
    {
      id: "seen",
      key: "seen",
      name: "Last seen",
      type: { kind: "timestamp", encoding: "epoch", resolution: 1, min: 1_700_000_000, max: 1_900_000_000 },
    },
    {
      id: "mode",
      key: "mode",
      name: "Mode",
      type: {
        kind: "enum",
        values: [
          { name: "IDLE", value: 0 },
          { name: "MOVING", value: 3 },
        ],
      },
    },
    { id: "bat", key: "bat", name: "Battery", presence: "optional", type: { kind: "int", bits: 8, signed: false } },
  ],
  batch: {
    perReading: [
      { field: "t" },
      { field: "gps", maxRate: 0.5 },
      { field: "acc" },
      { field: "seen", maxRate: 2 },
      { field: "mode" },
    ],
    intervalSeconds: 30,
    readings: { kind: "fixed", count: 12 },
    time: "t",
    keyframeEvery: 4,
  },
};

const LAYOUTS: [string, Layout][] = [
  ["paper tracker", parseLayout(presetById("paper-tracker")!.layout)],
  ["GPS track", parseLayout(gpsTrackBatchInput)],
  ["buoy (the page's example)", parseLayout(buoyBatch)],
  ["rig", parseLayout(rigInput)],
];
const SEEDS = [1, 7, 2024];
/** readings per layout, format, form and seed: 4 layouts × 3 seeds × this ≈ 3 000 per format and form */
const READINGS = 250;

/** maxReadings for a layout: its fixed count, or as many as fit Astrocast in that format and form */
function maxReadingsFor(layout: Layout, format: FormatId, form: BatchForm): number {
  const r = layout.batch!.readings;
  return r.kind === "fixed" ? r.count : readingsThatFit(layout, format, form, LIMIT);
}

function job(
  layout: Layout,
  format: FormatId,
  form: BatchForm,
): { job: Job; codec: BatchCodec; batches: BatchRecord[] } {
  // a form that fits no reading in LIMIT (the paper's once-fields alone pass 160 B in CBOR) is still decoded, 4 a message
  const fit = maxReadingsFor(layout, format, form);
  const n = fit || 4;
  const codec = batchCodecFor(layout, format, form, n);
  // every seed, cut into messages of n; the last message of each seed carries fewer (1 … n) readings
  const batches = SEEDS.flatMap((seed) => {
    const full = generateBatches(layout, Math.ceil(READINGS / n), n, seed);
    const last = full.pop()!;
    return [...full, { once: last.once, readings: last.readings.slice(0, 1 + (seed % n)) }];
  });
  const messages = batches.map((b) => hex(codec.encode(b)));
  const keys = format.endsWith("-int")
    ? Object.fromEntries(codec.wireLayout.fields.map((f) => [String(f.options?.protobuf?.number), f.key]))
    : undefined;
  return { job: { format, form, maxReadings: n, messages, ...(keys && { keys }) }, codec, batches };
}

/** the declared step of a per-reading leaf, for "at its declared precision" */
function stepOf(t: ScalarType): number {
  switch (t.kind) {
    case "float":
      return t.precision ?? 0;
    case "fixed":
      return t.scale;
    case "timestamp":
      return t.encoding === "epoch" ? t.resolution : 0.1;
    default:
      return 0;
  }
}

/** |decoded − generated| ≤ half the declared step (+ float32 rounding) for every leaf of every reading */
function expectDeclaredPrecision(fields: Field[], got: TypedRecord, want: TypedRecord, where: string): void {
  for (const f of fields) {
    const [g, w] = [got[f.key], want[f.key]];
    if (f.type.kind === "group") expectDeclaredPrecision(f.type.fields, g as TypedRecord, w as TypedRecord, where);
    else if (f.type.kind === "array") {
      const of = f.type.of;
      (w as number[]).forEach((x, i) => expectNear(of, (g as number[])[i]!, x, `${where} ${f.key}[${i}]`));
    } else expectNear(f.type, g, w, `${where} ${f.key}`);
  }
}

function expectNear(t: ScalarType, g: unknown, w: unknown, where: string): void {
  const step = stepOf(t);
  if (typeof w !== "number" || step === 0 || (t.kind === "float" && t.precision === undefined)) {
    expect(g, where).toEqual(w);
    return;
  }
  const f32 = t.kind === "float" && t.bits === 32 ? Math.abs(w) * 2 ** -23 : 0;
  expect(Math.abs((g as number) - w), where).toBeLessThanOrEqual(step / 2 + f32 + Math.abs(w) * 1e-15);
}

function wireShape(fields: readonly Field[]): unknown[] {
  return fields.map((f) => [f.key, f.type]);
}

const FORMATS: FormatId[] = [
  "bitpacked",
  "struct",
  "struct-zlib",
  "cbor",
  "msgpack",
  "json",
  "cbor-int",
  "msgpack-int",
];

describe("the Python reference decoder of batches (from the wire document alone)", () => {
  test.each(LAYOUTS)(
    "%s: every message of every format and form decodes to our readings",
    (_name, layout) => {
      const runs = FORMATS.flatMap((format) =>
        (["delta", "columns"] as const).map((form) => job(layout, format, form)),
      );
      const out = runPython(SCRIPT, { layout, jobs: runs.map((r) => r.job) }) as {
        results: Result[][];
        wire: Field[][];
      };
      let readings = 0;
      runs.forEach(({ job: j, codec, batches }, k) => {
        const where = `${j.format} ${j.form}`;
        // the wire layout the page describes is the one our codec encodes
        expect(wireShape(out.wire[k]!), where).toEqual(wireShape(codec.wireLayout.fields));
        const results = out.results[k]!;
        expect(
          results.filter((r) => r.error).map((r) => r.error!.message),
          where,
        ).toEqual([]);
        results.forEach((r, i) => {
          const ours = codec.decode(Buffer.from(j.messages[i]!, "hex"));
          const got = untagFromPython({ once: r.once, readings: r.readings }) as BatchRecord;
          expect(got, `${where} message ${i}`).toEqual(safeBigints(ours));
          const perReading = new Set(layout.batch!.perReading.map((p) => p.field));
          const fields = layout.fields.filter((f) => perReading.has(f.id));
          got.readings.forEach((rd, n) =>
            expectDeclaredPrecision(fields, rd, batches[i]!.readings[n]!, `${where} message ${i} reading ${n}`),
          );
          readings += got.readings.length;
        });
      });
      expect(readings).toBeGreaterThanOrEqual(FORMATS.length * 2 * SEEDS.length * 0.9 * READINGS);
      // a bound on a hang, not a speed: 17 s on 2 busy cores for the largest layout (habits.md)
    },
    180_000,
  );
});

// ---------------------------------------------------------------------------------------------------
// Bad input: both decoders refuse it

const cbor = new Encoder({ useRecords: false, variableMapSize: true, tagUint8Array: false, pack: false });
const cborDecoder = new Decoder({ useRecords: false });

/** A good CBOR delta message of the rig, taken apart so that one field can be made wrong. */
function rigMessage(): { codec: BatchCodec; wire: Record<string, unknown> } {
  const layout = LAYOUTS[3]![1];
  const codec = batchCodecFor(layout, "cbor", "delta", 12);
  const b = generateBatches(layout, 1, 12, 5)[0]!;
  return { codec, wire: cborDecoder.decode(codec.encode(b)) as Record<string, unknown> };
}

function refuse(layout: Layout, format: FormatId, maxReadings: number, messages: Uint8Array[], codec: BatchCodec) {
  const out = runPython(SCRIPT, {
    layout,
    jobs: [{ format, form: "delta", maxReadings, messages: messages.map(hex) }],
  }) as { results: Result[][] };
  for (const m of messages) expect(() => codec.decode(m)).toThrow(DecodeError);
  return out.results[0]!.map((r) => r.error?.kind ?? `a reading: ${JSON.stringify(r)}`);
}

describe("bad input gets an error from the reference decoder and ours, never a reading", () => {
  test("truncated bit-packed and CBOR messages", () => {
    for (const format of ["bitpacked", "cbor"] as const) {
      const layout = LAYOUTS[1]![1];
      const n = maxReadingsFor(layout, format, "delta");
      const codec = batchCodecFor(layout, format, "delta", n);
      const good = codec.encode(generateBatches(layout, 1, n, 3)[0]!);
      const cuts = [good.subarray(0, good.length - 1), good.subarray(0, good.length >> 1), good.subarray(0, 1)];
      expect(refuse(layout, format, n, cuts, codec)).toEqual(cuts.map(() => "truncated"));
    }
  });

  test("a count over the limit, or one the columns do not agree with", () => {
    const { codec, wire } = rigMessage();
    const over = cbor.encode({ ...wire, count: 13 });
    const zero = cbor.encode({ ...wire, count: 0 });
    const short = cbor.encode({ ...wire, mode: (wire.mode as unknown[]).slice(1) });
    // "range": a wire value outside its wire field's bounds (count is int[0, 12]); "count": readings that do not add up
    expect(refuse(codec.layout, "cbor", 12, [over, zero, short], codec)).toEqual(["range", "count", "count"]);
  });

  test("a difference past its width, a value pushed out of its range, a time offset past its window", () => {
    const { codec, wire } = rigMessage();
    const d = (wire.gps_alt_d as number[]).slice();
    const D = 16; // ceil(0.5 × 30 / 1) + 1
    const wide = cbor.encode({ ...wire, gps_alt_d: [D + 1, ...d.slice(1)] });
    // alt starts at its maximum and the first difference goes up within ±D: the value leaves 9000
    const out = cbor.encode({ ...wire, gps_alt: 9000, gps_alt_d: [D, ...d.slice(1)] });
    const late = cbor.encode({ ...wire, t_t: [...(wire.t_t as number[]).slice(0, -1), 2 * 11 * 300 + 1] });
    // the difference and the offset break their wire bounds; the value is only out of range once rebuilt
    expect(refuse(codec.layout, "cbor", 12, [wide, out, late], codec)).toEqual(["range", "overflow", "range"]);
  });
});

describe("mutated messages: the two decoders agree on every one", () => {
  test.each(["bitpacked", "struct", "cbor", "msgpack"] as const)(
    "%s: a flipped bit or a cut gives the same readings from both, or an error from both",
    (format) => {
      const layout = LAYOUTS[3]![1];
      const codec = batchCodecFor(layout, format, "delta", 12);
      const good = generateBatches(layout, 20, 12, 9).map((b) => codec.encode(b));
      // deterministic mutations: one bit flipped, or the message cut, at positions spread over it
      const mutated = good.flatMap((m, k) =>
        Array.from({ length: 15 }, (_, j) => {
          const at = (k * 31 + j * 17) % m.length;
          if (j % 5 === 4) return m.subarray(0, at);
          const x = Uint8Array.from(m);
          x[at]! ^= 1 << (j % 8);
          return x;
        }),
      );
      const out = runPython(SCRIPT, {
        layout,
        jobs: [{ format, form: "delta", maxReadings: 12, messages: mutated.map(hex) }],
      }) as { results: Result[][] };
      let refused = 0;
      out.results[0]!.forEach((r, i) => {
        let ours: BatchRecord | undefined;
        try {
          ours = codec.decode(mutated[i]!);
        } catch (e) {
          expect(e).toBeInstanceOf(DecodeError);
        }
        if (r.error || !ours) {
          expect([`message ${i}`, r.error?.kind !== undefined, ours === undefined]).toEqual([
            `message ${i}`,
            true,
            true,
          ]);
          refused++;
        } else expect(untagFromPython({ once: r.once, readings: r.readings })).toEqual(safeBigints(ours));
      });
      // most mutations break something; the rest are other valid messages, read alike
      expect(refused).toBeGreaterThan(mutated.length / 4);
    },
  );
});
