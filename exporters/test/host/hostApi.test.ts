// The Export page's HostApi methods through the host dispatcher (the path both transports take):
// generate for a project or a posted layout, save into a folder, zip; bad requests become 4xx bodies.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { paperPreset, parseLayout } from "#codecs";
import { referencePython } from "#codecs-test/helpers/python.ts";
import { call, failure, tempDir, testHost } from "#host/test/support.ts";
import { runExports } from "../../src/registry.ts";

describe("exports.* host methods", () => {
  it("lists the exports and generates them for a saved project, as the registry does", async () => {
    const host = testHost();
    const list = await call(host, "exports.list", {});
    expect(list.map((e) => e.id)).toContain("sbe-xml");
    // each export with the options its schema declares, for the Export page's form
    expect(list.find((e) => e.id === "proto")!.options).toEqual([]);
    expect(list.find((e) => e.id === "kaitai")!.options).toEqual([
      expect.objectContaining({ key: "kaitaiFormats", flag: "kaitai-formats", kind: "choices", minItems: 1 }),
    ]);
    expect(list.find((e) => e.id === "decoder-config")!.options.map((o) => [o.key, o.default])).toEqual([
      ["serviceFormat", "protobuf"],
      ["deviceKey", "*"],
    ]);
    const project = await call(host, "projects.create", { name: "paper", layout: paperPreset });
    const got = await call(host, "exports.generate", { projectId: project.id, exporterIds: ["proto", "sbe-xml"] });
    const want = runExports(parseLayout(paperPreset), ["proto", "sbe-xml"]);
    expect(got.files).toEqual(want.files);
    expect(got.problems).toEqual([]);
  });

  it("saves into a folder (creating it) and zips for a download", async () => {
    const host = testHost();
    const dir = path.join(tempDir(), "out", "paper");
    const saved = await call(host, "exports.saveToFolder", {
      layout: paperPreset,
      exporterIds: ["json-schema", "kaitai"],
      path: dir,
    });
    expect(saved.written).toBe(3);
    expect(JSON.parse(readFileSync(path.join(dir, "ContainerData.schema.json"), "utf8")).title).toBe(
      "Maritime container (Kumar et al. 2026)",
    );
    expect(existsSync(path.join(dir, "kaitai/container_data_bitpacked.ksy"))).toBe(true);
    const zip = await call(host, "exports.zip", {
      layout: paperPreset,
      exporterIds: ["decoder-config"],
      options: { deviceKey: "dev-7", serviceFormat: "sbe" },
    });
    expect(zip.fileName).toBe("maritime-container-kumar-et-al-2026-exports.zip");
    const listing = execFileSync(
      referencePython(),
      [
        "-c",
        "import sys, zipfile, io, base64, json; z = zipfile.ZipFile(io.BytesIO(base64.b64decode(sys.stdin.read()))); print(json.dumps({n: json.loads(z.read(n)) for n in z.namelist()}))",
      ],
      { input: zip.base64 },
    );
    const files = JSON.parse(listing.toString()) as Record<string, { deviceKey: string; format: string }>;
    expect(Object.keys(files)).toEqual([
      "maritime-container-kumar-et-al-2026-exports/decoder-service/ContainerData.decoder.json",
    ]);
    expect(Object.values(files)[0]).toMatchObject({ deviceKey: "dev-7", format: "sbe" });
  });

  it("refuses bad requests with a reason: no layout, both, unknown export, invalid layout, relative path, a link", async () => {
    const host = testHost();
    expect((await failure(host.dispatch("exports.generate", {}))).code).toBe("bad_request");
    expect((await failure(host.dispatch("exports.generate", { layout: paperPreset, projectId: "x" }))).code).toBe(
      "bad_request",
    );
    expect(
      await failure(host.dispatch("exports.generate", { layout: paperPreset, exporterIds: ["nope"] })),
    ).toMatchObject({ code: "bad_request", message: expect.stringContaining("unknown export") });
    // a bad option: a 4xx whose issue names the option, as the form shows it next to the field
    expect(
      await failure(
        host.dispatch("exports.zip", {
          layout: paperPreset,
          exporterIds: ["kaitai"],
          options: { kaitaiFormats: ["xml"] },
        }),
      ),
    ).toEqual({
      code: "bad_request",
      message: 'Kaitai specs for (kaitaiFormats) has "xml", which is not one of struct, bitpacked',
      issues: [{ path: "options.kaitaiFormats", message: 'has "xml", which is not one of struct, bitpacked' }],
    });
    expect(
      await failure(host.dispatch("exports.generate", { layout: paperPreset, options: { deviceKey: "a b" } })),
    ).toMatchObject({ code: "bad_request", issues: [{ path: "options.deviceKey" }] });
    expect(
      await failure(host.dispatch("exports.generate", { layout: paperPreset, options: { fooBar: 1 } })),
    ).toMatchObject({ code: "bad_request", message: expect.stringContaining("fooBar is not an option of any export") });
    expect((await failure(host.dispatch("exports.generate", { layout: { format: "satlayout" } }))).code).toBe(
      "invalid_layout",
    );
    expect((await failure(host.dispatch("exports.generate", { projectId: "missing" }))).code).toBe("not_found");
    expect(
      (await failure(host.dispatch("exports.saveToFolder", { layout: paperPreset, path: "relative/dir" }))).code,
    ).toBe("bad_request");
    // a file in the way that is a link is never written through
    const dir = tempDir();
    mkdirSync(path.join(dir, "kaitai"));
    const outside = path.join(tempDir(), "victim.txt");
    writeFileSync(outside, "keep me");
    symlinkSync(outside, path.join(dir, "kaitai", "container_data_struct.ksy"));
    expect(
      (
        await failure(
          host.dispatch("exports.saveToFolder", { layout: paperPreset, exporterIds: ["kaitai"], path: dir }),
        )
      ).code,
    ).toBe("bad_request");
    expect(readFileSync(outside, "utf8")).toBe("keep me");
  });
});
