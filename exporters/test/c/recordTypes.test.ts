// The record's C type is what firmware fills: fixed-point members are the raw integers of the width
// their range needs (a latitude at 1e-5° is an int32_t, a temperature at 0.5 °C from -40 a uint8_t),
// epoch timestamps are int64_t ticks of their resolution (seconds, milliseconds), float32 stays float, and
// double appears only where the layout declares it (float64), for text timestamps and resolutions that
// are not 1 s or a power of ten below it. The macros that convert
// round exactly like the studio and need no libm.
import { afterAll, describe, expect, it } from "vitest";
import { kineisTrackerPreset, type LayoutInput, paperPreset, parseLayout } from "#codecs";
import { fixedPoint } from "#codecs/plans";
import { gccAsync, run, STRICT, Workdir } from "./harness/build.ts";
import { cModel } from "../../src/c/model.ts";
import { typesHeader } from "../../src/c/typesHeader.ts";

const work = new Workdir("c-types");
afterAll(() => work.remove());

/** The member declarations of the root struct, e.g. "int32_t lat;". */
function members(header: string, typeName: string): string[] {
  const body = header.slice(header.lastIndexOf("typedef struct {"), header.indexOf(`} ${typeName};`));
  return body
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.endsWith(";"));
}

const sensor: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "Sensor",
  message: "Sensor",
  fields: [
    { id: "a", key: "lat", name: "lat", type: { kind: "fixed", scale: 1e-7, min: -90, max: 90 } },
    { id: "b", key: "temp", name: "temp", type: { kind: "fixed", scale: 0.01, offset: -40, min: -40, max: 85 } },
    { id: "c", key: "volts", name: "volts", type: { kind: "float", bits: 32 } },
    { id: "f", key: "at", name: "at", type: { kind: "timestamp", encoding: "epoch", resolution: 1, min: 0 } },
    { id: "g", key: "at_ms", name: "at ms", type: { kind: "timestamp", encoding: "epoch", resolution: 0.001 } },
    { id: "d", key: "big", name: "big", type: { kind: "fixed", scale: 1, min: 0, max: 5e9 } },
    {
      id: "e",
      key: "acc",
      name: "acc",
      type: { kind: "array", of: { kind: "fixed", scale: 0.5, min: -8, max: 8 }, maxCount: 3, fixed: true },
    },
  ],
};

describe("the record's C type", () => {
  it("the paper's text timestamp (DDMMYY hhmmss.s) is int64_t tenths of a second", () => {
    const m = cModel(parseLayout(paperPreset));
    const h = typesHeader(m).content;
    expect(members(h, m.root.typeName)).toContain("int64_t time;");
    expect(h).toContain('epoch time in ticks of 0.1 s (UTC, since 1970-01-01), sent as text "DDMMYY hhmmss.s"');
  });

  it("holds fixed-point values as raw integers of the width their range needs, epoch timestamps as int64_t ticks (s, ms), float32 as float, no double", () => {
    const m = cModel(parseLayout(sensor));
    const h = typesHeader(m).content;
    expect(members(h, m.root.typeName)).toEqual([
      "int32_t lat;",
      "uint16_t temp;",
      "float volts;",
      "int64_t at;",
      "int64_t at_ms;",
      "uint64_t big;",
      "int8_t acc[3];",
    ]);
    expect(h).not.toMatch(/\bdouble\s+\w+;/);
    expect(h).toContain("#define SENSOR_LAT_SCALE 1e-7");
    expect(h).toContain("#define SENSOR_TEMP_OFFSET (-40.0)");
    expect(h).toContain("#define SENSOR_TEMP_RAW_MAX 12500");
  });

  it("the Kinéis tracker's position is two int32_t, its temperature a uint8_t, its fix time int64_t seconds", () => {
    const m = cModel(parseLayout(kineisTrackerPreset));
    const decls = members(typesHeader(m).content, m.root.typeName);
    expect(decls).toContain("int32_t lat;");
    expect(decls).toContain("int32_t lon;");
    expect(decls).toContain("uint8_t tmp;");
    expect(decls).toContain("int64_t t;");
    expect(decls.filter((d) => d.startsWith("double"))).toEqual([]);
  });

  it("<F>_RAW and <F>_VALUE round like the studio (halves up) and link without libm", async () => {
    const layout = parseLayout(sensor);
    const m = cModel(layout);
    const lat = layout.fields[0]!.type;
    const temp = layout.fields[1]!.type;
    if (lat.kind !== "fixed" || temp.kind !== "fixed") throw new Error("fixed-point fields expected");
    const cases: [string, number, number][] = [
      ...[45.1234567, -33.86882, -0.00000005, 0.00000005, -0.00000015, 89.99999995, -90].map(
        (v) => ["SENSOR_LAT", v, fixedPoint(lat).toRaw(v)] as [string, number, number],
      ),
      ...[-40, -39.995, 21.375, 84.999, 85].map(
        (v) => ["SENSOR_TEMP", v, fixedPoint(temp).toRaw(v)] as [string, number, number],
      ),
    ];
    work.write([typesHeader(m)], "t");
    work.writeText(
      "t/main.c",
      [
        "#include <inttypes.h>",
        "#include <stdio.h>",
        '#include "sensor.h"',
        "int main(void) {",
        ...cases.map(([f, v]) => `  printf("%" PRId64 "\\n", ${f}_RAW(${v}));`),
        '  printf("%.17g\\n", SENSOR_TEMP_VALUE(SENSOR_TEMP_RAW_MAX));',
        "  return 0;",
        "}",
        "",
      ].join("\n"),
    );
    await gccAsync(work, [...STRICT, "-fno-builtin", "-It", "-o", "t/main", "t/main.c"]);
    const out = await run(work.path("t/main"), []);
    expect(out.lines).toEqual([...cases.map(([, , raw]) => String(raw)), "85"]);
  });
});
