// A bit-packed reader written from docs/design/bitpacked-mapping.md alone (codecs/reference/ref_bitpacked.py,
// the base of the batch reference decoder) reads what our encoder writes to the same values our decoder
// returns, and refuses what our decoder refuses: the document is enough to read the format.
import { describe, expect, test } from "vitest";
import { codecFor } from "../../src/formats/registry.ts";
import type { LayoutInput } from "../../src/layout/schema.ts";
import { parseLayout } from "../../src/layout/validate.ts";
import { PRESETS } from "../../src/presets/index.ts";
import { generateSamples } from "../../src/samples/generate.ts";
import { gpsTrackInput } from "../fixtures/gpsTrack.ts";
import { everyTypeLayout } from "../fixtures/layouts.ts";
import { runPython, safeBigints, untagFromPython } from "../helpers/python.ts";

const SCRIPT = "codecs/reference/ref_bitpacked.py";
const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
type Result = { record?: unknown; error?: { kind: string; message: string } };

const layouts: [string, LayoutInput][] = [
  ...PRESETS.map((p): [string, LayoutInput] => [p.id, p.layout]),
  ["every type", everyTypeLayout],
  ["gps track", gpsTrackInput],
];

describe("the bit-packed reference reader", () => {
  test.each(layouts)("%s: 300 samples decode to our decoder's values", (_name, input) => {
    const layout = parseLayout(input);
    const codec = codecFor(layout, "bitpacked");
    const messages = generateSamples(layout, 300, 11).map((r) => codec.encode(r));
    const { results } = runPython(SCRIPT, { layout, messages: messages.map(hex) }) as { results: Result[] };
    expect(results.filter((r) => r.error)).toEqual([]);
    results.forEach((r, i) => expect(untagFromPython(r.record)).toEqual(safeBigints(codec.decode(messages[i]!))));
  });

  test("refuses a truncated message, a byte too many and non-zero padding, as our decoder does", () => {
    const layout = parseLayout(gpsTrackInput);
    const codec = codecFor(layout, "bitpacked");
    const good = codec.encode(generateSamples(layout, 1, 2)[0]!);
    const padded = Uint8Array.from(good);
    padded[padded.length - 1]! |= 1; // 32 + 28 + 29 + 17 = 106 bits: the last 6 are padding
    const bad = [good.subarray(0, good.length - 1), Uint8Array.from([...good, 0]), padded];
    const { results } = runPython(SCRIPT, { layout, messages: bad.map(hex) }) as { results: Result[] };
    expect(results.map((r) => r.error?.kind)).toEqual(["truncated", "trailing", "padding"]);
    for (const b of bad) expect(() => codec.decode(b)).toThrow(/bitpacked/i);
  });
});
