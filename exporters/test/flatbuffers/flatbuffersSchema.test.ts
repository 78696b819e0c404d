// The FlatBuffers export, proven with FlatBuffers' own tools: every exported .fbs compiles with flatc
// for C++, Python and TypeScript; the TypeScript accessors flatc generates (npm `flatbuffers` runtime)
// read, from OUR encoder's bytes, exactly the wire values the test computes from each source record
// (expected.ts, not our decoder), and so do C++ accessors compiled with g++ against the generated
// header (libflatbuffers-dev), after the generated Verifier has accepted every buffer.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  batchCodecFor,
  codecFor,
  EncodeError,
  generateBatches,
  generateSamples,
  type Layout,
  LayoutError,
  parseLayout,
  type TypedRecord,
} from "#codecs";
import { flatbuffersSchema, parseFbs } from "#codecs/plans";
import { expectedWalk } from "./expected.ts";
import { flatcRootReader, loadFlatcTsModule, writeFlatcTsModule } from "./flatcTs.ts";
import { cppWalker, walkTs, type Walked } from "./walk.ts";
import { generateFlatbuffersSchema, heldSlots } from "../../src/flatbuffersSchema.ts";
import { runExports } from "../../src/registry.ts";
import { BATCH_LAYOUTS } from "../support/batchLayouts.ts";
import { EXPORT_LAYOUTS, layoutNamed } from "../support/layouts.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "satpayload-fbs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SAMPLES = 60;

/**
 * The record with every top-level number, bool and enum at zero where its range allows: scalars equal to
 * their default, which FlatBuffers leaves out of the table and the readers must still return.
 */
function zeroed(layout: Layout, r: TypedRecord): TypedRecord {
  const out: TypedRecord = { ...r };
  for (const f of layout.fields) {
    const t = f.type;
    if (f.presence === "optional" && t.kind !== "group") delete out[f.key];
    else if (t.kind === "bool") out[f.key] = false;
    else if (t.kind === "enum" && t.values.some((v) => v.value === 0))
      out[f.key] = t.values.find((v) => v.value === 0)!.name;
    else if ((t.kind === "int" || t.kind === "float") && (t.min ?? 0) <= 0 && (t.max ?? 0) >= 0)
      out[f.key] = t.kind === "int" && t.bits === 64 ? 0n : 0;
  }
  return out;
}

/** A batch's wire layout (many readings as vectors), as the batch codec sends it over FlatBuffers. */
function batchWire(i: number): { name: string; layout: Layout; records: TypedRecord[] } {
  const b = BATCH_LAYOUTS[i]!;
  const layout = parseLayout(b.input);
  const codec = batchCodecFor(layout, "flatbuffers", "columns", b.n);
  const bytes = generateBatches(layout, 6, b.n, 3).map((batch) => codec.encode(batch));
  const wire = codec.wireLayout;
  return { name: `batch ${b.name}`, layout: wire, records: bytes.map((m) => codecFor(wire, "flatbuffers").decode(m)) };
}

const carries = (layout: Layout): boolean => {
  try {
    flatbuffersSchema(layout);
    return true;
  } catch (e) {
    if (e instanceof LayoutError) return false;
    throw e;
  }
};

/** The layouts of the proofs: every export test layout FlatBuffers carries, and the batch wire layouts. */
function proofLayouts(): { name: string; layout: Layout; records: TypedRecord[] }[] {
  const out: { name: string; layout: Layout; records: TypedRecord[] }[] = [];
  for (const { name, layout } of EXPORT_LAYOUTS) {
    if (!carries(layout)) continue;
    const samples = generateSamples(layout, SAMPLES, 11);
    // the zeroed record must encode: it is what the defaults check below reads
    const zero = zeroed(layout, samples[0]!);
    codecFor(layout, "flatbuffers").encode(zero);
    const records: TypedRecord[] = [zero];
    for (const r of samples) {
      try {
        codecFor(layout, "flatbuffers").encode(r);
        records.push(r);
      } catch (e) {
        // a fixture sample outside what its slot can hold is the codec tests' subject, not this one's
        if (!(e instanceof EncodeError)) throw e;
      }
    }
    out.push({ name, layout, records });
  }
  for (let i = 0; i < BATCH_LAYOUTS.length; i++) out.push(batchWire(i));
  return out;
}

function flatc(args: string[], cwd: string): void {
  execFileSync("flatc", args, { cwd, timeout: 60_000, stdio: ["ignore", "pipe", "pipe"] });
}

