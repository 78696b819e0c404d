import { describe, expect, it } from "vitest";
import { everyTypeLayout } from "./fixtures/layouts.ts";
import { attribute, byteMap, measureSizes, shareOver, summarize } from "../src/analysis/index.ts";
import { FORMAT_IDS } from "../src/formats/registry.ts";
import { type Span } from "../src/formats/types.ts";
import type { LayoutInput } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";
import type { TypedRecord } from "../src/layout/values.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";

const layoutOf = (fields: LayoutInput["fields"]) =>
  parseLayout({ format: "satlayout", version: 1, name: "t", json: { spacing: "compact" }, fields });

/** Two integers: every format's size is easy to count by hand. */
const twoInts = layoutOf([
  { id: "fa", key: "a", name: "A", presence: "required", type: { kind: "int", bits: 8, signed: false } },
  { id: "fb", key: "b", name: "B", presence: "required", type: { kind: "int", bits: 16, signed: false } },
]);
const twoIntRecords: TypedRecord[] = [
  { a: 0, b: 0 },
  { a: 1, b: 300 },
  { a: 200, b: 65535 },
];

function expectCover(spans: readonly Pick<Span, "start" | "end">[], length: number, what: string): void {
  let at = 0;
  for (const s of spans) {
    expect(s.start, what).toBe(at);
    expect(s.end, what).toBeGreaterThan(s.start);
    at = s.end;
  }
  expect(at, what).toBe(length);
}

describe("summarize", () => {
  it("uses nearest-rank percentiles", () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(summarize(hundred)).toEqual({ count: 100, min: 1, mean: 50.5, p50: 50, p95: 95, p99: 99, max: 100 });
    expect(summarize([3, 1, 2])).toEqual({ count: 3, min: 1, mean: 2, p50: 2, p95: 3, p99: 3, max: 3 });
    // rank ceil(0.5·4) = 2 → 20; ceil(0.95·4) = 4 → 40
    expect(summarize(Uint32Array.of(40, 10, 30, 20))).toEqual({
      count: 4,
      min: 10,
      mean: 25,
      p50: 20,
      p95: 40,
      p99: 40,
      max: 40,
    });
    expect(summarize([7])).toEqual({ count: 1, min: 7, mean: 7, p50: 7, p95: 7, p99: 7, max: 7 });
    // 20 values: p95 is rank 19, p99 rank 20
    const twenty = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(summarize(twenty).p95).toBe(19);
    expect(summarize(twenty).p99).toBe(20);
  });

  it("reports zeros for nothing measured and leaves its input alone", () => {
    expect(summarize([])).toEqual({ count: 0, min: 0, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 });
    const input = [5, 1, 3];
    summarize(input);
    expect(input).toEqual([5, 1, 3]);
  });
});

describe("shareOver", () => {
  it("counts sizes strictly above the limit", () => {
    const sizes = [100, 160, 161, 200];
    expect(shareOver(sizes, 160)).toBe(0.5);
    expect(shareOver(sizes, 159)).toBe(0.75);
    expect(shareOver(sizes, 200)).toBe(0);
    expect(shareOver(sizes, 99)).toBe(1);
    expect(shareOver(Uint32Array.of(160), 160)).toBe(0);
    expect(shareOver([], 160)).toBe(0);
  });
});

describe("measureSizes", () => {
  it("gives hand-counted sizes and their statistics", () => {
    const m = Object.fromEntries(measureSizes(twoInts, twoIntRecords).map((r) => [r.format, r]));
    expect(Object.keys(m)).toEqual([...FORMAT_IDS]);
    // {"a":0,"b":0} · {"a":1,"b":300} · {"a":200,"b":65535}
    expect([...m.json!.sizes]).toEqual([13, 15, 19]);
    // map(2) "a" 0 "b" 0 · 300 needs 3 bytes · 200 needs 2, 65535 needs 3
    expect([...m.cbor!.sizes]).toEqual([7, 9, 10]);
    expect([...m.msgpack!.sizes]).toEqual([7, 9, 10]);
    expect([...m.struct!.sizes]).toEqual([3, 3, 3]);
    expect([...m.bitpacked!.sizes]).toEqual([3, 3, 3]);
    expect(m.json!.stats).toEqual({ count: 3, min: 13, mean: 47 / 3, p50: 15, p95: 19, p99: 19, max: 19 });
    for (const r of Object.values(m)) {
      expect(r.errors, r.format).toBe(0);
      expect(r.firstError, r.format).toBeUndefined();
      expect(r.stats, r.format).toEqual(summarize(r.sizes));
    }
  });

  it("counts a sample that cannot be encoded and keeps measuring the rest", () => {
    const layout = layoutOf([
      {
        id: "t",
        key: "t",
        name: "t",
        presence: "required",
        type: { kind: "float", bits: 32, min: 0, max: 10, precision: 0.1 },
      },
    ]);
    const [bp, json] = measureSizes(
      layout,
      [{ t: 1 }, { t: Number.NaN }, { t: 2.5 }, { t: Number.NaN }],
      ["bitpacked", "json"],
    );
    expect(bp!.format).toBe("bitpacked");
    expect(bp!.errors).toBe(2);
    expect(bp!.firstError).toBe("bitpacked: t: NaN cannot be bit-packed");
    expect(bp!.firstErrorSample).toBe(1);
    // 101 steps fit in 7 bits: one byte each
    expect([...bp!.sizes]).toEqual([1, 1]);
    expect(bp!.stats.count).toBe(2);
    expect(json!.errors).toBe(0);
    expect(json!.sizes.length).toBe(4);
  });

  it("measures every format × 1000 paper samples", () => {
    const layout = parseLayout(paperPreset);
    const records = generateSamples(layout, 1000, 1);
    measureSizes(layout, records);
    const t0 = performance.now();
    const res = measureSizes(layout, records);
    const ms = performance.now() - t0;
    console.log(
      `measureSizes: ${res.length} formats × 1000 paper samples in ${ms.toFixed(1)} ms; means ${res.map((r) => `${r.format} ${r.stats.mean.toFixed(1)}`).join(", ")}`,
    );
    for (const r of res) {
      expect(r.errors, `${r.format}: ${r.firstError}`).toBe(0);
      expect(r.sizes.length).toBe(1000);
    }
    expect(res.find((r) => r.format === "bitpacked")!.stats).toEqual({
      count: 1000,
      min: 62,
      mean: 62,
      p50: 62,
      p95: 62,
      p99: 62,
      max: 62,
    });
  });
});

