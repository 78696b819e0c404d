// Firmware toolchains often ship without libm, or with one that pulls in kilobytes for a single floor():
// the C packers must link without -lm. gcc's builtins are switched off (-fno-builtin) so that a call
// to floor, fmod or round reaches the linker instead of being inlined, and the harness is linked with
// libc only; then it runs a batch against the TypeScript codec, so the libm-free floor, Math.round
// and timestamp digits give the same bytes.
import { afterAll, describe, expect, it } from "vitest";
import { parseLayout } from "#codecs";
import { gccAsync, STRICT, Workdir } from "./harness/build.ts";
import { cHarness } from "./harness/cHarness.ts";
import { crossCheck } from "./harness/crossCheck.ts";
import { CROSS_LAYOUTS } from "./harness/layouts.ts";
import { cModel } from "../../src/c/model.ts";
import { bitsNames, generateCBitpacked } from "../../src/cBitpacked.ts";
import { generateCStruct, structNames } from "../../src/cStruct.ts";

const work = new Workdir("c-nolibm");
afterAll(() => work.remove());

/** No sanitizers (their runtimes link libm themselves), no builtins, no -lm. */
const NO_LIBM = [...STRICT, "-O2", "-fno-builtin"];

describe.each(CROSS_LAYOUTS.map(([name], i) => [name, i] as const))("%s", (_name, i) => {
  const layout = parseLayout(CROSS_LAYOUTS[i]![1]);
  const m = cModel(layout);

  // the two packers a firmware links: each alone, with its own names, harness and cross-check seed
  const PACKERS = [
    { what: "Struct packer", format: "struct", dir: "s", seed: 31, generate: generateCStruct, names: structNames },
    {
      what: "bit-packed packer",
      format: "bitpacked",
      dir: "b",
      seed: 32,
      generate: generateCBitpacked,
      names: bitsNames,
    },
  ] as const;

  it.each(PACKERS)("the $what links without libm and writes the studio's bytes", async (p) => {
    const n = p.names(m);
    const dir = `${p.dir}${i}`;
    work.write(p.generate(layout), dir);
    work.writeText(`${dir}/h.c`, cHarness(m, { includes: [n.header], pack: n.pack, unpack: n.unpack }));
    await gccAsync(work, [
      ...NO_LIBM,
      `-I${dir}`,
      "-o",
      `${dir}/h`,
      `${dir}/h.c`,
      `${dir}/${n.source}`,
      `${dir}/satpayload_rt.c`,
    ]);
    const r = await crossCheck(layout, m, p.format, work.path(`${dir}/h`), {
      records: 60,
      seed: p.seed,
      truncated: 2,
      mutations: 0,
    });
    expect(r.exitCode).toBe(0);
    expect(r.encodeMismatches).toEqual([]);
    expect(r.decodeMismatches).toEqual([]);
  });
});
