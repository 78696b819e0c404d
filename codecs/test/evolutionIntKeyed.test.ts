// Schema evolution for CBOR-int and MsgPack-int: numbers, not names, are what the wire carries. Each
// edit's verdict (old decoders reading new messages / new decoders reading old ones; C compatible,
// D degraded, B breaking) beside the text-keyed CBOR's, and every verdict checked against the codecs
// themselves (encode with one version, decode with the other).
import { describe, expect, it } from "vitest";
import { type Edit, fields, mapField, pb, verdictPair as pair } from "./helpers/layoutEdits.ts";
import { diffLayouts } from "../src/evolution/diff.ts";
import type { Field, LayoutInput } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";

const u8 = { kind: "int", bits: 8, signed: false, min: 0, max: 100 } as const;
const sample = { kind: "uniform", min: 0, max: 100, decimals: 0 } as const;

const BASE: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "Integer keys",
  protobufReserved: [9],
  fields: [
    { id: "hum", key: "hum", name: "Humidity", presence: "required", type: u8, sample, options: pb(1) },
    {
      id: "temp",
      key: "temp",
      name: "Temperature",
      presence: "required",
      type: { kind: "float", bits: 32, min: -40, max: 85 },
      sample: { kind: "uniform", min: -10, max: 40, decimals: 2 },
      options: pb(2),
    },
    {
      id: "note",
      key: "note",
      name: "Note",
      presence: "optional",
      type: { kind: "string", maxLength: 4 },
      options: pb(3),
    },
    {
      id: "gps",
      key: "gps",
      name: "GPS",
      presence: "required",
      options: pb(4),
      type: {
        kind: "group",
        fields: [
          { id: "sats", key: "sats", name: "Satellites", presence: "required", type: u8, sample, options: pb(1) },
        ],
      },
    },
  ],
};

const batt = (number: number): Field => ({
  id: "batt",
  key: "batt",
  name: "Battery",
  presence: "optional",
  type: u8,
  sample,
  options: pb(number),
});

/** [edit, layout change, integer keys, text-keyed CBOR] */
const CASES: [string, Edit, string, string][] = [
  ["rename a key", mapField("temp", (f) => ({ ...f, key: "temperature" })), "CC", "BB"],
  ["rename a group", mapField("gps", (f) => ({ ...f, key: "pos" })), "CC", "BB"],
  ["renumber a field", mapField("temp", (f) => ({ ...f, options: pb(12) })), "BB", "CC"],
  ["renumber a group", mapField("gps", (f) => ({ ...f, options: pb(14) })), "BB", "CC"],
  ["reorder fields", (l) => ({ ...l, fields: [fields(l)[1]!, fields(l)[0]!, ...fields(l).slice(2)] }), "CC", "CC"],
  [
    "reuse a removed field's number for another field",
    (l) => ({ ...l, fields: [...fields(l).filter((f) => f.id !== "note"), batt(3)] }),
    "BB",
    "DD",
  ],
  // the new version drops the reservation (a layout may not use a number it reserves)
  ["reuse a reserved number", (l) => ({ ...l, protobufReserved: [], fields: [...fields(l), batt(9)] }), "DD", "DC"],
  ["append an optional field", (l) => ({ ...l, fields: [...fields(l), batt(10)] }), "DC", "DC"],
  [
    "remove a required field, reserving its number",
    (l) => ({ ...l, fields: fields(l).slice(1), protobufReserved: [9, 1] }),
    "BB",
    "BB",
  ],
  [
    "float32 → float64 (the value rules the text-keyed forms use)",
    mapField("temp", (f) => ({ ...f, type: { ...f.type, bits: 64 } as Field["type"] })),
    "CC",
    "CC",
  ],
  ["required → optional", mapField("hum", (f) => ({ ...f, presence: "optional" })), "DC", "DC"],
];

describe("integer-keyed evolution: the verdict table", () => {
  const base = parseLayout(BASE);

  it.each(CASES)("%s", (_name, edit, int, text) => {
    const d = diffLayouts(base, parseLayout(edit(BASE)), { probe: 30 });
    const findings = JSON.stringify(
      d.formats.filter((f) => f.format.endsWith("-int")).map((f) => [f.format, f.findings.map((x) => x.message)]),
    );
    expect({ int: pair(d, "cbor-int"), text: pair(d, "cbor") }, findings).toEqual({ int, text });
    expect(pair(d, "msgpack-int")).toBe(int);
    for (const v of d.formats.filter((f) => f.format.endsWith("-int"))) {
      for (const x of v.findings) if (x.severity === "breaking") expect(x.advice, x.message).toBeTruthy();
      // the codecs agree: compatible is real, degraded never worse, breaking shows failures
      for (const dir of ["oldReadsNew", "newReadsOld"] as const) {
        const said = v[dir];
        const seen = v.observed![dir];
        const at = `${v.format} ${dir}: analysis ${said}, codecs ${seen} (${v.observed!.examples.join(" | ")})`;
        if (said === "breaking") expect(seen, at).not.toBe("compatible");
        else if (said === "compatible") expect(seen, at).toBe("compatible");
        else expect(seen, at).not.toBe("breaking");
      }
    }
  });

  it("findings name the number and the field", () => {
    const d = diffLayouts(base, parseLayout(mapField("temp", (f) => ({ ...f, options: pb(12) }))(BASE)));
    const cborInt = d.formats.find((f) => f.format === "cbor-int")!;
    expect(cborInt.findings.map((f) => f.message)).toContain(
      "renumbered 2 → 12: each side's CBOR-int decoder refuses the other's key",
    );
    const gone = diffLayouts(base, parseLayout(CASES[8]![1](BASE))).formats.find((f) => f.format === "msgpack-int")!;
    expect(gone.findings.map((f) => f.message)).toContain(
      'key 1 ("hum") no longer sent: old MsgPack-int decoders refuse every message without this required key',
    );
  });
});
