// The single-header export compiled the way firmware uses it: one .c defines SATPAYLOAD_IMPLEMENTATION
// and includes it, another .c includes it for the declarations only, and both link into one program
// with gcc -std=c99 -Werror (sanitizers on, no -lm). The program is the cross-test harness, so its
// Struct and bit-packed bytes are checked against the TypeScript codecs like the multi-file exports.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kineisTrackerPreset, type Layout, paperPreset, parseLayout } from "#codecs";
import { gccAsync, SANITIZE, STRICT, Workdir } from "./harness/build.ts";
import { cHarness } from "./harness/cHarness.ts";
import { crossCheck } from "./harness/crossCheck.ts";
import { cModel, type CModel } from "../../src/c/model.ts";
import { bitsNames } from "../../src/cBitpacked.ts";
import { generateCSingleHeader, singleHeaderName } from "../../src/cSingleHeader.ts";
import { structNames } from "../../src/cStruct.ts";
import { runExports } from "../../src/registry.ts";

const work = new Workdir("c-single");
afterAll(() => work.remove());

interface Built {
  layout: Layout;
  m: CModel;
  structExe: string;
  bitsExe: string;
}
const built: Built[] = [];
const LAYOUTS = [paperPreset, kineisTrackerPreset];

beforeAll(async () => {
  for (const [i, input] of LAYOUTS.entries()) {
    const layout = parseLayout(input);
    const m = cModel(layout);
    const h = singleHeaderName(layout);
    const dir = `l${i}`;
    work.write(generateCSingleHeader(layout), dir);
    // a second file that only uses the declarations: the code must not be compiled twice
    work.writeText(
      `${dir}/other.c`,
      `#include "${h}"\nint other_size(void) { return (int)sizeof(${m.root.typeName}) + sp_strerror(0)[0]; }\n`,
    );
    const exe = async (name: string, pack: string, unpack: string) => {
      const main = cHarness(m, { includes: [h], pack, unpack });
      work.writeText(`${dir}/${name}.c`, `#define SATPAYLOAD_IMPLEMENTATION\n${main}`);
      await gccAsync(work, [
        ...STRICT,
        ...SANITIZE,
        `-I${dir}`,
        "-o",
        `${dir}/${name}`,
        `${dir}/${name}.c`,
        `${dir}/other.c`,
      ]);
      return work.path(`${dir}/${name}`);
    };
    const s = structNames(m);
    const b = bitsNames(m);
    built.push({
      layout,
      m,
      structExe: await exe("h_struct", s.pack, s.unpack),
      bitsExe: await exe("h_bits", b.pack, b.unpack),
    });
  }
}, 300_000);

describe.each(LAYOUTS.map((l, i) => [l.name, i] as const))("%s", (_name, i) => {
  it("one header gives the studio's Struct and bit-packed bytes both ways", async () => {
    const b = built[i]!;
    for (const [format, exe] of [
      ["struct", b.structExe],
      ["bitpacked", b.bitsExe],
    ] as const) {
      const r = await crossCheck(b.layout, b.m, format, exe, { records: 120, seed: 41, truncated: 4, mutations: 60 });
      expect(r.stderr).toBe("");
      expect(r.exitCode).toBe(0);
      expect(r.encodeMismatches).toEqual([]);
      expect(r.decodeMismatches).toEqual([]);
      expect(r.truncationMismatches).toEqual([]);
      expect(r.mutationMismatches).toEqual([]);
      expect(r.records - r.refused).toBeGreaterThan(80);
    }
  });
});

describe("the export", () => {
  it("is one header (and the document it cites), chosen by id, with the packers the option names", () => {
    const layout = parseLayout(kineisTrackerPreset);
    const all = runExports(layout, ["c-single-header"]);
    expect(all.problems).toEqual([]);
    expect(all.files.map((f) => f.path)).toEqual(["tracker_fix_satpayload.h", "satpayload_c.md"]);
    const h = all.files[0]!.content;
    expect(h).toContain("int pack_tracker_fix(const tracker_fix_t *in, uint8_t *out, size_t cap);");
    expect(h).toContain("int pack_tracker_fix_bits(const tracker_fix_t *in, uint8_t *out, size_t cap);");
    expect(h).not.toMatch(/#include "(?!tracker_fix_satpayload\.h")/);
    const bitsOnly = runExports(layout, ["c-single-header"], { headerFormats: ["bitpacked"] }).files[0]!.content;
    expect(bitsOnly).toContain("pack_tracker_fix_bits(");
    expect(bitsOnly).not.toContain("pack_tracker_fix(");
    expect(() => runExports(layout, ["c-single-header"], { headerFormats: ["struct-zlib"] })).toThrow(/headerFormats/);
  });
});
