// Incremental sizes (cached columns, base + delta, progressive prefixes) give exactly what a full measureSizes gives,
// through edits of one field, deletions, insertions, moves, format options, seeds and refused samples.
import { describe, expect, it } from "vitest";
import { everyTypeLayout } from "./fixtures/layouts.ts";
import { IncrementalSizes } from "../src/analysis/columns.ts";
import { DeflateSizes } from "../src/analysis/deflateSizes.ts";
import { SampleColumns } from "../src/analysis/sampleColumns.ts";
import { measureSizes } from "../src/analysis/sizes.ts";
import { CODECS, FORMAT_IDS, type FormatId } from "../src/formats/registry.ts";
import type { Field, Layout } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";

// the formats with a size-only path; FlatBuffers has none (its sizes are not per-field sums) and is encoded
const SIZED = FORMAT_IDS.filter((f) => !CODECS[f].info.compressed && hasSizer(f));
const ENCODED = FORMAT_IDS.filter((f) => !CODECS[f].info.compressed && !hasSizer(f));
function hasSizer(f: FormatId): boolean {
  return CODECS[f].compile(parseLayout(everyTypeLayout)).sizer !== undefined;
}
const N = 150;

function check(engine: IncrementalSizes, cols: SampleColumns, layout: Layout, seed: number, upTo = N): number {
  const { columns } = cols.columnsOf(layout, N, seed);
  const records = generateSamples(layout, N, seed).slice(0, upTo);
  let remeasured = 0;
  for (const format of SIZED) {
    const got = engine.measure(layout, columns, N, `${N}/${seed}`, format, upTo);
    const [want] = measureSizes(layout, records, [format]);
    expect({
      format,
      sizes: [...got.sizes],
      errors: got.errors,
      firstError: got.firstError,
      firstErrorSample: got.firstErrorSample,
    }).toEqual({
      format,
      sizes: [...want!.sizes],
      errors: want!.errors,
      firstError: want!.firstError,
      firstErrorSample: want!.firstErrorSample,
    });
    expect(got.stats).toEqual(want!.stats);
    remeasured += got.remeasured;
  }
  engine.prune();
  return remeasured;
}

const withField = (layout: Layout, key: string, edit: (f: Field) => Field): Layout => ({
  ...layout,
  fields: layout.fields.map((f) => (f.key === key ? edit(f) : f)),
});

