// The export flags on FormatInfo are what every export menu lists and what each exporter's format
// option accepts; the exporters must write exactly those, or a menu would offer a format the exporter
// refuses (or the exporter would hold code no one can ask for).
import { describe, expect, it } from "vitest";
import { CODECS, FORMAT_IDS, FORMAT_LABELS, formatLabel, formatsWith } from "#codecs";
import { runExports } from "../../src/registry.ts";
import { ExportOptionError } from "../../src/types.ts";
import { layoutNamed } from "../support/layouts.ts";

describe("format capabilities", () => {
  it("flags exactly the formats each exporter writes: each flagged one generates files, any other is refused", () => {
    const layout = layoutNamed("paper");
    const cases = [
      ["network-decoders", "decoderFormats", "networkDecoder", true],
      ["kaitai", "kaitaiFormats", "kaitai", true],
      ["firmware-esp32", "format", "firmware", false],
    ] as const;
    for (const [exporter, key, flag, list] of cases) {
      const flagged = formatsWith(flag);
      const projects = new Set<string>();
      expect(flagged.length, exporter).toBeGreaterThan(0);
      for (const id of FORMAT_IDS) {
        const run = () => runExports(layout, [exporter], { [key]: list ? [id] : id });
        if (!flagged.includes(id)) {
          expect(run, `${exporter} ${id}`).toThrow(ExportOptionError);
          continue;
        }
        const { files, problems } = run();
        expect(problems, `${exporter} ${id}`).toEqual([]);
        expect(files.length, `${exporter} ${id}`).toBeGreaterThan(0);
        if (list)
          expect(
            files.every((f) => f.path.includes(`${id}.`)),
            `${exporter} ${id}`,
          ).toBe(true);
        else projects.add(files.find((f) => f.path.endsWith("platformio.ini"))!.content);
      }
      // the firmware writes one project per format: each encodes the format asked for
      if (!list) expect(projects.size).toBe(flagged.length);
    }
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
