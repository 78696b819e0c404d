// Every kind of problem a layout can have is told in words: what is wrong, where (the field's name, not
// fields[0]) and what is allowed. One test per zod issue kind the schema can produce and per rule of
// validate.ts, each checking the whole sentence a person reads, plus the one-line form the CLI prints.
import { describe, expect, it } from "vitest";
import { describeIssue, LayoutError } from "../src/errors.ts";
import { checkLayout, parseLayout } from "../src/layout/validate.ts";

const doc = (fields: unknown[], extra: Record<string, unknown> = {}) => ({
  format: "satlayout",
  version: 1,
  name: "Buoy",
  fields,
  ...extra,
});
const u8 = (id: string, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  key: id,
  name,
  type: { kind: "int", bits: 8, signed: false },
  ...extra,
});

/** A fixed-count float array expanded into one protobuf field per suffix. */
const acc = (maxCount: number, expand: string[]) => ({
  id: "a",
  key: "acc",
  name: "Acceleration",
  type: { kind: "array", of: { kind: "float", bits: 32 }, maxCount, fixed: true },
  options: { protobuf: { expand } },
});

/** The issues of an invalid document, as [path, where, message]. */
function problems(input: unknown): [string, string | undefined, string][] {
  const r = checkLayout(input);
  if (r.ok) throw new Error("expected the layout to be refused");
  return r.issues.map((i) => [i.path, i.where, i.message]);
}

function only(input: unknown): [string, string | undefined, string] {
  const all = problems(input);
  expect(all).toHaveLength(1);
  return all[0]!;
}

