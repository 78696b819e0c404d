// The batch's Kaitai specs (issue #27): the exported .ksy of each form, compiled by the Kaitai compiler
// and run on our batch messages (bit-packed and Struct), reads every wire field to our value: the count,
// first values, differences, keyframes, time base and offsets, columns and the fields sent once; the
// bit-packed delta spec also adds the differences up to each reading's value in units.
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { batchCodecFor, codecFor, generateBatches, type LayoutInput, parseLayout } from "#codecs";
import { batchPlanFor } from "#codecs/plans";
import { generateBatchExports } from "../../src/batchExport.ts";
import { compileParser, KaitaiStream, prove } from "../kaitai/prove.ts";
import { BATCH_LAYOUTS } from "../support/batchLayouts.ts";

const CASES = BATCH_LAYOUTS.flatMap((l) =>
  (["delta", "columns"] as const).flatMap((form) =>
    (["bitpacked", "struct"] as const).map(
      (format) => [`${l.name}, ${form} form, ${format}`, l, form, format] as const,
    ),
  ),
);

describe("batch Kaitai specs", () => {
  it.each(CASES)("%s: the compiled parser reads our messages to our wire values", async (_n, l, form, format) => {
    const layout = parseLayout(l.input as LayoutInput);
    const codec = batchCodecFor(layout, format, form, l.n);
    const file = generateBatchExports(layout, { forms: [form] }).find((f) => f.path.endsWith(`_${format}.ksy`))!;
    const spec = parseYaml(file.content) as { doc: string; instances?: Record<string, unknown> };
    const summed = form === "delta" && format === "bitpacked";
    expect(spec.doc).toContain(
      summed ? "The spec adds them up" : form === "delta" ? "does not add" : "one value per reading",
    );
    // the wire records of messages of every count, as the wire layout's own codec reads them
    const wire = { ...codec.wireLayout, message: `${layout.message}${form === "delta" ? "Delta" : "Columns"}` };
    const records = generateBatches(layout, 80, l.n, 4).map((b, j) =>
      codecFor(codec.wireLayout, format).decode(
        codec.encode({ once: b.once, readings: b.readings.slice(0, 1 + (j % l.n)) }),
      ),
    );
    expect(await prove(wire, format, records, spec)).toBe(records.length);
  });

  it.each(BATCH_LAYOUTS)(
    "$name: the bit-packed delta spec adds the differences up to every reading's units",
    async (l) => {
      const layout = parseLayout(l.input as LayoutInput);
      const plan = batchPlanFor(layout, "delta", l.n);
      const codec = batchCodecFor(layout, "bitpacked", "delta", l.n);
      const file = generateBatchExports(layout, { forms: ["delta"] }).find((f) => f.path.endsWith("_bitpacked.ksy"))!;
      const Parser = await compileParser(parseYaml(file.content));
      const deltas = plan.leaves.filter((lp) => lp.kind === "delta");
      expect(deltas.length).toBeGreaterThan(3);
      let readings = 0;
      for (const [j, b] of generateBatches(layout, 60, l.n, 6).entries()) {
        const batch = { once: b.once, readings: b.readings.slice(0, 1 + (j % l.n)) };
        const parsed = new Parser(new KaitaiStream(codec.encode(batch)));
        for (const lp of deltas) {
          const id = `${lp.firstKey}_units`.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
          const got = (parsed[id] as { units: number }[]).map((o) => o.units);
          const want = batch.readings.map((r) =>
            lp.units.toUnits(
              lp.leaf.path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], r) as number,
            ),
          );
          expect(got, `${lp.leaf.name}, message ${j}`).toEqual(want);
        }
        readings += batch.readings.length;
      }
      expect(readings).toBeGreaterThan(300);
    },
  );
});
