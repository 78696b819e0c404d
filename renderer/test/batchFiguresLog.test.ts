// The Readings per message figures sized on the user's own log (issue #27): the log's readings cut n at a time
// instead of generated series, the fit searched over every message of the log, and a log with problems sized not at
// all (its problems come back to be listed).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { batchCodecFor, batchesFromLog, importLog, type Layout, parseLayout } from "#codecs";
import { gpsTrackBatchInput } from "#codecs-test/fixtures/gpsTrack.ts";
import { repoRoot } from "#codecs-test/helpers/python.ts";
import { batchFigures, formFigures } from "../src/worker/batchFigures.ts";
import type { BatchAsk } from "../src/worker/protocol.ts";

const csv = readFileSync(path.join(repoRoot, "codecs/test/fixtures/data/cerknicko-jezero.csv"), "utf8");
// the columns form carries any reading the layout accepts, so every message of the real track encodes
const fixed = (count: number): Layout =>
  parseLayout({ ...gpsTrackBatchInput, batch: { ...gpsTrackBatchInput.batch!, readings: { kind: "fixed", count } } });
const ask = (text: string, id = 1): BatchAsk => ({
  limits: [{ id: "astrocast", bytes: 160 }],
  log: { id, name: "track.csv", text },
});

describe("batch figures on the user's log", () => {
  it("sizes every message of the log, n readings each, and finds the most readings whose messages all fit", () => {
    const layout = fixed(8);
    const log = importLog(layout, csv);
    expect(log.problems).toEqual([]);
    const got = formFigures(layout, "bitpacked", "columns", ask(csv), 1);
    expect(got.error).toBeNull();
    expect(got.log).toEqual({ readings: log.records.length, problems: [], problemsNotListed: 0 });
    const codec = batchCodecFor(layout, "bitpacked", "columns", 8);
    const sizes = batchesFromLog(layout, log.records, log.lines, 8).batches.map((b) => codec.encode(b).length);
    expect(got.stats!.count).toBe(Math.ceil(log.records.length / 8));
    expect(got.stats!.max).toBe(Math.max(...sizes));
    // the fit: every message of n readings of the log fits 160 B, one more reading does not
    const fits = got.fits.astrocast!;
    const all = (n: number) => {
      const c = batchCodecFor(layout, "bitpacked", "columns", n);
      return batchesFromLog(layout, log.records, log.lines, n).batches.every((b) => c.encode(b).length <= 160);
    };
    expect(fits).toBeGreaterThan(1);
    expect(all(fits)).toBe(true);
    expect(all(fits + 1)).toBe(false);
    // not the generated series' figures
    const generated = formFigures(layout, "bitpacked", "columns", { limits: ask(csv).limits }, 1);
    expect(generated.log).toBeNull();
    expect(generated.stats!.count).not.toBe(got.stats!.count);
  });

  it("sizes nothing on a log with problems and sends back its problems, line and field", () => {
    const layout = fixed(8);
    const lines = csv.split("\n");
    lines[3] = lines[3]!.replace(/,45\.\d+,/, ",4x.2,");
    lines[7] = lines[7]!.replace(/^[^,]+,/, "yesterday,");
    const got = batchFigures(layout, "cbor", ask(lines.join("\n"), 2), 1);
    for (const f of got.forms) {
      expect(f.stats).toBeNull();
      expect(f.error).toMatch(/Your log has problems/);
      expect(f.log!.problems.map((p) => [p.line, p.field])).toEqual([
        [4, "lat"],
        [8, "time"],
      ]);
    }
  });
});
