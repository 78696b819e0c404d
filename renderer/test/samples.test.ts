import { describe, expect, it } from "vitest";
import { generateSamples, type Layout, paperPreset, parseLayout } from "#codecs";
import { SampleColumns } from "#codecs/analysis/sampleColumns.ts";
import { everyTypeLayout } from "#codecs-test/fixtures/layouts.ts";

const paper = parseLayout(paperPreset);
const every = parseLayout(everyTypeLayout);

describe("column-wise samples", () => {
  it("equal generateSamples exactly, optional fields, groups, arrays and 64-bit ints included", () => {
    for (const layout of [paper, every]) {
      for (const seed of [1, 42]) {
        const { records, drawn } = new SampleColumns().records(layout, 300, seed);
        expect(drawn).toBe(layout.fields.length);
        expect(records).toEqual(generateSamples(layout, 300, seed));
        // key order as well: it is what JSON text follows
        expect(Object.keys(records[5]!)).toEqual(Object.keys(generateSamples(layout, 300, seed)[5]!));
      }
    }
  });

  it("redraws only the edited field and still equals a full draw", () => {
    const cols = new SampleColumns();
    cols.records(every, 200, 1);
    const edited: Layout = {
      ...every,
      fields: every.fields.map((f) =>
        f.key === "f32" ? { ...f, sample: { kind: "uniform", min: 0, max: 1, decimals: 3 } } : f,
      ),
    };
    const after = cols.records(edited, 200, 1);
    expect(after.drawn).toBe(1);
    expect(after.records).toEqual(generateSamples(edited, 200, 1));
  });

  it("reuses every column when fields are only reordered or deleted, and redraws all for another seed or count", () => {
    const cols = new SampleColumns();
    cols.records(paper, 100, 1);
    const reordered: Layout = { ...paper, fields: [...paper.fields].reverse().filter((f) => f.key !== "door") };
    const r = cols.records(reordered, 100, 1);
    expect(r.drawn).toBe(0);
    expect(r.records).toEqual(generateSamples(reordered, 100, 1));
    expect(cols.records(reordered, 100, 2).drawn).toBe(reordered.fields.length);
    expect(cols.records(reordered, 50, 2).drawn).toBe(reordered.fields.length);
  });
});
