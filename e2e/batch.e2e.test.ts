// Readings per message end to end (issue #27): the paper preset becomes a 15-minute tracker that fills one Astrocast
// message, the view shows how many readings fit in every format and form, a fixed N changes the figures, and a bad
// setting shows its sentence next to its control.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FORMAT_IDS, generateBatches, parseLayout, presetById, toPlain } from "#codecs";
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

/**
 * Waits until every format's figures are in for a layout other than `previous` and returns its key. Two edits in a
 * row (the kind, then the count) pass through a layout in between whose figures may complete first: `count` names
 * the readings per message the awaited layout sends.
 */
async function waitForReadings(page: Page, previous = "", count?: number): Promise<string> {
  await page.waitForFunction(
    ([prev, n]) => {
      const v = document.querySelector('[data-testid="readings-view"]');
      const key = v?.getAttribute("data-layout-key");
      const shown = document.querySelector('[data-testid="readings-n-protobuf-delta"]')?.getAttribute("data-value");
      return (
        !!key && key !== prev && v?.getAttribute("data-complete") === "true" && (n === null || shown === String(n))
      );
    },
    [previous, count ?? null] as const,
    { timeout: 90_000 },
  );
  return (await page.locator(tid("readings-view")).getAttribute("data-layout-key")) ?? "";
}

const num = async (page: Page, testId: string, attr = "data-value") =>
  Number(await page.locator(tid(testId)).getAttribute(attr));

