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

  it("the Struct packer links without libm and writes the studio's bytes", async () => {
    const n = structNames(m);
    const dir = `s${i}`;
    work.write(generateCStruct(layout), dir);
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
    const r = await crossCheck(layout, m, "struct", work.path(`${dir}/h`), {
      records: 60,
      seed: 31,
      truncated: 2,
      mutations: 0,
    });
    expect(r.exitCode).toBe(0);
    expect(r.encodeMismatches).toEqual([]);
    expect(r.decodeMismatches).toEqual([]);
  });

  it("the bit-packed packer links without libm and writes the studio's bits", async () => {
    const n = bitsNames(m);
    const dir = `b${i}`;
    work.write(generateCBitpacked(layout), dir);
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
    const r = await crossCheck(layout, m, "bitpacked", work.path(`${dir}/h`), {
      records: 60,
      seed: 32,
      truncated: 2,
      mutations: 0,
    });
    expect(r.exitCode).toBe(0);
    expect(r.encodeMismatches).toEqual([]);
    expect(r.decodeMismatches).toEqual([]);
  });
});
