// Proof against the official FlatBuffers tools (issue #29, point 2): for every preset, the test layouts
// and the wire layouts batches derive, flatc 2.0.8 compiles our .fbs to Python (object API), and
// codecs/reference/ref_flatbuffers.py builds the same records with that generated code and the
// official flatbuffers runtime (25.9.23): the bytes equal ours. The same generated accessors read our
// bytes back to the values we wrote.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { batchCodecFor } from "../../src/batch/codec.ts";
import { compileFlatbuffers } from "../../src/formats/flatbuffers/codec.ts";
import { flatbuffersModel, type FbNode, type FbTable } from "../../src/formats/flatbuffers/model.ts";
import { flatbuffersSchema } from "../../src/formats/flatbuffers/schema.ts";
import type { Layout, LayoutInput } from "../../src/layout/schema.ts";
import { parseLayout } from "../../src/layout/validate.ts";
import type { TypedRecord } from "../../src/layout/values.ts";
import { PRESETS } from "../../src/presets/index.ts";
import { generateSamples } from "../../src/samples/generate.ts";
import { buoyBatch } from "../fixtures/batchExample.ts";
import { everyTypeLayout, textRepLayout } from "../fixtures/layouts.ts";
import { sensor, sensorRecord } from "../fixtures/sensor.ts";
import { runPython } from "../helpers/python.ts";

