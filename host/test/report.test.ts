// Cost scenarios in the projects database and the desktop report PDF, through the real dispatcher.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseLayout, presetById } from "#codecs";
import { defaultCostDoc, defaultScenario, paperTable7Scenario } from "#planning";
import { call, failure, tempDir, testHost } from "./support.ts";
import type { Dialogs } from "../handlers/handlers.ts";
import { htmlToPdf } from "../report/htmlToPdf.ts";

const paper = parseLayout(presetById("paper")!.layout);
const PDF = new TextEncoder().encode("%PDF-1.7\n% test\n");

async function project(host: ReturnType<typeof testHost>) {
  return call(host, "projects.create", { name: "Containers", layout: paper });
}

describe("cost scenarios", () => {
  it("gives a project the default scenario until one is saved, then what was saved", async () => {
    const h = testHost();
    const p = await project(h);
    expect(await call(h, "costs.get", { projectId: p.id })).toEqual({ doc: defaultCostDoc(), updatedAt: null });
    const doc = {
      version: 1,
      active: 1,
      scenarios: [{ ...defaultScenario("Pilot"), devices: 500 }, paperTable7Scenario()],
    };
    const saved = await call(h, "costs.save", { projectId: p.id, doc });
    const back = await call(h, "costs.get", { projectId: p.id });
    expect(back.updatedAt).toBe(saved.updatedAt);
    expect(back.doc).toEqual(doc);
  });

  it("keeps them across host restarts, in the projects database", async () => {
    const dataDir = tempDir();
    const first = testHost({ dataDir });
    const p = await project(first);
    const doc = { version: 1, active: 0, scenarios: [{ ...defaultScenario(), currency: "USD", rates: { EUR: 1.08 } }] };
    await call(first, "costs.save", { projectId: p.id, doc });
    first.close();
    const second = testHost({ dataDir });
    expect((await call(second, "costs.get", { projectId: p.id })).doc).toEqual(doc);
  });

  it("refuses invalid documents with the problems listed, and unknown projects", async () => {
    const h = testHost();
    const p = await project(h);
    const bad = await failure(
      h.dispatch("costs.save", {
        projectId: p.id,
        doc: { version: 1, active: 0, scenarios: [{ ...defaultScenario(), platforms: ["mars-link"] }] },
      }),
    );
    expect(bad.code).toBe("bad_request");
    expect(bad.issues).toEqual([{ path: "scenarios.0.platforms.0", message: 'is not a known platform ("mars-link")' }]);
    expect((await failure(h.dispatch("costs.get", { projectId: "nope" }))).code).toBe("not_found");
    expect((await failure(h.dispatch("costs.save", { projectId: "nope", doc: defaultCostDoc() }))).code).toBe(
      "not_found",
    );
  });

  it("go with their project when it is deleted, come back with a restore and go for good with a purge", async () => {
    const h = testHost();
    const p = await project(h);
    const saved = await call(h, "costs.save", { projectId: p.id, doc: defaultCostDoc() });
    await call(h, "projects.delete", { id: p.id });
    expect((await failure(h.dispatch("costs.get", { projectId: p.id }))).code).toBe("not_found");
    await call(h, "projects.restore", { id: p.id });
    expect((await call(h, "costs.get", { projectId: p.id })).updatedAt).toBe(saved.updatedAt);
    await call(h, "projects.delete", { id: p.id });
    await call(h, "projects.purge", { id: p.id });
    expect((await failure(h.dispatch("costs.get", { projectId: p.id }))).code).toBe("not_found");
  });
});