describe("attribute", () => {
  it("splits hand-counted bytes into fields and framing", () => {
    // values "0" "1" "200" and "0" "300" "65535"; the rest is braces, keys, colons and commas
    const json = attribute(twoInts, twoIntRecords, "json");
    expect(json.fields).toEqual([
      { fieldId: "fa", key: "a", name: "A", bytes: 5 / 3 },
      { fieldId: "fb", key: "b", name: "B", bytes: 3 },
    ]);
    expect(json.total).toBeCloseTo(47 / 3, 12);
    expect(json.framing).toBeCloseTo(11, 12);
    expect(json.samples).toBe(3);
    const struct = attribute(twoInts, twoIntRecords, "struct");
    expect(struct.fields.map((f) => f.bytes)).toEqual([1, 2]);
    expect([struct.framing, struct.total, struct.compressionDelta]).toEqual([0, 3, undefined]);
  });

  it("gives bit-packed fields their exact share in bits / 8, presence bits and padding to framing", () => {
    const layout = layoutOf([
      {
        id: "x",
        key: "x",
        name: "x",
        presence: "required",
        type: { kind: "int", bits: 8, signed: false, min: 0, max: 99 },
      },
      { id: "y", key: "y", name: "y", presence: "optional", type: { kind: "bool" } },
    ]);
    // 7 + 1 bits = 1 byte, or 7 + 1 + 1 bits + 7 padding = 2 bytes
    const a = attribute(layout, [{ x: 5 }, { x: 6, y: true }], "bitpacked");
    expect(a.fields.map((f) => f.bytes)).toEqual([7 / 8, 1 / 16]);
    expect(a.total).toBe(1.5);
    expect(a.framing).toBe(1.5 - 7 / 8 - 1 / 16);
  });

  it("adds up to the mean size in every format, compression included", () => {
    for (const input of [paperPreset, everyTypeLayout]) {
      const layout = parseLayout(input);
      const records = generateSamples(layout, 50, 5);
      const sizes = Object.fromEntries(measureSizes(layout, records).map((m) => [m.format, m.stats.mean]));
      for (const format of FORMAT_IDS) {
        const a = attribute(layout, records, format);
        expect(a.samples, format).toBe(50);
        expect(a.total, format).toBeCloseTo(sizes[format]!, 9);
        const sum = a.fields.reduce((s, f) => s + f.bytes, 0) + a.framing + (a.compressionDelta ?? 0);
        expect(sum, format).toBeCloseTo(a.total, 9);
        expect(a.compressionDelta !== undefined, format).toBe(format === "struct-zlib");
        expect(a.fields.map((f) => f.fieldId)).toEqual(layout.fields.map((f) => f.id));
        for (const f of a.fields) expect(f.bytes, `${format} ${f.key}`).toBeGreaterThanOrEqual(0);
      }
    }
  });
});

describe("byteMap", () => {
  it("covers every byte of one sample in every format", () => {
    for (const input of [paperPreset, everyTypeLayout]) {
      const layout = parseLayout(input);
      const [rec] = generateSamples(layout, 1, 9);
      for (const format of FORMAT_IDS) {
        const map = byteMap(layout, rec!, format);
        expect(map.format).toBe(format);
        expectCover(map.spans, map.bytes.length, format);
        expect(map.compressed, format).toBe(format === "struct-zlib");
        if (map.compressed) {
          expect(map.uncompressed, format).toBeDefined();
          expectCover(map.uncompressed!.spans, map.uncompressed!.bytes.length, `${format} uncompressed`);
          expect(map.uncompressed!.spans.some((s) => s.role === "value")).toBe(true);
        }
        if (format === "bitpacked") expectCover(map.bits!, map.bytes.length * 8, "bitpacked bits");
        else expect(map.bits).toBeUndefined();
      }
    }
  });

  it("names the owners of a struct sample's bytes", () => {
    const map = byteMap(twoInts, { a: 1, b: 300 }, "struct");
    expect([...map.bytes]).toEqual([1, 1, 44]);
    expect(map.spans).toEqual([
      { start: 0, end: 1, field: "fa", role: "value" },
      { start: 1, end: 3, field: "fb", role: "value" },
    ]);
  });
});
