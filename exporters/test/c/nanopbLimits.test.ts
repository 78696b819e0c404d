// nanopb's default build keeps message sizes in 16 bits: a message whose C struct reaches 64 kB (an
// array, text or bytes the raised layout limits allow) makes nanopb_generator's .pb.c stop with
// "#error Enable PB_FIELD_32BIT". The .options file must say so exactly when Debian's nanopb_generator
// decides it, and the generated code must then compile with -DPB_FIELD_32BIT.
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { type LayoutInput, paperPreset, parseLayout } from "#codecs";
import { gccAsync, Workdir } from "./harness/build.ts";
import { nanopbGenerate } from "./harness/nanopbGenerate.ts";
import { generateNanopbOptions } from "../../src/nanopb.ts";

const one = (type: unknown, extra: Record<string, unknown> = {}): LayoutInput =>
  ({
    format: "satlayout",
    version: 1,
    name: "Big",
    fields: [{ id: "a", key: "a", name: "A", type, ...extra }],
  }) as LayoutInput;
const array = (of: unknown, maxCount: number, fixed = false) => ({ kind: "array", of, maxCount, fixed });
const int16 = { kind: "int", bits: 16, signed: true };
const double = { kind: "float", bits: 64 };

/** [name, layout, whether nanopb 0.4.7 demands PB_FIELD_32BIT]: far from 64 kB and right at it */
const CASES: [string, LayoutInput, boolean][] = [
  ["paper", paperPreset, false],
  ["int16[10 000]", one(array(int16, 10_000)), false],
  ["int16[65 535]", one(array(int16, 65_535)), true],
  ["string of 65 535 bytes", one({ kind: "string", maxLength: 65_535 }), true],
  ["bytes of 65 535", one({ kind: "bytes", maxLength: 65_535 }), true],
  // 8 190 doubles stay under 64 kB, 8 191 reach it (nanopb adds a count word, then aligns to 8 bytes)
  ["double[8 190] fixed", one(array(double, 8_190, true)), false],
  ["double[8 191] fixed", one(array(double, 8_191, true)), true],
  [
    "a group holding int32[20 000]",
    one({
      kind: "group",
      fields: [{ id: "b", key: "b", name: "B", type: array({ kind: "int", bits: 32, signed: true }, 20_000) }],
    }),
    true,
  ],
];

const work = new Workdir("nanopb-limits");
afterAll(() => work.remove());

describe("nanopb: messages of 64 kB and more need PB_FIELD_32BIT, and the export says so", () => {
  it.each(CASES.map(([name, input, big], i) => [name, input, big, i] as const))(
    "%s",
    async (_name, input, big, i) => {
      const layout = parseLayout(input);
      const dir = `l${i}`;
      const n = nanopbGenerate(work, layout, dir);
      const demanded = readFileSync(work.path(`${dir}/${n.pbSource}`), "utf8").includes("#error Enable PB_FIELD_32BIT");
      // the case is what it claims to be, by nanopb's own judgement
      expect(demanded).toBe(big);
      const options = generateNanopbOptions(layout);
      expect(options.includes("-DPB_FIELD_32BIT")).toBe(demanded);
      const compile = (define: string[]) =>
        gccAsync(work, [
          "-std=c99",
          "-Wall",
          "-Wextra",
          "-Werror",
          ...define,
          "-c",
          "-o",
          `${dir}/pb.o`,
          `${dir}/${n.pbSource}`,
        ]);
      if (demanded) {
        await expect(compile([])).rejects.toThrow(/Enable PB_FIELD_32BIT/);
        await compile(["-DPB_FIELD_32BIT"]);
      } else await compile([]);
    },
    120_000,
  );
});
