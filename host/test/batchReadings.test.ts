// The batch export of a layout that sends "as many readings as fit a platform": the count comes from
// planning where the export starts (exporters may not import it), one per form — the fewer of the
// bit-packed and Struct counts, since both formats share the form's wire — and batch/READINGS.md says so.
import { describe, expect, it } from "vitest";
import { type Layout, parseLayout, presetById } from "#codecs";
import { runExports } from "#exporters";
import { readingsPerMessage } from "#planning";
import { call, testHost } from "./support.ts";
import { runExportsWithBatchReadings } from "../exports/batchReadings.ts";

const tracker: Layout = parseLayout(presetById("paper-tracker")!.layout);
const maxReadings = (content: string) => Number(/_MAX_READINGS (\d+)/.exec(content)![1]);

describe("readings per message of the batch export for a 'fit' layout", () => {
  it("exports each form with the fewer of the bit-packed and Struct counts, the registry's files for that count", () => {
    expect(tracker.batch!.readings.kind).toBe("fit");
    // what the exporter alone does: a problem, no file
    expect(runExports(tracker, ["batch"]).problems.map((p) => p.exporter)).toEqual(["batch"]);
    const { result, choice } = runExportsWithBatchReadings(tracker, ["batch"], {});
    expect(result.problems).toEqual([]);
    for (const form of ["delta", "columns"] as const) {
      const want = Math.min(
        readingsPerMessage(tracker, "bitpacked", form),
        readingsPerMessage(tracker, "struct", form),
      );
      expect(choice!.forms.find((f) => f.form === form)!.readings).toBe(want);
      for (const suffix of ["bits", "struct"]) {
        const h = result.files.find((f) => f.path === `batch/c/container_data_${form}_${suffix}.h`)!;
        expect(maxReadings(h.content)).toBe(want);
      }
      // byte for byte the export given that count by hand
      const byHand = runExports(tracker, ["batch"], { batchForms: [form], batchReadings: want }).files;
      for (const f of byHand) expect(result.files.find((g) => g.path === f.path)?.content).toBe(f.content);
    }
    // the forms differ here (bit-packed delta fits more than columns), so one count would have cost readings
    const [columns, delta] = [
      choice!.forms.find((f) => f.form === "columns")!,
      choice!.forms.find((f) => f.form === "delta")!,
    ];
    expect(delta.readings).toBeGreaterThan(columns.readings);
    const note = result.files.find((f) => f.path === "batch/READINGS.md")!;
    expect(note.exporter).toBe("batch");
    expect(note.content).toContain(`delta form ${delta.readings} (bit-packed alone ${delta.perFormat[0]!.readings}`);
    expect(note.content).toContain("as many as fit astrocast");
  });

  it("leaves the count alone when it is given, when the layout's count is fixed, or when no batch export runs", () => {
    const given = runExportsWithBatchReadings(tracker, ["batch"], { batchReadings: 3, batchForms: ["delta"] });
    expect(given.choice).toBeNull();
    expect(given.result.files.some((f) => f.path === "batch/READINGS.md")).toBe(false);
    expect(maxReadings(given.result.files.find((f) => f.path === "batch/c/container_data_delta_bits.h")!.content)).toBe(
      3,
    );
    const fixed = parseLayout({
      ...presetById("paper-tracker")!.layout,
      batch: { ...presetById("paper-tracker")!.layout.batch!, readings: { kind: "fixed", count: 5 } },
    });
    expect(runExportsWithBatchReadings(fixed, ["batch"], {}).choice).toBeNull();
    const other = runExportsWithBatchReadings(tracker, ["proto"], {});
    expect(other.choice).toBeNull();
    expect(other.result.files.some((f) => f.path.startsWith("batch/"))).toBe(false);
  });

  it("the host's exports.generate (the Export page) passes the count in: files, no problem", async () => {
    const host = testHost();
    const got = await call(host, "exports.generate", {
      layout: presetById("paper-tracker")!.layout,
      exporterIds: ["batch"],
      options: { batchForms: ["delta"] },
    });
    expect(got.problems).toEqual([]);
    const n = Math.min(
      readingsPerMessage(tracker, "bitpacked", "delta"),
      readingsPerMessage(tracker, "struct", "delta"),
    );
    expect(maxReadings(got.files.find((f) => f.path === "batch/c/container_data_delta_struct.h")!.content)).toBe(n);
    expect(got.files.some((f) => f.path === "batch/READINGS.md")).toBe(true);
    expect(got.files.some((f) => f.path.includes("_columns_"))).toBe(false);
  });
});
