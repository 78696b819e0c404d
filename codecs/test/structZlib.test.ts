// Struct+Zlib: zlib level 9 of the Struct stream. Sizes, inflation by an independent zlib (Node's),
// the reused deflate state, bounded inflation and malformed input.
import { readFileSync } from "node:fs";
import path from "node:path";
import { deflateRawSync, deflateSync, gzipSync, inflateSync } from "node:zlib";
import { deflate as pakoDeflate } from "pako";
import { describe, expect, test } from "vitest";
import { DecodeError } from "../src/errors.ts";
import { everyTypeLayout } from "./fixtures/layouts.ts";
import { expectRejectedAtLeast, tallyRejections } from "./helpers/codecChecks.ts";
import { repoRoot } from "./helpers/python.ts";
import { zlibCompress, zlibInflate } from "../src/formats/deflate.ts";
import { DEFLATE_FACTS, DEFLATE_MEASUREMENT } from "../src/formats/deflateFacts.ts";
import { compileStruct } from "../src/formats/struct/codec.ts";
import { structZlibCodec } from "../src/formats/struct-zlib/codec.ts";
import { parseLayout } from "../src/layout/validate.ts";
import { PRESETS } from "../src/presets/index.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";

const paper = parseLayout(paperPreset);
const codec = structZlibCodec.compile(paper);
const struct = compileStruct(paper);

describe("the paper's Struct+Zlib", () => {
  test("mean size over the measured records is within ±6 bytes of the paper's 127, and is the measured mean", () => {
    const m = DEFLATE_MEASUREMENT;
    expect(m.preset).toBe("paper");
    const recs = generateSamples(paper, m.records, m.seed);
    let total = 0;
    for (const r of recs) total += codec.encode(r).length;
    const mean = total / recs.length;
    console.log(
      `Struct+Zlib, paper preset, ${m.records} samples (seed ${m.seed}): mean ${mean.toFixed(3)} bytes (paper: 127; Struct alone: 116)`,
    );
    expect(Math.abs(mean - 127)).toBeLessThanOrEqual(6);
    // the measurement file must describe what this codec emits today
    expect(mean, "codecs/src/formats/deflateMeasured.json is stale: run npm run measure:deflate").toBeCloseTo(
      m.codec.meanBytes,
      6,
    );
  });

  test("Node's zlib inflates every record to exactly the Struct stream; the codec reads it back", () => {
    for (const r of generateSamples(paper, 1000, 2)) {
      const bytes = codec.encode(r);
      // zlib header of a level-9 stream with a 32 KiB window
      expect([bytes[0], bytes[1]]).toEqual([0x78, 0xda]);
      expect(new Uint8Array(inflateSync(bytes))).toEqual(struct.encode(r));
      expect(codec.decode(bytes)).toStrictEqual(r);
    }
  });

  test("spans: one framing span over the compressed bytes, the Struct stream's spans beside it", () => {
    const r = generateSamples(paper, 1, 1)[0]!;
    const ws = codec.encodeWithSpans(r);
    expect(ws.bytes).toEqual(codec.encode(r));
    expect(ws.spans).toEqual([{ start: 0, end: ws.bytes.length, field: "", role: "framing" }]);
    expect(ws.uncompressed).toEqual(struct.encodeWithSpans(r));
  });

  test.each([["every type", everyTypeLayout] as const, ...PRESETS.map((p) => [`preset ${p.id}`, p.layout] as const)])(
    "%s round-trips",
    (_name, input) => {
      const layout = parseLayout(input);
      const c = structZlibCodec.compile(layout);
      for (const r of generateSamples(layout, 300, 4)) expect(c.decode(c.encode(r))).toStrictEqual(r);
    },
  );
});