describe("shape problems (zod), in words", () => {
  it("too big a number: the limit and the formats that set it", () => {
    const arr = { id: "s", key: "s", name: "Samples", type: { kind: "array", of: { kind: "bool" }, maxCount: 100000 } };
    expect(only(doc([arr]))).toEqual([
      "fields[0].type.maxCount",
      'field "Samples"',
      "Count is 100,000; the most is 65,535, because Struct writes a variable count as a uint16, SBE counts group entries in a uint16 (numInGroup) and nanopb and the C export keep array sizes in 16 bits.",
    ]);
    expect(only(doc([], { sbe: { schemaId: 70000 } }))).toEqual([
      "sbe.schemaId",
      "",
      "SBE schema id is 70,000; the most is 65,535, because the SBE message header holds it as a uint16.",
    ]);
  });

  it("too small a number: inclusive bounds say the least, exclusive ones why zero is refused", () => {
    const fixed = { id: "t", key: "t", name: "Temp", type: { kind: "fixed", scale: 0, min: 0, max: 1 } };
    expect(only(doc([fixed]))).toEqual([
      "fields[0].type.scale",
      'field "Temp"',
      "Scale is 0; it must be more than 0, because value = raw × scale + offset needs a step greater than 0.",
    ]);
    // the 16-bit reason explains the most, not the least: a lower bound carries its own reason or none
    const str = { id: "n", key: "n", name: "Note", type: { kind: "string", maxLength: -1 } };
    expect(only(doc([str]))[2]).toBe("Max length is -1; the least is 0.");
    const arr = { id: "s", key: "s", name: "Samples", type: { kind: "array", of: { kind: "bool" }, maxCount: -1 } };
    expect(only(doc([arr]))[2]).toBe("Count is -1; the least is 0.");
    expect(only(doc([{ ...u8("a", "A"), text: { as: "string", decimals: -1 } }]))[2]).toBe(
      "Decimals is -1; the least is 0.",
    );
    expect(only(doc([{ ...u8("a", "A"), options: { protobuf: { number: 0 } } }]))[2]).toBe(
      "Protobuf number is 0; the least is 1, because protobuf field numbers start at 1.",
    );
    const counter = u8("c", "Seq", { sample: { kind: "counter", start: 0, step: 1, wrap: 0 } });
    expect(only(doc([counter]))[2]).toBe(
      "Wrap after is 0; it must be more than 0, because the counter starts again after that many steps.",
    );
  });

  it("too long and empty text", () => {
    expect(only(doc([u8("a", "x".repeat(130))]))).toEqual([
      "fields[0].name",
      `field "${"x".repeat(57)}…"`,
      "Name is 130 characters long; the most is 128, because names label rows, generated code comments and reports.",
    ]);
    expect(only(doc([{ ...u8("a", "A"), id: "" }]))[2]).toBe("Id is empty; it needs at least 1 character.");
    // characters counted and cut as zod counts them (code points), never half an emoji (a lone surrogate shows as �)
    const ships = (x: number, n: number) => `${"x".repeat(x)}${"🚢".repeat(n)}`;
    expect(only(doc([u8("a", ships(56, 80))]))).toEqual([
      "fields[0].name",
      `field "${ships(56, 1)}…"`,
      "Name is 136 characters long; the most is 128, because names label rows, generated code comments and reports.",
    ]);
    const e = (name: string, value = 0) => ({ name, value });
    const enumOf = (...values: { name: string; value: number }[]) => ({
      ...u8("e", "E"),
      type: { kind: "enum", values },
    });
    expect(only(doc([enumOf(e(ships(30, 40)))]))[2]).toBe(
      "Name of value 1 is 70 characters long; the most is 64, because SBE schema names are at most 64 characters (symbolicName_t).",
    );
    expect(only(doc([enumOf(e(ships(38, 10)), e(ships(38, 10), 1))]))[2]).toBe(
      `Name of value 2 ("${ships(38, 1)}…") is also the name of value 1; every value needs its own name.`,
    );
  });

  it("too many and too few entries in a list", () => {
    const e = { id: "e", key: "e", name: "State", type: { kind: "enum", values: [] } };
    expect(only(doc([e]))[2]).toBe("The enum has no values; it needs at least 1.");
    const fields = Array.from({ length: 65_536 }, (_, i) => ({
      id: `f${i}`,
      key: `f${i}`,
      name: `F${i}`,
      type: { kind: "bool" },
    }));
    expect(only(doc(fields))).toEqual([
      "fields",
      "",
      "The layout has 65,536 fields; the most is 65,535, because nanopb counts the fields of a message in 16 bits and SBE numbers them with 16-bit ids.",
    ]);
  });

  it("a value of the wrong type, a missing one, a fraction where a whole number belongs", () => {
    const arr = (maxCount: unknown) => ({
      id: "s",
      key: "s",
      name: "Samples",
      type: { kind: "array", of: { kind: "bool" }, maxCount },
    });
    expect(only(doc([arr("ten")]))[2]).toBe('Count is "ten"; it must be a number.');
    expect(only(doc([arr(2.5)]))[2]).toBe("Count is 2.5; it must be a whole number.");
    expect(only(doc([{ id: "s", key: "s", name: "Samples", type: { kind: "array", of: { kind: "bool" } } }]))[2]).toBe(
      "Count is missing; it must be a number.",
    );
    expect(only(doc([u8("a", "A")], { fields: "none" }))).toEqual([
      "fields",
      "",
      'Fields is "none"; it must be a list [ … ].',
    ]);
  });

  it("a literal or an enum value that is not allowed", () => {
    expect(only({ ...doc([]), version: 2 })).toEqual([
      "version",
      "",
      "Version is 2; it must be 1, because this SatPayload Studio reads version 1 layout files (a newer studio may have written this one).",
    ]);
    expect(only({ ...doc([]), format: "layout" })[2]).toBe(
      'Format is "layout"; it must be "satlayout", because that is what marks a SatPayload layout file.',
    );
    expect(only(doc([{ ...u8("a", "Depth"), type: { kind: "int", bits: 12, signed: false } }]))).toEqual([
      "fields[0].type.bits",
      'field "Depth"',
      "Bits is 12; allowed: 8, 16, 32, 64.",
    ]);
    expect(only(doc([{ ...u8("a", "Depth"), presence: "sometimes" }]))[2]).toBe(
      'Presence is "sometimes"; allowed: "required", "optional".',
    );
  });

  it("a kind that does not exist (a union's discriminator)", () => {
    expect(only(doc([{ ...u8("a", "Depth"), type: { kind: "integer" } }]))[2]).toBe(
      'Type is "integer"; allowed: "bool", "enum", "int", "float", "fixed", "timestamp", "string", "bytes", "array", "group".',
    );
    const arr = { id: "s", key: "s", name: "Samples", type: { kind: "array", of: { kind: "array" }, maxCount: 3 } };
    expect(only(doc([arr]))[2]).toBe(
      'Element type is "array"; allowed: "bool", "enum", "int", "float", "fixed", "timestamp", "string", "bytes".',
    );
  });

  it("text of the wrong form (a pattern)", () => {
    expect(only(doc([], { package: "9 buoys" }))).toEqual([
      "package",
      "",
      'Protobuf package "9 buoys" must start with a letter or _ and hold only letters, digits, _ or -.',
    ]);
    expect(only(doc([acc(2, ["x", "y-axis"])]))[2]).toBe(
      'Expand suffix 2 "y-axis" must hold only letters, digits and _.',
    );
  });

  it("a misspelt property, with the one that was meant", () => {
    expect(only(doc([{ ...u8("a", "Depth"), units: "m" }]))).toEqual([
      "fields[0]",
      'field "Depth"',
      'The field has a property "units" that layout files do not have (did you mean "unit"?); remove it or correct the name.',
    ]);
    const arr = { id: "s", key: "s", name: "Samples", type: { kind: "array", of: { kind: "bool" }, maxcount: 3 } };
    expect(problems(doc([arr])).map((p) => p[2])).toEqual([
      "Count is missing; it must be a number.",
      'Type has a property "maxcount" that layout files do not have (did you mean "maxCount"?); remove it or correct the name.',
    ]);
  });

  it("a misspelt setting inside the layout's and a field's option groups is refused, not dropped", () => {
    // dropped, these would silently become the defaults: schema id 1, an automatic protobuf number
    expect(only(doc([], { sbe: { schemaID: 7 } }))).toEqual([
      "sbe",
      "",
      'SBE settings has a property "schemaID" that layout files do not have (did you mean "schemaId"?); remove it or correct the name.',
    ]);
    expect(only(doc([{ ...u8("a", "Depth"), options: { protobuf: { Number: 5 } } }]))).toEqual([
      "fields[0].options.protobuf",
      'field "Depth"',
      'Protobuf options has a property "Number" that layout files do not have (did you mean "number"?); remove it or correct the name.',
    ]);
    expect(only(doc([{ ...u8("a", "Depth"), options: { struct: { stringmode: "fixed" } } }]))[2]).toBe(
      'Struct options has a property "stringmode" that layout files do not have (did you mean "stringMode"?); remove it or correct the name.',
    );
    expect(only(doc([], { struct: { endian: "little" } }))[0]).toBe("struct");
    expect(only(doc([], { json: { spaces: "python" } }))[0]).toBe("json");
  });

  it("names that show nothing: spaces, zero-width and other invisible characters", () => {
    for (const [name, points] of [
      ["   ", "U+0020 U+0020 U+0020"],
      ["\u200b", "U+200B"],
      ["\u3164", "U+3164"],
      ["\u2800", "U+2800"],
      ["\u00a0\u200d\ufe0f", "U+00A0 U+200D U+FE0F"],
    ] as const)
      expect(only(doc([u8("a", name)]))).toEqual([
        "fields[0].name",
        'field #1 (key "a")',
        `Name holds only invisible characters (${points}); it needs at least one visible character.`,
      ]);
    expect(only(doc([u8("a", "")]))[2]).toBe("Name is empty; it needs at least one visible character.");
    expect(only({ ...doc([]), name: "\u200b\u200b" })[2]).toBe(
      "Layout name holds only invisible characters (U+200B U+200B); it needs at least one visible character.",
    );
    const e = { ...u8("e", "State"), type: { kind: "enum", values: [{ name: " ", value: 0 }] } };
    expect(only(doc([e]))[2]).toBe(
      "Name of value 1 holds only invisible characters (U+0020); it needs at least one visible character.",
    );
    // what does show is fine: a single letter, an emoji, a name padded with spaces
    for (const name of ["x", "🌡", " Depth ", "é", "\u0301e"])
      expect(checkLayout(doc([u8("a", name)])).ok, name).toBe(true);
  });
});

