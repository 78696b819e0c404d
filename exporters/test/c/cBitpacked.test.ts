// The C99 bit-packed packer compiled with gcc (strict C99, every warning an error, ASan + UBSan) and
// run on the same records as the TypeScript codec: identical bits both ways, values back on the same
// quantisation grid bit for bit, truncation / trailing / capacity errors, the same verdict on
// mutated messages.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Layout, paperPreset, parseLayout } from "#codecs";
import { gccAsync, inParallel, SANITIZE, STRICT, Workdir } from "./harness/build.ts";
import { cHarness } from "./harness/cHarness.ts";
import { crossCheck } from "./harness/crossCheck.ts";
import { CROSS_LAYOUTS } from "./harness/layouts.ts";
import { cModel, type CModel } from "../../src/c/model.ts";
import { bitsNames, generateCBitpacked } from "../../src/cBitpacked.ts";

interface Built {
  layout: Layout;
  m: CModel;
  exe: string;
}

const work = new Workdir("c-bits");
const built: Built[] = [];

beforeAll(async () => {
  const jobs: (() => Promise<void>)[] = [];
  CROSS_LAYOUTS.forEach(([, input], i) => {
    const layout = parseLayout(input);
    const m = cModel(layout);
    const n = bitsNames(m);
    const dir = `l${i}`;
    work.write(generateCBitpacked(layout), dir);
    work.writeText(`${dir}/h.c`, cHarness(m, { includes: [n.header], pack: n.pack, unpack: n.unpack }));
    jobs.push(() =>
      gccAsync(work, [
        ...STRICT,
        ...SANITIZE,
        `-I${dir}`,
        "-o",
        `${dir}/h`,
        `${dir}/h.c`,
        `${dir}/${n.source}`,
        `${dir}/satpayload_rt.c`,
      ]),
    );
    built.push({ layout, m, exe: work.path(`${dir}/h`) });
  });
  await inParallel(jobs);
}, 300_000);

afterAll(() => work.remove());

describe.each(CROSS_LAYOUTS.map(([name], i) => [name, i] as const))("%s", (_name, i) => {
  it("C and TypeScript agree bit for bit and value for value", async () => {
    const b = built[i]!;
    const r = await crossCheck(b.layout, b.m, "bitpacked", b.exe, {
      records: 400,
      seed: 21,
      truncated: 12,
      mutations: 400,
    });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.encodeMismatches).toEqual([]);
    expect(r.decodeMismatches).toEqual([]);
    expect(r.truncationMismatches).toEqual([]);
    expect(r.trailingMismatches).toEqual([]);
    expect(r.capacityMismatches).toEqual([]);
    expect(r.mutationMismatches).toEqual([]);
    expect(r.records - r.refused).toBeGreaterThan(300);
  });
});

describe("the export", () => {
  it("declares pack/unpack_<msg>_bits and the paper's bounds (62 bytes as sampled, 71 with the longest strings)", () => {
    const files = generateCBitpacked(parseLayout(paperPreset));
    expect(files.map((f) => f.path)).toEqual([
      "satpayload_rt.h",
      "satpayload_rt.c",
      "satpayload_c.md",
      "container_data.h",
      "container_data_bits.h",
      "container_data_bits.c",
    ]);
    const h = files.find((f) => f.path === "container_data_bits.h")!.content;
    expect(h).toContain("int pack_container_data_bits(const container_data_t *in, uint8_t *out, size_t cap);");
    expect(h).toContain("#define CONTAINER_DATA_BITS_MAX_SIZE 71");
    expect(h).toContain("Messages take 286 to 562 bits");
  });
});
