// Size-only == encode().length for every record, every format with a size-only path: random layouts and records
// (every type, presence, arrays, groups, unicode), both JSON spacings, text representations and the presets.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EncodeError } from "../src/errors.ts";
import { textRepLayout } from "./fixtures/layouts.ts";
import { caseArb } from "./helpers/randomCases.ts";
import { CODECS, FORMAT_IDS, type FormatId } from "../src/formats/registry.ts";
import { sizeOf } from "../src/formats/sizer.ts";
import { type CompiledCodec } from "../src/formats/types.ts";
import type { Layout } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";
import type { TypedRecord } from "../src/layout/values.ts";
import { PRESETS } from "../src/presets/index.ts";
import { generateSamples } from "../src/samples/generate.ts";

const SEED = 20260305;
const RUNS = 100;
// deflate needs the real bytes, and FlatBuffers' sizes are no per-field sums (alignment padding, shared
// vtables): the two formats without a size-only path
const NO_SIZE_ONLY: readonly FormatId[] = ["struct-zlib", "flatbuffers"];
const SIZED = FORMAT_IDS.filter((f) => !NO_SIZE_ONLY.includes(f));

/** What encode() says about the record: its length, or the fact that it refuses it. */
function encoded(c: CompiledCodec, rec: TypedRecord): number | "refused" {
  try {
    return c.encode(rec).length;
  } catch (e) {
    if (e instanceof EncodeError) return "refused";
    throw e;
  }
}

function sized(c: CompiledCodec, rec: TypedRecord): number | "refused" {
  try {
    return sizeOf(c.sizer!, rec);
  } catch (e) {
    if (e instanceof EncodeError) return "refused";
    throw e;
  }
}

/** A sizer's column path, where it has one, gives what its per-record path gives, sample by sample. */
function columnsAgree(c: CompiledCodec, records: readonly TypedRecord[]): void {
  const sizer = c.sizer!;
  if (!sizer.column) return;
  sizer.keys.forEach((key, i) => {
    const values = records.map((r) => r[key]);
    const out = new Int32Array(values.length);
    sizer.column!(values, i, 0, values.length, out);
    records.forEach((rec, s) => {
      let want: number;
      try {
        want = sizer.field(rec, i);
      } catch (e) {
        if (!(e instanceof EncodeError)) throw e;
        want = -1;
      }
      if (out[s] !== want)
        throw new Error(`${c.info.id}: column path gives ${out[s]} for ${key} of sample ${s}, the record path ${want}`);
    });
  });
}

/** Compares the two paths over the records; returns how many were compared and how many refused. */
function compare(
  format: FormatId,
  layout: Layout,
  records: readonly TypedRecord[],
): { records: number; refused: number } {
  const c = CODECS[format].compile(layout);
  columnsAgree(c, records);
  let refused = 0;
  for (const rec of records) {
    const want = encoded(c, rec);
    const got = sized(c, rec);
    if (got !== want)
      throw new Error(
        `${format}: size-only says ${got}, encode() ${want} for ${JSON.stringify(rec, (_k, v: unknown) => (typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? [...v] : v))}`,
      );
    if (want === "refused") refused++;
  }
  return { records: records.length, refused };
}

const spacingArb = fc.constantFrom("compact" as const, "python" as const);

describe("size-only paths agree with encode() byte for byte", () => {
  it("every format but deflate and FlatBuffers has one; those two have none", () => {
    const layout = parseLayout(textRepLayout);
    for (const f of FORMAT_IDS) expect(CODECS[f].compile(layout).sizer === undefined, f).toBe(NO_SIZE_ONLY.includes(f));
  });

  for (const format of SIZED) {
    it(`${format}: random layouts × records`, () => {
      let records = 0;
      let refused = 0;
      fc.assert(
        fc.property(caseArb, spacingArb, ([layout, recs], spacing) => {
          const r = compare(format, { ...layout, json: { ...layout.json, spacing } }, recs);
          records += r.records;
          refused += r.refused;
        }),
        { seed: SEED, numRuns: RUNS },
      );
      console.log(`${format}: ${records} random records agree (${refused} refused by both)`);
      expect(records).toBeGreaterThanOrEqual(RUNS);
      // the refusals must not be all there is: most records have sizes
      expect(refused).toBeLessThan(records);
    });

    it(`${format}: text representations and presets, drawn samples`, () => {
      const layouts = [parseLayout(textRepLayout), ...PRESETS.map((p) => parseLayout(p.layout))];
      let refused = 0;
      let records = 0;
      for (const base of layouts)
        for (const spacing of ["compact", "python"] as const) {
          const layout = { ...base, json: { ...base.json, spacing } };
          const r = compare(format, layout, generateSamples(layout, 200, 7));
          records += r.records;
          refused += r.refused;
        }
      expect(records).toBe(200 * 2 * (1 + PRESETS.length));
      expect(refused).toBe(0);
    });
  }
});
