// The C99 Struct and Struct+Zlib packers compiled with gcc (-std=c99 -Wall -Wextra -Werror -pedantic,
// AddressSanitizer + UndefinedBehaviorSanitizer) and run on the same records as the TypeScript codecs:
// identical bytes both ways, equal values back, truncation / trailing / capacity errors, and the same
// verdict on mutated messages. Struct+Zlib links the system zlib (1.2.13 on Debian 12), whose
// compress2(…, 9) must give exactly the studio's bytes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSamples, type Layout, LayoutError, paperPreset, parseLayout, type ScalarType } from "#codecs";
import { checkScalar, fixedPoint } from "#codecs/plans";
import { gccAsync, inParallel, run, SANITIZE, STRICT, Workdir } from "./harness/build.ts";
import { cHarness } from "./harness/cHarness.ts";
import { crossCheck, type CrossReport } from "./harness/crossCheck.ts";
import { CROSS_LAYOUTS } from "./harness/layouts.ts";
import { recordTokens } from "./harness/tokens.ts";
import { cModel, type CModel } from "../../src/c/model.ts";
import { generateCStruct, generateCStructZlib, structNames } from "../../src/cStruct.ts";

interface Built {
  name: string;
  layout: Layout;
  m: CModel;
  plain: string;
  zlib: string;
}

const work = new Workdir("c-struct");
const built: Built[] = [];

beforeAll(async () => {
  const jobs: (() => Promise<void>)[] = [];
  CROSS_LAYOUTS.forEach(([name, input], i) => {
    const layout = parseLayout(input);
    const m = cModel(layout);
    const n = structNames(m);
    const dir = `l${i}`;
    work.write(generateCStructZlib(layout), dir);
    const harness = (header: string, pack: string, unpack: string) => cHarness(m, { includes: [header], pack, unpack });
    work.writeText(`${dir}/h_struct.c`, harness(n.header, n.pack, n.unpack));
    work.writeText(`${dir}/h_zlib.c`, harness(n.zlibHeader, n.zlibPack, n.zlibUnpack));
    const common = [...STRICT, ...SANITIZE, `-I${dir}`, `${dir}/${n.source}`, `${dir}/satpayload_rt.c`];
    jobs.push(() => gccAsync(work, [...common, "-o", `${dir}/h_struct`, `${dir}/h_struct.c`]));
    jobs.push(() =>
      gccAsync(work, [...common, "-o", `${dir}/h_zlib`, `${dir}/h_zlib.c`, `${dir}/${n.zlibSource}`, "-lz"]),
    );
    built.push({ name, layout, m, plain: work.path(`${dir}/h_struct`), zlib: work.path(`${dir}/h_zlib`) });
  });
  await inParallel(jobs);
}, 300_000);

afterAll(() => work.remove());

function expectClean(r: CrossReport): void {
  expect(r.stderr).toBe("");
  expect(r.exitCode).toBe(0);
  expect(r.encodeMismatches).toEqual([]);
  expect(r.decodeMismatches).toEqual([]);
  expect(r.truncationMismatches).toEqual([]);
  expect(r.trailingMismatches).toEqual([]);
  expect(r.capacityMismatches).toEqual([]);
  expect(r.mutationMismatches).toEqual([]);
}

describe.each(CROSS_LAYOUTS.map(([name], i) => [name, i] as const))("%s", (_name, i) => {
  it("Struct: C and TypeScript agree byte for byte and value for value", async () => {
    const b = built[i]!;
    const r = await crossCheck(b.layout, b.m, "struct", b.plain, {
      records: 300,
      seed: 11,
      truncated: 12,
      mutations: 300,
    });
    expectClean(r);
    expect(r.records - r.refused).toBeGreaterThan(200);
    expect(r.truncations).toBeGreaterThan(12);
  });

  it("Struct+Zlib: compress2(…, 9) from zlib gives exactly the studio's bytes", async () => {
    const b = built[i]!;
    const r = await crossCheck(b.layout, b.m, "struct-zlib", b.zlib, {
      records: 200,
      seed: 12,
      truncated: 6,
      mutations: 200,
    });
    expectClean(r);
    expect(r.records - r.refused).toBeGreaterThan(130);
  });
});

describe("the checks can fail", () => {
  it("a packer with the wrong byte order is caught both ways", async () => {
    const b = built[0]!;
    const n = structNames(b.m);
    const files = generateCStruct(b.layout).map((f) =>
      f.path === n.source
        ? {
            ...f,
            content: f.content
              .replaceAll("sp_wr_init(&w, out, cap, false, false)", "sp_wr_init(&w, out, cap, true, false)")
              .replaceAll("sp_rd_init(&r, in, len, false, false)", "sp_rd_init(&r, in, len, true, false)"),
          }
        : f,
    );
    expect(files.find((f) => f.path === n.source)!.content).toContain("sp_wr_init(&w, out, cap, true, false)");
    work.write(files, "broken");
    work.writeText("broken/h.c", cHarness(b.m, { includes: [n.header], pack: n.pack, unpack: n.unpack }));
    await gccAsync(work, [
      ...STRICT,
      "-Ibroken",
      "-o",
      "broken/h",
      "broken/h.c",
      `broken/${n.source}`,
      "broken/satpayload_rt.c",
    ]);
    const r = await crossCheck(b.layout, b.m, "struct", work.path("broken/h"), {
      records: 20,
      seed: 1,
      truncated: 0,
      mutations: 0,
    });
    expect(r.encodeMismatches).toHaveLength(20);
    expect(r.decodeMismatches).toHaveLength(20);
  });
});

