// The batch's Kaitai specs (issue #27): the exported .ksy of each form, compiled by the Kaitai compiler
// and run on our batch messages (bit-packed and Struct), reads every wire field to our value: the count,
// first values, differences, keyframes, time base and offsets, columns and the fields sent once.
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { batchCodecFor, codecFor, generateBatches, type LayoutInput, parseLayout } from "#codecs";
import { generateBatchExports } from "../../src/batchExport.ts";
import { prove } from "../kaitai/prove.ts";
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
    const spec = parseYaml(file.content) as { doc: string };
    expect(spec.doc).toContain("cannot sum");
    // the wire records of messages of every count, as the wire layout's own codec reads them
    const wire = { ...codec.wireLayout, message: `${layout.message}${form === "delta" ? "Delta" : "Columns"}` };
    const records = generateBatches(layout, 80, l.n, 4).map((b, j) =>
      codecFor(codec.wireLayout, format).decode(
        codec.encode({ once: b.once, readings: b.readings.slice(0, 1 + (j % l.n)) }),
      ),
    );
    expect(await prove(wire, format, records, spec)).toBe(records.length);
  });
});
