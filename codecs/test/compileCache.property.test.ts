// The compile caches (protobuf's one-field reflections, the numeric slots Struct and SBE share) are keyed by what
// decides a plan, never by what happened to be compiled before: a codec compiled after other layouts warmed them
// must encode, size and decode exactly like one compiled in a fresh copy of the modules. The layouts differ from the
// ones compiled before them field by field (new types, ranges, presence), by a key, a protobuf number, or a layout option.
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { layoutArb, recordArb } from "./helpers/randomCases.ts";
import { FORMAT_IDS, type FormatId } from "../src/formats/registry.ts";
import type { Layout } from "../src/layout/schema.ts";
import { checkLayout } from "../src/layout/validate.ts";
import type { TypedRecord } from "../src/layout/values.ts";
import { generateSamples } from "../src/samples/generate.ts";

type Registry = typeof import("../src/formats/registry.ts");
type Sizer = typeof import("../src/formats/sizer.ts");

const SEED = 20261127;
const RUNS = 40;

/** A copy of the codec modules with every module-level cache empty. */
async function fresh(): Promise<{ registry: Registry; sizer: Sizer }> {
  vi.resetModules();
  return { registry: await import("../src/formats/registry.ts"), sizer: await import("../src/formats/sizer.ts") };
}

const show = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x instanceof Uint8Array ? [...x] : x));
const attempt = (fn: () => unknown): string => {
  try {
    return show(fn());
  } catch (e) {
    return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  }
};

/** What one compiled codec does with the records: compile outcome, bytes, sizes, decoded records. */
function behaviour(m: { registry: Registry; sizer: Sizer }, format: FormatId, layout: Layout, records: TypedRecord[]) {
  let codec;
  try {
    codec = m.registry.CODECS[format].compile(layout);
  } catch (e) {
    return [`compile: ${(e as Error).name}: ${(e as Error).message}`];
  }
  const c = codec;
  return records.map((r) => {
    const bytes = attempt(() => c.encode(r));
    const size = c.sizer ? attempt(() => m.sizer.sizeOf(c.sizer!, r)) : "–";
    let decoded = "–";
    try {
      decoded = attempt(() => c.decode(c.encode(r)));
    } catch {
      // refused records have no bytes to decode
    }
    return `${bytes} | ${size} | ${decoded}`;
  });
}

/** The layout after one edit of the kind the designer makes between two compiles. */
const editArb = (a: Layout): fc.Arbitrary<Layout> =>
  fc.oneof(
    // other types, ranges and presence for the same field ids (each field changes or not)
    layoutArb,
    fc.nat({ max: Math.max(0, a.fields.length - 1) }).map((i) => ({
      ...a,
      fields: a.fields.map((f, j) => (j === i ? { ...f, key: `${f.key}_renamed` } : f)),
    })),
    fc.nat({ max: Math.max(0, a.fields.length - 1) }).map((i) => ({
      ...a,
      fields: a.fields.map((f, j) =>
        j === i ? { ...f, options: { ...f.options, protobuf: { ...f.options?.protobuf, number: 900 + j } } } : f,
      ),
    })),
    fc.nat({ max: Math.max(0, a.fields.length - 1) }).map((i) => ({
      ...a,
      fields: a.fields.map((f, j) =>
        j === i ? { ...f, presence: f.presence === "optional" ? ("required" as const) : ("optional" as const) } : f,
      ),
    })),
    fc.constant({
      ...a,
      struct: { ...a.struct, endianness: a.struct.endianness === "big" ? ("little" as const) : ("big" as const) },
    }),
    fc.constantFrom("fixed", "u8-inline", "u16-inline", "u8-appended", "u16-appended").map((stringMode) => ({
      ...a,
      struct: { ...a.struct, stringMode: stringMode as Layout["struct"]["stringMode"] },
    })),
  );

const caseArb = layoutArb.chain((a) =>
  editArb(a).chain((b) => {
    const checked = checkLayout(b);
    const next = checked.ok ? checked.layout : a;
    return fc.tuple(fc.constant(a), fc.constant(next), fc.array(recordArb(next.fields), { maxLength: 3 }));
  }),
);

describe("compile caches never serve a stale plan", () => {
  it("every format, compiled warm after another layout, behaves as compiled cold", async () => {
    const warm = await fresh();
    const cases = fc.sample(caseArb, { seed: SEED, numRuns: RUNS });
    let compared = 0;
    let differing = 0;
    for (const [before, after, extra] of cases) {
      const records = [...generateSamples(after, 12, 5), ...extra];
      // the warm copy has compiled every earlier case and the layout before this edit
      for (const f of FORMAT_IDS) warm.registry.CODECS[f].compile(before);
      const cold = await fresh();
      for (const f of FORMAT_IDS) {
        const got = behaviour(warm, f, after, records);
        expect(got, `${f} after an edit`).toEqual(behaviour(cold, f, after, records));
        if (show(got) !== show(behaviour(cold, f, before, records))) differing++;
        compared += records.length;
      }
    }
    console.log(`${compared} records compared over ${RUNS} edits; ${differing} format × edit pairs changed behaviour`);
    // the edits must matter: most change what some format does
    expect(differing).toBeGreaterThan(RUNS);
  }, 240_000);
});
