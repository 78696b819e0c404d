// Export options as declared by each exporter's zod schema: what runExports accepts and refuses (with
// the option named in words), and the fields the CLI and the Export page build from the schemas.
import { describe, expect, it } from "vitest";
import { FORMAT_IDS, formatsWith } from "#codecs";
import { EXPORTERS, exportOptionFields, runExports } from "../../src/registry.ts";
import { ExportOptionError } from "../../src/types.ts";
import { layoutNamed } from "../support/layouts.ts";

const layout = layoutNamed("paper");

function refusal(options: Record<string, unknown>, ids: string[] = []): ExportOptionError {
  try {
    runExports(layout, ids, options);
  } catch (e) {
    if (e instanceof ExportOptionError) return e;
    throw e;
  }
  throw new Error(`accepted ${JSON.stringify(options)}`);
}

describe("export options", () => {
  it("keeps the CLI flags users and docs know, one export and one key each", () => {
    const byFlag = Object.fromEntries(exportOptionFields().map((f) => [f.flag, `${f.exporter}.${f.key}`]));
    expect(byFlag).toMatchObject({
      "device-key": "decoder-config.deviceKey",
      "service-format": "decoder-config.serviceFormat",
      "firmware-format": "firmware-esp32.format",
      "network-servers": "network-decoders.servers",
      "network-formats": "network-decoders.decoderFormats",
      "kaitai-formats": "kaitai.kaitaiFormats",
    });
    const keys = exportOptionFields().map((f) => f.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const f of exportOptionFields()) expect(f.label.length * f.description.length, f.key).toBeGreaterThan(0);
  });

  it("describes each option's kind, choices (format lists from the format flags), default and range", () => {
    const field = (key: string) => exportOptionFields().find((f) => f.key === key)!;
    expect(field("kaitaiFormats")).toMatchObject({
      kind: "choices",
      choices: formatsWith("kaitai").map((value) => expect.objectContaining({ value })),
      default: formatsWith("kaitai"),
      minItems: 1,
    });
    expect(field("decoderFormats").choices!.map((c) => c.value)).toEqual(formatsWith("networkDecoder"));
    expect(field("decoderFormats").default).toBeUndefined();
    expect(field("decoderFormats").unset).toMatch(/layout/);
    expect(field("servers").choices).toEqual([
      { value: "ttn", label: "TTN v3" },
      { value: "chirpstack", label: "ChirpStack v4" },
      { value: "ts013", label: "TS013" },
    ]);
    expect(field("format")).toMatchObject({ kind: "choice", default: "protobuf" });
    expect(field("format").choices!.map((c) => c.value)).toEqual(formatsWith("firmware"));
    expect(field("serviceFormat").choices!.map((c) => c.value)).toEqual([...FORMAT_IDS]);
    expect(field("deviceKey")).toMatchObject({ kind: "text", default: "*" });
    expect(field("intervalSeconds")).toMatchObject({ kind: "integer", default: 600, min: 1, max: 604800 });
    expect(field("rxPin")).toMatchObject({ kind: "integer", default: 16, min: 0, max: 48 });
  });

  it("refuses a value out of a list, naming the option and the value, instead of leaving it out", () => {
    const e = refusal({ kaitaiFormats: ["struct", "xml"] }, ["kaitai"]);
    expect(e.option).toBe("kaitaiFormats");
    expect(e.message).toBe('Kaitai specs for (kaitaiFormats) has "xml", which is not one of struct, bitpacked');
    expect(refusal({ servers: ["ttn", "helium"] }).reason).toBe(
      'has "helium", which is not one of ttn, chirpstack, ts013',
    );
    expect(refusal({ decoderFormats: ["protobuf"] }).reason).toMatch(/"protobuf", which is not one of struct/);
    expect(refusal({ servers: [] }).reason).toBe("needs at least 1 of ttn, chirpstack, ts013");
    expect(refusal({ servers: "ttn" }).reason).toBe("must be a list of ttn, chirpstack, ts013");
  });

  it("refuses a bad choice, number or text with what would be right", () => {
    expect(refusal({ serviceFormat: "xml" }).message).toBe(
      `Devices send (serviceFormat) must be one of ${FORMAT_IDS.join(", ")}, not "xml"`,
    );
    expect(refusal({ format: "json" }).reason).toBe(
      'must be one of protobuf, struct, struct-zlib, bitpacked, not "json"',
    );
    expect(refusal({ intervalSeconds: 0.5 }).reason).toBe("must be a whole number from 1 to 604800");
    expect(refusal({ rxPin: "16" }).reason).toBe("must be a whole number from 0 to 48");
    // a message the schema gives itself is kept
    expect(refusal({ deviceKey: "has space" }).reason).toBe("must be * or 1–128 of A–Z a–z 0–9 . _ : -");
    expect(refusal({ board: "esp32; rm -rf /" }).reason).toBe("must be a PlatformIO board id such as esp32dev");
  });

  it("refuses an option no export has, and reads only the chosen exports' options", () => {
    const e = refusal({ kaitaiFormat: ["struct"] });
    expect(e.option).toBe("kaitaiFormat");
    expect(e.message).toMatch(/^kaitaiFormat is not an option of any export \(options: .*kaitaiFormats/);
    // the Export page sends every option; those of exports not chosen are not read
    expect(runExports(layout, ["proto"], { format: "json" }).files.map((f) => f.exporter)).toEqual(["proto"]);
  });

  it("hands each generator the parsed options, defaults filled in", () => {
    const { files } = runExports(layout, ["firmware-esp32", "decoder-config"], {
      intervalSeconds: 60,
      board: "esp32-s3-devkitc-1",
    });
    const ini = files.find((f) => f.path.endsWith("platformio.ini"))!.content;
    expect(ini).toContain("board = esp32-s3-devkitc-1");
    const config = JSON.parse(files.find((f) => f.exporter === "decoder-config")!.content) as Record<string, unknown>;
    expect(config).toMatchObject({ deviceKey: "*", format: "protobuf" });
    for (const e of EXPORTERS)
      if (!e.options) expect(exportOptionFields().some((f) => f.exporter === e.id)).toBe(false);
  });
});
