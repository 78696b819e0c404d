// `satpayload batch` as users run it (a subprocess through tsx): a device's log of readings cut into
// messages of N readings (the last partly filled) and read back to the same readings; sizes per format.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { batchCodecFor, generateBatches, toPlain } from "#codecs";
import { batchTracker, batchTrackerInput, kineisOnly } from "#codecs-test/fixtures/batchTracker.ts";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import { repoRoot } from "#codecs-test/helpers/python.ts";

const TSX = path.join(repoRoot, "node_modules/.bin/tsx");
const tmp = mkdtempSync(path.join(os.tmpdir(), "satpayload-batch-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function cli(args: string[], input?: string) {
  const r = await runOwned(TSX, ["bin/satpayload.ts", ...args], { cwd: repoRoot, input });
  return { code: r.code, out: r.stdout, err: r.stderr };
}

function file(name: string, text: string): string {
  const p = path.join(tmp, name);
  writeFileSync(p, text);
  return p;
}

const layoutFile = file("batch-tracker.satlayout.json", JSON.stringify(batchTrackerInput));
const plainLayout = file("tracker.satlayout.json", JSON.stringify(kineisOnly));
/** 14 readings a 15-minute tracker logged, in messages of 6 sharing their once-fields (so every cut keeps them) */
const N = 6;
const readings = generateBatches(batchTracker, 3, N, 21)
  .flatMap((b) => b.readings.map((r) => toPlain(batchTracker, { ...b.once, ...r }, "json")))
  .slice(0, 14);
const jsonl = file("log.jsonl", readings.map((r) => JSON.stringify(r)).join("\n") + "\n");
const jsonArray = file("log.json", JSON.stringify(readings));
const base = ["--layout", layoutFile, "--format", "bitpacked", "--form", "delta", "--readings", String(N)];

/** each test spawns the CLI (tsx) two to four times: on two busy cores that took 35 s once; a timeout bounds a hang */
const SLOW = { timeout: 180_000 };

describe("satpayload batch", SLOW, () => {
  it("encodes a log into messages of N readings, the last partly filled, and decodes them back to the readings", async () => {
    const enc = await cli(["batch", "encode", ...base, "--records", jsonl]);
    expect(enc.code, enc.err).toBe(0);
    const lines = enc.out.trim().split("\n");
    expect(lines).toHaveLength(3); // 6 + 6 + 2
    // each line is the codec's own message for those readings
    const codec = batchCodecFor(batchTracker, "bitpacked", "delta", N);
    expect(codec.decode(Buffer.from(lines[2]!, "hex")).readings).toHaveLength(2);
    const dec = await cli(["batch", "decode", ...base], enc.out);
    expect(dec.code, dec.err).toBe(0);
    expect(
      dec.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual(readings);
    // a JSON array of the same readings gives the same messages
    const fromArray = await cli(["batch", "encode", ...base, "--records", jsonArray]);
    expect(fromArray.out).toBe(enc.out);
  });

  it("sizes batches per format against one reading per message", async () => {
    const r = await cli([
      "batch",
      "sizes",
      "--layout",
      layoutFile,
      "--format",
      "bitpacked,cbor",
      "--messages",
      "20",
      "--platform",
      "kineis",
      "--json",
    ]);
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out) as {
      schema: string;
      limitBytes: number;
      rows: {
        format: string;
        readingsPerMessage: number;
        maxMessageBytes: number;
        bytesPerReading: number;
        singleReadingBytes: number;
        fits: boolean;
      }[];
    };
    expect(doc.schema).toBe("satpayload.batch-sizes/1");
    expect(doc.limitBytes).toBe(30);
    expect(doc.rows.map((x) => [x.format, x.readingsPerMessage])).toEqual([
      ["bitpacked", N],
      ["cbor", N],
    ]);
    const bp = doc.rows[0]!;
    // the once-fields travel once and the fixes as deltas: a reading costs less than alone
    expect(bp.bytesPerReading).toBeLessThan(bp.singleReadingBytes);
    expect(bp.fits).toBe(bp.maxMessageBytes <= 30);
  });

  it("says what is wrong: a layout without a batch, an unknown form, a reading that does not encode", async () => {
    const noBatch = await cli([
      "batch",
      "encode",
      "--layout",
      plainLayout,
      "--format",
      "bitpacked",
      "--records",
      jsonl,
    ]);
    expect(noBatch.code).toBe(1);
    expect(noBatch.err).toMatch(/declares no batch/);
    const form = await cli(["batch", "encode", ...base.slice(0, 4), "--form", "zip", "--records", jsonl]);
    expect(form.code).toBe(2);
    expect(form.err).toMatch(/--form must be columns or delta/);
    const bad = file(
      "bad.jsonl",
      [...readings.slice(0, 7), { ...readings[7]!, lat: 95 }].map((x) => JSON.stringify(x)).join("\n"),
    );
    const r = await cli(["batch", "encode", ...base, "--records", bad]);
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/bad\.jsonl:8/);
  });

  it("encodes a CSV log (by extension or by content) like the same readings as JSON Lines; a bad CSV names every line", async () => {
    const keys = Object.keys(readings[0]!);
    // a spreadsheet writes the motion state by its name (JSON carries the number)
    const states = ["PARKED", "MOVING", "STOPPED", "ALARM", "TAMPER"];
    const cell = (k: string, v: unknown) => (k === "st" ? states[v as number]! : String(v));
    const csvText = (rows: Record<string, unknown>[]) =>
      [keys.join(","), ...rows.map((r) => keys.map((k) => cell(k, r[k])).join(","))].join("\n") + "\n";
    const fromJsonl = await cli(["batch", "encode", ...base, "--records", jsonl]);
    expect(fromJsonl.code, fromJsonl.err).toBe(0);
    const csv = await cli(["batch", "encode", ...base, "--records", file("log.csv", csvText(readings))]);
    expect(csv.code, csv.err).toBe(0);
    expect(csv.out).toBe(fromJsonl.out);
    // no extension that says: the text is not a JSON object, so it is read as CSV
    const byContent = await cli(["batch", "encode", ...base, "--records", file("log.txt", csvText(readings))]);
    expect(byContent.out).toBe(fromJsonl.out);
    // two bad lines: both reported with file:line, nothing written
    const badRows = readings.map((r, i) => (i === 1 ? { ...r, lat: "4x.2" } : i === 8 ? { ...r, lat: 95 } : r));
    const bad = await cli(["batch", "encode", ...base, "--records", file("bad.csv", csvText(badRows))]);
    expect(bad.code).toBe(1);
    expect(bad.out).toBe("");
    expect(bad.err).toMatch(/2 problems in the log, nothing encoded/);
    expect(bad.err).toMatch(/bad\.csv:3, lat: /);
    expect(bad.err).toMatch(/bad\.csv:10, lat: /);
  });

  it("cost --form: --per-day counts readings, each format sends readings ÷ its readings per message", async () => {
    const r = await cli([
      "cost",
      "--layout",
      layoutFile,
      "--platform",
      "astrocast",
      "--devices",
      "100",
      "--per-day",
      "96",
      "--form",
      "delta",
      "--samples",
      "20",
      "--format",
      "bitpacked",
      "--json",
    ]);
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out) as {
      batch: { form: string; readingsPerDay: number };
      formats: { format: string; readingsPerMessage: number; exact: { transmissions: number } }[];
    };
    expect(doc.batch).toEqual({ form: "delta", readingsPerDay: 96 });
    expect(doc.formats[0]!.readingsPerMessage).toBe(N);
    // 100 devices × 96 readings ÷ 6 per message × 30 days, every message within Astrocast's 160 B
    expect(doc.formats[0]!.exact.transmissions).toBe((100 * 96 * 30) / N);
  });
});
