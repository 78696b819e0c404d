// generateProto + generateNanopbOptions → Debian's nanopb_generator.py (nanopb 0.4.7) → gcc -std=c99
// -Wall -Wextra -Werror, linked with libnanopb-dev's libprotobuf-nanopb.a. A harness encodes, with
// pb_encode, the values protobufjs reads from the studio's Protobuf bytes, and must produce exactly
// those bytes; pb_decode of the studio's bytes must give back the same values.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  codecFor,
  generateSamples,
  type Layout,
  LayoutError,
  type LayoutInput,
  paperPreset,
  parseLayout,
} from "#codecs";
import { protobufOptionsLayout } from "#codecs-test/fixtures/protobuf-options.ts";
import { encodeUnlessRefused } from "#codecs-test/helpers/expectedErrors.ts";
import { gccAsync, inParallel, run, SANITIZE, Workdir } from "./harness/build.ts";
import { cHarness } from "./harness/cHarness.ts";
import { CROSS_LAYOUTS } from "./harness/layouts.ts";
import { nanopbGenerate } from "./harness/nanopbGenerate.ts";
import { nanopbHarness, protobufjsTokens, protobufjsType } from "./harness/nanopbHarness.ts";
import { hex, recordTokens } from "./harness/tokens.ts";
import { cModel } from "../../src/c/model.ts";
import { generateNanopbOptions, generateNanopbPacker } from "../../src/nanopb.ts";

/**
 * What nanopb cannot take from the protobuf-options fixture: a field named "long" (nanopb emits C
 * keywords as struct members) and number 100000 (needs PB_FIELD_32BIT, which Debian's prebuilt
 * libprotobuf-nanopb.a is not compiled with). Everything else of the fixture stays.
 */
const optionFields = protobufOptionsLayout.fields as { key: string }[];
const nanopbOptionsLayout: LayoutInput = {
  ...protobufOptionsLayout,
  fields: optionFields.filter((f) => f.key !== "far").map((f) => (f.key === "long" ? { ...f, key: "long_text" } : f)),
};

const LAYOUTS = CROSS_LAYOUTS.map(
  ([name, input]) => [name, name === "protobuf options" ? nanopbOptionsLayout : input] as const,
);

interface Built {
  layout: Layout;
  /** pb_encode / pb_decode over protobufjs' values */
  exe: string;
  /** pack_<msg>_pb over the record's C type */
  packer: string;
}

const work = new Workdir("nanopb");
const built: Built[] = [];

beforeAll(async () => {
  const jobs: (() => Promise<void>)[] = [];
  LAYOUTS.forEach(([, input], i) => {
    const layout = parseLayout(input);
    const dir = `l${i}`;
    const n = nanopbGenerate(work, layout, dir);
    work.writeText(`${dir}/h.c`, nanopbHarness(layout, n.pbHeader, n.cType));
    // the generated code alone, exactly as the issue asks
    jobs.push(() =>
      gccAsync(work, [
        "-std=c99",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        "-c",
        "-o",
        `${dir}/pb.o`,
        `${dir}/${n.pbSource}`,
      ]),
    );
    jobs.push(() =>
      gccAsync(work, [
        "-std=c99",
        "-Wall",
        "-Wextra",
        "-Werror",
        ...SANITIZE,
        `-I${dir}`,
        "-o",
        `${dir}/h`,
        `${dir}/h.c`,
        `${dir}/${n.pbSource}`,
        "-lprotobuf-nanopb",
      ]),
    );
    const m = cModel(layout);
    work.write(generateNanopbPacker(layout), dir);
    work.writeText(`${dir}/hp.c`, cHarness(m, { includes: [`${m.prefix}_pb_pack.h`], pack: `pack_${m.prefix}_pb` }));
    jobs.push(() =>
      gccAsync(work, [
        "-std=c99",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-pedantic",
        ...SANITIZE,
        `-I${dir}`,
        "-o",
        `${dir}/hp`,
        `${dir}/hp.c`,
        `${dir}/${m.prefix}_pb_pack.c`,
        `${dir}/satpayload_rt.c`,
        `${dir}/${n.pbSource}`,
        "-lprotobuf-nanopb",
      ]),
    );
    built.push({ layout, exe: work.path(`${dir}/h`), packer: work.path(`${dir}/hp`) });
  });
  await inParallel(jobs);
}, 300_000);

afterAll(() => work.remove());

