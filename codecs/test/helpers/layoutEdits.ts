// The vocabulary of the schema-evolution tables: edits of a layout input (each returns a new input, the
// base stays as written) and the two-letter verdict (old readers of new messages, new readers of old ones).
import type { Compat, LayoutDiff } from "../../src/evolution/diff.ts";
import type { FormatId } from "../../src/formats/registry.ts";
import type { Field, LayoutInput } from "../../src/layout/schema.ts";

/** a field's stable protobuf number, which every numbered format (Protobuf, FlatBuffers, integer keys) follows */
export const pb = (number: number) => ({ protobuf: { number } });

export type Edit = (l: LayoutInput) => LayoutInput;

export const fields = (l: LayoutInput) => l.fields as Field[];

export const mapField =
  (id: string, f: (x: Field) => Field): Edit =>
  (l) => ({ ...l, fields: fields(l).map((x) => (x.id === id ? f(x) : x)) });

export const withType = (id: string, type: Partial<Field["type"]>): Edit =>
  mapField(id, (x) => ({ ...x, type: { ...x.type, ...type } as Field["type"] }));

/** adds `f` at index `at`, at the end when none is given */
export const addField =
  (f: Field, at?: number): Edit =>
  (l) => {
    const fs = [...fields(l)];
    fs.splice(at ?? fs.length, 0, f);
    return { ...l, fields: fs };
  };

/** removes field `id`, reserving its protobuf number when `reserve` is given */
export const removeField =
  (id: string, reserve?: number): Edit =>
  (l) => ({
    ...l,
    fields: fields(l).filter((x) => x.id !== id),
    protobufReserved: [...(l.protobufReserved ?? []), ...(reserve ? [reserve] : [])],
  });

export const both =
  (...edits: Edit[]): Edit =>
  (l) =>
    edits.reduce((acc, e) => e(acc), l);

export const LETTER: Record<Compat, string> = { compatible: "C", degraded: "D", breaking: "B" };

/** "CB": compatible for old readers of new messages, breaking for new readers of old ones */
export const verdictPair = (d: LayoutDiff, f: FormatId) => {
  const v = d.formats.find((x) => x.format === f)!;
  return LETTER[v.oldReadsNew] + LETTER[v.newReadsOld];
};
