// FlatBuffers' own evolution rules (flatbuffers.dev, "Evolution"), slot by slot over the two generated
// .fbs files: each edit with the verdict pair (old readers of new messages, new readers of old ones;
// C compatible, D degraded, B breaking), the finding that says why, and every verdict checked against
// the codec itself (encode with one version, decode with the other).
import { describe, expect, it } from "vitest";
import { addField, type Edit, LETTER, mapField, pb, removeField, withType } from "./helpers/layoutEdits.ts";
import { diffLayouts } from "../src/evolution/diff.ts";
import { parseFbs } from "../src/evolution/fbsSchema.ts";
import { flatbuffersFindings } from "../src/evolution/flatbuffers.ts";
import { flatbuffersSchema } from "../src/formats/flatbuffers/schema.ts";
import type { Field, LayoutInput } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";

const BASE: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "FlatBuffers evolution base",
  package: "evo",
  message: "Reading",
  protobufReserved: [9],
  fields: [
    {
      id: "seq",
      key: "seq",
      name: "Sequence",
      type: { kind: "int", bits: 16, signed: false, min: 1, max: 60000 },
      sample: { kind: "uniform", min: 1, max: 60000, decimals: 0 },
      options: pb(1),
    },
    {
      id: "temp",
      key: "temp",
      name: "Temperature",
      type: { kind: "float", bits: 32, min: -40, max: 85 },
      sample: { kind: "uniform", min: -10, max: 40, decimals: 2 },
      options: pb(2),
    },
    {
      id: "lat",
      key: "lat",
      name: "Latitude",
      type: { kind: "fixed", scale: 0.00001, offset: 0, min: -90, max: 90 },
      sample: { kind: "uniform", min: -90, max: 90, decimals: 5 },
      options: pb(3),
    },
    {
      id: "big",
      key: "big",
      name: "Big counter",
      type: { kind: "int", bits: 32, signed: false },
      sample: { kind: "uniform", min: 100000, max: 4000000000, decimals: 0 },
      options: pb(4),
    },
    {
      id: "name",
      key: "name",
      name: "Name",
      type: { kind: "string", maxLength: 8, charset: "upper-alnum" },
      sample: { kind: "choice", values: ["A7", "B42", "C123"] },
      options: pb(5),
    },
    {
      id: "batt",
      key: "batt",
      name: "Battery",
      presence: "optional",
      type: { kind: "int", bits: 8, signed: false, min: 0, max: 100 },
      sample: { kind: "uniform", min: 0, max: 100, decimals: 0 },
      options: pb(6),
    },
  ],
};

const hum: Field = {
  id: "hum",
  key: "hum",
  name: "Humidity",
  presence: "optional",
  type: { kind: "int", bits: 8, signed: false, min: 0, max: 100 },
  sample: { kind: "uniform", min: 1, max: 100, decimals: 0 },
  options: pb(7),
};

/** name, edit, verdict pair, a phrase the deciding finding must contain */
const CASES: [string, Edit, string, RegExp][] = [
  ["rename a key (names are not on the wire)", mapField("temp", (f) => ({ ...f, key: "temperature" })), "CC", /^$/],
  ["append an optional field with a new id", addField(hum), "CC", /^$/],
  ["append a required scalar", addField({ ...hum, presence: "required" }), "CD", /added \(id 6\)/],
  [
    "append a required string",
    addField({
      ...hum,
      type: { kind: "string", maxLength: 4, fixed: false, charset: "utf8" },
      presence: "required",
      sample: { kind: "choice", values: ["x"] },
    }),
    "CB",
    /refuse every old message/,
  ],
  ["remove a required string, reserving its number", removeField("name", 5), "BC", /require it/],
  ["remove an optional scalar, reserving its number", removeField("batt", 6), "CC", /^$/],
  [
    "reuse a reserved number (dropped from the reserved list)",
    (l) => ({ ...addField({ ...hum, options: pb(9) })(l), protobufReserved: [] }),
    "DD",
    /kept for a field deleted earlier/,
  ],
  ["renumber a field (its id moves)", mapField("temp", (f) => ({ ...f, options: pb(11) })), "BB", /id 1 → 10/],
  [
    "float32 → float64 (no widening in FlatBuffers)",
    withType("temp", { bits: 64 } as Partial<Field["type"]>),
    "BB",
    /not a value of the other/,
  ],
  [
    "uint32 → uint64, new writers sending values beyond 2^32",
    mapField("big", (f) => ({
      ...f,
      type: { kind: "int", bits: 64, signed: false },
      sample: { kind: "uniform", min: 5e9, max: 9e9, decimals: 0 },
    })),
    "BB",
    /read as other numbers[^]*bytes after the value|bytes after the value[^]*read as other numbers/,
  ],
  [
    "uint16 → uint32, values still within uint16",
    withType("seq", { bits: 32 } as Partial<Field["type"]>),
    "CB",
    /bytes after the value/,
  ],
  [
    "change a fixed-point scale (same slot type, other meaning)",
    withType("lat", { scale: 0.0001 } as Partial<Field["type"]>),
    "BB",
    /another value/,
  ],
  [
    "required → optional scalar (default 0 → null)",
    mapField("seq", (f) => ({ ...f, presence: "optional" })),
    "BD",
    /default 0 → null/,
  ],
  [
    "optional → required scalar (default null → 0)",
    mapField("batt", (f) => ({ ...f, presence: "required" })),
    "DB",
    /default null → 0/,
  ],
  ["required → optional string", mapField("name", (f) => ({ ...f, presence: "optional" })), "DC", /no longer required/],
  ["widen a range (same slot type)", withType("seq", { max: 65000 } as Partial<Field["type"]>), "DC", /range widened/],
];

