// What a first-time user tripped over (issue #13, items 9 and 10): the fit column's share said in words, cost
// defaults (Struct and SBE ticked, Iridium priced with a marked estimate), the report PDF made on the host and
// downloaded in browser mode, and names cut to their limit with a visible message.
import { execFileSync } from "node:child_process";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultScenario, evaluateFleet } from "#planning";
import { paper, paperMeasured as measured } from "./support/paperMeasured.ts";
import { SCENARIO } from "./support/scenario.ts";
import { artifactsDir, screenshot, startSession, type E2eSession } from "./support/session.ts";
import { openPreset, tid } from "./support/ui.ts";

let s: E2eSession;

beforeAll(async () => {
  s = await startSession();
}, 300_000);

afterAll(async () => {
  await s?.close();
});

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: "utf8", timeout: 60_000 });

/** Pastes `text` into the focused element with a real Ctrl+V, so the browser applies maxlength as it does for users. */
async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Control+v");
}

describe("first use (browser mode)", SCENARIO, () => {
  it("says in the fit column how many samples are over, and ticks Struct and SBE with every platform priced", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await openPreset(page, "paper");
    // JSON is over Astrocast's 160 B in every sample: the share is on screen, not only in a tooltip
    expect(await page.locator(tid("share-over-json-astrocast")).textContent()).toBe("✗ all samples exceed 160 B");
    await page.locator(tid("verdicts")).scrollIntoViewIfNeeded();
    await screenshot(page, "firstuse-01-fit-column");

    await page.click(tid("nav-cost"));
    await page.waitForSelector(tid("cost-table"));
    for (const f of ["json", "protobuf", "struct", "struct-zlib", "sbe", "bitpacked"])
      expect(await page.isChecked(tid(`format-${f}`)), f).toBe(true);
    for (const f of ["cbor", "msgpack", "pson"]) expect(await page.isChecked(tid(`format-${f}`)), f).toBe(false);
    // Iridium is priced by default, from the catalog's marked estimate, as evaluateFleet prices the same samples
    const expected = evaluateFleet(defaultScenario(), measured);
    for (const f of ["struct", "sbe", "protobuf"]) {
      const cell = expected.cells.find((c) => c.format === f && c.platformId === "iridium-sbd")!;
      expect(cell.monthly.exact, f).toBeGreaterThan(0);
      await expect
        .poll(() => page.locator(tid(`cost-${f}-iridium-sbd`)).getAttribute("data-value"))
        .toBe(String(cell.monthly.exact));
    }
    expect(await page.locator(`${tid("cost-table")}`).textContent()).not.toContain("no price");
    expect(await page.locator(tid("estimate-iridium-sbd")).textContent()).toBe("estimated price");
    expect(await page.locator(tid("estimate-astrocast")).count()).toBe(0);
    expect(await page.locator(tid("price-iridium-sbd-source")).textContent()).toMatch(
      /^Default: €0\.00894\/credit of 50 B · estimate: the paper's NTN rate .*\(2026\) · estimate · Limits: /,
    );
    expect(await page.locator(tid("price-astrocast-source")).textContent()).toContain(
      "from the paper: Kumar et al. 2026, Table 7",
    );
    await page.locator(tid("cost-table")).scrollIntoViewIfNeeded();
    await screenshot(page, "firstuse-02-cost-defaults");
    expect(errors).toEqual([]);
  });

  it("downloads the report as a PDF made on the host, in A4 and Letter", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await openPreset(page, "paper");
    await page.click(tid("nav-report"));
    await page.waitForSelector(`${tid("report-doc")} .recharts-surface`);
    expect(await page.locator(tid("report-pdf")).textContent()).toBe("Download PDF");
    for (const size of ["A4", "Letter"] as const) {
      await page.click(tid(`page-${size}`));
      await page.waitForSelector(`${tid("report-page")}[data-page-size="${size}"]`);
      const [download] = await Promise.all([
        page.waitForEvent("download", { timeout: 120_000 }),
        page.click(tid("report-pdf")),
      ]);
      expect(download.suggestedFilename()).toMatch(/-report\.pdf$/);
      const file = path.join(artifactsDir, `firstuse-report-${size}.pdf`);
      await download.saveAs(file);
      const info = run("pdfinfo", [file]);
      expect(info).toMatch(
        size === "A4"
          ? /Page size:\s+59[45](\.\d+)? x 84[12](\.\d+)? pts \(A4\)/
          : /Page size:\s+612 x 792 pts \(letter\)/,
      );
      expect(Number(/Pages:\s+(\d+)/.exec(info)![1])).toBeGreaterThanOrEqual(2);
      const text = run("pdftotext", ["-layout", file, "-"]);
      for (const heading of [
        "Layout summary",
        "Message sizes",
        "Platform fit",
        "Fleet cost",
        "Assumptions and sources",
      ])
        expect(text, heading).toContain(heading);
      // the app's chrome is not printed, the estimate is named as one
      for (const chrome of ["Export code", "DevKit bench", "Download PDF"]) expect(text).not.toContain(chrome);
      expect(text).toContain("estimate");
      await expect
        .poll(() => page.locator(tid("report-message")).textContent())
        .toMatch(new RegExp(`^Downloaded .*-report\\.pdf \\(${size}, \\d+ KB\\)$`));
      run("pdftoppm", [
        "-png",
        "-r",
        "50",
        "-f",
        "1",
        "-l",
        "1",
        file,
        path.join(artifactsDir, `firstuse-report-${size}`),
      ]);
    }
    await screenshot(page, "firstuse-03-report-downloaded");
    expect(errors).toEqual([]);
  });

  it("says so when a pasted name is cut to its limit", async () => {
    const { context, page, errors } = await s.open({ width: 1440, height: 900 });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await openPreset(page, "paper");
    const long = "Container GPS tracker ".repeat(228).slice(0, 5000);

    await page.click(tid("project-name"));
    await page.focus(tid("project-name-input"));
    await paste(page, long);
    expect((await page.inputValue(tid("project-name-input"))).length).toBe(128);
    expect(await page.locator(tid("project-name-input-cut")).textContent()).toBe(
      "Cut to 128 characters: the pasted text made 5,000.",
    );
    await screenshot(page, "firstuse-04-name-cut");
    await page.keyboard.press("Escape");

    await page.click(tid("row-pressure"));
    await page.focus(tid("insp-key"));
    await paste(page, long);
    expect((await page.inputValue(tid("insp-key"))).length).toBe(64);
    expect(await page.locator(tid("insp-key-cut")).textContent()).toBe(
      "Cut to 64 characters: the pasted text made 5,000.",
    );
    await page.focus(tid("insp-name"));
    await paste(page, long);
    expect((await page.inputValue(tid("insp-name"))).length).toBe(128);
    expect(await page.locator(tid("insp-name-cut")).textContent()).toBe(
      "Cut to 128 characters: the pasted text made 5,000.",
    );
    await screenshot(page, "firstuse-05-field-name-cut");
    // a shorter name clears the notice
    await page.fill(tid("insp-name"), "Pressure");
    expect(await page.locator(tid("insp-name-cut")).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