describe("report PDF", () => {
  const dialogs = (printed: string[], savePath: string | null): Dialogs => ({
    openLayoutPath: async () => null,
    saveLayoutPath: async () => null,
    printPdf: async (size) => {
      printed.push(size);
      return PDF;
    },
    savePdfPath: async (suggested) => (savePath === null ? null : path.join(savePath, suggested)),
  });

  it("prints the shown page in the desktop shell and writes it where the user chose", async () => {
    const dir = tempDir();
    const printed: string[] = [];
    const h = testHost({ dialogs: dialogs(printed, dir) });
    const res = await call(h, "report.savePdf", { pageSize: "Letter", fileName: "Containers report" });
    expect(res).toEqual({ path: path.join(dir, "Containers report.pdf"), bytes: PDF.length });
    expect(printed).toEqual(["Letter"]);
    expect(readFileSync(res!.path)).toEqual(Buffer.from(PDF));
  });

  it("overwrites an existing file whole and leaves no temp file", async () => {
    const dir = tempDir();
    const target = path.join(dir, "r.pdf");
    writeFileSync(target, "old");
    const h = testHost({ dialogs: dialogs([], null) });
    await call(h, "report.savePdf", { pageSize: "A4", fileName: "r", path: target });
    expect(readFileSync(target, "utf8")).toBe("%PDF-1.7\n% test\n");
    expect(readdirSync(dir)).toEqual(["r.pdf"]);
  });

  it("does nothing when the user cancels, and refuses in browser mode", async () => {
    const printed: string[] = [];
    const h = testHost({ dialogs: dialogs(printed, null) });
    expect(await call(h, "report.savePdf", { pageSize: "A4", fileName: "r" })).toBeNull();
    expect(printed).toEqual([]);
    const browser = testHost();
    const err = await failure(browser.dispatch("report.savePdf", { pageSize: "A4", fileName: "r" }));
    expect(err.code).toBe("bad_request");
    expect(err.message).toContain("report.pdf");
    expect((await failure(browser.dispatch("report.savePdf", { pageSize: "A3", fileName: "r" }))).code).toBe(
      "bad_request",
    );
  });
});

describe("report PDF made on the host (browser mode)", () => {
  const html = (extra = "") =>
    `<!doctype html><html><head><style>@page { size: letter; margin: 10mm } h1 { color: rgb(10, 20, 30) }</style></head><body><h1>Layout summary</h1><p>Fleet cost 89,648</p>${extra}</body></html>`;
  const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: "utf8", timeout: 60_000 });

  it("prints the snapshot at the CSS page size with Chromium, offline", async () => {
    // a resource the snapshot names must not be fetched: the printer is offline and runs no script
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end("x");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    try {
      const h = testHost({ printHtml: htmlToPdf });
      const res = await call(h, "report.pdf", {
        pageSize: "A4",
        html: html(`<img src="http://127.0.0.1:${port}/logo.png"><script>document.body.append("scripted")</script>`),
      });
      const bytes = Buffer.from(res.base64, "base64");
      expect(bytes.length).toBe(res.bytes);
      expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
      const file = path.join(tempDir(), "r.pdf");
      writeFileSync(file, bytes);
      // poppler reads it back: the @page rule wins over the requested A4, and the text is there, the script's is not
      expect(run("pdfinfo", [file])).toMatch(/Page size:\s+612 x 792 pts \(letter\)/);
      const text = run("pdftotext", [file, "-"]);
      expect(text).toContain("Layout summary");
      expect(text).toContain("89,648");
      expect(text).not.toContain("scripted");
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  }, 120_000);

  it("says what to install when there is no Chromium, refuses empty snapshots, and leaves the desktop shell to savePdf", async () => {
    const h = testHost({ printHtml: htmlToPdf });
    const before = process.env.SATPAYLOAD_CHROMIUM;
    process.env.SATPAYLOAD_CHROMIUM = "/nonexistent/chromium";
    try {
      const err = await failure(h.dispatch("report.pdf", { pageSize: "A4", html: html() }));
      expect(err.code).toBe("conflict");
      expect(err.message).toContain("install chromium");
    } finally {
      if (before === undefined) delete process.env.SATPAYLOAD_CHROMIUM;
      else process.env.SATPAYLOAD_CHROMIUM = before;
    }
    expect((await failure(h.dispatch("report.pdf", { pageSize: "A4", html: "" }))).code).toBe("bad_request");
    const desktop = testHost({ shell: "electron" });
    expect((await failure(desktop.dispatch("report.pdf", { pageSize: "A4", html: "<p>x</p>" }))).message).toContain(
      "report.savePdf",
    );
  });
});
