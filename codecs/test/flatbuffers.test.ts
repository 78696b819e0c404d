// FlatBuffers wire details: the worked example of docs/design/flatbuffers-mapping.md (schema and bytes),
// defaults left out and restored, optional scalars at zero, slots kept by protobuf numbers, and the
// reader's refusals of bad bytes, each with its sentence.
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { fixInput, fixLayout, fixRecord } from "./fixtures/flatbuffersExample.ts";
import { DecodeError, LayoutError } from "../src/errors.ts";
import { compileFlatbuffers } from "../src/formats/flatbuffers/codec.ts";
import { flatbuffersSchema } from "../src/formats/flatbuffers/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";

const doc = readFileSync(new URL("../../docs/design/flatbuffers-mapping.md", import.meta.url), "utf8");
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const codec = compileFlatbuffers(fixLayout);
const example = codec.encode(fixRecord);

describe("the worked example of flatbuffers-mapping.md", () => {
  test("the schema block is flatbuffersSchema() of the example layout", () => {
    const block = /```fbs\n([\s\S]*?)```/.exec(doc)![1]!;
    expect(block).toBe(flatbuffersSchema(fixLayout));
  });

  test("the hex string is the encoded record, and it decodes back to the record", () => {
    const documented = /as one hex string:\n`([0-9a-f]+)`/.exec(doc)![1]!;
    expect(hex(example)).toBe(documented);
    expect(example.length).toBe(80);
    expect(codec.decode(example)).toEqual(fixRecord);
  });

  test("spans: every byte once, in order; values by field path, offsets and lengths as length", () => {
    const { spans } = codec.encodeWithSpans(fixRecord);
    expect(spans[0]!.start).toBe(0);
    expect(spans[spans.length - 1]!.end).toBe(80);
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBe(spans[i - 1]!.end);
    const value = (field: string) =>
      spans.filter((s) => s.field === field && s.role === "value").map((s) => hex(example.subarray(s.start, s.end)));
    expect(value("temp")).toEqual(["0000ac41"]);
    expect(value("pos/lat")).toEqual(["50ae4200"]);
    expect(value("name")).toEqual(["6162"]);
    expect(spans.find((s) => s.field === "rssi" && s.role === "length")).toMatchObject({ start: 32, end: 36 });
  });
});

describe("FlatBuffers defaults and slots", () => {
  test("a required scalar at its default is left out and read back; an optional one at 0 is written", () => {
    const atDefault = codec.encode({ ...fixRecord, id: 0, sats: 0 });
    const noSats = codec.encode({ ...fixRecord, id: 0, sats: undefined as never });
    const { sats: _dropped, ...withoutSats } = fixRecord;
    const absent = codec.encode({ ...withoutSats, id: 0 });
    // id = 0 costs nothing beyond alignment, sats present at 0 costs its byte, sats absent none
    expect(absent.length).toBeLessThan(atDefault.length);
    expect(codec.decode(atDefault)).toEqual({ ...fixRecord, id: 0 });
    expect(codec.decode(absent)).toEqual({ ...withoutSats, id: 0 });
    expect(noSats.length).toBe(absent.length);
  });

  test("a moved field keeps its slot (its protobuf number), so the bytes do not change", () => {
    const moved = parseLayout({ ...fixInput, fields: [...fixInput.fields].reverse() });
    expect(hex(compileFlatbuffers(moved).encode(fixRecord))).toBe(hex(example));
  });

  test("an enum without 0 declares its lowest value as default; arrays of bytes are refused", () => {
    const layout = parseLayout({
      format: "satlayout",
      version: 1,
      name: "E",
      fields: [
        {
          id: "m",
          key: "m",
          name: "m",
          type: {
            kind: "enum",
            values: [
              { name: "B", value: 9 },
              { name: "A", value: 4 },
            ],
          },
        },
      ],
    });
    expect(flatbuffersSchema(layout)).toContain("enum M : ubyte { A = 4, B = 9 }");
    expect(flatbuffersSchema(layout)).toContain("m:M = A (id: 0);");
    const c = compileFlatbuffers(layout);
    expect(c.decode(c.encode({ m: "A" }))).toEqual({ m: "A" });
    expect(c.encode({ m: "A" }).length).toBeLessThan(c.encode({ m: "B" }).length);
    const bytesArray = parseLayout({
      format: "satlayout",
      version: 1,
      name: "B",
      fields: [
        { id: "b", key: "b", name: "b", type: { kind: "array", of: { kind: "bytes", maxLength: 4 }, maxCount: 2 } },
      ],
    });
    expect(() => compileFlatbuffers(bytesArray)).toThrow(LayoutError);
    expect(() => compileFlatbuffers(bytesArray)).toThrow(/no vector of byte vectors/);
  });
});

describe("the FlatBuffers reader refuses bad bytes with a sentence", () => {
  const patch = (at: number, bytes: number[]) => {
    const b = example.slice();
    b.set(bytes, at);
    return b;
  };
  test.each([
    ["empty input", new Uint8Array(0), /root offset lies outside the 0-byte message/],
    ["root offset past the end", patch(0, [0xf0, 0, 0, 0]), /root table lies outside/],
    ["misaligned root offset", patch(0, [0x19, 0, 0, 0]), /root table is not aligned to 4 bytes/],
    ["vtable size odd", patch(6, [0x11, 0]), /vtable size 17 is not an even number/],
    ["a slot outside its table", patch(14, [0x30, 0]), /temp: its slot lies outside the table/],
    ["string length past the end", patch(72, [0xff, 0, 0, 0]), /name: a length of 255 runs past the end/],
    ["string without its NUL", patch(78, [0x41]), /name: the string's terminating byte is not NUL/],
    ["invalid UTF-8", patch(76, [0xc0, 0xaf]), /name: invalid UTF-8/],
    ["too many elements", patch(64, [5, 0, 0, 0]), /rssi: .*(runs past|more than maxCount)/],
    ["a required table absent", patch(22, [0, 0]), /pos is required but absent/],
    ["cut in the trailing padding", example.subarray(0, 79), /not a multiple of its 4-byte alignment/],
    ["an offset of 0", patch(28, [0, 0, 0, 0]), /pos: an offset of 0 points at itself/],
  ] as const)("%s", (_name, bytes, message) => {
    expect(() => codec.decode(bytes)).toThrow(DecodeError);
    expect(() => codec.decode(bytes)).toThrow(message);
  });

  test("an enum value the layout does not have, and an int outside the layout's range", () => {
    const layout = parseLayout({
      format: "satlayout",
      version: 1,
      name: "R",
      fields: [
        {
          id: "m",
          key: "m",
          name: "m",
          type: {
            kind: "enum",
            values: [
              { name: "A", value: 0 },
              { name: "B", value: 1 },
            ],
          },
        },
        { id: "n", key: "n", name: "n", type: { kind: "int", bits: 8, signed: false, min: 0, max: 10 } },
      ],
    });
    const c = compileFlatbuffers(layout);
    const { bytes: good, spans } = c.encodeWithSpans({ m: "B", n: 7 });
    const at = (field: string) => spans.find((s) => s.field === field && s.role === "value")!.start;
    const badEnum = good.slice();
    badEnum[at("m")] = 2;
    expect(() => c.decode(badEnum)).toThrow(/m: 2 is not a value of the enum/);
    const badInt = good.slice();
    badInt[at("n")] = 11;
    expect(() => c.decode(badInt)).toThrow(/n: 11 is outside the layout's range 0 … 10/);
  });
});