describe("values TypeScript records cannot hold", () => {
  // every-type: an enum value outside the enum, a fixed-point value outside its range
  const every = () => built.find((b) => b.name === "every type")!;
  const base = () => recordTokens(every().m, generateSamples(every().layout, 1, 5)[0]!).split(" ");

  it("an unknown enum value is SP_ERR_VALUE, a value off the fixed-point range SP_ERR_RANGE", async () => {
    const b = every();
    const enumBad = base();
    enumBad[1] = "5";
    const lat = b.m.root.fields.findIndex((f) => f.member === "lat");
    const latType = b.layout.fields.find((f) => f.key === "lat")!.type;
    if (latType.kind !== "fixed") throw new Error("lat is fixed-point");
    const latBad = base();
    // tokens before "lat" are one per field (no optional or array before it); the member is the raw
    latBad[lat] = String(fixedPoint(latType).toRaw(100)); // 100.0, outside -90..90
    const out = await run(b.plain, [`E ${enumBad.join(" ")}`, `E ${latBad.join(" ")}`]);
    expect(out.lines).toEqual(["ERR -6", "ERR -4"]);
  });

  it("an integer off its declared range is SP_ERR_RANGE, as the record check refuses it (int8 -3..3, uint16 6..7)", async () => {
    const b = built.find((x) => x.name === "bit corners")!;
    // every field of this layout up to the integers is one token
    const at = (member: string) => b.m.root.fields.findIndex((f) => f.member === member);
    const rec = generateSamples(b.layout, 1, 3)[0]!;
    const tokens = recordTokens(b.m, rec).split(" ");
    const withToken = (member: string, value: string) => tokens.map((t, i) => (i === at(member) ? value : t)).join(" ");
    const bad = [withToken("small", "4"), withToken("small", "-4"), withToken("narrow", "5"), withToken("narrow", "8")];
    const edge = [withToken("small", "3"), withToken("narrow", "6")];
    for (const [key, value] of [
      ["small", 4],
      ["small", -4],
      ["narrow", 5],
      ["narrow", 8],
    ] as const) {
      const type = b.layout.fields.find((f) => f.key === key)!.type as ScalarType;
      expect(() => checkScalar(type, value, key)).toThrow(/outside/);
    }
    const out = await run(
      b.plain,
      [...bad, ...edge].map((t) => `E ${t}`),
    );
    expect(out.lines.slice(0, 4)).toEqual(["ERR -4", "ERR -4", "ERR -4", "ERR -4"]);
    expect(out.lines.slice(4).every((l) => !l.startsWith("ERR"))).toBe(true);
  });

  it("an empty input is truncated", async () => {
    const out = await run(every().plain, ["D "]);
    expect(out.lines).toEqual(["ERR -2"]);
  });
});

describe("the export", () => {
  it("has the record types, the runtime and the packer, named after the message", () => {
    const files = generateCStruct(parseLayout(paperPreset)).map((f) => f.path);
    expect(files).toEqual([
      "satpayload_rt.h",
      "satpayload_rt.c",
      "satpayload_c.md",
      "container_data.h",
      "container_data_struct.h",
      "container_data_struct.c",
    ]);
    const zlib = generateCStructZlib(parseLayout(paperPreset)).map((f) => f.path);
    expect(zlib.slice(-2)).toEqual(["container_data_struct_zlib.h", "container_data_struct_zlib.c"]);
  });

  it("declares pack/unpack with the documented signature and the paper's largest message (116 bytes as sampled, 129 with the longest MSISDN and CGI)", () => {
    const h = generateCStruct(parseLayout(paperPreset)).find((f) => f.path === "container_data_struct.h")!.content;
    expect(h).toContain("int pack_container_data(const container_data_t *in, uint8_t *out, size_t cap);");
    expect(h).toContain("int unpack_container_data(const uint8_t *in, size_t len, container_data_t *out);");
    expect(h).toContain("#define CONTAINER_DATA_STRUCT_MAX_SIZE 129");
  });

  it("refuses keys that collapse to the same C member", () => {
    const layout = parseLayout({
      format: "satlayout",
      version: 1,
      name: "x",
      fields: [
        { id: "a", key: "v", name: "v", type: { kind: "array", of: { kind: "bool" }, maxCount: 2 } },
        { id: "b", key: "v_count", name: "c", type: { kind: "bool" } },
      ],
    });
    expect(() => generateCStruct(layout)).toThrow(LayoutError);
  });
});
