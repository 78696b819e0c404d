// The export registry (every export runs for every test layout, files at unique safe paths), the
// decoder-service config (round trip and refusals) and the ZIP writer (read back by Python's zipfile).
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { LayoutError } from "#codecs";
import { referencePython } from "#codecs-test/helpers/python.ts";
import {
  decoderConfig,
  DECODER_CONFIG_SCHEMA,
  generateDecoderConfig,
  parseDecoderConfig,
} from "../../src/decoderConfig.ts";
import { EXPORTERS, runExports, UnknownExporterError } from "../../src/registry.ts";
import { safeArchivePath, zipFiles } from "../../src/zip.ts";
import { EXPORT_LAYOUTS, layoutNamed } from "../support/layouts.ts";

describe("export registry", () => {
  it("lists every export once, with a label and a description", () => {
    const ids = EXPORTERS.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [
      "proto",
      "nanopb",
      "c-struct",
      "c-struct-zlib",
      "c-bitpacked",
      "firmware-esp32",
      "sbe-xml",
      "flatbuffers",
      "kaitai",
      "network-decoders",
      "json-schema",
      "decoder-config",
    ])
      expect(ids).toContain(id);
    for (const e of EXPORTERS) expect(e.label.length * e.description.length).toBeGreaterThan(0);
  });

  it("runs every export for the paper's layout: one file per path, the shared .proto once", () => {
    const { files, problems } = runExports(layoutNamed("paper"));
    expect(problems).toEqual([]);
    const paths = files.map((f) => f.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.every(safeArchivePath)).toBe(true);
    expect(paths.filter((p) => p.endsWith(".proto") && !p.includes("/"))).toEqual(["container_data.proto"]);
    // the batch export writes only for a layout with readings per message (exporters/test/batch/)
    for (const id of EXPORTERS.map((e) => e.id).filter((id) => id !== "batch"))
      expect(
        files.some((f) => f.exporter === id || (id === "nanopb" && f.path.endsWith(".options"))),
        id,
      ).toBe(true);
    expect(paths).toEqual(
      expect.arrayContaining([
        "ContainerData.sbe.xml",
        "flatbuffers/ContainerData.fbs",
        "ContainerData.schema.json",
        "kaitai/container_data_struct.ksy",
        "network/ttn-v3/ContainerData-struct.js",
        "decoder-service/ContainerData.decoder.json",
      ]),
    );
  });

  it("reports a layout an export cannot express as a problem of that export, not a failure of all", () => {
    for (const { name, layout } of EXPORT_LAYOUTS) {
      const { files, problems } = runExports(layout);
      expect(files.length, name).toBeGreaterThan(0);
      for (const p of problems) expect(p.issues.length, `${name} ${p.exporter}`).toBeGreaterThan(0);
    }
    expect(() => runExports(layoutNamed("paper"), ["proto", "nope"])).toThrow(UnknownExporterError);
  });

  it("passes options through: one network server and format, a device key and format for the service", () => {
    const { files } = runExports(layoutNamed("paper"), ["network-decoders", "decoder-config"], {
      servers: ["ttn"],
      decoderFormats: ["bitpacked"],
      deviceKey: "70B3D57ED0000001",
      serviceFormat: "struct-zlib",
    });
    expect(files.map((f) => f.path)).toEqual([
      "network/ttn-v3/ContainerData-bitpacked.js",
      "decoder-service/ContainerData.decoder.json",
    ]);
    expect(JSON.parse(files[1]!.content)).toMatchObject({
      schema: DECODER_CONFIG_SCHEMA,
      deviceKey: "70B3D57ED0000001",
      format: "struct-zlib",
    });
  });
});

describe("decoder-service config", () => {
  it("round-trips through parseDecoderConfig", () => {
    for (const { layout } of EXPORT_LAYOUTS) {
      const text = generateDecoderConfig(layout, { format: "json", deviceKey: "dev-1" })[0]!.content;
      const back = parseDecoderConfig(JSON.parse(text));
      expect(back).toEqual(decoderConfig(layout, { format: "json", deviceKey: "dev-1" }));
    }
  });

  it("refuses a bad device key, an unknown format and an invalid layout, with paths", () => {
    const layout = layoutNamed("paper");
    expect(() => decoderConfig(layout, { deviceKey: "has space" })).toThrow(LayoutError);
    const good = JSON.parse(generateDecoderConfig(layout)[0]!.content);
    const issuePaths = (json: unknown) => {
      try {
        parseDecoderConfig(json);
      } catch (e) {
        if (e instanceof LayoutError) return e.issues.map((i) => i.path);
        throw e;
      }
      return [];
    };
    expect(issuePaths({ ...good, format: "xml" })).toEqual(["format"]);
    expect(issuePaths({ ...good, schema: "other/1" })).toEqual(["schema"]);
    expect(
      issuePaths({
        ...good,
        layout: {
          ...good.layout,
          fields: [{ ...good.layout.fields[0], type: { kind: "int", bits: 8, signed: false, min: 10, max: 5 } }],
        },
      }),
    ).toEqual(["layout.fields[0].type.max"]);
  });
});

describe("zip", () => {
  it("writes an archive Python's zipfile reads back byte for byte (UTF-8 names, stored)", () => {
    const files = [
      { path: "a.txt", content: "hello\n" },
      { path: "dir/ünï.json", content: '{"x": "✓"}\n' },
      { path: "empty.h", content: "" },
    ];
    const zip = zipFiles(files, "export/");
    const script =
      "import sys, zipfile, io, json\nz = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))\nassert z.testzip() is None\nprint(json.dumps({i.filename: z.read(i).decode('utf-8') for i in z.infolist()}))";
    const out = execFileSync(referencePython(), ["-c", script], { input: zip });
    expect(JSON.parse(out.toString("utf8"))).toEqual(
      Object.fromEntries(files.map((f) => [`export/${f.path}`, f.content])),
    );
    expect(zipFiles(files, "export/")).toEqual(zip);
  });

  it("refuses paths that would escape the folder", () => {
    for (const p of ["../x", "/etc/x", "a/../../x", "C:/x", "a\\b", "", "a//b"])
      expect(() => zipFiles([{ path: p, content: "" }])).toThrow(/unsafe path/);
  });
});
