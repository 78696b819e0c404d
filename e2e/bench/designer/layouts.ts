// The layouts the designer bench imports (as a user would: a .json file through "Open file…"): a small tracker,
// wide layouts of many scalar fields of every kind, and one long int16 array.
import type { Field, LayoutInput } from "#codecs";

type FieldIn = Omit<Field, "presence"> & { presence?: Field["presence"] };

const doc = (name: string, fields: FieldIn[]): LayoutInput => ({ format: "satlayout", version: 1, name, fields });

/** One field of the i-th kind in a cycle of eight, each with a sample model that makes its size vary. */
function scalar(i: number): FieldIn {
  const id = `f${i}`;
  const base = { id, key: `f_${i}`, name: `Field ${i}` };
  switch (i % 8) {
    case 0:
      return {
        ...base,
        type: { kind: "int", bits: 16, signed: true, min: -2000, max: 2000 },
        sample: { kind: "normal", mean: 0, sd: 400, min: -2000, max: 2000 },
      };
    case 1:
      return {
        ...base,
        type: { kind: "fixed", scale: 0.01, offset: 0, min: -40, max: 85 },
        sample: { kind: "walk", start: 20, stepMin: -0.5, stepMax: 0.5, min: -40, max: 85, decimals: 2 },
      };
    case 2:
      return {
        ...base,
        type: { kind: "float", bits: 32, precision: 0.001 },
        sample: { kind: "uniform", min: 0, max: 1000, decimals: 3 },
      };
    case 3:
      return { ...base, type: { kind: "bool" }, sample: { kind: "choice", values: [true, false] } };
    case 4:
      return {
        ...base,
        type: {
          kind: "enum",
          values: [
            { name: "IDLE", value: 0 },
            { name: "MOVING", value: 1 },
            { name: "ALARM", value: 2 },
          ],
        },
        sample: { kind: "choice", values: ["IDLE", "MOVING", "ALARM"], weights: [6, 3, 1] },
      };
    case 5:
      return {
        ...base,
        type: { kind: "string", maxLength: 12, fixed: false, charset: "upper-alnum" },
        sample: { kind: "template", template: "ID{digits:6}" },
      };
    case 6:
      return {
        ...base,
        type: { kind: "int", bits: 32, signed: false },
        sample: { kind: "counter", start: 1000, step: 7 },
      };
    default:
      return {
        ...base,
        type: { kind: "timestamp", encoding: "epoch", resolution: 1 },
        sample: { kind: "counter", start: 1_767_225_600, step: 60 },
      };
  }
}

/** `n` scalar fields of eight kinds in turn. */
export function wideLayout(n: number): LayoutInput {
  return doc(
    `Wide layout, ${n} fields`,
    Array.from({ length: n }, (_, i) => scalar(i)),
  );
}

/** A small tracker of seven fields (the layout size most people start with). */
export function smallLayout(): LayoutInput {
  return doc("Tracker, 7 fields", [0, 1, 2, 3, 4, 5, 7].map(scalar));
}

/** Three scalar fields and an int16 array of exactly `count` elements (a waveform, a histogram). */
export function arrayLayout(count: number): LayoutInput {
  return doc(`int16 array of ${count}`, [
    scalar(7),
    scalar(1),
    {
      id: "wave",
      key: "wave",
      name: "Waveform",
      type: { kind: "array", of: { kind: "int", bits: 16, signed: true }, maxCount: count, fixed: true },
      sample: { kind: "elements", each: [{ kind: "normal", mean: 0, sd: 3000, min: -32768, max: 32767 }] },
    },
    scalar(0),
  ]);
}