describe("FlatBuffers schema evolution", () => {
  const base = parseLayout(BASE);

  it.each(CASES)("%s", (_name, edit, want, phrase) => {
    const next = parseLayout(edit(BASE));
    const v = diffLayouts(base, next, { formats: ["flatbuffers"] }).formats[0]!;
    const why = v.findings.map((f) => `${f.direction}/${f.severity}: ${f.message}`);
    expect(LETTER[v.oldReadsNew] + LETTER[v.newReadsOld], why.join("\n")).toBe(want);
    const deciding = v.findings
      .filter((f) => f.severity !== "info")
      .map((f) => f.message)
      .join("\n");
    expect(deciding, why.join("\n")).toMatch(phrase);
    for (const f of v.findings) if (f.severity === "breaking") expect(f.advice, f.message).toBeTruthy();
  });

  it.each(CASES)("%s: the codec agrees (encode with one version, decode with the other)", (_name, edit) => {
    const next = parseLayout(edit(BASE));
    const v = diffLayouts(base, next, { formats: ["flatbuffers"], probe: 40 }).formats[0]!;
    const o = v.observed!;
    expect(o.samples).toBeGreaterThan(20);
    for (const dir of ["oldReadsNew", "newReadsOld"] as const) {
      const at = `${dir}: rules ${v[dir]}, codec ${o[dir]} (${o.examples.join(" | ")})`;
      if (v[dir] === "breaking") expect(o[dir], at).not.toBe("compatible");
      else if (v[dir] === "compatible") expect(o[dir], at).toBe("compatible");
      else expect(o[dir], at).not.toBe("breaking");
    }
  });

  it("keeps a removed field's slot as a placeholder when its number is reserved, and says so when it is not", () => {
    const reserved = parseLayout(removeField("temp", 2)(BASE));
    const slot1 = parseFbs(flatbuffersSchema(reserved))
      .tables.get("Reading")!
      .slots.find((s) => s.id === 1)!;
    expect(slot1.deprecated).toBe(true);
    expect(flatbuffersFindings(base, reserved).filter((f) => f.severity === "info")).toEqual([]);
    const loose = parseLayout(removeField("temp")(BASE));
    expect(flatbuffersFindings(base, loose).find((f) => f.severity === "info")?.message).toMatch(
      /slot 1 of the removed "temp" is free again/,
    );
  });

  it("reads the generated .fbs back: tables, slots, defaults, deprecated placeholders", () => {
    const s = parseFbs(flatbuffersSchema(parseLayout(removeField("temp", 2)(BASE))));
    expect(s.namespace).toBe("evo");
    expect(s.root).toBe("Reading");
    expect(s.tables.get("Reading")!.slots.map((x) => [x.id, x.type, x.deprecated])).toEqual([
      [0, "ushort", false],
      [1, "ubyte", true],
      [2, "int", false],
      [3, "uint", false],
      [4, "string", false],
      [5, "ubyte", false],
    ]);
  });
});
