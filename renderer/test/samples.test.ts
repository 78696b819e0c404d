import { describe, expect, it } from "vitest";
import { generateSamples, type Layout, paperPreset, parseLayout } from "#codecs";
import { SampleColumns } from "#codecs/analysis";
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

  it("keeps a column's values through a rename, a unit, a protobuf number or a text form, and still equals a full draw", () => {
    const cols = new SampleColumns();
    cols.records(every, 120, 3);
    const target = every.fields.find((f) => f.type.kind === "int")!;
    const renamed: Layout = {
      ...every,
      fields: every.fields.map((f) =>
        f === target
          ? {
              ...f,
              key: `${f.key}_renamed`,
              name: "Renamed",
              unit: "furlong",
              description: "now described",
              options: { ...f.options, protobuf: { ...f.options?.protobuf, number: 999 } },
              text: { as: "string" },
            }
          : f,
      ),
    };
    const after = cols.records(renamed, 120, 3);
    expect(after.drawn).toBe(0);
    expect(after.records).toEqual(generateSamples(renamed, 120, 3));
    // what the values do depend on: each of these redraws the field, and only it
    const edits: ((f: Layout["fields"][number]) => Layout["fields"][number])[] = [
      (f) => ({ ...f, presence: f.presence === "optional" ? "required" : "optional" }),
      (f) => ({ ...f, id: `${f.id}_other` }),
      (f) => ({ ...f, sample: { kind: "uniform", min: 1, max: 9, decimals: 0 } }),
    ];
    for (const edit of edits) {
      const edited: Layout = {
        ...renamed,
        fields: renamed.fields.map((f) => (f.key === `${target.key}_renamed` ? edit(f) : f)),
      };
      const r = cols.records(edited, 120, 3);
      expect(r.drawn).toBe(1);
      expect(r.records).toEqual(generateSamples(edited, 120, 3));
    }
  });
});