describe("deflate", () => {
  test("the reused deflate state gives what a fresh pako deflate (level 9, zlib's hash) gives, for any size", () => {
    let seed = 5;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const sizes = [0, 1, 2, 57, 116, 300, 4096, 33_000, 70_000];
    for (let round = 0; round < 3; round++) {
      for (const n of sizes) {
        // text-like with repeats, so matches at all distances occur
        const data = Uint8Array.from({ length: n }, (_, i) =>
          rnd() < 0.3 ? 65 + (i % 7) : Math.floor(rnd() * 40) + 48,
        );
        expect(zlibCompress(data)).toEqual(pakoDeflate(data, { level: 9, legacyHash: true }));
      }
    }
  });

  test("repeated inputs come from the cache as private copies", () => {
    const data = struct.encode(generateSamples(paper, 1, 21)[0]!);
    const first = zlibCompress(data);
    first.fill(0);
    const again = zlibCompress(data);
    expect(again).toEqual(pakoDeflate(data, { level: 9, legacyHash: true }));
    again.fill(1);
    expect(zlibCompress(data)).toEqual(pakoDeflate(data, { level: 9, legacyHash: true }));
  });

  test("the claim shown comes from the measurement of the installed pako", () => {
    const m = DEFLATE_MEASUREMENT;
    const installed = JSON.parse(readFileSync(path.join(repoRoot, "node_modules/pako/package.json"), "utf8"))
      .version as string;
    expect(
      m.versions.pako,
      `deflateMeasured.json measured pako ${m.versions.pako}, pako ${installed} is installed: run npm run measure:deflate`,
    ).toBe(installed);
    expect(m.generatedBy).toBe("npm run measure:deflate");
    expect(Number.isNaN(Date.parse(m.date))).toBe(false);
    for (const c of [m.codec, ...m.others]) {
      const hist = Object.values(c.deltaHistogram).reduce<number>((a, b) => a + (b ?? 0), 0);
      expect(hist, c.label).toBe(m.records);
      expect(c.identical, c.label).toBeLessThanOrEqual(c.deltaHistogram["0"] ?? 0);
    }
    expect(DEFLATE_FACTS.implementation).toBe(`pako ${installed}`);
    expect(DEFLATE_FACTS.claim).toContain(`${m.records} paper records measured ${m.date.slice(0, 10)}`);
    expect(structZlibCodec.info.implementation).toContain(DEFLATE_FACTS.claim);
    expect(structZlibCodec.info.implementation).toContain(`zlib ${m.versions.zlib}`);
  });

  test("inflation is bounded by the layout's largest Struct stream", () => {
    const bomb = deflateSync(new Uint8Array(struct.plan.maxSize + 1));
    expect(() => zlibInflate(bomb, struct.plan.maxSize)).toThrow(/more than/);
    expect(() => codec.decode(new Uint8Array(bomb))).toThrow(DecodeError);
    const big = deflateSync(new Uint8Array(1 << 20));
    expect(() => codec.decode(new Uint8Array(big))).toThrow(/more than the \d+ bytes the layout allows/);
    expect(zlibInflate(new Uint8Array(deflateSync(new Uint8Array(5000).fill(7))), 5000)).toEqual(
      new Uint8Array(5000).fill(7),
    );
  });
});

describe("malformed input only ever raises DecodeError", () => {
  const r = generateSamples(paper, 1, 9)[0]!;
  const good = codec.encode(r);

  test("truncations, trailing bytes, corrupt checksum, other wrappers", () => {
    for (let n = 0; n < good.length; n++) expect(() => codec.decode(good.subarray(0, n))).toThrow(DecodeError);
    expect(() => codec.decode(new Uint8Array([...good, 0]))).toThrow(/1 trailing byte/);
    const bad = good.slice();
    bad[bad.length - 1]! ^= 1;
    expect(() => codec.decode(bad)).toThrow(/incorrect data check/);
    const stream = struct.encode(r);
    expect(() => codec.decode(new Uint8Array(gzipSync(stream)))).toThrow(DecodeError);
    expect(() => codec.decode(new Uint8Array(deflateRawSync(stream)))).toThrow(DecodeError);
  });

  test("a valid zlib stream holding a bad Struct stream", () => {
    const stream = struct.encode(r);
    expect(() => codec.decode(zlibCompress(stream.subarray(0, 100)))).toThrow(
      /struct-zlib: inflated Struct stream: .*truncated/,
    );
    expect(() => codec.decode(zlibCompress(new Uint8Array([...stream, 1])))).toThrow(
      /inflated Struct stream: .*trailing/,
    );
  });

  test("random garbage and bit flips", () => {
    let seed = 31;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const garbage: Uint8Array[] = [];
    const flipped: Uint8Array[] = [];
    for (let i = 0; i < 2000; i++) {
      const b =
        i % 2 ? Uint8Array.from({ length: Math.floor(rnd() * 160) }, () => Math.floor(rnd() * 256)) : good.slice();
      if (i % 2 === 0) b[Math.floor(rnd() * b.length)]! ^= 1 << Math.floor(rnd() * 8);
      (i % 2 ? garbage : flipped).push(b);
    }
    // zlib's header check and Adler-32 catch nearly every change: 100 % and 99.7 % rejected when the
    // floors were set
    expectRejectedAtLeast(tallyRejections(codec, garbage), 0.97, "struct-zlib random garbage");
    expectRejectedAtLeast(tallyRejections(codec, flipped), 0.97, "struct-zlib single bit flips");
  });
});