describe("layout rules, in words", () => {
  it("ranges: maximum above minimum, inside the integer type", () => {
    expect(only(doc([{ ...u8("r", "RSSI"), type: { kind: "int", bits: 8, signed: true, min: 10, max: 0 } }]))).toEqual([
      "fields[0].type.max",
      'field "RSSI"',
      "Maximum is 0; it must be greater than the minimum (10).",
    ]);
    expect(only(doc([{ ...u8("r", "RSSI"), type: { kind: "int", bits: 8, signed: false, min: -5 } }]))[2]).toBe(
      "Minimum is -5; a uint8 holds 0 … 255.",
    );
    expect(only(doc([{ ...u8("r", "RSSI"), type: { kind: "int", bits: 8, signed: true, min: -500 } }]))[2]).toBe(
      "Minimum is -500; an int8 holds -128 … 127.",
    );
    // 64-bit limits as they are, not as a double rounds them (…775,807, not …776,000)
    const i64 = (type: Record<string, unknown>) => ({ ...u8("c", "Count"), type: { kind: "int", bits: 64, ...type } });
    expect(only(doc([i64({ signed: true, max: 1e20 })]))[2]).toBe(
      "Maximum is 100,000,000,000,000,000,000; an int64 holds -9,223,372,036,854,775,808 … 9,223,372,036,854,775,807.",
    );
    expect(only(doc([i64({ signed: false, min: -1 })]))[2]).toBe(
      "Minimum is -1; a uint64 holds 0 … 18,446,744,073,709,551,615.",
    );
    // an integer's bounds are whole numbers (a fraction made the 64-bit range check throw a RangeError)
    expect(only(doc([i64({ signed: true, min: 0.5 })]))).toEqual([
      "fields[0].type.min",
      'field "Count"',
      "Minimum is 0.5; an int64 holds whole numbers, so its bounds are whole numbers too.",
    ]);
    expect(only(doc([{ ...u8("r", "RSSI"), type: { kind: "int", bits: 8, signed: false, max: 99.5 } }]))[2]).toBe(
      "Maximum is 99.5; a uint8 holds whole numbers, so its bounds are whole numbers too.",
    );
    const ts = { id: "t", key: "t", name: "Time", type: { kind: "timestamp", encoding: "epoch", min: 5, max: 5 } };
    expect(only(doc([ts]))[2]).toBe("Latest is 5; it must be greater than the earliest (5).");
    const arr = {
      id: "s",
      key: "s",
      name: "Samples",
      type: { kind: "array", of: { kind: "float", bits: 32, min: 1, max: 0 }, maxCount: 3 },
    };
    expect(only(doc([arr]))).toEqual([
      "fields[0].type.of.max",
      'field "Samples"',
      "Element maximum is 0; it must be greater than the element minimum (1).",
    ]);
  });

  it("fixed point too fine, text timestamps without a format", () => {
    const fixed = { id: "t", key: "t", name: "Temp", type: { kind: "fixed", scale: 1e-12, min: -1e6, max: 1e6 } };
    expect(only(doc([fixed]))[2]).toBe(
      "Scale 1e-12 is too fine for the range -1,000,000 … 1,000,000: that is more than 2^53 steps, which no number holds exactly. Use a coarser scale or a narrower range.",
    );
    const ts = { id: "t", key: "t", name: "Time", type: { kind: "timestamp", encoding: "text" } };
    expect(only(doc([ts]))[2]).toBe(
      'Format is missing; a timestamp written as text needs one, e.g. "YYYY-MM-DD hh:mm:ss".',
    );
  });

  it("duplicates: names and numbers of enum values, ids, keys, protobuf numbers (both fields named)", () => {
    const e = {
      ...u8("e", "State"),
      type: {
        kind: "enum",
        values: [
          { name: "OK", value: 0 },
          { name: "OK", value: 0 },
        ],
      },
    };
    expect(problems(doc([e])).map((p) => p[2])).toEqual([
      'Name of value 2 ("OK") is also the name of value 1; every value needs its own name.',
      "Number of value 2 (0) is also the number of value 1; every value needs its own number.",
    ]);
    const lat = u8("lat", "Latitude");
    const lon = { ...u8("lon", "Longitude"), key: "lat" };
    const r = checkLayout(doc([lat, lon]));
    if (r.ok) throw new Error("expected issues");
    expect(r.issues).toEqual([
      {
        path: "fields[1].key",
        where: 'field "Longitude"',
        related: "fields[0]",
        message:
          'Key "lat" is used by both field "Latitude" and field "Longitude"; the fields of one message need different keys, because the key names the value on the wire.',
      },
    ]);
    const gps = { id: "g", key: "gps", name: "GPS", type: { kind: "group", fields: [{ ...u8("lat", "Lat") }] } };
    expect(only(doc([lat, gps]))).toEqual([
      "fields[1].type.fields[0].id",
      'field "GPS › Lat"',
      'Id "lat" is used by both field "Latitude" and field "GPS › Lat"; every field needs its own id.',
    ]);
    const numbered = (id: string, n: number) => ({ ...u8(id, id.toUpperCase()), options: { protobuf: { number: n } } });
    expect(only(doc([numbered("a", 3), numbered("b", 3)]))[2]).toBe(
      'Protobuf number 3 is used by both field "A" and field "B"; the fields of one message need different numbers.',
    );
  });

  it("protobuf's reserved range, reserved numbers reused, expansions that do not fit", () => {
    expect(only(doc([{ ...u8("a", "A"), options: { protobuf: { number: 19001 } } }]))).toEqual([
      "fields[0].options.protobuf.number",
      'field "A"',
      "Protobuf number 19,001 lies in 19,000 … 19,999, which protobuf reserves for itself; choose another number.",
    ]);
    expect(only(doc([{ ...u8("a", "A"), options: { protobuf: { number: 7 } } }], { protobufReserved: [7] }))[2]).toBe(
      "Protobuf number 7 is reserved: a field deleted from this message had it, and a device still sending it would be misread. Choose another number.",
    );
    expect(only(doc([acc(3, ["x", "y"])]))[2]).toBe(
      "Expand as needs a fixed-count array with exactly one suffix per element; this array has 3 elements and 2 suffixes.",
    );
    expect(only(doc([{ ...u8("a", "A"), options: { protobuf: { expand: ["x"] } } }]))[2]).toBe(
      "Expand as needs a fixed-count array with exactly one suffix per element; this field is an int, not an array.",
    );
  });

  it("an expanded array's later numbers: past the largest protobuf number, or reserved", () => {
    const numbered = (number: number) => ({
      ...acc(3, ["x", "y", "z"]),
      options: { protobuf: { number, expand: ["x", "y", "z"] } },
    });
    // acc_z would be 536 870 912, which protoc refuses and no tag holds
    expect(only(doc([numbered(536_870_910)]))).toEqual([
      "fields[0].options.protobuf.number",
      'field "Acceleration"',
      "Protobuf number 536,870,910 (element 3 of the expanded array takes 536,870,912) is past 536,870,911, the largest protobuf field number; choose a number of at most 536,870,909.",
    ]);
    expect(checkLayout(doc([numbered(536_870_909)])).ok).toBe(true);
    // a deleted field's number must not come back as acc_y, in the layout or in a group
    expect(only(doc([numbered(10)], { protobufReserved: [11] }))).toEqual([
      "fields[0].options.protobuf.number",
      'field "Acceleration"',
      "Protobuf number 11 (element 2 of the expanded array) is reserved: a field deleted from this message had it, and a device still sending it would be misread. Choose another number.",
    ]);
    const group = {
      id: "g",
      key: "g",
      name: "G",
      type: { kind: "group", fields: [numbered(4)], protobufReserved: [6] },
    };
    expect(only(doc([group]))[0]).toBe("fields[0].type.fields[0].options.protobuf.number");
  });

  it("text representation that does not fit the field", () => {
    expect(only(doc([{ ...u8("a", "A"), text: { as: "string", separator: ";" } }]))[2]).toBe(
      "Separator joins the elements of an array, and this field is an int; clear it or make the field an array.",
    );
    const g = {
      id: "g",
      key: "g",
      name: "GPS",
      type: { kind: "group", fields: [u8("x", "X")] },
      text: { as: "string" },
    };
    expect(only(doc([g]))[2]).toBe(
      'Written as "string" cannot apply to a group: a group holds several values, each written on its own.',
    );
  });

  it("sample values of the wrong type, weights that do not match the choices", () => {
    expect(only(doc([{ ...u8("a", "A"), sample: { kind: "constant", value: "abc" } }]))).toEqual([
      "fields[0].sample.value",
      'field "A"',
      'Constant value is "abc"; it must be a number.',
    ]);
    const e = {
      ...u8("e", "State"),
      type: {
        kind: "enum",
        values: [
          { name: "OK", value: 0 },
          { name: "FAULT", value: 1 },
        ],
      },
      sample: { kind: "choice", values: ["OK", "BROKEN"], weights: [1] },
    };
    expect(problems(doc([e])).map((p) => p[2])).toEqual([
      'Choice 2 is "BROKEN"; allowed: "OK", "FAULT".',
      "Weights has 1 number for 2 choices; give one weight per choice.",
    ]);
  });
});

describe("the one-line form (CLI, host, file import)", () => {
  it("puts the field before each sentence, and the layout's own settings without one", () => {
    const input = doc([{ ...u8("a", "Depth"), type: { kind: "int", bits: 12, signed: false } }], { version: 2 });
    let err: unknown;
    try {
      parseLayout(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LayoutError);
    expect((err as LayoutError).message).toBe(
      'Version is 2; it must be 1, because this SatPayload Studio reads version 1 layout files (a newer studio may have written this one). Field "Depth": Bits is 12; allowed: 8, 16, 32, 64.',
    );
    // issues from elsewhere (an exporter's path and phrase) keep their form
    expect(describeIssue({ path: "fields[0].type.maxCount", message: "exceeds SBE numInGroup (uint16)" })).toBe(
      "fields[0].type.maxCount exceeds SBE numInGroup (uint16)",
    );
    expect(
      new LayoutError([
        { path: "a", message: "x" },
        { path: "b", message: "y" },
      ]).message,
    ).toBe("a x; b y");
  });
});