describe.each(LAYOUTS.map(([name], i) => [name, i] as const))("%s", (_name, i) => {
  it("pb_encode gives the studio's bytes and pb_decode reads them back to the same values", async () => {
    const { layout, exe } = built[i]!;
    const codec = codecFor(layout, "protobuf");
    const type = protobufjsType(layout);
    const messages = generateSamples(layout, 400, 31)
      .map((r) => encodeUnlessRefused(codec, r))
      .filter((b): b is Uint8Array => b !== undefined);
    expect(messages.length).toBeGreaterThan(300);
    const tokens = messages.map((b) => protobufjsTokens(layout, type, b));
    const out = await run(exe, [...tokens.map((t) => `E ${t}`), ...messages.map((b) => `D ${hex(b)}`)]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    const encoded = out.lines.slice(0, messages.length);
    const decoded = out.lines.slice(messages.length);
    expect(encoded).toEqual(messages.map((b) => `OK ${hex(b)}`));
    expect(decoded).toEqual(tokens.map((t) => (t ? `OK ${t}` : "OK")));
  });
});

describe.each(LAYOUTS.map(([name], i) => [name, i] as const))("%s: pack_<msg>_pb", (_name, i) => {
  it("turns the record's C type into the studio's Protobuf bytes (or refuses what the codec refuses)", async () => {
    const { layout, packer } = built[i]!;
    const m = cModel(layout);
    const codec = codecFor(layout, "protobuf");
    const records = generateSamples(layout, 300, 41);
    const expected = records.map((r) => {
      const b = encodeUnlessRefused(codec, r);
      return b ? `OK ${hex(b)}` : "ERR";
    });
    const small = records.flatMap((r, k) =>
      expected[k]!.length > 3 && k < 20 ? [`C ${(expected[k]!.length - 3) / 2 - 1} ${recordTokens(m, r)}`] : [],
    );
    const out = await run(packer, [...records.map((r) => `E ${recordTokens(m, r)}`), ...small]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    const got = out.lines.slice(0, records.length).map((l) => (l.startsWith("ERR ") ? "ERR" : l));
    expect(got).toEqual(expected);
    expect(out.lines.slice(records.length)).toEqual(small.map(() => "ERR -1"));
  });
});

describe("the checks can fail", () => {
  it("int_size is enforced: a value beyond the narrowed C type does not decode", async () => {
    // paper: rssi is uint32 with int_size IS_8 (range 0..99); 300 on the wire overflows uint8_t
    const { exe } = built[0]!;
    const rssi300 = Uint8Array.from([0x30, 0xac, 0x02]);
    const out = await run(exe, [`D ${hex(rssi300)}`]);
    expect(out.lines[0]).toMatch(/^ERR /);
  });
});

describe("generateNanopbOptions", () => {
  it("sizes the paper's strings from the layout and narrows its small integers", () => {
    const lines = generateNanopbOptions(parseLayout(paperPreset))
      .split("\n")
      .filter((l) => l && !l.startsWith("//"));
    // in field-number order, as the .proto lists them
    expect(lines).toEqual([
      "container.ContainerData.msisdn max_length:15",
      "container.ContainerData.iso6346 max_length:11",
      "container.ContainerData.time max_length:15",
      "container.ContainerData.cgi max_length:24",
      "container.ContainerData.door max_length:1",
      "container.ContainerData.rssi int_size:IS_8",
      "container.ContainerData.ble_m int_size:IS_8",
      "container.ContainerData.bat_soc int_size:IS_8",
      "container.ContainerData.gnss int_size:IS_8",
      "container.ContainerData.nsat int_size:IS_8",
    ]);
  });

  it("writes fixed_length for fixed bytes and fixed_count for fixed arrays", () => {
    const text = generateNanopbOptions(parseLayout(CROSS_LAYOUTS.find(([n]) => n === "every type")![1]));
    expect(text).toContain("alltypes.AllTypes.mac max_size:6 fixed_length:true");
    expect(text).toContain("alltypes.AllTypes.acc max_count:3 fixed_count:true int_size:IS_16");
    expect(text).toContain("alltypes.AllTypes.Gps.sats int_size:IS_8");
  });

  it("refuses a field nanopb would emit as a C keyword, and says when PB_FIELD_32BIT is needed", () => {
    expect(() => generateNanopbOptions(parseLayout(protobufOptionsLayout))).toThrow(LayoutError);
    expect(() => generateNanopbOptions(parseLayout(protobufOptionsLayout))).toThrow(/"long" is a C\/C\+\+ keyword/);
    const far = parseLayout({ ...protobufOptionsLayout, fields: optionFields.filter((f) => f.key !== "long") });
    expect(generateNanopbOptions(far)).toContain("-DPB_FIELD_32BIT");
  });
});
