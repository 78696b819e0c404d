// generateProto: the .proto file users compile (protoc, nanopb, Python) must describe exactly the
// bytes the codec writes; the paper's schema must come out as the paper's numbering.
import protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { LayoutError, type LayoutInput, paperPreset, parseLayout } from "#codecs";
import { protoModel, reflectModel } from "#codecs/plans";
import { everyTypeLayout, textRepLayout } from "#codecs-test/fixtures/layouts.ts";
import { protobufOptionsLayout } from "#codecs-test/fixtures/protobuf-options.ts";
import { generateProto } from "../../src/proto.ts";

const lines = (input: LayoutInput) => generateProto(parseLayout(input)).split("\n");
/** The declaration part of a line, without its trailing comment. */
const decl = (line: string) => line.replace(/\s*\/\/.*$/, "").trim();

describe("generateProto: the paper's schema", () => {
  const out = lines(paperPreset);
  const decls = out.map(decl).filter(Boolean);

  it("is proto3, package container, message ContainerData", () => {
    expect(decls.slice(0, 3)).toEqual(['syntax = "proto3";', "package container;", "message ContainerData {"]);
    expect(decls[decls.length - 1]).toBe("}");
  });

  it("numbers the fields as the paper (domain-facts.md), in number order", () => {
    const fields = decls.slice(3, -1);
    expect(fields).toEqual([
      "string msisdn = 1;",
      "string iso6346 = 2;",
      "string time = 3;",
      "string cgi = 4;",
      "string door = 5;",
      "uint32 rssi = 6;",
      "uint32 ble_m = 7;",
      "uint32 bat_soc = 8;",
      "uint32 gnss = 9;",
      "uint32 nsat = 10;",
      "float acc_x = 11;",
      "float acc_y = 12;",
      "float acc_z = 13;",
      "float temperature = 14;",
      "float humidity = 15;",
      "float pressure = 16;",
      "float latitude = 17;",
      "float longitude = 18;",
      "float altitude = 19;",
      "float speed = 20;",
      "float heading = 21;",
      "float hdop = 22;",
    ]);
  });

  it("comments every field with its name, unit, range and precision", () => {
    const line = (name: string) => out.find((l) => decl(l).includes(` ${name} =`))!;
    expect(line("temperature")).toBe("  float temperature = 14; // Temperature [°C]; range -40..85; precision 0.01");
    expect(line("acc_y")).toBe(
      '  float acc_y = 12; // Accelerometer x y z [mg]; element 2 of 3 of "acc"; range -2000..2000; precision 0.0001',
    );
    expect(line("time")).toBe('  string time = 3; // UTC time [s]; UTC timestamp as text "DDMMYY hhmmss.s"');
    expect(line("msisdn")).toBe("  string msisdn = 1; // SIM MSISDN; max 15 bytes; charset digits");
    expect(line("rssi")).toBe("  uint32 rssi = 6; // RSSI; range 0..99");
    expect(out[0]).toBe("// Maritime container (Kumar et al. 2026)");
  });
});