const SCRIPT = "codecs/reference/ref_flatbuffers.py";
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const work = mkdtempSync(path.join(tmpdir(), "satpayload-fbs-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Tagged = null | boolean | string | { f: string } | { i: string } | { b: string } | Tagged[] | PyTable;
interface PyTable {
  $table: string;
  fields: Tagged[];
}

const f64 = (v: number) => {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, v);
  return { f: Buffer.from(dv.buffer).toString("hex") };
};

/** A value as the generated object API holds it: raw integers, floats, bools, text, byte lists. */
function pyValue(node: FbNode, v: unknown, read: boolean, inVector = false): Tagged {
  switch (node.kind) {
    case "num": {
      const raw = node.slot.toRaw(v);
      if (node.fbsType === "bool") return raw === 1;
      // flatc 2.0.8's generated Pack writes a [byte] element with PrependByte, which takes 0…255 only:
      // the peer is handed the same 8 bits as unsigned (the bytes are identical; its reader gives int8)
      if (node.code === "b" && inVector && !read) return { i: String((raw as number) & 0xff) };
      return node.code === "f" || node.code === "d" ? f64(raw as number) : { i: String(raw) };
    }
    case "string": {
      if (!node.time) return v as string;
      const b = new Uint8Array(node.time.length);
      node.time.write(b, 0, v as number);
      return new TextDecoder().decode(b);
    }
    case "bytes":
      // sent as bytes; the object API reads a [ubyte] back as a list of ints
      return read ? [...(v as Uint8Array)].map((x) => ({ i: String(x) })) : { b: hex(v as Uint8Array) };
    case "vector":
      return (v as unknown[]).map((x) => pyValue(node.elem, x, read, true));
    case "table":
      return pyTable(node.table, v as TypedRecord, read);
  }
}

/** The record as the generated object API's table: one value per field in id order, null when absent. */
function pyTable(t: FbTable, rec: TypedRecord, read: boolean): PyTable {
  return {
    $table: t.name,
    fields: t.fields.map((f) => {
      const whole = rec[f.key];
      const v = f.element === undefined || whole === undefined ? whole : (whole as unknown[])[f.element];
      if (v !== undefined) return pyValue(f.node, v, read);
      // an absent required scalar does not happen (encode refuses it); absent optional ones are None
      return null;
    }),
  };
}

function compileSchema(name: string, layout: Layout): { dir: string; namespace: string } {
  const dir = path.join(work, name.replace(/[^A-Za-z0-9]+/g, "-"));
  const fbs = path.join(dir, "schema.fbs");
  execFileSync("mkdir", ["-p", dir]);
  const schema = flatbuffersSchema(layout);
  writeFileSync(fbs, schema);
  // throws with flatc's message when the schema does not compile
  execFileSync("flatc", ["--python", "--gen-object-api", "-o", dir, fbs], { stdio: "pipe" });
  const model = flatbuffersModel(layout);
  const lowerFirst = (s: string) => s[0]!.toLowerCase() + s.slice(1);
  if (!model.tables.some((t) => lowerFirst(t.name) === model.namespace)) return { dir, namespace: model.namespace };
  // flatc 2.0.8's Python object API names _UnPack's parameter after the table (Telemetry → telemetry), which
  // hides a package of that name (the layouts' default "telemetry"): the reading peer gets its code from
  // the same schema under another namespace. Namespaces are no part of the bytes.
  const renamed = `${model.namespace}_py`;
  const pyDir = `${dir}-py`;
  execFileSync("mkdir", ["-p", pyDir]);
  writeFileSync(
    path.join(pyDir, "schema.fbs"),
    schema.replace(`\nnamespace ${model.namespace};\n`, `\nnamespace ${renamed};\n`),
  );
  execFileSync("flatc", ["--python", "--gen-object-api", "-o", pyDir, path.join(pyDir, "schema.fbs")], {
    stdio: "pipe",
  });
  return { dir: pyDir, namespace: renamed };
}

function proveAgainstPython(name: string, layout: Layout, records: TypedRecord[]): void {
  const { dir, namespace } = compileSchema(name, layout);
  const model = flatbuffersModel(layout);
  const codec = compileFlatbuffers(layout);
  const ours = records.map((r) => hex(codec.encode(r)));
  const out = runPython(SCRIPT, {
    dir,
    namespace,
    root: model.root.name,
    records: records.map((r) => pyTable(model.root, r, false)),
    ours,
  }) as { built: string[]; read: PyTable[] };
  // one message at a time, so a difference names its record
  records.forEach((r, i) => {
    expect(out.built[i], `${name}, record ${i}`).toBe(ours[i]);
    expect(out.read[i], `${name}, record ${i} read by the generated Python`).toEqual(pyTable(model.root, r, true));
  });
}

/** Zeros, negatives, empty text, a non-zero enum default and optional scalars present at their zero. */
const defaultsInput: LayoutInput = {
  format: "satlayout",
  version: 1,
  name: "Defaults",
  package: "edge",
  message: "Edge",
  fields: [
    { id: "a", key: "u8", name: "u8", type: { kind: "int", bits: 8, signed: false } },
    { id: "b", key: "i32", name: "i32", type: { kind: "int", bits: 32, signed: true } },
    { id: "c", key: "i64", name: "i64", type: { kind: "int", bits: 64, signed: true } },
    { id: "d", key: "u64", name: "u64", type: { kind: "int", bits: 64, signed: false } },
    { id: "e", key: "f32", name: "f32", type: { kind: "float", bits: 32 } },
    { id: "f", key: "f64", name: "f64", type: { kind: "float", bits: 64 } },
    { id: "g", key: "ok", name: "ok", type: { kind: "bool" } },
    {
      id: "h",
      key: "level",
      name: "level",
      type: {
        kind: "enum",
        values: [
          { name: "HIGH", value: 5 },
          { name: "LOW", value: 3 },
        ],
      },
    },
    { id: "i", key: "oi", name: "oi", presence: "optional", type: { kind: "int", bits: 16, signed: true } },
    { id: "j", key: "ob", name: "ob", presence: "optional", type: { kind: "bool" } },
    { id: "k", key: "s", name: "s", type: { kind: "string", maxLength: 8 } },
    { id: "l", key: "os", name: "os", presence: "optional", type: { kind: "string", maxLength: 8 } },
    { id: "m", key: "lat", name: "lat", type: { kind: "fixed", scale: 0.001, offset: 0, min: -90, max: 90 } },
    {
      id: "n",
      key: "xs",
      name: "xs",
      type: { kind: "array", of: { kind: "int", bits: 16, signed: true }, maxCount: 4 },
    },
    {
      id: "o",
      key: "g",
      name: "g",
      presence: "optional",
      type: { kind: "group", fields: [{ id: "p", key: "v", name: "v", type: { kind: "float", bits: 64 } }] },
    },
  ],
};
const defaults = parseLayout(defaultsInput);
const zero: TypedRecord = {
  u8: 0,
  i32: 0,
  i64: 0n,
  u64: 0n,
  f32: 0,
  f64: 0,
  ok: false,
  level: "LOW",
  s: "",
  lat: 0,
  xs: [],
};
const defaultRecords: TypedRecord[] = [
  zero,
  { ...zero, oi: 0, ob: false, os: "", g: { v: 0 } },
  {
    ...zero,
    u8: 255,
    i32: -2147483648,
    i64: -9223372036854775808n,
    u64: 18446744073709551615n,
    f32: -1.5,
    f64: -1e300,
    ok: true,
    level: "HIGH",
    oi: -32768,
    ob: true,
    s: "héllo",
    os: "🚢",
    lat: -89.999,
    xs: [-1, 0, 32767],
    g: { v: -0.5 },
  },
];

const batchWire = (input: LayoutInput) => {
  const layout = parseLayout(input);
  return (["delta", "columns"] as const).map(
    (form) => [form, batchCodecFor(layout, "flatbuffers", form, 4).wireLayout] as const,
  );
};

describe("FlatBuffers: our bytes are the official Python builder's, and its generated code reads ours", () => {
  test("edge values: zeros left out as defaults, optional scalars written at zero, negatives, extremes", () => {
    proveAgainstPython("defaults", defaults, defaultRecords);
  });

  test("−0.0 in a required float: we write it, the Python builder leaves it out as equal to 0.0; its reader reads ours as −0.0", () => {
    const layout = defaults;
    const rec = { ...zero, f32: -0, f64: -0 };
    const { dir, namespace } = compileSchema("negative-zero", layout);
    const model = flatbuffersModel(layout);
    const ours = compileFlatbuffers(layout).encode(rec);
    const out = runPython(SCRIPT, {
      dir,
      namespace,
      root: model.root.name,
      records: [pyTable(model.root, rec, false)],
      ours: [hex(ours)],
    }) as { built: string[]; read: PyTable[] };
    expect(out.read[0]).toEqual(pyTable(model.root, rec, true));
    // theirs is the all-zero record's message: both floats left out (4 + 8 value bytes, 2 vtable slots, padding)
    expect(out.built[0]).toBe(hex(compileFlatbuffers(layout).encode(zero)));
    expect(ours.length).toBeGreaterThanOrEqual(out.built[0]!.length / 2 + 12);
    expect(Object.is(compileFlatbuffers(layout).decode(ours).f64, -0)).toBe(true);
  });

  test("the sensor fixture (unicode, int64 minimum, NaN and −0 in a vector, a group, an enum)", () => {
    proveAgainstPython("sensor", sensor, [sensorRecord]);
  });

  test.each(PRESETS.map((p) => [p.id, p.layout] as const))("preset %s: 40 samples", (id, input) => {
    const layout = parseLayout(input);
    proveAgainstPython(`preset-${id}`, layout, generateSamples(layout, 40, 11));
  });

  test.each([
    ["every type", everyTypeLayout],
    ["text representations", textRepLayout],
  ] as const)("%s: 40 samples", (name, input) => {
    const layout = parseLayout(input);
    proveAgainstPython(name, layout, generateSamples(layout, 40, 5));
  });

  const batched = [
    ["buoy example", buoyBatch],
    ...PRESETS.filter((p) => p.layout.batch).map((p) => [p.id, p.layout] as const),
  ] as const;
  test.each(batched)("batch wire layouts of %s (delta and columns forms): 30 samples each", (name, input) => {
    for (const [form, wire] of batchWire(input))
      proveAgainstPython(`batch-${name}-${form}`, wire, generateSamples(wire, 30, 9));
  });
});
