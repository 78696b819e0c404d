// Runs the CLI as users do (a subprocess through tsx) and checks its output against the Python reference peers.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { kineisTrackerPreset } from "#codecs";
import { PAPER_EXAMPLE_TEXT } from "#codecs-test/fixtures/paperExample.ts";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { referencePython, repoRoot } from "#codecs-test/helpers/python.ts";

const TSX = path.join(repoRoot, "node_modules/.bin/tsx");
const tmp = mkdtempSync(path.join(os.tmpdir(), "satpayload-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

interface Run {
  code: number | null;
  out: string;
  bytes: Buffer;
  err: string;
}

/** Async, so vitest's worker stays responsive while the CLI runs; independent runs go in parallel. */
async function cli(args: string[], input?: string | Buffer): Promise<Run> {
  // owned: a CLI still running when its test ends (failed, timed out) is stopped with tsx's node child
  const r = await runOwned(TSX, ["bin/satpayload.ts", ...args], { cwd: repoRoot, input });
  return { code: typeof r.code === "number" ? r.code : null, out: r.stdout, bytes: r.stdoutBytes, err: r.stderr };
}

function file(name: string, text: string): string {
  const p = path.join(tmp, name);
  writeFileSync(p, text);
  return p;
}

/** The paper's record as the device emits it (all strings), three variants of different widths. */
const BASE = PAPER_EXAMPLE_TEXT;
const RECORDS = [
  BASE,
  { ...BASE, speed: "2.3", heading: "9.50" },
  { ...BASE, heading: "359.99", acc: "-980.0001 -20.5000 -45.2500", door: "T", time: "311225 235959.9" },
];
const recordsFile = file("paper.jsonl", RECORDS.map((r) => JSON.stringify(r)).join("\n") + "\n");

/** Python's own bytes for the self-describing formats (json.dumps as the paper's device, cbor2, msgpack). */
const reference = JSON.parse(
  execFileSync(
    referencePython(),
    [
      "-c",
      `import sys, json, cbor2, msgpack
recs = json.load(sys.stdin)
print(json.dumps({f: [enc(r).hex() for r in recs] for f, enc in {"json": lambda r: json.dumps(r).encode(), "cbor": cbor2.dumps, "msgpack": msgpack.packb}.items()}))`,
    ],
    { input: JSON.stringify(RECORDS) },
  ).toString(),
) as Record<"json" | "cbor" | "msgpack", string[]>;

const sizesOf = (f: keyof typeof reference) => reference[f].map((h) => h.length / 2);

const firstLine = (r: Run) => r.err.split("\n")[0];
/** each run starts Node and tsx (about a second of CPU); a loaded 2-core CI machine needs headroom */
const SLOW = { timeout: 180_000 };

describe("sizes", SLOW, () => {
  it("--json reports the documented schema with Python-exact sizes for the paper's records", async () => {
    const r = await cli([
      "sizes",
      "--preset",
      "paper",
      "--records",
      recordsFile,
      "--format",
      "json,cbor",
      "--format",
      "msgpack",
      "--json",
    ]);
    expect(r.err).toBe("");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.schema).toBe("satpayload.sizes/1");
    expect(out.layout).toBe("Maritime container (Kumar et al. 2026)");
    expect(out.preset).toBe("paper");
    expect(out.records).toBe(recordsFile);
    expect(out.seed).toBeNull();
    expect(out.sampleCount).toBe(3);
    expect(out.limits).toEqual([{ id: "astrocast", name: "Astrocast (Astronode S)", bytes: 160 }]);
    expect(out.formats.map((f: { format: string }) => f.format)).toEqual(["json", "cbor", "msgpack"]);
    for (const f of out.formats) {
      const want = sizesOf(f.format);
      const sorted = [...want].sort((a, b) => a - b);
      expect(f.stats, f.format).toEqual({
        count: 3,
        min: sorted[0],
        mean: (want[0]! + want[1]! + want[2]!) / 3,
        p50: sorted[1],
        p95: sorted[2],
        p99: sorted[2],
        max: sorted[2],
      });
      expect(f.errors).toBe(0);
      expect(f.firstError).toBeNull();
      expect(f.overLimit).toEqual({ astrocast: 1 });
      expect(f.implementation.length).toBeGreaterThan(5);
    }
    // the facts sheet's example record: 414 B as json.dumps writes it
    expect(sizesOf("json")[0]).toBe(414);
  });

  it("generated samples are reproducible and carry seed and count", async () => {
    const args = ["sizes", "--preset", "paper", "--samples", "50", "--seed", "7", "--json"];
    const [a, b, c] = (await Promise.all([cli(args), cli(args), cli([...args.slice(0, 6), "8", "--json"])])).map((r) =>
      JSON.parse(r.out),
    );
    expect(a).toEqual(b);
    expect(c.formats).not.toEqual(a.formats);
    expect(a.seed).toBe(7);
    expect(a.sampleCount).toBe(50);
    expect(a.formats.map((f: { format: string }) => f.format)).toEqual([
      "json",
      "cbor",
      "cbor-int",
      "msgpack",
      "msgpack-int",
      "protobuf",
      "struct",
      "struct-zlib",
      "sbe",
      "flatbuffers",
      "pson",
      "bitpacked",
    ]);
    for (const f of a.formats) expect(f.stats.count + f.errors, f.format).toBe(50);
  });

  it("--per-record writes one JSON line per record: Python-exact sizes and a verdict per limit", async () => {
    // a blank line in the file: the reported line numbers are the file's, not the record index
    const withBlank = file(
      "paper-blank.jsonl",
      `${JSON.stringify(RECORDS[0])}\n\n${RECORDS.slice(1)
        .map((r) => JSON.stringify(r))
        .join("\n")}\n`,
    );
    const limit = sizesOf("json")[1]!;
    const r = await cli([
      "sizes",
      "--preset",
      "paper",
      "--records",
      withBlank,
      "--format",
      "json,cbor,msgpack",
      "--limit",
      String(limit),
      "--per-record",
    ]);
    expect([r.code, r.err]).toEqual([0, ""]);
    const lines = r.out
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.schema, l.record, l.line])).toEqual([
      ["satpayload.sizes-record/1", 0, 1],
      ["satpayload.sizes-record/1", 1, 3],
      ["satpayload.sizes-record/1", 2, 4],
    ]);
    for (const f of ["json", "cbor", "msgpack"] as const) {
      expect(lines.map((l) => l.formats[f])).toEqual(
        sizesOf(f).map((bytes) => ({ bytes, fits: { limit: bytes <= limit } })),
      );
    }
    const samples = await cli([
      "sizes",
      "--preset",
      "kineis-tracker",
      "--samples",
      "5",
      "--format",
      "struct",
      "--platform",
      "kineis,astrocast",
      "--per-record",
    ]);
    const rows = samples.out
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(rows.map((l) => [l.record, l.line, l.formats.struct])).toEqual(
      [0, 1, 2, 3, 4].map((i) => [i, null, { bytes: 22, fits: { kineis: true, astrocast: true } }]),
    );
    const both = await cli(["sizes", "--preset", "paper", "--per-record", "--json"]);
    expect([both.code, firstLine(both)]).toEqual([
      2,
      "satpayload: --per-record already writes JSON (one line per record): drop --json",
    ]);
  });

  it("prints an aligned table with a verdict per platform", async () => {
    const r = await cli([
      "sizes",
      "--preset",
      "paper",
      "--records",
      recordsFile,
      "--format",
      "json,protobuf",
      "--platform",
      "astrocast,iridium-sbd",
    ]);
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    expect(lines[0]).toBe(`Maritime container (Kumar et al. 2026) — 3 records from ${recordsFile}`);
    const header = lines[2]!;
    expect(header.split(/\s{2,}/)).toEqual([
      "format",
      "min",
      "mean",
      "p50",
      "p95",
      "p99",
      "max",
      "Astrocast (Astronode S) 160 B",
      "Iridium SBD (9602/9603) 340 B",
    ]);
    const js = sizesOf("json");
    const max = String(Math.max(...js));
    expect(lines[3]!.split(/\s{2,}/)).toEqual([
      "json",
      String(Math.min(...js)),
      ((js[0]! + js[1]! + js[2]!) / 3).toFixed(1),
      String([...js].sort((a, b) => a - b)[1]),
      max,
      max,
      max,
      "over 100.0 %",
      "over 100.0 %",
    ]);
    expect(lines[4]!.split(/\s{2,}/).slice(-2)).toEqual(["fits", "fits"]);
    // right-aligned columns: every row ends where the header ends
    expect(lines[3]!.length).toBe(header.length);
    expect(lines[4]!.length).toBe(header.length);
  });

  it("the Kinéis tracker fits Kinéis in the fixed-layout formats, read from a layout file", async () => {
    const layoutFile = file("tracker.satlayout.json", JSON.stringify(kineisTrackerPreset));
    const r = await cli([
      "sizes",
      "--layout",
      layoutFile,
      "--samples",
      "200",
      "--format",
      "struct,sbe,bitpacked,json",
      "--platform",
      "kineis",
      "--json",
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.preset).toBeNull();
    expect(
      Object.fromEntries(
        out.formats.map((f: { format: string; overLimit: { kineis: number } }) => [f.format, f.overLimit.kineis]),
      ),
    ).toEqual({ struct: 0, sbe: 0, bitpacked: 0, json: 1 });
  });

  it("accepts a custom platform file and --limit", async () => {
    const platform = file(
      "sat.json",
      JSON.stringify({
        id: "my-sat",
        name: "My sat",
        network: "satellite",
        uplinkBytes: 300,
        billing: { kind: "per-message" },
        source: "test",
      }),
    );
    const js = sizesOf("json");
    const [p, l] = await Promise.all([
      cli([
        "sizes",
        "--preset",
        "paper",
        "--records",
        recordsFile,
        "--format",
        "cbor",
        "--platform",
        platform,
        "--json",
      ]),
      cli([
        "sizes",
        "--preset",
        "paper",
        "--records",
        recordsFile,
        "--format",
        "json",
        "--limit",
        String(js[1]),
        "--json",
      ]),
    ]);
    expect(JSON.parse(p.out).formats[0].overLimit).toEqual({ "my-sat": 0 });
    expect(JSON.parse(l.out).formats[0].overLimit).toEqual({ limit: js.filter((x) => x > js[1]!).length / 3 });
  });

  it("reports bad input with exit codes 1 (data) and 2 (usage)", async () => {
    const bad = file("bad.jsonl", `${JSON.stringify(BASE)}\n${JSON.stringify({ ...BASE, door: undefined })}\n`);
    const badLayout = file(
      "bad.satlayout.json",
      JSON.stringify({
        format: "satlayout",
        version: 1,
        name: "x",
        fields: [{ id: "a", key: "a", name: "a", type: { kind: "int", bits: 12, signed: false } }],
      }),
    );
    const badPlatform = file(
      "badsat.json",
      JSON.stringify({
        id: "x",
        name: "x",
        network: "satellite",
        uplinkBytes: -1,
        billing: { kind: "per-message" },
        source: "s",
      }),
    );
    const missing = path.join(tmp, "missing.json");
    const runs = await Promise.all([
      cli(["sizes", "--preset", "paper", "--records", bad]),
      cli(["sizes", "--preset", "paper", "--records", file("nojson.jsonl", "{oops\n")]),
      cli(["sizes", "--preset", "nope"]),
      cli(["sizes", "--preset", "paper", "--platform", "starlink"]),
      cli(["sizes", "--preset", "paper", "--format", "xml"]),
      cli(["sizes", "--preset", "paper", "--limit", "100", "--platform", "kineis"]),
      cli(["sizes", "--preset", "paper", "--layout", recordsFile]),
      cli(["sizes", "--preset", "paper", "--bogus"]),
      cli(["sizes", "--preset", "paper", "--samples", "ten"]),
      cli(["sizes", "--layout", badLayout]),
      cli(["sizes", "--layout", missing]),
      cli(["sizes", "--preset", "paper", "--platform", badPlatform]),
    ]);
    const [
      records,
      notJson,
      preset,
      platform,
      format,
      both,
      layoutAndPreset,
      flag,
      number,
      layout,
      noFile,
      platformFile,
    ] = runs;
    expect([records!.code, records!.err]).toEqual([1, `satpayload: ${bad}:2: door: is required\n`]);
    expect(notJson!.code).toBe(1);
    expect(notJson!.err).toMatch(/nojson\.jsonl:1: not JSON/);
    expect([preset!.code, firstLine(preset!)]).toEqual([
      2,
      'satpayload: unknown preset "nope" (presets: paper, kineis-tracker, lorawan-env, paper-tracker)',
    ]);
    expect([platform!.code, platform!.err]).toEqual([2, expect.stringContaining('unknown platform "starlink"')]);
    expect([format!.code, format!.err]).toEqual([2, expect.stringContaining('unknown format "xml"')]);
    expect([both!.code, firstLine(both!)]).toEqual([2, "satpayload: give --limit or --platform, not both"]);
    expect([layoutAndPreset!.code, firstLine(layoutAndPreset!)]).toEqual([
      2,
      "satpayload: give exactly one of --layout FILE or --preset ID",
    ]);
    expect([flag!.code, flag!.err]).toEqual([2, expect.stringContaining("--bogus")]);
    expect([number!.code, firstLine(number!)]).toEqual([2, 'satpayload: --samples must be a whole number, got "ten"']);
    expect([layout!.code, layout!.err]).toEqual([
      1,
      'satpayload: invalid layout: Field "a": Bits is 12; allowed: 8, 16, 32, 64.\n',
    ]);
    expect([noFile!.code, noFile!.err]).toEqual([1, `satpayload: cannot read ${missing}: ENOENT\n`]);
    expect([platformFile!.code, platformFile!.err]).toEqual([
      1,
      expect.stringMatching(/^satpayload: invalid platform: uplinkBytes/),
    ]);
    for (const r of runs) expect(r.out).toBe("");
  });
});

