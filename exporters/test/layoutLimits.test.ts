// The layout's limits are what the formats allow: layouts of 2 000 fields and arrays of 10 000 elements
// (up to 65 535, the 16-bit counts of Struct, SBE, nanopb and the C export) are accepted, every format
// carries them and every export writes them; past a limit the error says why it is there.
import { describe, expect, it } from "vitest";
import { checkLayout, codecFor, FORMAT_IDS, generateSamples, type Layout, LIMITS, parseLayout } from "#codecs";
import { runExports } from "../src/registry.ts";

const KINDS = [
  { kind: "int", bits: 16, signed: true },
  { kind: "float", bits: 32 },
  { kind: "bool" },
  { kind: "string", maxLength: 8 },
  {
    kind: "enum",
    values: [
      { name: "A", value: 0 },
      { name: "B", value: 1 },
    ],
  },
  { kind: "fixed", scale: 0.01, min: -10, max: 10 },
];

const doc = (fields: unknown[]) => ({ format: "satlayout", version: 1, name: "Big", fields });

function wide(n: number): Layout {
  return parseLayout(
    doc(Array.from({ length: n }, (_, i) => ({ id: `f${i}`, key: `f${i}`, name: `Field ${i}`, type: KINDS[i % 6] }))),
  );
}

const arrayOf = (maxCount: number, fixed = false) =>
  doc([
    {
      id: "a",
      key: "samples",
      name: "Samples",
      type: { kind: "array", of: { kind: "int", bits: 16, signed: true }, maxCount, fixed },
    },
  ]);

/** Every format encodes a drawn record, decodes it, and encodes the decoded record to the same bytes. */
function everyFormatCarries(layout: Layout): void {
  const [rec] = generateSamples(layout, 1, 1);
  for (const format of FORMAT_IDS) {
    const codec = codecFor(layout, format);
    const bytes = codec.encode(rec!);
    // compared as plain lists: cbor-x's decoder leaves a dataView property on the bytes it read
    expect(Array.from(codec.encode(codec.decode(bytes))), format).toEqual(Array.from(bytes));
  }
}

describe("layout limits", () => {
  it("accepts 2 000 fields: numbered 1 … 2 000, carried by every format and written by every export", () => {
    const layout = wide(2000);
    expect(layout.fields.at(-1)!.options?.protobuf?.number).toBe(2000);
    everyFormatCarries(layout);
    const { files, problems } = runExports(layout);
    expect(problems).toEqual([]);
    const proto = files.find((f) => f.path.endsWith(".proto"))!.content as string;
    expect(proto).toContain("f1999 = 2000;");
    const sbe = files.find((f) => f.path.endsWith(".xml") && f.exporter === "sbe-xml")!.content as string;
    // one SBE id per field (strings last, as var data), all within 16 bits
    expect(sbe).toContain(' id="2000" ');
    expect(sbe).not.toContain(' id="2001" ');
  }, 120_000);

  it("accepts arrays of 10 000 and of 65 535 elements, fixed or not, in every format and export", () => {
    for (const fixed of [false, true]) {
      const layout = parseLayout(arrayOf(10_000, fixed));
      everyFormatCarries(layout);
      expect(runExports(layout).problems).toEqual([]);
    }
    const most = parseLayout(arrayOf(LIMITS.arrayCount.max));
    const codec = codecFor(most, "struct");
    const full = { samples: Array.from({ length: 65_535 }, (_, i) => (i % 200) - 100) };
    // a variable count past 255 is written as a uint16: 2 + 2 bytes × 65 535
    expect(codec.encode(full).length).toBe(2 + 2 * 65_535);
    expect(codec.decode(codec.encode(full))).toEqual(full);
  }, 120_000);

  it("refuses one element more, saying which formats count in 16 bits", () => {
    const r = checkLayout(arrayOf(65_536));
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.issues[0]!.message).toMatch(/^Count is 65,536; the most is 65,535, because Struct .*16 bits\.$/);
  });

  it("SBE numbers a message's fields in 16 bits: an export needing more ids says so", () => {
    // variable-count arrays become repeating groups of two ids each (the group and its entry)
    const fields = Array.from({ length: 32_768 }, (_, i) => ({
      id: `a${i}`,
      key: `a${i}`,
      name: `A${i}`,
      type: { kind: "array", of: { kind: "bool" }, maxCount: 2 },
    }));
    const { problems } = runExports(parseLayout(doc(fields)), ["sbe-xml"]);
    // what takes the ids, and a way out that works for it (a group does not help: its variable-count
    // arrays still become repeating groups of the message)
    expect(problems.map((p) => p.message)).toEqual([
      "The SBE message would need field ids up to 65,536, and SBE ids are 16-bit (at most 65,535): 32,768 variable-count arrays take two each (the repeating group and its entry). Give arrays a fixed count (one id each) or put scalar fields into a group (one id for all of them).",
    ]);
    const grouped = doc([{ id: "g", key: "g", name: "G", type: { kind: "group", fields } }]);
    expect(runExports(parseLayout(grouped), ["sbe-xml"]).problems.map((p) => p.message)).toEqual([
      "The SBE message would need field ids up to 65,536, and SBE ids are 16-bit (at most 65,535): 32,768 variable-count arrays take two each (the repeating group and its entry). Give arrays a fixed count (one id each) or put scalar fields into a group (one id for all of them).",
    ]);
  }, 120_000);
});