describe("generateProto: every construct", () => {
  it("writes enums with a zero, nested messages, optional, packed and reserved", () => {
    const decls = lines(protobufOptionsLayout).map(decl).filter(Boolean);
    const has = (d: string) => expect(decls).toContain(d);
    has("reserved 3 to 5, 40;");
    has("enum State {");
    expect(decls.slice(decls.indexOf("enum State {") + 1, decls.indexOf("enum State {") + 4)).toEqual([
      "STATE_UNSPECIFIED = 0;",
      "STATE_ON = 1;",
      "STATE_OFF = 2;",
    ]);
    has("message Ogrp {");
    has("sint32 x = 1;");
    has("repeated string tags = 3;");
    has("optional Ogrp ogrp = 23;");
    has("optional Ostate ostate = 19;");
    has("optional float oacc_a = 20;");
    has("optional float oacc_b = 21;");
    has("repeated bool flags = 26 [packed = true];");
    has("repeated Modes modes = 27 [packed = true];");
    has("repeated string names = 24;");
    has("int32 s_var = 2;");
    has("sfixed32 sfix = 6;");
    has("fixed32 ufix = 7;");
    has("sint64 uzz = 8;");
    has("int64 i64v = 9;");
    has("fixed64 u64f = 10;");
    has("optional sfixed64 i64f = 11;");
    has("uint32 temp = 12;");
    has("sint32 depth = 13;");
    has("sint64 big = 14;");
    has("int64 ts_ms = 15;");
    has("fixed32 ts_min = 16;");
    has("int64 ts_open = 17;");
    has("uint32 _1st_x = 29;");
    has("optional uint32 far = 100000;");
    const every = lines(everyTypeLayout).map(decl);
    for (const d of [
      "bool flag = 1;",
      "Mode mode = 2;",
      "MODE_IDLE = 0;",
      "MODE_ALARM = 7;",
      "sint32 i8 = 4;",
      "uint64 u64 = 9;",
      "sint64 i64 = 10;",
      "double f64 = 12;",
      "sint32 lat = 13;",
      "uint32 ts = 14;",
      "string when = 15;",
      "bytes raw = 18;",
      "repeated sint32 acc = 20 [packed = true];",
      "repeated float temps = 21 [packed = true];",
      "Gps gps = 22;",
      "optional uint32 sats = 3;",
      "optional uint32 seq = 23;",
    ])
      expect(every).toContain(d);
    expect(lines(protobufOptionsLayout).find((l) => decl(l) === "uint32 temp = 12;")).toContain(
      "fixed-point: value = raw × 0.1 − 40, range -40..85 (raw 0..1250)",
    );
  });

  it.each([
    ["paper", paperPreset],
    ["every type", everyTypeLayout],
    ["text representations", textRepLayout],
    ["protobuf options", protobufOptionsLayout],
  ] as const)("%s: protobufjs parses the file into the codec's own reflected schema", (_n, input) => {
    const layout = parseLayout(input);
    const parsed = protobuf.parse(generateProto(layout), { keepCase: true }).root;
    parsed.resolveAll();
    const reflected = reflectModel(protoModel(layout)).root;
    const shape = (root: protobuf.Root) => {
      const out: string[] = [];
      const walk = (ns: protobuf.NamespaceBase) => {
        for (const o of ns.nestedArray) {
          if (o instanceof protobuf.Type) {
            for (const f of o.fieldsArray)
              out.push(
                `${o.fullName}.${f.name}=${f.id}:${f.type}:${f.repeated ? "rep" : ""}:${f.packed ? "packed" : ""}:${f.hasPresence ? "presence" : ""}`,
              );
            const reserved = (o.reserved ?? []).flatMap((r) =>
              Array.isArray(r) ? Array.from({ length: r[1]! - r[0]! + 1 }, (_, i) => r[0]! + i) : [],
            );
            out.push(`${o.fullName} reserved ${reserved.join(",")}`);
          }
          if (o instanceof protobuf.Enum) out.push(`${o.fullName} ${JSON.stringify(o.values)}`);
          if (o instanceof protobuf.Namespace) walk(o);
        }
      };
      walk(root);
      return out.sort();
    };
    expect(shape(parsed)).toEqual(shape(reflected));
  });

  it("keeps user text inside comments (names with newlines cannot inject declarations)", () => {
    const input: LayoutInput = {
      format: "satlayout",
      version: 1,
      name: "evil\nmessage X {}",
      description: "line one\r\nmessage Y {}",
      fields: [
        {
          id: "a",
          key: "a",
          name: "A\nmessage Z {}",
          unit: "°\n}",
          type: { kind: "enum", values: [{ name: "ok\nx", value: 0 }] },
        },
      ],
    };
    const text = generateProto(parseLayout(input));
    const root = protobuf.parse(text, { keepCase: true }).root;
    root.resolveAll();
    expect(Object.keys((root.lookup("telemetry") as protobuf.Namespace).nested ?? {})).toEqual(["Telemetry"]);
    expect(text).not.toMatch(/^message [XYZ]/m);
  });

  it("throws LayoutError for a layout protobuf cannot express", () => {
    const input: LayoutInput = {
      format: "satlayout",
      version: 1,
      name: "x",
      fields: [
        { id: "a", key: "a-b", name: "a", type: { kind: "bool" } },
        { id: "b", key: "a_b", name: "b", type: { kind: "bool" } },
      ],
    };
    expect(() => generateProto(parseLayout(input))).toThrow(LayoutError);
  });
});