describe("encode / decode", SLOW, () => {
  it.each(["json", "cbor", "msgpack"] as const)("encode --format %s writes Python's bytes", async (format) => {
    const [raw, ...hex] = await Promise.all([
      cli(["encode", "--preset", "paper", "--format", format], JSON.stringify(BASE)),
      ...RECORDS.map((rec) => cli(["encode", "--preset", "paper", "--format", format, "--hex"], JSON.stringify(rec))),
    ]);
    expect(hex.map((h) => h.out)).toEqual(reference[format].map((h) => `${h}\n`));
    expect(raw!.bytes.toString("hex")).toBe(reference[format][0]);
  });

  it("decode(encode(record)) prints the device's record again in every lossless format", async () => {
    const formats = ["protobuf", "struct", "struct-zlib", "sbe", "pson", "json", "cbor", "msgpack"] as const;
    // each format takes another of the three records, so every record goes through several formats
    const cases = formats.map((format, i) => ({ format, rec: RECORDS[i % RECORDS.length]! }));
    const encoded = await Promise.all(
      cases.map(({ format, rec }) =>
        cli(["encode", "--preset", "paper", "--format", format, "--hex"], JSON.stringify(rec)),
      ),
    );
    for (const e of encoded) expect(e.out).toMatch(/^[0-9a-f]+\n$/);
    const decoded = await Promise.all(
      cases.map(({ format }, i) => cli(["decode", "--preset", "paper", "--format", format, "--hex"], encoded[i]!.out)),
    );
    decoded.forEach((d, i) =>
      expect([cases[i]!.format, d.err, d.out]).toEqual([cases[i]!.format, "", `${JSON.stringify(cases[i]!.rec)}\n`]),
    );
    // raw bytes on stdin decode the same as their hex
    const binary = await Promise.all(
      [0, 2].map((i) =>
        cli(["decode", "--preset", "paper", "--format", cases[i]!.format], Buffer.from(encoded[i]!.out.trim(), "hex")),
      ),
    );
    expect(binary.map((b) => b.out)).toEqual([decoded[0]!.out, decoded[2]!.out]);
  });

  it("keeps NaN and 64-bit integers exact through stdin and stdout", async () => {
    const layout = file(
      "nan.satlayout.json",
      JSON.stringify({
        format: "satlayout",
        version: 1,
        name: "nan",
        fields: [
          { id: "v", key: "v", name: "v", type: { kind: "float", bits: 64 } },
          { id: "n", key: "n", name: "n", type: { kind: "int", bits: 64, signed: false } },
        ],
      }),
    );
    const hex = await cli(
      ["encode", "--layout", layout, "--format", "cbor", "--hex"],
      '{"v": NaN, "n": 18446744073709551615}',
    );
    expect(hex.err).toBe("");
    expect((await cli(["decode", "--layout", layout, "--format", "cbor", "--hex"], hex.out)).out).toBe(
      '{"v":NaN,"n":18446744073709551615}\n',
    );
  });

  it("encode --records FILE --hex writes one message a line, Python's bytes, in one process", async () => {
    const runs = await Promise.all(
      (["json", "cbor", "msgpack"] as const).map((format) =>
        cli(["encode", "--preset", "paper", "--format", format, "--records", recordsFile, "--hex"]),
      ),
    );
    runs.forEach((r, i) =>
      expect([r.code, r.err, r.out]).toEqual([
        0,
        "",
        `${reference[(["json", "cbor", "msgpack"] as const)[i]!].join("\n")}\n`,
      ]),
    );
    // a bad record stops it before anything is written, naming its line
    const bad = file("paper-bad.jsonl", `${JSON.stringify(BASE)}\n${JSON.stringify({ ...BASE, door: undefined })}\n`);
    const [broken, noHex, mixed] = await Promise.all([
      cli(["encode", "--preset", "paper", "--format", "protobuf", "--records", bad, "--hex"]),
      cli(["encode", "--preset", "paper", "--format", "protobuf", "--records", recordsFile]),
      cli(["encode", "--preset", "paper", "--format", "protobuf", "--records", recordsFile, "--hex", "--sample", "2"]),
    ]);
    expect([broken.code, broken.out, broken.err]).toEqual([1, "", `satpayload: ${bad}:2: door: is required\n`]);
    expect([noHex.code, noHex.out, firstLine(noHex)]).toEqual([2, "", expect.stringContaining("add --hex")]);
    expect([mixed.code, firstLine(mixed)]).toEqual([2, expect.stringContaining("cannot be combined with --sample")]);
  });

  it("encodes a generated sample reproducibly", async () => {
    const [a, b, c] = await Promise.all([
      cli(["encode", "--preset", "kineis-tracker", "--format", "struct", "--seed", "5", "--sample", "3", "--hex"]),
      cli(["encode", "--preset", "kineis-tracker", "--format", "struct", "--seed", "5", "--sample", "3"]),
      cli(["encode", "--preset", "kineis-tracker", "--format", "struct", "--seed", "5", "--sample", "4", "--hex"]),
    ]);
    expect(a.code).toBe(0);
    expect(a.out).toBe(`${b.bytes.toString("hex")}\n`);
    expect(b.bytes.length).toBe(22);
    expect(c.out).not.toBe(a.out);
  });

  it("fails clearly on bad records and bad bytes", async () => {
    const good = (
      await cli(["encode", "--preset", "paper", "--format", "protobuf", "--hex"], JSON.stringify(BASE))
    ).out.trim();
    const runs = await Promise.all([
      cli(["encode", "--preset", "paper", "--format", "protobuf"], JSON.stringify({ ...BASE, door: undefined })),
      cli(["encode", "--preset", "paper", "--format", "protobuf"], ""),
      cli(["encode", "--preset", "paper", "--format", "protobuf"], "[1,2]"),
      cli(["encode", "--preset", "paper"], "{}"),
      cli(["decode", "--preset", "paper", "--format", "protobuf", "--hex"], "zz"),
      cli(["decode", "--preset", "paper", "--format", "protobuf", "--hex"], good.slice(0, good.length - 6)),
    ]);
    const [missingField, empty, notObject, noFormat, notHex, truncated] = runs;
    expect([missingField!.code, missingField!.err]).toEqual([1, "satpayload: stdin: door: is required\n"]);
    expect([empty!.code, empty!.err]).toEqual([2, expect.stringContaining("no record on stdin")]);
    expect([notObject!.code, notObject!.err]).toEqual([1, "satpayload: stdin: expected a JSON object\n"]);
    expect([noFormat!.code, noFormat!.err]).toEqual([2, expect.stringContaining("--format is required")]);
    expect([notHex!.code, notHex!.err]).toEqual([1, "satpayload: stdin is not hex (expected 0-9, a-f)\n"]);
    expect([truncated!.code, truncated!.err]).toEqual([1, expect.stringMatching(/^satpayload: protobuf: .+\n$/)]);
    for (const r of runs) expect(r.out).toBe("");
  });
});

