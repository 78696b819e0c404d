// docs/design/batch-wire.md shows the bytes of its worked example in every format and both forms: they
// are the bytes the codecs write, and they decode back to the example's readings.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buoyBatch, buoyReadings } from "./fixtures/batchExample.ts";
import { batchCodecFor } from "../src/batch/codec.ts";
import { FORMAT_IDS } from "../src/formats/registry.ts";
import { parseLayout } from "../src/layout/validate.ts";
import { bytesToHex } from "../src/text/bytes.ts";

const doc = readFileSync(new URL("../../docs/design/batch-wire.md", import.meta.url), "utf8");
const layout = parseLayout(buoyBatch);

/** The example table's row of a format: [delta hex, columns hex]. */
function documented(format: string): [string, string] {
  const row = new RegExp(`^\\| ${format} \\| \`([0-9a-f]+)\` \\| \`([0-9a-f]+)\` \\|$`, "m").exec(doc);
  if (!row) throw new Error(`batch-wire.md has no example row for ${format}`);
  return [row[1]!, row[2]!];
}

describe("the worked example of batch-wire.md", () => {
  it.each(FORMAT_IDS.map((f) => [f] as const))("%s: the documented bytes, decoding to the readings", (format) => {
    const [delta, columns] = documented(format);
    for (const [form, hex] of [
      ["delta", delta],
      ["columns", columns],
    ] as const) {
      const codec = batchCodecFor(layout, format, form, 4);
      expect(bytesToHex(codec.encode(buoyReadings)), form).toBe(hex);
      const back = codec.decode(codec.encode(buoyReadings));
      expect(back.once).toEqual(buoyReadings.once);
      expect(back.readings.map((r) => [r.t, r.ok])).toEqual(buoyReadings.readings.map((r) => [r.t, r.ok]));
      expect(back.readings.map((r) => r.temp)).toEqual([12.3, 12.5, 12.4, 12.6].map(Math.fround));
    }
  });

  it("the struct bytes field by field, the wire layout and its protobuf numbers as the page says", () => {
    const listing = /Struct \(big-endian, 27 bytes\), field by field:\n\n```\n([\s\S]*?)```/.exec(doc)![1]!;
    const bytes = listing
      .split("\n")
      .map((l) => l.split(/\s{2,}/)[0]!.replace(/ /g, ""))
      .join("");
    expect(bytes).toBe(documented("struct")[0]);
    const wire = batchCodecFor(layout, "protobuf", "delta", 4).wireLayout.fields;
    expect(wire.map((f) => `${f.key} ${f.options?.protobuf?.number}`)).toEqual([
      "count 5",
      "dev 1",
      "t 2",
      "t_t 6",
      "temp 3",
      "temp_d 7",
      "temp_k 8",
      "ok 4",
    ]);
    expect(wire.find((f) => f.key === "temp_d")!.type).toEqual({
      kind: "array",
      of: { kind: "int", bits: 8, signed: true, min: -4, max: 4 },
      maxCount: 2,
      fixed: false,
    });
  });
});
