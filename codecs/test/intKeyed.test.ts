// CBOR-int and MsgPack-int's own wire details: keys are the fields' layout numbers at every level,
// values are byte for byte the text-keyed forms' values, and every refusal names the number and the
// field. (Bytes against cbor2 / msgpack: reference/selfdescribing.test.ts; the shared checks: the
// conformance table.)
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { DecodeError } from "../src/errors.ts";
import { decodeAsSent } from "../src/formats/asSent.ts";
import { codecFor, type FormatId } from "../src/formats/registry.ts";
import type { LayoutInput } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const bytes = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ""), "hex"));

/** numbers set out of order on purpose (a renumbered-by-hand layout), one group, one required field */
const tracker: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "Tracker",
  fields: [
    {
      id: "bat",
      key: "battery",
      name: "Battery",
      presence: "required",
      type: { kind: "int", bits: 8, signed: false },
      options: { protobuf: { number: 7 } },
    },
    {
      id: "gps",
      key: "gps",
      name: "GPS",
      presence: "optional",
      options: { protobuf: { number: 2 } },
      type: {
        kind: "group",
        fields: [
          {
            id: "lat",
            key: "lat",
            name: "Latitude",
            presence: "required",
            type: { kind: "float", bits: 32 },
            options: { protobuf: { number: 1 } },
          },
          {
            id: "sats",
            key: "sats",
            name: "Satellites",
            presence: "optional",
            type: { kind: "int", bits: 8, signed: false },
            options: { protobuf: { number: 4 } },
          },
        ],
      },
    },
  ],
};
const layout = parseLayout(tracker);
const record = { battery: 87, gps: { lat: 48.5, sats: 9 } };

const doc = readFileSync(new URL("../../docs/design/integer-keyed-mapping.md", import.meta.url), "utf8");

/** The worked example of docs/design/integer-keyed-mapping.md: its table's row of a format. */
function worked(format: string): string {
  const row = new RegExp(`^\\| ${format} \\| \`([0-9a-f ]+)\` \\|$`, "m").exec(doc);
  if (!row) throw new Error(`integer-keyed-mapping.md has no worked example row for ${format}`);
  return row[1]!;
}

describe.each(["cbor-int", "msgpack-int"] as const satisfies FormatId[])("%s", (format) => {
  const codec = codecFor(layout, format);
  const refuse = (h: string): string => {
    try {
      codec.decode(bytes(h));
    } catch (e) {
      expect(e).toBeInstanceOf(DecodeError);
      return (e as Error).message;
    }
    throw new Error(`accepted ${h}`);
  };
  const enc = format === "cbor-int" ? { map1: "a1", map2: "a2", u8: "18" } : { map1: "81", map2: "82", u8: "" };

  test("keys are the layout's numbers at every level (the worked example of the mapping doc)", () => {
    expect(hex(codec.encode(record))).toBe(worked(format).replace(/\s+/g, ""));
    expect(codec.decode(bytes(worked(format)))).toEqual(record);
  });

  test("a rename changes nothing on the wire; a key the text forms cannot carry is no obstacle", () => {
    const renamed = parseLayout({
      ...tracker,
      fields: [{ ...tracker.fields[0]!, key: "batt\ud800" }, tracker.fields[1]!],
    } as LayoutInput);
    expect(hex(codecFor(renamed, format).encode({ "batt\ud800": 87, gps: record.gps }))).toBe(
      hex(codec.encode(record)),
    );
  });

  test("an unknown number is refused with the number and where it was looked for", () => {
    expect(refuse(`${enc.map1} 05 01`)).toMatch(/unknown key 5 \(the layout has no field number 5\)/);
    expect(refuse(`${enc.map2} 07 01 02 ${enc.map1} 03 01`)).toMatch(
      /unknown key 2\.3 \(group "gps" has no field number 3\)/,
    );
  });

  test("a duplicate names the number and the field", () => {
    expect(refuse(`${enc.map2} 07 01 07 02`)).toMatch(/duplicate key 7 \("battery"\)/);
    expect(refuse(`${enc.map2} 07 01 02 ${enc.map2} 04 01 04 02`)).toMatch(/duplicate key 2\.4 \("gps\.sats"\)/);
  });

  test("a text key names the field's number when the layout has that key", () => {
    const battery = format === "cbor-int" ? "67626174746572 79" : "a7626174746572 79";
    expect(refuse(`${enc.map1} ${battery} 01`)).toMatch(
      /map key is text key "battery" \(field battery is number 7\); keys are field numbers/,
    );
  });

  test("a missing required field names its number and its key, at the top and in a group", () => {
    expect(refuse(`${enc.map1} 02 ${enc.map1} 01 ${format === "cbor-int" ? "fa42420000" : "ca42420000"}`)).toMatch(
      /required field 7 \("battery"\) is missing/,
    );
    expect(refuse(`${enc.map2} 07 01 02 ${enc.map1} 04 09`)).toMatch(/required field 2\.1 \("gps\.lat"\) is missing/);
  });

  test("the document as sent keeps the numbers; the record is typed by name", () => {
    const got = decodeAsSent(layout, format, codec.encode(record));
    expect(got.sent).toEqual({ "7": 87, "2": { "1": 48.5, "4": 9 } });
    expect(got.record).toEqual(record);
  });
});

describe("values exactly as the text-keyed forms write them", () => {
  const paper = parseLayout(paperPreset);
  test.each([
    ["cbor", "cbor-int"],
    ["msgpack", "msgpack-int"],
  ] as const)("%s and %s: every value and framing span holds the same bytes on the paper preset", (text, int) => {
    for (const rec of generateSamples(paper, 200, 3)) {
      const pieces = (f: FormatId) => {
        const { bytes: b, spans } = codecFor(paper, f).encodeWithSpans(rec);
        return spans.filter((s) => s.role !== "key").map((s) => `${s.field}:${hex(b.subarray(s.start, s.end))}`);
      };
      expect(pieces(int)).toEqual(pieces(text));
    }
  });

  test("the paper preset's mean size, text keys against integer keys (10 000 samples, seed 1)", () => {
    const records = generateSamples(paper, 10_000, 1);
    const mean = (f: FormatId) => records.reduce((s, r) => s + codecFor(paper, f).encode(r).length, 0) / records.length;
    const sizes = Object.fromEntries(
      (["cbor", "cbor-int", "msgpack", "msgpack-int"] as const).map((f) => [f, mean(f)]),
    );
    console.log(`paper preset mean bytes: ${JSON.stringify(sizes)}`);
    // every key of the paper preset is text of 3+ characters; a number below 24 is one byte
    expect(sizes["cbor-int"]!).toBeLessThan(sizes.cbor! - paper.fields.length * 2);
    expect(sizes["msgpack-int"]!).toBeLessThan(sizes.msgpack! - paper.fields.length * 2);
  });
});
