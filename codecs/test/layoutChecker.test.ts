// The editor's checker re-parses only the fields a draft replaced: through a sequence of drafts, valid and not,
// it answers exactly what checkLayout answers (layout or worded issues), and an unchanged field keeps its parsed object.
import { describe, expect, it } from "vitest";
import { everyTypeLayout } from "./fixtures/layouts.ts";
import type { Field, LayoutInput } from "../src/layout/schema.ts";
import { checkLayout, LayoutChecker } from "../src/layout/validate.ts";
import { paperPreset } from "../src/presets/paper.ts";

/** A draft with field `i` replaced, as the designer's edits make them (every other field object kept). */
const replace = (d: LayoutInput, i: number, edit: (f: Field) => unknown): LayoutInput => ({
  ...d,
  fields: (d.fields as Field[]).map((f, j) => (j === i ? (edit(f) as Field) : f)),
});

describe("LayoutChecker", () => {
  it("answers as checkLayout through edits that make and mend problems, in shape and in rules", () => {
    const checker = new LayoutChecker();
    const base = everyTypeLayout;
    const u16 = (base.fields as Field[]).findIndex((f) => f.key === "u16");
    const drafts: LayoutInput[] = [base];
    const next = (edit: (d: LayoutInput) => LayoutInput) => drafts.push(edit(drafts[drafts.length - 1]!));
    next((d) => replace(d, u16, (f) => ({ ...f, key: "u16b" })));
    // shape problems: a count beyond the limit, an unknown property, a wrong kind
    next((d) => replace(d, u16, (f) => ({ ...f, type: { kind: "int", bits: 12, signed: false } })));
    next((d) => replace(d, 3, (f) => ({ ...f, colour: "red" })));
    next((d) => replace(d, 3, ({ colour: _gone, ...f }: Field & { colour?: string }) => f));
    next((d) => replace(d, u16, (f) => ({ ...f, type: { kind: "int", bits: 16, signed: false, min: 9, max: 2 } })));
    // rule problems across fields: a duplicate key, a blank name
    next((d) => replace(d, u16, (f) => ({ ...f, type: { kind: "int", bits: 16, signed: false }, key: "flag" })));
    next((d) => replace(d, 0, (f) => ({ ...f, name: "  " })));
    next((d) =>
      replace(
        replace(d, 0, (f) => ({ ...f, name: "Flag" })),
        u16,
        (f) => ({ ...f, key: "u16" }),
      ),
    );
    // layout-level settings, then too many fields, then back
    next((d) => ({ ...d, json: { spacing: "python" } }));
    next((d) => ({
      ...d,
      fields: [...(d.fields as Field[]), ...Array.from({ length: 65_536 }, () => d.fields[0] as Field)],
    }));
    next(() => base);
    for (const [n, d] of drafts.entries()) expect(checker.check(d), `draft ${n}`).toEqual(checkLayout(d));
  });

  it("keeps the parsed object of every field the draft did not replace (later stages cache on it)", () => {
    const checker = new LayoutChecker();
    const a = paperPreset;
    const b = replace(a, 4, (f) => ({ ...f, key: `${f.key}x` }));
    const key4 = (a.fields as Field[])[4]!.key;
    const ra = checker.check(a);
    const rb = checker.check(b);
    if (!ra.ok || !rb.ok) throw new Error("the paper preset is valid");
    rb.layout.fields.forEach((f, i) => {
      if (i === 4) expect(f).not.toBe(ra.layout.fields[i]);
      else expect(f).toBe(ra.layout.fields[i]);
    });
    expect(rb.layout.fields[4]!.key).toBe(`${key4}x`);
  });

  it("parses the same field object the same wherever it stands, twice in one draft included", () => {
    const checker = new LayoutChecker();
    const fields = everyTypeLayout.fields as Field[];
    const f0 = fields[0]!;
    const twice: LayoutInput = { ...everyTypeLayout, fields: [f0, f0, ...fields.slice(1)] };
    expect(checker.check(twice)).toEqual(checkLayout(twice));
    const moved: LayoutInput = { ...everyTypeLayout, fields: [...fields].reverse() };
    expect(checker.check(moved)).toEqual(checkLayout(moved));
  });
});