describe("FlatBuffers schema export", () => {
  it("is in the registry and writes the .fbs and its README for the paper preset", () => {
    const { files, problems } = runExports(layoutNamed("paper"), ["flatbuffers"]);
    expect(problems).toEqual([]);
    expect(files.map((f) => f.path)).toEqual(["flatbuffers/ContainerData.fbs", "flatbuffers/README.md"]);
    expect(files[0]!.content).toBe(flatbuffersSchema(layoutNamed("paper")));
    const readme = files[1]!.content;
    for (const cmd of ["flatc --cpp", "flatc --python", "flatc --ts", "flatc --go", "flatc --rust", "flatcc -a"])
      expect(readme).toContain(`${cmd} ContainerData.fbs`);
    expect(readme).toContain("VerifyContainerDataBuffer");
  });

  it("names every held slot in the README: a deleted field's, and a gap's", () => {
    const paper = layoutNamed("paper");
    const gone = paper.fields[1]!;
    const layout = parseLayout({
      ...paper,
      fields: paper.fields.filter((f) => f.id !== gone.id),
      protobufReserved: [gone.options!.protobuf!.number!],
    });
    const [fbs, readme] = generateFlatbuffersSchema(layout);
    const n = gone.options!.protobuf!.number!;
    expect(heldSlots(fbs!.content, layout)).toContainEqual({ table: "ContainerData", id: n - 1, deleted: true });
    expect(readme!.content).toContain(`slot ${n - 1}: the field with protobuf number ${n} was deleted`);
    expect(generateFlatbuffersSchema(paper)[1]!.content).toContain("- none: the layout's protobuf numbers run");
  });

  it("every test layout's .fbs compiles with flatc for C++, Python and TypeScript (or is refused with the reason)", () => {
    let compiled = 0;
    for (const { name, layout } of [...EXPORT_LAYOUTS, ...BATCH_LAYOUTS.map((_b, i) => batchWire(i))]) {
      if (!carries(layout)) {
        const { problems } = runExports(layout, ["flatbuffers"]);
        expect(problems[0]?.issues.length, name).toBeGreaterThan(0);
        continue;
      }
      const fbs = flatbuffersSchema(layout);
      const sub = path.join(dir, `compile-${compiled}`);
      mkdirSync(sub);
      writeFileSync(path.join(sub, "m.fbs"), fbs);
      for (const lang of ["--cpp", "--python", "--ts"]) flatc([lang, "-o", lang.slice(2), "m.fbs"], sub);
      compiled++;
    }
    expect(compiled).toBeGreaterThanOrEqual(EXPORT_LAYOUTS.length - 1);
  });

  const layouts = proofLayouts();

  it.each(layouts.map((l) => [l.name, l] as const))(
    "%s: flatc's TypeScript and C++ readers find in our bytes every value of the source record",
    (name, { layout, records }) => {
      expect(records.length, name).toBeGreaterThan(0);
      const fbs = flatbuffersSchema(layout);
      const schema = parseFbs(fbs);
      const sub = path.join(dir, name.replace(/\W+/g, "_"));
      const read = flatcRootReader(loadFlatcTsModule(writeFlatcTsModule(fbs, sub, "m")), schema.root);
      const bytes = records.map((r) => codecFor(layout, "flatbuffers").encode(r));
      // the zeroed record (first, for the export test layouts) leaves its defaults out of the bytes
      if (!name.startsWith("batch")) expect(bytes[0]!.length, name).toBeLessThan(bytes[1]!.length);
      const ts = bytes.map((b) => walkTs(schema, schema.tables.get(schema.root)!, read(b)));
      const want = records.map((r) => expectedWalk(schema, schema.tables.get(schema.root)!, layout.fields, r));
      ts.forEach((got, k) => expect(got, `${name} record ${k}`).toEqual(want[k]));

      // C++: the generated header and the Verifier, from the Debian headers
      flatc(["--cpp", "-o", "cpp", "m.fbs"], sub);
      writeFileSync(path.join(sub, "walk.cpp"), cppWalker(schema, "cpp/m_generated.h"));
      execFileSync("g++", ["-std=c++17", "-O0", "-o", "walk", "walk.cpp"], { cwd: sub, timeout: 180_000 });
      const files = bytes.map((b, k) => {
        const f = path.join(sub, `m${k}.bin`);
        writeFileSync(f, b);
        return f;
      });
      const cpp = execFileSync(path.join(sub, "walk"), files, { maxBuffer: 64 << 20 })
        .toString("utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Walked);
      expect(cpp).toHaveLength(bytes.length);
      cpp.forEach((got, k) => expect(got, `${name} record ${k} (C++)`).toEqual(want[k]));
    },
    240_000,
  );
});