describe("cost", SLOW, () => {
  it("--json prices every message of the measured sizes (Astrocast, JSON records fragmented)", async () => {
    const r = await cli([
      "cost",
      "--preset",
      "paper",
      "--records",
      recordsFile,
      "--platform",
      "astrocast",
      "--devices",
      "10000",
      "--per-day",
      "4",
      "--format",
      "json",
      "--json",
    ]);
    expect(r.err).toBe("");
    const out = JSON.parse(r.out);
    expect(out.schema).toBe("satpayload.cost/1");
    expect(out.messages).toBe(1_200_000);
    expect(out.platform).toMatchObject({ id: "astrocast", uplinkBytes: 160, price: "€0.183/KB (2^10 B)" });
    const [json] = out.formats;
    const sizes = sizesOf("json");
    const mean = (sizes[0]! + sizes[1]! + sizes[2]!) / 3;
    expect(json.currency).toBe("EUR");
    expect(json.mean.bytesPerMessage).toBe(mean);
    expect(json.mean.cost).toBeCloseTo((1_200_000 * mean * 0.183) / 1024, 6);
    expect(json.max.cost).toBeCloseTo((1_200_000 * Math.max(...sizes) * 0.183) / 1024, 6);
    // 400-odd bytes over a 160-byte limit: three Astrocast messages each
    expect(json.exact.fragmentsPerMessage).toBe(3);
    expect(json.exact.transmissions).toBe(3_600_000);
    expect(json.exact.shareOverLimit).toBe(1);
    expect(json.warnings[0]).toMatch(/exceed the 160-byte limit/);
  });

  it("counts RockBLOCK credits per message", async () => {
    const out = JSON.parse(
      (
        await cli([
          "cost",
          "--preset",
          "paper",
          "--records",
          recordsFile,
          "--platform",
          "iridium-sbd",
          "--devices",
          "1",
          "--per-day",
          "24",
          "--days",
          "30",
          "--format",
          "json,cbor",
          "--json",
        ])
      ).out,
    );
    const credits = (b: number) => Math.max(1, Math.ceil(b / 50));
    // json.dumps output (400-odd B) needs two SBD sessions of at most 340 B
    const jsonCredits = sizesOf("json").map((s) => credits(340) + credits(s - 340));
    const cborCredits = sizesOf("cbor").map(credits);
    const shares = (cs: number[]) =>
      [...new Set(cs)]
        .sort((a, b) => a - b)
        .map((u) => ({ units: u, share: cs.filter((c) => c === u).length / cs.length }));
    expect(out.formats[0].exact.unitShares).toEqual(shares(jsonCredits));
    expect(out.formats[1].exact.unitShares).toEqual(shares(cborCredits));
    expect(out.formats[0].unitName).toBe("credits");
    // priced at the catalog's marked estimate (€0.00894 per credit): 720 messages at the mean size's credits
    const jsonSizes = sizesOf("json");
    const meanSize = jsonSizes.reduce((a, b) => a + b, 0) / jsonSizes.length;
    expect(out.formats[0].mean.cost).toBeCloseTo(720 * (credits(340) + credits(meanSize - 340)) * 0.00894, 9);
  });

  it("prints the paper's Table 7 with its rules", async () => {
    const [r, j] = await Promise.all([cli(["cost", "--paper-table7"]), cli(["cost", "--paper-table7", "--json"])]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("MB = 2^20 B");
    expect(r.out).toMatch(/^JSON\s+418\s+478\.4\s+€9\.57\s+489,882\s+€89,648$/m);
    expect(r.out).toMatch(/^Protocol Buffers\s+138\s+157\.9\s+€3\.16\s+161,690\s+€29,589$/m);
    expect(r.out).toMatch(/^Struct\+Zlib\s+127\s+145\.3\s+€2\.91\s+148,787\s+€27,228$/m);
    expect(JSON.parse(j.out).rows.map((x: { ntnEurShown: number }) => x.ntnEurShown)).toEqual([89648, 29589, 27228]);
  });

  it("a human table names the platform, price and fleet", async () => {
    const r = await cli([
      "cost",
      "--preset",
      "paper",
      "--records",
      recordsFile,
      "--platform",
      "nbiot-tn",
      "--devices",
      "10000",
      "--per-day",
      "4",
      "--format",
      "protobuf",
    ]);
    expect(r.code).toBe(0);
    expect(r.out.split("\n").slice(1, 3)).toEqual([
      "Terrestrial NB-IoT / LTE-M: no fixed limit, €0.02/MB (2^20 B); on air: CoAP CON / UDP / IPv4",
      "10,000 devices × 4/day × 30 days = 1,200,000 messages",
    ]);
    expect(r.out).toMatch(
      /^format\s+mean B\s+p95 B\s+max B\s+on air B\s+over limit\s+msgs\/msg\s+transmissions\s+volume MB \(binary\)\s+cost \(mean\)/m,
    );
    expect(r.out).toMatch(
      /^protobuf\s+\d+\.\d\s+\d+\s+\d+\s+\d+\.\d\s+0\.0 %\s+1\.00\s+1,200,000\s+\d+\.\d\s+€\d+\.\d\d/m,
    );
  });

  it("--stack: an IP link bills the stack's headers with every message, a modem link refuses an IP stack", async () => {
    const args = [
      "cost",
      "--preset",
      "paper",
      "--records",
      recordsFile,
      "--platform",
      "nbiot-tn",
      "--devices",
      "10000",
      "--per-day",
      "4",
      "--format",
      "cbor",
      "--json",
    ];
    const [raw, coap, modem] = await Promise.all([
      cli([...args, "--stack", "raw"]),
      cli(args),
      cli([
        "cost",
        "--preset",
        "paper",
        "--platform",
        "astrocast",
        "--devices",
        "1",
        "--per-day",
        "1",
        "--stack",
        "coap-con",
      ]),
    ]);
    const sizes = sizesOf("cbor");
    const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
    const rawOut = JSON.parse(raw.out);
    expect(rawOut.stack).toEqual({ id: "raw", name: "Raw payload (Non-IP data delivery)" });
    expect(rawOut.formats[0].exact.cost).toBeCloseTo((1_200_000 * mean * 0.02) / 2 ** 20, 9);
    const coapOut = JSON.parse(coap.out);
    expect(coapOut.stack.id).toBe("coap-con");
    // the payload is the same; what is sent and billed grows by the headers of every message
    expect(coapOut.formats[0].exact.bytesPerMessage).toBe(mean);
    expect(coapOut.formats[0].exact.sentBytes).toBeGreaterThan(rawOut.formats[0].exact.sentBytes);
    expect(coapOut.formats[0].exact.cost).toBeCloseTo((coapOut.formats[0].exact.sentBytes * 0.02) / 2 ** 20, 9);
    expect([modem.code, firstLine(modem)]).toEqual([
      2,
      "satpayload: Astrocast (Astronode S) is a modem link: it carries the raw payload, not CoAP CON / UDP / IPv4",
    ]);
  });

  it("rejects missing or malformed numbers", async () => {
    const [noDevices, negative, table7] = await Promise.all([
      cli(["cost", "--preset", "paper", "--platform", "astrocast", "--per-day", "4"]),
      cli(["cost", "--preset", "paper", "--platform", "astrocast", "--devices", "-5", "--per-day", "4"]),
      cli(["cost", "--paper-table7", "--devices", "5"]),
    ]);
    expect([noDevices.code, firstLine(noDevices)]).toEqual([2, "satpayload: --devices is required"]);
    expect(negative.code).toBe(2);
    expect([table7.code, firstLine(table7)]).toEqual([
      2,
      "satpayload: --paper-table7 takes no other flag than --json (got --devices)",
    ]);
  });
});

describe("catalogs and help", SLOW, () => {
  it("presets, formats and platforms list what the other commands accept", async () => {
    const [presets, formats, formatsTable, platforms, presetsTable] = await Promise.all([
      cli(["presets", "--json"]),
      cli(["formats", "--json"]),
      cli(["formats"]),
      cli(["platforms"]),
      cli(["presets"]),
    ]);
    const p = JSON.parse(presets.out);
    expect(p.presets.map((x: { id: string }) => x.id)).toEqual([
      "paper",
      "kineis-tracker",
      "lorawan-env",
      "paper-tracker",
    ]);
    expect(p.presets[0].fields).toBe(20);
    const f = JSON.parse(formats.out);
    expect(f.formats.map((x: { id: string }) => x.id)).toEqual([
      "json",
      "cbor",
      "cbor-int",
      "msgpack",
      "msgpack-int",
      "protobuf",
      "struct",
      "struct-zlib",
      "sbe",
      "flatbuffers",
      "pson",
      "bitpacked",
    ]);
    for (const x of f.formats) expect(x.implementation.length, x.id).toBeGreaterThan(5);
    expect(formatsTable.out.split("\n")[0]!.split(/\s{2,}/)).toEqual(["id", "label", "implementation"]);
    expect(platforms.out).toMatch(
      /^astrocast\s+Astrocast \(Astronode S\)\s+160\s+40\s+€0\.183\/KB \(2\^10 B\)\s+operational$/m,
    );
    // a default price that is an estimate says so
    expect(platforms.out).toMatch(
      /^iridium-sbd\s+Iridium SBD \(9602\/9603\)\s+340\s+270\s+€0\.00894\/credit of 50 B \(estimate\)\s+operational$/m,
    );
    expect(presetsTable.out).toMatch(/^kineis-tracker\s+Asset tracker \(Kinéis 30 B\)\s+12\s+/m);
  });

  it("help and unknown commands", async () => {
    const [h, cost, sizes, u] = await Promise.all([
      cli(["help"]),
      cli(["help", "cost"]),
      cli(["sizes", "--help"]),
      cli(["frobnicate"]),
    ]);
    expect(h.code).toBe(0);
    expect(h.out).toMatch(/^usage: satpayload <command>/);
    expect(cost.out).toContain("--paper-table7");
    expect(sizes.out).toMatch(/^satpayload sizes/);
    expect(u.code).toBe(2);
    // later issues add commands at the end of the list
    expect(u.err).toMatch(
      /^satpayload: unknown command "frobnicate" \(commands: sizes, encode, decode, cost, presets, formats, platforms(, [a-z]+)*\)\n$/,
    );
  });
});
