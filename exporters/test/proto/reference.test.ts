// Cross-implementation: Google's protobuf runtime (Python, upb) compiles our generated .proto and
// must produce our bytes byte for byte, and must read our bytes back to the same field values.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Field,
  type FieldValue,
  generateSamples,
  type Layout,
  type LayoutInput,
  paperPreset,
  parseLayout,
  type ScalarType,
  type ScalarValue,
  type TypedRecord,
} from "#codecs";
import { formatTimestamp, protobufCodec } from "#codecs/plans";
import { everyTypeLayout, textRepLayout } from "#codecs-test/fixtures/layouts.ts";
import { everyTypeExtremes, optionsExtremes } from "#codecs-test/fixtures/protobuf-extremes.ts";
import { protobufOptionsLayout } from "#codecs-test/fixtures/protobuf-options.ts";
import { repoRoot, runPython } from "#codecs-test/helpers/python.ts";
import { generateProto } from "../../src/proto.ts";

// The proto-level values are derived here from the documented mapping, independently of the
// codec's own conversion code, so a conversion bug cannot hide behind matching bytes.
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const protoName = (key: string) => {
  const s = key.replace(/[^A-Za-z0-9_]/g, "_");
  return /^[0-9]/.test(s) ? `_${s}` : s;
};
const doubleBits = (x: number) => {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(x);
  return { f: b.toString("hex") };
};

function protoScalar(t: ScalarType, v: ScalarValue): unknown {
  switch (t.kind) {
    case "bool":
    case "string":
      return v;
    case "enum":
      return t.values.find((e) => e.name === v)!.value;
    case "int":
      return t.bits === 64 ? { i: String(v) } : v;
    case "float":
      return doubleBits(v as number);
    case "fixed":
      return Math.round(((v as number) - (t.offset ?? 0)) / t.scale);
    case "timestamp":
      return t.encoding === "text"
        ? formatTimestamp(v as number, t.textFormat!)
        : Math.round((v as number) / (t.resolution ?? 1));
    case "bytes":
      return { b: hex(v as Uint8Array) };
  }
}

function protoRecord(fields: Field[], rec: TypedRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of [...fields].sort((a, b) => a.options!.protobuf!.number! - b.options!.protobuf!.number!)) {
    const v: FieldValue | undefined = rec[f.key];
    const t = f.type;
    const expand = f.options?.protobuf?.expand;
    if (t.kind === "array" && !expand && v === undefined) out[protoName(f.key)] = [];
    if (v === undefined) continue;
    if (t.kind === "group") out[protoName(f.key)] = protoRecord(t.fields, v as TypedRecord);
    else if (t.kind === "array") {
      const items = (v as ScalarValue[]).map((x) => protoScalar(t.of, x));
      if (expand) expand.forEach((suffix, j) => (out[protoName(`${f.key}_${suffix}`)] = items[j]));
      else out[protoName(f.key)] = items;
    } else out[protoName(f.key)] = protoScalar(t, v as ScalarValue);
  }
  return out;
}

/**
 * Integers compare by value whatever their proto width: Python tags 64-bit fields ({"i"}) while
 * the mapping above leaves raws that fit in a double as numbers. Widths are covered by the byte
 * comparison, which Python produces from the generated .proto's types.
 */
function sameIntegers(x: unknown): unknown {
  if (typeof x === "number" && Number.isInteger(x)) return { i: String(x) };
  if (Array.isArray(x)) return x.map(sameIntegers);
  if (x && typeof x === "object" && !("i" in x) && !("f" in x) && !("b" in x))
    return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, sameIntegers(v)]));
  return x;
}

interface Case {
  name: string;
  input: LayoutInput;
  count: number;
  extra?: TypedRecord[];
}

const CASES: Case[] = [
  { name: "paper", input: paperPreset, count: 1000 },
  { name: "every_type", input: everyTypeLayout, count: 300, extra: everyTypeExtremes },
  { name: "text_rep", input: textRepLayout, count: 300 },
  { name: "options", input: protobufOptionsLayout, count: 300, extra: optionsExtremes },
];

interface Prepared {
  layout: Layout;
  records: TypedRecord[];
  ours: string[];
  expected: Record<string, unknown>[];
}

let dir = "";
const prepared = new Map<string, Prepared>();
let results: { encoded: string[]; parsed: unknown[] }[] = [];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "satpayload-proto-"));
  const jobs = CASES.map((c) => {
    const layout = parseLayout(c.input);
    const records = [...generateSamples(layout, c.count, 1), ...(c.extra ?? [])];
    const codec = protobufCodec.compile(layout);
    const ours = records.map((r) => hex(codec.encode(r)));
    const expected = records.map((r) => protoRecord(layout.fields, r));
    prepared.set(c.name, { layout, records, ours, expected });
    const file = path.join(dir, `${c.name}.proto`);
    writeFileSync(file, generateProto(layout));
    return { name: c.name, proto: file, message: layout.message, records: expected, parse: ours };
  });
  results = (
    runPython(path.join(repoRoot, "codecs/reference/ref_protobuf.py"), { jobs }) as { results: typeof results }
  ).results;
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("protobuf against Python protobuf (protoc-generated classes)", () => {
  CASES.forEach((c, i) => {
    it(`${c.name}: SerializeToString gives our bytes for ${c.count}${c.extra ? ` + ${c.extra.length} edge` : ""} records`, () => {
      const p = prepared.get(c.name)!;
      const theirs = results[i]!.encoded;
      expect(theirs).toHaveLength(p.records.length);
      const mismatches = p.ours
        .map((h, k) => (h === theirs[k] ? null : { k, ours: h, python: theirs[k] }))
        .filter(Boolean);
      expect(mismatches).toEqual([]);
    });

    it(`${c.name}: ParseFromString of our bytes gives the record's field values`, () => {
      const p = prepared.get(c.name)!;
      expect(sameIntegers(results[i]!.parsed)).toEqual(sameIntegers(p.expected));
    });

    it(`${c.name}: we decode Python's bytes back to the original records`, () => {
      const p = prepared.get(c.name)!;
      const codec = protobufCodec.compile(p.layout);
      const decoded = results[i]!.encoded.map((h) => codec.decode(Uint8Array.from(Buffer.from(h, "hex"))));
      expect(decoded).toEqual(p.records);
    });
  });
});
