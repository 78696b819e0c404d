// The export flags on FormatInfo are what every export menu lists; each exporter's own list of the
// formats it writes must be exactly those, or a menu would offer a format the exporter refuses.
import { describe, expect, it } from "vitest";
import { CODECS, FORMAT_IDS, FORMAT_LABELS, formatLabel, formatsWith } from "#codecs";
import { FIRMWARE_FORMATS } from "../../src/firmware.ts";
import { KAITAI_FORMATS } from "../../src/kaitai.ts";
import { DECODER_FORMATS } from "../../src/networkDecoders.ts";

const sorted = (ids: readonly string[]) => [...ids].sort();

describe("format capabilities", () => {
  it("flags exactly the formats each exporter writes", () => {
    expect(sorted(formatsWith("networkDecoder"))).toEqual(sorted(DECODER_FORMATS));
    expect(sorted(formatsWith("kaitai"))).toEqual(sorted(KAITAI_FORMATS));
    expect(sorted(formatsWith("firmware"))).toEqual(sorted(FIRMWARE_FORMATS));
  });

  it("gives every format a short label no longer than its label, and labels unknown ids as themselves", () => {
    for (const id of FORMAT_IDS) {
      const { label, short } = CODECS[id].info;
      expect(short.length, id).toBeGreaterThan(0);
      expect(short.length, id).toBeLessThanOrEqual(label.length);
      expect(FORMAT_LABELS[id]).toBe(label);
    }
    expect(formatLabel("avro")).toBe("avro");
  });
});
