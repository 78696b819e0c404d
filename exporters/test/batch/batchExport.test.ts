// The "batch" export through the registry (issue #27): nothing for a layout without readings per message,
// a problem naming batch.readings for one sized to fit a platform until the number is given, and per form
// the .proto, C, Kaitai and network files; its options reach the CLI and the Export page like any other.
import { describe, expect, it } from "vitest";
import { type LayoutInput, parseLayout, presetById } from "#codecs";
import { exportOptionFields, runExports } from "../../src/registry.ts";
import { ExportOptionError } from "../../src/types.ts";
import { BATCH_LAYOUTS } from "../support/batchLayouts.ts";

const tracker = () => parseLayout(presetById("paper-tracker")!.layout);

describe("the batch export", () => {
  it("writes nothing for a layout without readings per message", () => {
    expect(runExports(parseLayout(presetById("paper")!.layout), ["batch"])).toEqual({ files: [], problems: [] });
  });

  it("asks for the number of readings of a layout that fits as many as a platform takes", () => {
    const { files, problems } = runExports(tracker(), ["batch"]);
    expect(files).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.issues.map((i) => i.path)).toEqual(["batch.readings"]);
    expect(problems[0]!.message).toContain('"as many as fit astrocast"');
    expect(problems[0]!.message).toContain("--batch-readings");
  });

  it("writes the .proto, C, Kaitai and network files of each form, the shared ones once", () => {
    const { files, problems } = runExports(tracker(), ["batch"], { batchReadings: 12, batchForms: ["delta"] });
    expect(problems).toEqual([]);
    const paths = files.map((f) => f.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toEqual(
      expect.arrayContaining([
        "batch/ContainerDataDelta.proto",
        "batch/c/satpayload_c.md",
        "batch/c/container_data_reading.h",
        "batch/c/container_data_once.h",
        "batch/c/container_data_delta_bits.h",
        "batch/c/container_data_delta_bits.c",
        "batch/c/container_data_delta_struct.c",
        "batch/kaitai/container_data_delta_bitpacked.ksy",
        "batch/network/ttn-v3/ContainerData-delta-bitpacked.js",
        "batch/network/chirpstack-v4/ContainerData-delta-bitpacked.js",
        "batch/network/ts013/ContainerData-delta-bitpacked.js",
      ]),
    );
    expect(paths.some((p) => p.includes("olumns"))).toBe(false);
    const h = files.find((f) => f.path === "batch/c/container_data_delta_bits.h")!.content;
    expect(h).toContain("#define CONTAINER_DATA_DELTA_BITS_MAX_READINGS 12");
    expect(h).toContain(
      "int pack_container_data_delta_bits(const container_data_once_t *once, const container_data_reading_t *r, size_t count, uint8_t *out, size_t cap);",
    );
  });

  it("takes a fixed layout's own count, and the option over it", () => {
    const mix = parseLayout(BATCH_LAYOUTS.find((l) => l.name === "mix")!.input as LayoutInput);
    const header = (opts: Record<string, unknown>) =>
      runExports(mix, ["batch"], opts).files.find((f) => f.path === "batch/c/batch_mix_columns_bits.h")!.content;
    expect(header({})).toContain("#define BATCH_MIX_COLUMNS_BITS_MAX_READINGS 10");
    expect(header({ batchReadings: 3 })).toContain("#define BATCH_MIX_COLUMNS_BITS_MAX_READINGS 3");
  });

  it("lists its options for the CLI and the form, and refuses bad values with the reason", () => {
    const fields = exportOptionFields().filter((f) => f.exporter === "batch");
    expect(fields.map((f) => [f.key, f.flag, f.kind])).toEqual([
      ["batchReadings", "batch-readings", "integer"],
      ["batchForms", "batch-forms", "choices"],
    ]);
    expect(() => runExports(tracker(), ["batch"], { batchReadings: 0 })).toThrow(ExportOptionError);
    expect(() => runExports(tracker(), ["batch"], { batchForms: ["zigzag"] })).toThrow(ExportOptionError);
  });
});
