// The Export page end to end: the real browser-mode host and the built UI in headless Chromium. Opens
// the paper preset, previews the .proto and the SBE XML, downloads the zip (checked with Python's
// zipfile against the registry's own output) and one previewed file on its own, and compares two saved versions on the evolution tab.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paperPreset, parseLayout } from "#codecs";
import { referencePython } from "#codecs-test/helpers/python.ts";
import { runExports } from "#exporters";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot, startSession, type E2eSession } from "./support/session.ts";
import { openPreset, tid } from "./support/ui.ts";

let s: E2eSession;
const tmp = mkdtempSync(path.join(os.tmpdir(), "satpayload-export-e2e-"));

beforeAll(async () => {
  s = await startSession();
}, 300_000);

afterAll(async () => {
  await s?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A HostApi call from the test itself, as the page makes them. */
async function hostCall(method: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${s.server.origin}/api/call/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-satpayload-token": s.server.token },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as unknown;
  if (!res.ok) throw new Error(`${method}: ${JSON.stringify(json)}`);
  return json;
}

describe("Export page (browser mode)", SCENARIO, () => {
  it("previews the .proto and the SBE XML of the paper preset and downloads them all as a zip", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await page.waitForSelector(tid("start-screen"));
    await openPreset(page, "paper");
    await page.click(tid("nav-export"));
    await page.waitForSelector(tid("export-page"));
    await page.waitForSelector(tid("export-file-ContainerData.sbe.xml"), { timeout: 60_000 });

    const want = runExports(parseLayout(paperPreset));
    const listed = await page.$$eval('[data-testid^="export-file-"]', (els) =>
      els.map((e) => e.getAttribute("data-testid")!.slice("export-file-".length)),
    );
    expect(listed).toEqual(want.files.map((f) => f.path));

    await page.click(tid("export-file-container_data.proto"));
    await page.waitForSelector('[data-testid="preview-code"][data-path="container_data.proto"]');
    const proto = await page.locator(tid("preview-code")).textContent();
    expect(proto).toBe(want.files.find((f) => f.path === "container_data.proto")!.content);
    expect(proto).toContain('syntax = "proto3";');
    expect(await page.locator(`${tid("preview-code")} .hl-keyword`).count()).toBeGreaterThan(20);
    expect(await page.locator(`${tid("preview-code")} .hl-comment`).count()).toBeGreaterThan(10);
    await screenshot(page, "20-export-proto");

    await page.click(tid("export-file-ContainerData.sbe.xml"));
    await page.waitForSelector('[data-testid="preview-code"][data-path="ContainerData.sbe.xml"]');
    const xml = await page.locator(tid("preview-code")).textContent();
    expect(xml).toBe(want.files.find((f) => f.path === "ContainerData.sbe.xml")!.content);
    expect(await page.locator(`${tid("preview-code")} .hl-tag`).count()).toBeGreaterThan(30);
    await screenshot(page, "21-export-sbe-xml");

    // the FlatBuffers schema, which flatc compiles for every language (exporters/test/flatbuffers/)
    const fbsPath = "flatbuffers/ContainerData.fbs";
    await page.click(tid(`export-file-${fbsPath}`));
    await page.waitForSelector(`[data-testid="preview-code"][data-path="${fbsPath}"]`);
    const fbs = await page.locator(tid("preview-code")).textContent();
    expect(fbs).toBe(want.files.find((f) => f.path === fbsPath)!.content);
    expect(fbs).toContain("root_type ContainerData;");
    await screenshot(page, "21a-export-flatbuffers");
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, "21a-export-flatbuffers-1024");
    await page.setViewportSize({ width: 1440, height: 900 });

    const [download] = await Promise.all([
      page.waitForEvent("download", { timeout: 60_000 }),
      page.click(tid("download-zip")),
    ]);
    expect(download.suggestedFilename()).toBe("maritime-container-kumar-et-al-2026-exports.zip");
    const zip = path.join(tmp, download.suggestedFilename());
    await download.saveAs(zip);
    const script =
      "import sys, zipfile, json\nz = zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint(json.dumps({n: z.read(n).decode('utf-8') for n in z.namelist()}))";
    const inZip = JSON.parse(execFileSync(referencePython(), ["-c", script, zip]).toString()) as Record<string, string>;
    expect(inZip).toEqual(
      Object.fromEntries(want.files.map((f) => [`maritime-container-kumar-et-al-2026-exports/${f.path}`, f.content])),
    );
    await page.waitForSelector(tid("export-flash"));

    // one file on its own: the previewed header, named without a folder, byte for byte
    await page.click(tid("export-file-container_data_struct.h"));
    await page.waitForSelector('[data-testid="preview-code"][data-path="container_data_struct.h"]');
    const [single] = await Promise.all([
      page.waitForEvent("download", { timeout: 60_000 }),
      page.click(tid("download-file")),
    ]);
    expect(single.suggestedFilename()).toBe("container_data_struct.h");
    const header = path.join(tmp, "single.h");
    await single.saveAs(header);
    expect(readFileSync(header, "utf8")).toBe(want.files.find((f) => f.path === "container_data_struct.h")!.content);
    await screenshot(page, "21b-export-download-this-file");
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, "21c-export-download-this-file-1024");
    await page.setViewportSize({ width: 1440, height: 900 });

    // nothing chosen: an empty state instead of a blank page; options follow the choice
    await page.getByRole("button", { name: "None", exact: true }).click();
    await page.waitForSelector(tid("export-empty"));
    await screenshot(page, "22-export-empty");
    await page.click(tid("export-item-network-decoders"));
    await page.waitForSelector(tid("export-file-network/ttn-v3/ContainerData-struct.js"));
    await page.click(tid("opt-network-servers-chirpstack"));
    await page.click(tid("opt-network-servers-ts013"));
    await page.waitForFunction(() => document.querySelectorAll('[data-testid^="export-file-"]').length === 3);

    await page.click(tid("theme-toggle"));
    await page.click(tid("export-file-network/ttn-v3/ContainerData-sbe.js"));
    await page.waitForSelector('[data-testid="preview-code"][data-path="network/ttn-v3/ContainerData-sbe.js"]');
    await screenshot(page, "23-export-dark-decoder");
    await page.click(tid("theme-toggle"));
    expect(errors).toEqual([]);
  });

  it("draws the chosen exports' options from their schemas and shows a refused value under its field", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 1300 });
    await page.waitForSelector(tid("start-screen"));
    await openPreset(page, "paper");
    await page.click(tid("nav-export"));
    await page.waitForSelector(tid("export-file-ContainerData.sbe.xml"), { timeout: 60_000 });
    await page.getByRole("button", { name: "None", exact: true }).click();
    await page.waitForSelector(tid("export-empty"));
    expect(await page.locator(".export-options").count()).toBe(0);
    await page.click(tid("export-item-decoder-config"));
    await page.click(tid("export-item-firmware-esp32"));
    await page.waitForSelector(tid("export-file-decoder-service/ContainerData.decoder.json"));
    // every option the host lists for the two exports has its field, defaults shown
    const list = (await hostCall("exports.list", {})) as Array<{ id: string; options: Array<{ flag: string }> }>;
    for (const id of ["decoder-config", "firmware-esp32"])
      for (const o of list.find((e) => e.id === id)!.options) await page.waitForSelector(tid(`opt-${o.flag}`));
    expect(await page.locator(tid("opt-firmware-format")).inputValue()).toBe("protobuf");
    expect(await page.locator(tid("opt-firmware-interval-seconds")).inputValue()).toBe("600");

    // the firmware's board reaches its platformio.ini
    await page.fill(tid("opt-firmware-board"), "esp32-s3-devkitc-1");
    await page.selectOption(tid("opt-firmware-format"), "bitpacked");
    await page.click(tid("export-file-container_data_esp32/platformio.ini"));
    await page.waitForFunction(() => {
      const code = document.querySelector(
        '[data-testid="preview-code"][data-path="container_data_esp32/platformio.ini"]',
      );
      return code?.textContent?.includes("board = esp32-s3-devkitc-1") && code.textContent.includes("bit-packed");
    });

    // a device key the decoder service would refuse: the reason under the field, the files not replaced
    await page.fill(tid("opt-device-key"), "two words");
    const problem = await page.waitForSelector(tid("opt-device-key-problem"));
    expect(await problem.textContent()).toBe("must be * or 1–128 of A–Z a–z 0–9 . _ : -");
    expect(await page.locator(tid("export-error")).textContent()).toContain("an option below was refused");
    await problem.scrollIntoViewIfNeeded();
    await screenshot(page, "26-export-options");
    await page.fill(tid("opt-device-key"), "dev-7");
    await page.waitForSelector(tid("opt-device-key-problem"), { state: "detached" });
    await page.click(tid("export-file-decoder-service/ContainerData.decoder.json"));
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="preview-code"]')?.textContent?.includes('"deviceKey": "dev-7"'),
    );

    // the host's own boundary: a bad option over HTTP is a 400 with the reason, never a 500
    const res = await fetch(`${s.server.origin}/api/call/exports.generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-satpayload-token": s.server.token },
      body: JSON.stringify({ layout: paperPreset, exporterIds: ["kaitai"], options: { kaitaiFormats: ["xml"] } }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "bad_request",
      issues: [{ path: "options.kaitaiFormats", message: 'has "xml", which is not one of struct, bitpacked' }],
    });
    // the refused request of the form logged nothing unexpected in the page
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });

  it("compares two saved versions on the evolution tab", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 1000 });
    await page.waitForSelector(tid("start-screen"));
    await openPreset(page, "paper");
    const id = new URL(page.url()).searchParams.get("project")!;
    expect(id).toBeTruthy();
    await page.click(tid("nav-export"));
    await page.click(tid("tab-export-evolution"));
    await page.waitForSelector(tid("diff-empty"));
    await screenshot(page, "24-evolution-one-version");

    // version 2, saved by another window: "door" renamed, rssi made optional
    const p = (await hostCall("projects.open", { id })) as {
      version: number;
      layout: { fields: Array<Record<string, unknown>> };
    };
    const fields = p.layout.fields.map((f) =>
      f.id === "door" ? { ...f, key: "door_state" } : f.id === "rssi" ? { ...f, presence: "optional" } : f,
    );
    await hostCall("projects.save", { id, layout: { ...p.layout, fields }, baseVersion: p.version });

    await page.click(tid("tab-export-files"));
    await page.click(tid("tab-export-evolution"));
    await page.waitForSelector(tid("diff-view"));
    await page.selectOption(tid("diff-target"), String(p.version + 1));
    await page.selectOption(tid("diff-base"), String(p.version));
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="verdict-json-old-reads-new"]') !== null &&
        document.querySelector('[data-testid="diff-changes"]')?.textContent?.includes("door_state"),
    );
    const verdict = (f: string, d: string) => page.locator(tid(`verdict-${f}-${d}`)).getAttribute("data-verdict");
    expect(await verdict("json", "old-reads-new")).toBe("breaking");
    // a rename is free in Protobuf, but an omitted required value silently reads as 0 in old decoders
    expect(await verdict("protobuf", "old-reads-new")).toBe("breaking");
    expect(await verdict("protobuf", "new-reads-old")).toBe("compatible");
    expect(await verdict("struct", "new-reads-old")).toBe("breaking");
    expect(await page.locator(tid("diff-advice")).textContent()).toContain("Keep keys stable");
    await screenshot(page, "25-evolution-diff");
    expect(errors).toEqual([]);

    // version 3 sends temperature and humidity with every reading, 4 a message: batching turned on
    const v2 = (await hostCall("projects.open", { id })) as { version: number; layout: Record<string, unknown> };
    const batch = {
      perReading: [{ field: "temperature", maxRate: 0.01 }, { field: "humidity" }],
      intervalSeconds: 900,
      readings: { kind: "fixed", count: 4 },
    };
    await hostCall("projects.save", { id, layout: { ...v2.layout, batch }, baseVersion: v2.version });
    await page.click(tid("tab-export-files"));
    await page.click(tid("tab-export-evolution"));
    await page.waitForSelector(tid("diff-view"));
    // against version 1 (a save right after another may replace it, as autosave does)
    await page.selectOption(tid("diff-target"), String(v2.version + 1));
    await page.selectOption(tid("diff-base"), String(p.version));
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="diff-changes"]')?.textContent?.includes("batching turned on"),
    );
    expect(await verdict("bitpacked", "old-reads-new")).toBe("breaking");
    expect(await page.locator(tid("forms-protobuf-old-reads-new")).textContent()).toBe(
      "columns: breaking · delta: breaking",
    );
    await screenshot(page, "25b-evolution-batch");
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, "25c-evolution-batch-1024");
    // the tab reopens on the target picked above (version 2), which the save right after it replaced: its
    // lookup is a 404 the tab reports; nothing else went wrong
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
  });
});
