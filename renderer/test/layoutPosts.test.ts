import { describe, expect, it } from "vitest";
import { parseLayout, paperPreset, type Layout } from "#codecs";
import { LayoutPoster, LayoutReader } from "../src/worker/layoutPosts.ts";

const paper = parseLayout(paperPreset);
const replaceAt = (l: Layout, i: number, key: string): Layout => ({
  ...l,
  fields: l.fields.map((f, j) => (j === i ? { ...f, key } : f)),
});

describe("layout posts to the sizes workers", () => {
  it("rebuild every layout exactly, through edits, moves, deletions, insertions and settings", () => {
    const poster = new LayoutPoster();
    const reader = new LayoutReader();
    const edited = replaceAt(paper, 3, "renamed");
    const moved: Layout = { ...edited, fields: [...edited.fields].reverse() };
    const fewer: Layout = { ...moved, fields: moved.fields.filter((_, i) => i !== 5) };
    const more: Layout = { ...fewer, fields: [...fewer.fields, { ...paper.fields[0]!, id: "copy", key: "copy" }] };
    const little: Layout = { ...more, struct: { ...more.struct, endianness: "little" } };
    const sequence = [paper, edited, moved, fewer, more, little, little, paper];
    const sizes: number[] = [];
    sequence.forEach((layout, key) => {
      // the same layout object again (a new seed) is posted under the key it had
      const k = key === 6 ? 5 : key;
      const post = poster.post(k, layout);
      sizes.push(JSON.stringify(post).length);
      const read = reader.read(structuredClone(post));
      expect(read).toEqual(JSON.parse(JSON.stringify(layout)));
    });
    // an edit of one field posts that field, not the layout
    expect(sizes[1]!).toBeLessThan(sizes[0]! / 5);
    expect(sizes[6]!).toBeLessThan(100);
  });

  it("keeps the worker's object of every field the edit did not replace", () => {
    const poster = new LayoutPoster();
    const reader = new LayoutReader();
    const a = reader.read(structuredClone(poster.post(1, paper)));
    const b = reader.read(structuredClone(poster.post(2, replaceAt(paper, 2, "x"))));
    b.fields.forEach((f, i) => (i === 2 ? expect(f).not.toBe(a.fields[i]) : expect(f).toBe(a.fields[i])));
    expect(b.fields[2]!.key).toBe("x");
  });

  it("refuses a post written against a layout the worker has not read (a lost message is a bug, not stale sizes)", () => {
    const poster = new LayoutPoster();
    poster.post(1, paper);
    const second = poster.post(2, replaceAt(paper, 1, "y"));
    expect(() => new LayoutReader().read(second)).toThrow(/written against layout 1/);
  });
});