describe("readings per message (browser mode)", SCENARIO, () => {
  it("sizes a 15-minute tracker on Astrocast per format, follows N, and shows a bad setting at its control", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await page.waitForSelector(tid("preset-paper"));
    await openPreset(page, "paper");
    await page.click(tid("tab-readings"));
    await page.waitForSelector(tid("readings-empty"));
    await screenshot(page, "batch-00-empty");

    // one click: the moving fields repeat every 15 minutes, as many readings as fit the chosen Astrocast
    await page.click(tid("readings-setup"));
    expect(await page.locator(tid("batch-interval")).inputValue()).toBe("900");
    expect(await page.locator(tid("batch-readings-platform")).inputValue()).toBe("astrocast");
    let key = await waitForReadings(page);
    await page.waitForSelector(tid("readings-fit-chart-astrocast"));
    const fit: Record<string, number> = {};
    for (const f of FORMAT_IDS)
      for (const form of ["columns", "delta"]) {
        const n = await num(page, `readings-n-${f}-${form}`);
        fit[`${f}-${form}`] = n;
        // as many as fit: every message sized is within Astrocast's 160 B (or not even one reading fits)
        if (n > 0) expect(await num(page, `readings-bytes-${f}-${form}`, "data-max")).toBeLessThanOrEqual(160);
      }
    // bit-packed fits readings in both forms; the paper's all-string JSON (~414 B a record) not even one, and says so
    expect(fit["bitpacked-columns"]).toBeGreaterThan(0);
    expect(fit["bitpacked-delta"]).toBeGreaterThan(0);
    expect(fit["json-columns"]).toBe(0);
    expect(await page.locator(tid("readings-error-json-columns")).textContent()).toBe(
      "Not even one reading fits in 160 B.",
    );
    expect(await page.locator(tid("readings-none-astrocast")).textContent()).toMatch(
      /^Not even one reading fits 160 B in JSON, /,
    );
    await screenshot(page, "batch-01-fit-astrocast");

    // a fixed N: the figures follow it, and so does the wait of the oldest reading
    await page.selectOption(tid("batch-readings-kind"), "fixed");
    await page.fill(tid("batch-readings-count"), "4");
    key = await waitForReadings(page, key, 4);
    expect(await num(page, "readings-n-protobuf-delta")).toBe(4);
    expect(await page.locator(tid("readings-wait")).textContent()).toBe("the oldest reading waits 1 h");
    const at4 = await num(page, "readings-bytes-protobuf-delta", "data-p50");
    await page.fill(tid("batch-readings-count"), "8");
    key = await waitForReadings(page, key);
    expect(await num(page, "readings-n-cbor-columns")).toBe(8);
    expect(await page.locator(tid("readings-wait")).textContent()).toBe("the oldest reading waits 2 h");
    expect(await num(page, "readings-bytes-protobuf-delta", "data-p50")).toBeGreaterThan(at4);
    await screenshot(page, "batch-02-fixed-8");
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, "batch-03-fixed-8-1024");
    await page.setViewportSize({ width: 1440, height: 900 });

    // a bad setting: its sentence next to the control, the header counts it, the figures stay on the last valid one
    await page.fill(tid("batch-interval"), "0");
    const msg = page.locator(tid("batch-interval")).locator("xpath=..").locator(tid("field-issue"));
    await expect.poll(() => msg.textContent()).toMatch(/^Interval is 0 s; it must be more than 0 s/);
    await expect.poll(() => page.locator(tid("save-state")).getAttribute("data-status")).toBe("invalid");
    expect(await num(page, "readings-n-cbor-columns")).toBe(8);
    await page.fill(tid("batch-interval"), "600");
    await expect.poll(() => msg.count()).toBe(0);
    await expect.poll(() => page.locator(tid("readings-wait")).textContent()).toBe("the oldest reading waits 1.3 h");

    expect(errors).toEqual([]);
  });

  it("opens the tracker preset with its batch: a difference costs less than the first reading, per field", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await page.waitForSelector(tid("preset-paper-tracker"));
    await openPreset(page, "paper-tracker");
    await page.click(tid("tab-readings"));
    await waitForReadings(page);
    // as many as fit Astrocast: the delta form fits more readings than the columns form in bit-packed
    expect(await num(page, "readings-n-bitpacked-delta")).toBeGreaterThan(
      await num(page, "readings-n-bitpacked-columns"),
    );
    await page.selectOption(tid("readings-fields-format"), "bitpacked");
    // latitude moves at most 0.0002 °/s: a 15-minute difference takes fewer bytes than the first, whole value
    await expect
      .poll(async () => (await num(page, "readings-next-latitude")) < (await num(page, "readings-first-latitude")))
      .toBe(true);
    await page.locator(tid("readings-fields")).scrollIntoViewIfNeeded();
    await screenshot(page, "batch-04-tracker-fields");
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.locator(tid("readings-view")).evaluate((el) => el.closest(".analysis-body")?.scrollTo(0, 0));
    await screenshot(page, "batch-05-tracker-1024");
    expect(errors).toEqual([]);
  });

  it("sizes on the user's own CSV log, lists a bad log's problems and sizes nothing on it, and goes back", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await page.waitForSelector(tid("preset-paper-tracker"));
    await openPreset(page, "paper-tracker");
    await page.click(tid("tab-readings"));
    await waitForReadings(page);
    const generated = await num(page, "readings-n-bitpacked-delta");
    // a log of 5 readings the tracker logged, as a spreadsheet writes it: a header of field keys, a row a reading
    const layout = parseLayout(presetById("paper-tracker")!.layout);
    const rows = generateBatches(layout, 1, 5, 9).flatMap((b) =>
      b.readings.map((r) => toPlain(layout, { ...b.once, ...r }, "json") as Record<string, unknown>),
    );
    const keys = Object.keys(rows[0]!);
    const csv = (rs: Record<string, unknown>[]) =>
      [keys.join(","), ...rs.map((r) => keys.map((k) => String(r[k])).join(","))].join("\n");
    const upload = (name: string, text: string) =>
      page.setInputFiles(tid("readings-log-file"), { name, mimeType: "text/csv", buffer: Buffer.from(text) });
    const label = page.locator(tid("readings-log-label"));
    await upload("tracker-log.csv", csv(rows));
    await expect
      .poll(() => label.textContent(), { timeout: 90_000 })
      .toMatch(/^Your log: 5 readings, tracker-log\.csv/);
    await page.waitForSelector('[data-testid="readings-view"][data-complete="true"]', { timeout: 90_000 });
    // as many as fit Astrocast, out of the log's own readings: no message holds more than the log has
    expect(generated).toBeGreaterThan(5);
    expect(await num(page, "readings-n-bitpacked-delta")).toBe(5);
    await screenshot(page, "batch-06-my-log");
    await page.setViewportSize({ width: 1024, height: 768 });
    await screenshot(page, "batch-07-my-log-1024");
    await page.setViewportSize({ width: 1440, height: 900 });

    // a bad cell: its line and field listed, and nothing sized on the rest of the log
    await upload("bad-log.csv", csv(rows.map((r, i) => (i === 1 ? { ...r, latitude: "north" } : r))));
    const problems = page.locator(tid("readings-log-problems"));
    await expect.poll(() => problems.textContent(), { timeout: 90_000 }).toMatch(/line 3, latitude: /);
    expect(await label.textContent()).toMatch(/^Your log bad-log\.csv cannot be sized/);
    expect(await page.locator(tid("readings-view")).getAttribute("data-log-problems")).toBe("true");
    expect(await page.locator(tid("readings-n-bitpacked-delta")).count()).toBe(0);
    await screenshot(page, "batch-08-bad-log");

    await page.click(tid("readings-log-clear"));
    await expect.poll(() => num(page, "readings-n-bitpacked-delta"), { timeout: 90_000 }).toBe(generated);
    expect(await label.count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