describe("incremental sizes", () => {
  const every = parseLayout(everyTypeLayout);
  const paper = parseLayout(paperPreset);

  it("match measureSizes through a sequence of edits, re-measuring only what changed", () => {
    const engine = new IncrementalSizes();
    const cols = new SampleColumns();
    expect(check(engine, cols, every, 1)).toBe(SIZED.length * every.fields.length);
    // the same layout again: nothing to measure
    expect(check(engine, cols, every, 1)).toBe(0);
    // one field's values change: one column per format
    const shorter = withField(every, "note", (f) => ({
      ...f,
      sample: { kind: "choice", values: ["a", "日本語のテキスト", "🚢🚢"] },
    }));
    expect(check(engine, cols, shorter, 1)).toBe(SIZED.length);
    // a key change moves bytes only in the self-describing formats, but is re-measured everywhere
    const renamed = withField(shorter, "u16", (f) => ({ ...f, key: "a_much_longer_key_for_u16" }));
    expect(check(engine, cols, renamed, 1)).toBe(SIZED.length);
    // deletion and a move: nothing new to measure, totals drop the deleted column
    const fewer: Layout = { ...renamed, fields: renamed.fields.filter((f) => f.key !== "raw").reverse() };
    expect(check(engine, cols, fewer, 1)).toBe(0);
    // a new optional field changes the map heads of the self-describing formats
    const added: Layout = parseLayout({
      ...fewer,
      fields: [
        ...fewer.fields,
        {
          id: "f-new",
          key: "extra",
          name: "Extra",
          presence: "optional",
          type: { kind: "int", bits: 32, signed: false },
          sample: { kind: "uniform", min: 0, max: 100000 },
        },
      ],
    });
    check(engine, cols, added, 1);
    // a format option: every column again
    const python: Layout = {
      ...added,
      json: { ...added.json, spacing: added.json.spacing === "python" ? "compact" : "python" },
    };
    expect(check(engine, cols, python, 1)).toBe(SIZED.length * python.fields.length);
    // a new seed
    check(engine, cols, python, 2);
  });

  it("refine a prefix to all samples and keep the paper preset exact", () => {
    const engine = new IncrementalSizes();
    const cols = new SampleColumns();
    check(engine, cols, paper, 1, 40);
    expect(check(engine, cols, paper, 1, N)).toBe(SIZED.length * paper.fields.length);
    const edited = withField(paper, paper.fields[3]!.key, (f) => ({ ...f, name: `${f.name} (renamed)` }));
    check(engine, cols, edited, 1, 40);
    check(engine, cols, edited, 1, N);
  });

  it("count refused samples and name the first refusal as encode() does", () => {
    const engine = new IncrementalSizes();
    const cols = new SampleColumns();
    // an optional uint8 of 255 is SBE's null value, which would read back as absent: SBE refuses those samples
    const nully = withField(every, "u8", (f) => ({
      ...f,
      presence: "optional",
      sample: { kind: "uniform", min: 250, max: 255 },
    }));
    check(engine, cols, nully, 3);
    const [sbe] = measureSizes(nully, generateSamples(nully, N, 3), ["sbe" as FormatId]);
    expect(sbe!.errors).toBeGreaterThan(0);
    expect(sbe!.errors).toBeLessThan(N);
    // and back: the refusing column is replaced, the totals lose its refusals
    check(engine, cols, every, 3);
  });

  it("a format without a size-only path (FlatBuffers) is measured by encoding: sizes equal to measureSizes", () => {
    expect(ENCODED).toContain("flatbuffers");
    const engine = new IncrementalSizes();
    const cols = new SampleColumns();
    for (const layout of [every, paper]) {
      const { columns } = cols.columnsOf(layout, N, 3);
      const records = generateSamples(layout, N, 3);
      for (const format of ENCODED) {
        const got = engine.measure(layout, columns, N, `${N}/3`, format, 100);
        const [want] = measureSizes(layout, records.slice(0, 100), [format]);
        expect([...got.sizes]).toEqual([...want!.sizes]);
        expect(got.sizes.length).toBe(100);
        expect(got.measured).toBe(100);
      }
    }
  });

  it("FlatBuffers keeps its sizes through a rename (names are not on its wire) and encodes again on a values edit", () => {
    const engine = new IncrementalSizes();
    const cols = new SampleColumns();
    const run = (layout: Layout, upTo = N) => {
      const { columns } = cols.columnsOf(layout, N, 5);
      const got = engine.measure(layout, columns, N, `${N}/5`, "flatbuffers", upTo);
      const [want] = measureSizes(layout, generateSamples(layout, N, 5).slice(0, upTo), ["flatbuffers"]);
      expect({ sizes: [...got.sizes], errors: got.errors, firstError: got.firstError }).toEqual({
        sizes: [...want!.sizes],
        errors: want!.errors,
        firstError: want!.firstError,
      });
      return got.remeasured;
    };
    const edit = (key: string, f: (x: Field) => Field): Layout =>
      parseLayout({ ...paper, fields: paper.fields.map((x) => (x.key === key ? f(x) : x)) });
    const temperature = (f: (x: Field) => Field) => edit("temperature", f);
    expect(run(paper)).toBeGreaterThan(0);
    // a key, a name and a description typed: the same bytes, nothing encoded
    expect(run(temperature((x) => ({ ...x, key: "temp_c", name: "Temp °C", description: "inside the box" })))).toBe(0);
    expect(run(parseLayout({ ...paper, name: "Another name" }))).toBe(0);
    // a wider type, another sample model: encoded again, and equal to a full measurement; the designer's first
    // pass of a few samples, then all of them: the rest added to what the first pass measured
    const wider = temperature((x) => ({ ...x, type: { kind: "float", bits: 64 } }));
    expect(run(wider, 40)).toBeGreaterThan(0);
    expect(run(wider)).toBeGreaterThan(0);
    expect(run(wider, 40)).toBe(0);
    expect(
      run(
        temperature((x) => ({ ...x, type: { kind: "float", bits: 64 }, key: "t" })),
        40,
      ),
    ).toBe(0);
    expect(
      run(temperature((x) => ({ ...x, sample: { kind: "uniform", min: -5, max: 5, decimals: 1 } }))),
    ).toBeGreaterThan(0);
    // a result with refused samples names a field, so a rename measures it again
    // (a lone surrogate has no UTF-8: every format refuses the samples that draw it)
    const refusing = edit("door", (x) => ({ ...x, sample: { kind: "choice", values: ["D", "\uD800"] } }));
    const refused = run(refusing);
    expect(refused).toBeGreaterThan(0);
    expect(measureSizes(refusing, generateSamples(refusing, N, 5), ["flatbuffers"])[0]!.errors).toBeGreaterThan(0);
    expect(run(refusing)).toBeGreaterThan(0);
  });

  it("Struct+Zlib: recompress only samples whose stream changed, sizes equal to measureSizes", () => {
    const deflate = new DeflateSizes();
    const cols = new SampleColumns();
    const run = (layout: Layout, upTo = N) => {
      const { columns } = cols.columnsOf(layout, N, 1);
      const got = deflate.measure(layout, columns, N, `${N}/1`, upTo);
      const [want] = measureSizes(layout, generateSamples(layout, N, 1).slice(0, upTo), ["struct-zlib"]);
      expect({ sizes: [...got.sizes], errors: got.errors, firstError: got.firstError }).toEqual({
        sizes: [...want!.sizes],
        errors: want!.errors,
        firstError: want!.firstError,
      });
      reencoded = got.reencoded;
      return got.recompressed;
    };
    let reencoded = 0;
    expect(run(paper, 50)).toBe(50);
    expect(run(paper)).toBe(N - 50);
    expect(reencoded).toBe(N - 50);
    // a unit is not on the wire: nothing to compress again, nor to encode
    expect(run(withField(paper, paper.fields[2]!.key, (f) => ({ ...f, unit: "furlongs" })))).toBe(0);
    expect(reencoded).toBe(0);
    // nor a key (Struct does not write keys), however many samples are asked for
    const renamed = withField(paper, paper.fields[4]!.key, (f) => ({ ...f, key: "renamed", name: "Renamed" }));
    expect(run(renamed, 80)).toBe(0);
    expect(reencoded).toBe(0);
    // a type that moves bytes: every stream is encoded again
    const wider = withField(renamed, "rssi", (f) => ({ ...f, type: { kind: "int", bits: 32, signed: false } }));
    expect(run(wider)).toBe(N);
    expect(reencoded).toBe(N);
    // a setting: the same
    expect(run({ ...wider, struct: { ...wider.struct, endianness: "little" } })).toBe(N);
    expect(reencoded).toBe(N);
    // new values for one field: the streams change
    expect(
      run(withField(paper, "iso6346", (f) => ({ ...f, sample: { kind: "constant", value: "ABCU1234567" } }))),
    ).toBe(N);
    const nully = withField(every, "u8", (f) => ({
      ...f,
      sample: { kind: "uniform", min: 0, max: 255 },
      type: { kind: "int", bits: 8, signed: false, max: 100 },
    }));
    run(nully);
  });
});
