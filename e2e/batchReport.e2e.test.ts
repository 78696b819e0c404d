// Issue 27 on the Decide page: the paper tracker preset (as many readings as fit one Astrocast
// message) is priced by its messages, and the report shows how many readings each format puts in a
// message, the messages a day and how long the oldest reading waits — as charts and as a table.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMAT_LABELS, parseLayout, presetById } from "#codecs";
import { readingsPerMessage } from "#planning";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot, startSession, type E2eSession } from "./support/session.ts";
import { openPreset, tid } from "./support/ui.ts";

let s: E2eSession;
beforeAll(async () => {
  s = await startSession();
}, 300_000);
afterAll(async () => {
  await s?.close();
});

const tracker = parseLayout(presetById("paper-tracker")!.layout);

describe("batches on the Decide page (browser mode)", SCENARIO, () => {
  it("the report shows readings per message per format, messages a day and the oldest reading's wait", async () => {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 1024, height: 768 },
    ]) {
      const { context, page, errors } = await s.open(viewport);
      await openPreset(page, "paper-tracker");
      await page.click(tid("nav-report"));
      await page.waitForSelector(tid("report-batch"), { timeout: 90_000 });
      const rows = await page.locator(`${tid("report-batch")} tbody tr`).allTextContents();
      const n = readingsPerMessage(tracker, "bitpacked", "delta");
      // the default scenario's cadence, 4 a day, counts readings: bit-packed sends 4 ÷ n messages
      const bitpacked = rows.find((r) => r.startsWith(FORMAT_LABELS.bitpacked));
      expect(bitpacked).toBe(`${FORMAT_LABELS.bitpacked}${n}${(4 / n).toFixed(1)}${n * 15} min`);
      // the numbers compared across formats are charts too: one bar per format in each, its value on top
      for (const chart of ["batch-readings", "batch-messages"]) {
        const bars = page.locator(`${tid("report-batch")} [data-chart="${chart}"] .recharts-bar-rectangle`);
        await bars.first().waitFor({ timeout: 30_000 });
        expect(await bars.count()).toBe(rows.length);
      }
      const labels = await page
        .locator(`${tid("report-batch")} [data-chart="batch-readings"] .recharts-label-list text`)
        .allTextContents();
      expect(labels).toContain(String(n));
      expect(
        await page
          .locator(`${tid("report-batch")} [data-chart="batch-messages"] .recharts-label-list text`)
          .allTextContents(),
      ).toContain((4 / n).toFixed(1));
      await page.locator(tid("report-batch")).scrollIntoViewIfNeeded();
      await screenshot(page, `batch-report-${viewport.width}x${viewport.height}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it("the fit advisor proposes how many readings to put in one Astrocast message, and what the oldest waits", async () => {
    const { context, page, errors } = await s.open({ width: 1440, height: 900 });
    await openPreset(page, "paper-tracker");
    await page.click(tid("nav-advisor"));
    await page.selectOption(tid("advisor-target"), "astrocast");
    await page.selectOption(tid("advisor-format"), "bitpacked");
    const n = readingsPerMessage(tracker, "bitpacked", "delta");
    const note = page.locator(`${tid("advisor-batch")}[data-readings="${n}"]`);
    await note.waitFor({ timeout: 90_000 });
    const text = await note.textContent();
    expect(text).toContain(`send ${n} readings per message: 1 Astrocast (Astronode S) message instead of ${n}`);
    expect(text).toMatch(/the oldest reading waits [\d.]+ h for its message/);
    await screenshot(page, "batch-advisor-1440x900");
    expect(errors).toEqual([]);
    await context.close();
  });
});
