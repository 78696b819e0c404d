// Decide and present end to end: a fleet-cost scenario kept with the project, the fit advisor applying (and
// undoing) changes, and the stakeholder report printed to PDF in A4 and Letter, read back with poppler.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultScenario, evaluateFleet, type FleetScenario, layoutStackId } from "#planning";
import { paper, paperMeasured as measured } from "./support/paperMeasured.ts";
import { SCENARIO } from "./support/scenario.ts";
import { artifactsDir, screenshot, startSession, type E2eSession } from "./support/session.ts";
import { openPreset, tid, waitForSaved, savedVersion } from "./support/ui.ts";

let s: E2eSession;
let tmp: string;

beforeAll(async () => {
  s = await startSession();
  tmp = mkdtempSync(path.join(os.tmpdir(), "satpayload-decide-"));
}, 300_000);

afterAll(async () => {
  await s?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function valueOf(page: Page, testId: string): Promise<number> {
  const v = await page.locator(tid(testId)).getAttribute("data-value");
  if (v === null || v === "") throw new Error(`${testId} shows no value`);
  return Number(v);
}

/** Waits for an advisor answer about a layout whose largest message is `baseMax` bytes. */
async function adviceFor(page: Page, baseMax: number): Promise<void> {
  await page.waitForSelector(`${tid("advisor-result")}[data-base-max="${baseMax}"]`, { timeout: 90_000 });
  await page.waitForSelector(`${tid("advisor-state")}[data-running="false"]`, { timeout: 90_000 });
}

/** What a reader of the report cannot look up: a file or folder of this repository. */
const REPO_PATH = /[\w./-]+\.(md|tsx?|json)\b|\b(docs|src|planning|renderer|codecs)\//;

/** The size chart's colours as drawn ("rgb(…)|opacity"): its bars, and its legend's swatches. */
async function sizeChartColours(page: Page): Promise<{ bars: string[]; legend: string[] }> {
  return page.evaluate(() => {
    const chart = document.querySelector('figure[data-chart="sizes"]')!;
    const set = (xs: string[]) => [...new Set(xs)].sort();
    const bars = [...chart.querySelectorAll<SVGPathElement>(".size-bar")].map((b) => {
      const cs = getComputedStyle(b);
      return `${cs.fill}|${Number(cs.fillOpacity)}`;
    });
    const legend = [...chart.querySelectorAll<HTMLElement>(".chart-legend .sw")].map((s) => {
      const cs = getComputedStyle(s);
      return `${cs.backgroundColor}|${Number(cs.opacity)}`;
    });
    return { bars: set(bars), legend: set(legend) };
  });
}

function run(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { encoding: "utf8", timeout: 60_000 });
}

describe("decide (browser mode)", SCENARIO, () => {
  it("builds a fleet-cost scenario that is priced from the measured sizes and kept with the project", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await openPreset(page, "paper");
    await page.click(tid("nav-cost"));
    await page.waitForSelector(tid("cost-table"));

    await page.fill(tid("devices"), "25000");
    await page.click(tid("cadence-interval"));
    await page.fill(tid("interval"), "30");
    // the catalog only estimates RockBLOCK credits: enter a contract price, in pounds, and the rate into euros
    await page.fill(tid("price-iridium-sbd-price"), "0.11");
    await page.locator(`${tid("price-iridium-sbd")} select[aria-label="price currency"]`).selectOption("GBP");
    await expect
      .poll(() => page.locator(".note.attention").allTextContents())
      .toContain("Iridium SBD (9602/9603) is priced in GBP: enter the GBP → EUR rate to see its cost");
    await page.fill(tid("rate-GBP"), "1.17");

    const scenario: FleetScenario = {
      ...defaultScenario(),
      devices: 25_000,
      cadence: { kind: "interval", minutes: 30 },
      billing: {
        "iridium-sbd": {
          kind: "per-credit",
          bytesPerCredit: 50,
          minCredits: 1,
          price: { amount: 0.11, currency: "GBP" },
        },
      },
      rates: { GBP: 1.17 },
    };
    // NB-IoT carries the messages over CoAP by default: its headers name the layout by its short id
    const expected = evaluateFleet(scenario, measured, { layout: layoutStackId(paper.name) });
    const cell = (f: string, p: string) => expected.cells.find((c) => c.format === f && c.platformId === p)!;
    await expect
      .poll(() => valueOf(page, "cost-protobuf-iridium-sbd"))
      .toBeCloseTo(cell("protobuf", "iridium-sbd").monthly.exact!, 6);
    expect(await valueOf(page, "cost-protobuf-astrocast")).toBeCloseTo(cell("protobuf", "astrocast").monthly.exact!, 6);
    expect(await valueOf(page, "cost-bitpacked-nbiot-tn")).toBeCloseTo(cell("bitpacked", "nbiot-tn").monthly.exact!, 9);
    // credits per message come from every message's size, and the crossings are said in words
    expect(await page.locator(tid("crossings-protobuf-iridium-sbd")).textContent()).toBe(
      "100 % of messages cost three credits",
    );
    expect(await page.locator(tid("crossings-bitpacked-iridium-sbd")).textContent()).toBe(
      "100 % of messages cost two credits",
    );
    // JSON does not fit Astrocast: it is sent fragmented and the planner says how
    await page.waitForSelector(tid("frag-json-astrocast"));
    expect(
      await page
        .locator(`${tid("frag-json-astrocast")} td`)
        .first()
        .textContent(),
    ).toBe("3 (max 3)");
    await expect.poll(() => page.locator(tid("cost-save-state")).getAttribute("data-status")).toBe("saved");
    await screenshot(page, "decide-01-cost");

    // the scenario lives in the project database: a reload brings it back
    await page.reload();
    await page.waitForSelector(tid("cost-table"));
    expect(await page.inputValue(tid("devices"))).toBe("25000");
    expect(await page.inputValue(tid("rate-GBP"))).toBe("1.17");
    await expect
      .poll(() => valueOf(page, "cost-protobuf-iridium-sbd"))
      .toBeCloseTo(cell("protobuf", "iridium-sbd").monthly.exact!, 6);

    // the paper's Table 7, to the euro, with the units that make it so
    await page.click(tid("scenario-paper"));
    await page.waitForSelector(tid("table7"));
    expect(await page.locator(tid("table7-ntn-418")).textContent()).toBe("89,648");
    expect(await page.locator(tid("table7-ntn-138")).textContent()).toBe("29,589");
    expect(await page.locator(tid("table7-ntn-127")).textContent()).toBe("27,228");
    expect(await page.locator(tid("table7-rules")).textContent()).toContain("MB = 2^20 B, KB = 2^10 B");
    expect(await page.locator(`${tid("scenario-select")} option`).allTextContents()).toEqual([
      "Fleet",
      "Paper Table 7",
    ]);
    await page.locator(tid("table7")).scrollIntoViewIfNeeded();
    await screenshot(page, "decide-02-table7");
    await page.click(tid("theme-toggle"));
    await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    await page.locator(tid("cost-charts")).scrollIntoViewIfNeeded();
    await screenshot(page, "decide-02b-cost-charts-dark");
    expect(errors).toEqual([]);
  });

  it("fits the paper's record into 30 bytes: applies one suggestion, undoes it, applies the plan", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await openPreset(page, "paper");
    const v0 = await savedVersion(page);
    await page.click(tid("nav-advisor"));
    await adviceFor(page, 62);
    expect(await page.locator(tid("advisor-result")).getAttribute("data-fits")).toBe("true");
    expect(Number(await page.locator(tid("advisor-result")).getAttribute("data-plan-max"))).toBeLessThanOrEqual(30);
    expect(
      await page
        .locator(`${tid("loss-acc")} td`)
        .nth(1)
        .textContent(),
    ).toBe("±0.0306 mg");
    expect(
      await page
        .locator(`${tid("loss-cgi")} td`)
        .nth(1)
        .textContent(),
    ).toBe("exact");
    // lossless changes come first
    expect(
      await page
        .locator(`${tid("advisor-suggestions")} tbody tr`)
        .first()
        .getAttribute("data-testid"),
    ).toBe("suggestion-cgi");
    await screenshot(page, "decide-03-advisor");

    // moving a field breaks the bit-packed wire format: the advisor asks first
    await page.click(tid("apply-cgi"));
    await page.click(tid("advisor-confirm-apply"));
    await adviceFor(page, 51);
    await page.click(tid("advisor-undo"));
    await adviceFor(page, 62);

    await page.click(tid("advisor-apply-all"));
    await page.click(tid("advisor-confirm-apply"));
    await page.waitForSelector(tid("advisor-fits-already"), { timeout: 90_000 });
    const after = Number(
      await page
        .locator(tid("advisor-now"))
        .textContent()
        .then((t) => t!.replace(" B", "")),
    );
    expect(after).toBeLessThanOrEqual(30);
    await screenshot(page, "decide-04-advisor-applied");

    // the plan is one step of the designer's history, saved like any edit
    await page.click(tid("decide-back"));
    await page.waitForSelector(tid("designer"));
    expect(await page.locator(tid("field-count")).textContent()).toBe("19");
    await waitForSaved(page, v0);
    await page.keyboard.press("Control+z");
    await expect.poll(() => page.locator(tid("field-count")).textContent()).toBe("20");
    expect(errors).toEqual([]);
  });

  it("prints the report to PDF in A4 and Letter with every section, and exports its numbers and charts", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await openPreset(page, "paper");
    await page.click(tid("nav-cost"));
    await page.waitForSelector(tid("cost-table"));
    await page.click(tid("scenario-paper"));
    await page.waitForSelector(tid("table7"));
    await page.click(tid("nav-report"));
    await page.waitForSelector(tid("report-doc"));
    await page.waitForSelector(`${tid("report-doc")} .recharts-surface`);
    await screenshot(page, "decide-05-report");
    const project = "Maritime container (Kumar et al. 2026)";
    expect(await page.locator(tid("report-title")).textContent()).toBe(project);
    expect(await page.locator(tid("report-summary")).textContent()).toMatch(/Recommendation: .+ on .+\. Its messages/);
    // the legend shows the colours the bars are painted with, red shades included, and nothing else
    const colours = await sizeChartColours(page);
    expect(colours.bars.length).toBeGreaterThan(1);
    expect(colours.legend).toEqual(colours.bars);

    const pdfs: Record<string, string> = {};
    for (const size of ["A4", "Letter"] as const) {
      await page.click(tid(`page-${size}`));
      await page.waitForSelector(`${tid("report-page")}[data-page-size="${size}"]`);
      const file = path.join(artifactsDir, `decide-report-${size}.pdf`);
      // the browser-mode path: Chromium prints the very page the user sees, at its @page size
      await page.pdf({ path: file, preferCSSPageSize: true, printBackground: true });
      pdfs[size] = file;
      const info = run("pdfinfo", [file]);
      expect(info).toMatch(
        size === "A4"
          ? /Page size:\s+59[45](\.\d+)? x 84[12](\.\d+)? pts \(A4\)/
          : /Page size:\s+612 x 792 pts \(letter\)/,
      );
      const pages = Number(/Pages:\s+(\d+)/.exec(info)![1]);
      expect(pages).toBeGreaterThanOrEqual(2);
      const prefix = path.join(tmp, size);
      run("pdftoppm", ["-png", "-r", "60", file, prefix]);
      const pngs = readdirSync(tmp).filter((f) => f.startsWith(size) && f.endsWith(".png"));
      expect(pngs).toHaveLength(pages);
      for (const png of pngs) expect(statSync(path.join(tmp, png)).size, png).toBeGreaterThan(8_000);
      run("pdftoppm", [
        "-png",
        "-r",
        "60",
        "-f",
        "1",
        "-l",
        "2",
        file,
        path.join(artifactsDir, `decide-report-${size}`),
      ]);
      // a board's document: the project's name as title (the viewer's too), the summary first, no repository paths
      expect(info).toContain(`Title:           ${project}`);
      const text = run("pdftotext", ["-layout", file, "-"]);
      expect(text.trimStart().startsWith(project)).toBe(true);
      expect(text).toContain("Recommendation:");
      expect(text.match(REPO_PATH)).toBeNull();
      for (const heading of [
        "Summary",
        "Layout summary",
        "Message sizes",
        "Platform fit",
        "Fleet cost",
        "Paper Table 7",
        "Fragmentation",
        "Assumptions and sources",
      ])
        expect(text, heading).toContain(heading);
      expect(text).toContain("89,648");
      for (const chrome of ["Export code", "DevKit bench", "Print / Save"]) expect(text).not.toContain(chrome);
    }
    // the same content whatever the paper: only line and page breaks differ (and table heads repeat on new pages)
    const words = (f: string) => [...new Set(run("pdftotext", [f, "-"]).split(/\s+/).filter(Boolean))].sort();
    expect(words(pdfs.Letter!)).toEqual(words(pdfs.A4!));

    const [csv] = await Promise.all([page.waitForEvent("download"), page.click(tid("report-csv"))]);
    const csvText = readFileSync((await csv.path())!, "utf8");
    expect(csvText.match(REPO_PATH)).toBeNull();
    expect(csvText.split("\r\n")[0]).toBe("section,format,platform,metric,x,value,unit");
    expect(csvText).toContain("paper_table7,JSON,astrocast,kb_per_month,418,489882,KB (2^10 B)");
    expect(csvText).toMatch(/\r\ncost,protobuf,astrocast,monthly_every_message,,[\d.]+,EUR\r\n/);

    const [png] = await Promise.all([page.waitForEvent("download"), page.click(tid("png-cost-astrocast"))]);
    expect(png.suggestedFilename()).toMatch(/-cost-astrocast\.png$/);
    const bytes = readFileSync((await png.path())!);
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(bytes.readUInt32BE(16)).toBeGreaterThanOrEqual(600);
    await png.saveAs(path.join(artifactsDir, "decide-chart-cost-astrocast.png"));
    // the sizes chart carries an HTML legend beside its SVG: both end up in the PNG
    const [sizesPng] = await Promise.all([page.waitForEvent("download"), page.click(tid("png-sizes"))]);
    await sizesPng.saveAs(path.join(artifactsDir, "decide-chart-sizes.png"));
    expect(readFileSync(path.join(artifactsDir, "decide-chart-sizes.png")).readUInt32BE(16)).toBeGreaterThanOrEqual(
      2 * 660,
    );
    expect(errors).toEqual([]);
  });

  it("says why Kinéis has no price and takes the price set on the report page", async () => {
    for (const [width, height] of [
      [1440, 900],
      [1024, 768],
    ] as const) {
      const { page, errors } = await s.open({ width, height });
      await openPreset(page, "paper");
      await page.click(tid("nav-cost"));
      await page.waitForSelector(tid("cost-table"));
      await page.click(tid("cost-platform-kineis"));
      await page.click(tid("nav-report"));
      await page.waitForSelector(tid("report-doc"));
      const why = page.locator(tid("unpriced-kineis"));
      await expect.poll(() => why.textContent()).toContain("Kinéis (max) publishes no price list");
      expect(await page.locator(tid("report-summary")).textContent()).toContain("Kinéis (max) publishes no price list");
      const kineisRows = page.locator(`${tid("report-cost")} tr`, { hasText: "Kinéis (max)" });
      expect(await kineisRows.first().textContent()).toContain("no public price");
      // the platforms without a price come first among the report's price editors
      await page.locator(tid("price-kineis")).scrollIntoViewIfNeeded();
      expect(
        await page
          .locator(`${tid("report-prices")} .price-card`)
          .first()
          .getAttribute("data-testid"),
      ).toBe("price-kineis");
      await screenshot(page, `decide-07-report-price-${width}`);

      await page.fill(tid("price-kineis-price"), "0.05");
      await why.waitFor({ state: "detached" });
      await expect.poll(() => kineisRows.first().textContent()).toMatch(/€[\d,]+/);
      expect(await kineisRows.first().textContent()).not.toContain("no public price");
      expect(await page.locator(tid("report-summary")).textContent()).not.toContain("no price list");
      // the price is the scenario's: the cost page shows it too
      await page.click(tid("nav-cost"));
      await page.waitForSelector(tid("cost-table"));
      expect(await page.locator(tid("price-kineis-price")).inputValue()).toBe("0.05");
      expect(errors).toEqual([]);
    }
  });

  it("has an empty state on every page when the layout has no fields", async () => {
    const { page, errors } = await s.open();
    await page.click(tid("new-empty"));
    await page.waitForSelector(tid("designer"));
    await page.click(tid("nav-cost"));
    await page.waitForSelector(tid("cost-empty"));
    await page.click(tid("nav-advisor"));
    await page.waitForSelector(tid("advisor-empty"));
    await page.click(tid("nav-report"));
    await page.waitForSelector(tid("report-empty"));
    await screenshot(page, "decide-06-report-empty");
    await page.click(tid("nav-designer"));
    await page.waitForSelector(tid("tree-empty"));
    expect(errors).toEqual([]);
  });
});
