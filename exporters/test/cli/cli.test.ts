// `satpayload export` and `satpayload diff` as users run them (a tsx subprocess): files on disk equal
// the registry's output, zips read back with Python, exit codes tell usage from data errors.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { paperPreset, parseLayout } from "#codecs";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { referencePython, repoRoot } from "#codecs-test/helpers/python.ts";
import { exportOptionFields, runExports } from "../../src/registry.ts";

const TSX = path.join(repoRoot, "node_modules/.bin/tsx");
const tmp = mkdtempSync(path.join(os.tmpdir(), "satpayload-export-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // owned: stopped with tsx's node child after 60 s, or when its test ends first
  const r = await runOwned(TSX, ["bin/satpayload.ts", ...args], { cwd: repoRoot, timeoutMs: 60_000 });
  return { code: typeof r.code === "number" ? r.code : -1, stdout: r.stdout, stderr: r.stderr };
}

describe("satpayload export", () => {
  it("writes every export of the paper preset, byte for byte what the registry generates", async () => {
    const out = path.join(tmp, "all");
    const r = await cli(["export", "--preset", "paper", "--out", out, "--json"]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as {
      schema: string;
      files: Array<{ path: string; exporter: string }>;
      problems: unknown[];
    };
    expect(report.schema).toBe("satpayload.export/1");
    const want = runExports(parseLayout(paperPreset));
    expect(report.files.map((f) => f.path)).toEqual(want.files.map((f) => f.path));
    for (const f of want.files) expect(readFileSync(path.join(out, f.path), "utf8"), f.path).toBe(f.content);
  });

  it("--only picks exports; --zip writes one archive Python reads", async () => {
    const zip = path.join(tmp, "paper-exports.zip");
    const r = await cli([
      "export",
      "--preset",
      "paper",
      "--zip",
      zip,
      "--only",
      "sbe-xml,kaitai",
      "--kaitai-formats",
      "bitpacked",
    ]);
    expect(r.code, r.stderr).toBe(0);
    const names = execFileSync(referencePython(), [
      "-c",
      "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print('\\n'.join(z.namelist()))",
      zip,
    ])
      .toString()
      .trim()
      .split("\n");
    expect(names).toEqual(["paper-exports/ContainerData.sbe.xml", "paper-exports/kaitai/container_data_bitpacked.ksy"]);
  });

  it("exit 2 for an unknown export or missing destination, 1 for a layout an --only export cannot express", async () => {
    expect((await cli(["export", "--preset", "paper", "--out", path.join(tmp, "x"), "--only", "nope"])).code).toBe(2);
    expect((await cli(["export", "--preset", "paper"])).code).toBe(2);
    const layout = path.join(tmp, "deep.satlayout.json");
    // 80 elements of a string array: more than the bit-packed Kaitai spec unrolls
    writeFileSync(
      layout,
      JSON.stringify({
        format: "satlayout",
        version: 1,
        name: "deep",
        fields: [
          { id: "a", key: "a", name: "a", type: { kind: "array", of: { kind: "string", maxLength: 2 }, maxCount: 80 } },
        ],
      }),
    );
    const r = await cli(["export", "--layout", layout, "--out", path.join(tmp, "deep"), "--only", "kaitai"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/kaitai: .*unrolled/);
  });
});

describe("satpayload export of a batch that fits a platform", () => {
  it("works out readings per message per form with planning, says so on stderr and in --json, writes batch/READINGS.md", async () => {
    const out = path.join(tmp, "fit");
    const r = await cli([
      "export",
      "--preset",
      "paper-tracker",
      "--only",
      "batch",
      "--batch-forms",
      "delta",
      "--out",
      out,
      "--json",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/batch: readings per message as many as fit astrocast: delta form \d+/);
    const doc = JSON.parse(r.stdout) as {
      problems: unknown[];
      batchReadings: { forms: Array<{ form: string; readings: number }> };
    };
    expect(doc.problems).toEqual([]);
    const [delta] = doc.batchReadings.forms;
    expect(delta!.form).toBe("delta");
    const header = readFileSync(path.join(out, "batch/c/container_data_delta_bits.h"), "utf8");
    expect(header).toContain(`CONTAINER_DATA_DELTA_BITS_MAX_READINGS ${delta!.readings}`);
    expect(readFileSync(path.join(out, "batch/READINGS.md"), "utf8")).toContain(`delta form ${delta!.readings} (`);
  });
});

describe("satpayload export options", () => {
  it("takes every option of every export as a flag its help lists, and refuses a bad value naming the flag (exit 2)", async () => {
    const help = await cli(["help", "export"]);
    for (const f of exportOptionFields()) expect(help.stdout, f.flag).toContain(`--${f.flag}`);
    const out = path.join(tmp, "options");
    const ok = await cli([
      "export",
      "--preset",
      "paper",
      "--out",
      out,
      "--only",
      "firmware-esp32,kaitai",
      "--firmware-board",
      "esp32-s3-devkitc-1",
      "--firmware-interval-seconds",
      "60",
      "--kaitai-formats",
      "struct",
      "--device-key",
      "dev-1",
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const want = runExports(parseLayout(paperPreset), ["firmware-esp32", "kaitai"], {
      board: "esp32-s3-devkitc-1",
      intervalSeconds: 60,
      kaitaiFormats: ["struct"],
    });
    for (const f of want.files) expect(readFileSync(path.join(out, f.path), "utf8"), f.path).toBe(f.content);
    expect(want.files.some((f) => f.content.includes("esp32-s3-devkitc-1"))).toBe(true);
    // an option of an export --only leaves out is said, not silently dropped
    expect(ok.stderr).toContain("--device-key is an option of the decoder-config export, which --only leaves out");

    const bad = await cli(["export", "--preset", "paper", "--out", out, "--kaitai-formats", "struct,xml"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--kaitai-formats has "xml", which is not one of struct, bitpacked');
    const pin = await cli(["export", "--preset", "paper", "--out", out, "--firmware-rx-pin", "x"]);
    expect(pin.code).toBe(2);
    expect(pin.stderr).toContain("--firmware-rx-pin must be a whole number from 0 to 48");
  });
});

describe("satpayload diff", () => {
  const base = path.join(tmp, "v1.satlayout.json");
  const next = path.join(tmp, "v2.satlayout.json");
  writeFileSync(base, JSON.stringify(paperPreset));
  // v2: rssi becomes optional, door renamed, a new optional field appended
  const fields = (paperPreset.fields as Array<Record<string, unknown>>).map((f) =>
    f.id === "rssi" ? { ...f, presence: "optional" } : f.id === "door" ? { ...f, key: "door_state" } : f,
  );
  writeFileSync(
    next,
    JSON.stringify({
      ...paperPreset,
      fields: [
        ...fields,
        { id: "tilt", key: "tilt", name: "Tilt", presence: "optional", type: { kind: "int", bits: 8, signed: false } },
      ],
    }),
  );

  it("prints the verdict table and the reasons", async () => {
    const r = await cli(["diff", base, next]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/renamed\s+door_state: key "door" → "door_state"/);
    expect(r.stdout).toMatch(/^Protobuf\s+BREAKING\s+compatible$/m);
    expect(r.stdout).toMatch(/^JSON\s+BREAKING\s+BREAKING$/m);
    expect(r.stdout).toContain("advice:");
  });

  it("--json carries the schema and the verdicts; --probe checks them with the codecs; --fail-on exits 1", async () => {
    const r = await cli(["diff", base, next, "--json", "--probe", "20", "--format", "protobuf,sbe"]);
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout) as {
      schema: string;
      formats: Array<{ format: string; oldReadsNew: string; observed: { oldReadsNew: string } }>;
    };
    expect(d.schema).toBe("satpayload.diff/1");
    expect(d.formats.map((f) => f.format)).toEqual(["protobuf", "sbe"]);
    expect(d.formats[0]!.observed.oldReadsNew).toBe("breaking");
    expect((await cli(["diff", base, next, "--fail-on", "breaking"])).code).toBe(1);
    expect((await cli(["diff", base, base, "--fail-on", "degraded"])).code).toBe(0);
    expect((await cli(["diff", base])).code).toBe(2);
  });
});
