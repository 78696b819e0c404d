// The Budget view (issue #28) as a user meets it: the paper preset on the default tracker shows battery life per
// format on Astrocast, the LoRaWAN EU868 data rates and Iridium SBD, computed from the measured sizes with planning's
// device budget; moving the reading interval changes the figures; a zero battery capacity is refused next to the
// field and the figures stay those of the last valid device; a radio constant and the swap prices are edited (a bad
// one refused by its field) and every setting comes back after a reload.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TRACKER, defaultScenario, deviceBudget, evaluateFleet, layoutStackId } from "#planning";
import { paper, paperMeasured as measured } from "./support/paperMeasured.ts";
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

/** The battery life planning gives one format on one platform, for the default tracker, one reading per message. */
function expectedLife(
  format: string,
  platformId: string,
  intervalMinutes: number,
  radioOverrides?: Record<string, number>,
): number {
  const scenario = { ...defaultScenario(), platforms: [platformId] };
  const cell = evaluateFleet(scenario, measured, { layout: layoutStackId(paper.name) }).cells.find(
    (c) => c.format === format,
  )!;
  return deviceBudget({
    choice: { platform: platformId },
    bytesOnAir: Math.ceil(cell.onAir.mean),
    readingsPerMessage: 1,
    intervalSeconds: intervalMinutes * 60,
    device: DEFAULT_TRACKER,
    ...(radioOverrides && { radioOverrides }),
  }).batteryLifeYears;
}

async function life(page: Page, format: string, platformId: string): Promise<number> {
  const v = await page.locator(tid(`budget-life-${format}-${platformId}`)).getAttribute("data-value");
  if (v === null || v === "") throw new Error(`no battery life shown for ${format} on ${platformId}`);
  return Number(v);
}

describe("budget (browser mode)", SCENARIO, () => {
  it("shows battery life per format for the default tracker; the interval slider and a bad capacity", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await openPreset(page, "paper");
    await page.click(tid("nav-budget"));
    await page.waitForSelector(tid("budget-matrix"));

    // the default scenario reports 4 times a day: the slider starts at every 6 h
    expect(await page.locator(tid("budget-interval-text")).textContent()).toBe("every 6 h");
    for (const platform of ["astrocast", "lorawan-eu868-dr5", "iridium-sbd"])
      for (const format of ["protobuf", "struct-zlib", "bitpacked"])
        expect(await life(page, format, platform), `${format} on ${platform}`).toBeCloseTo(
          expectedLife(format, platform, 360),
          9,
        );
    // JSON's 414 B do not fit Astrocast's 160 B: sent in fragments, the radio works three times a reading
    expect(await page.locator(tid("budget-life-json-astrocast")).textContent()).toMatch(/× 3 msgs/);
    expect(await life(page, "json", "astrocast")).toBeLessThan(await life(page, "protobuf", "astrocast"));
    // on DR0 (51 B at SF12) JSON takes 9 fragments a reading: about 90 s on air a day, over TTN's 30 s, said in the cell
    expect(await page.locator(tid("budget-life-json-lorawan-eu868-dr0")).textContent()).toMatch(/✗ .*fair use/);
    expect(await page.locator(tid("budget-headline")).textContent()).toMatch(
      /the battery lasts \d+(\.\d)? (years|months)/,
    );
    await screenshot(page, "budget-01-1440");

    // every minute instead of every 6 h: the radio works 360 times as often and the battery lasts less
    const before = await life(page, "protobuf", "astrocast");
    await page.locator(tid("budget-interval")).fill("0");
    expect(await page.locator(tid("budget-interval-text")).textContent()).toBe("every 1 min");
    await expect.poll(() => life(page, "protobuf", "astrocast")).toBeLessThan(before);
    expect(await life(page, "protobuf", "astrocast")).toBeCloseTo(expectedLife("protobuf", "astrocast", 1), 9);
    expect(await life(page, "bitpacked", "lorawan-eu868-dr3")).toBeCloseTo(
      expectedLife("bitpacked", "lorawan-eu868-dr3", 1),
      9,
    );

    // a zero capacity is refused by the field, and the figures stay those of the last valid device
    const shown = await life(page, "protobuf", "astrocast");
    await page.fill(tid("budget-batteryMah"), "0");
    await page.waitForSelector(tid("budget-error-batteryMah"));
    expect(await page.locator(tid("budget-error-batteryMah")).textContent()).toMatch(/capacity/i);
    expect(await life(page, "protobuf", "astrocast")).toBe(shown);
    await screenshot(page, "budget-02-error-1440");

    // the report carries the same device and cadence: battery life per format on the recommended platform (NB-IoT,
    // the cheapest of the default scenario), and the sentence in the summary
    await page.click(tid("nav-report"));
    await page.waitForSelector(tid("report-budget"), { timeout: 60_000 });
    const sentence = (await page.locator(tid("report-budget-sentence")).textContent())!;
    expect(sentence).toMatch(
      / instead of JSON on Terrestrial NB-IoT \/ LTE-M: the battery lasts .+ instead of .+, (.+ saved on battery swaps over 10 years for 10,000 devices|no battery swap saved over 10 years)\.$/,
    );
    expect(await page.locator(tid("report-summary")).textContent()).toContain(sentence);
    expect(await page.locator(tid("report-budget-basis")).textContent()).toMatch(/one reading every 1 min/);
    // its chart is a figure of the report like the others (its own PNG button, in "Charts (PNG)")
    await page.waitForSelector(`${tid("report-battery")} figure[data-chart="battery-life"] svg`);
    await page.locator(tid("report-battery")).scrollIntoViewIfNeeded();
    await screenshot(page, "budget-04-report");
    expect(errors).toEqual([]);
  });

  it("edits a radio constant and the swap prices, refuses bad ones by the field, and keeps them over a reload", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await openPreset(page, "paper");
    await page.click(tid("nav-budget"));
    await page.waitForSelector(tid("budget-matrix"));
    await page.selectOption(tid("budget-platform"), "astrocast");
    await page.waitForSelector(tid("budget-radio"));
    // each constant says where it comes from: the catalog's TX current is cited, not the user's
    expect(await page.locator(tid("budget-radio-source-txMa")).textContent()).toMatch(/\(.+, \d{4}(-\d\d)?\)$/);
    const cited = Number(await page.inputValue(tid("budget-radio-input-txMa")));
    const before = await life(page, "protobuf", "astrocast");

    // four times the TX current: "your value", and the matrix follows exactly as planning computes it
    await page.fill(tid("budget-radio-input-txMa"), String(cited * 4));
    await page.waitForSelector(tid("budget-radio-yours-txMa"));
    await expect.poll(() => life(page, "protobuf", "astrocast")).toBeLessThan(before);
    const mine = expectedLife("protobuf", "astrocast", 360, { txMa: cited * 4 });
    expect(await life(page, "protobuf", "astrocast")).toBeCloseTo(mine, 9);
    // other platforms keep the catalog's radio
    expect(await life(page, "protobuf", "iridium-sbd")).toBeCloseTo(expectedLife("protobuf", "iridium-sbd", 360), 9);

    // a negative current is refused beside the field; the figures keep the last accepted value
    await page.fill(tid("budget-radio-input-txMa"), "-1");
    await page.waitForSelector(tid("budget-radio-error-txMa"));
    expect(await page.locator(tid("budget-radio-error-txMa")).textContent()).toMatch(/cannot be negative/);
    expect(await life(page, "protobuf", "astrocast")).toBeCloseTo(mine, 9);
    await page.fill(tid("budget-radio-input-txMa"), String(cited * 4));
    await page.waitForSelector(tid("budget-radio-error-txMa"), { state: "detached" });

    // swap prices: a negative one is refused, a good one kept
    await page.fill(tid("budget-swap-labour"), "-5");
    await page.waitForSelector(tid("budget-swap-error-labour"));
    await page.fill(tid("budget-swap-labour"), "95");
    await page.waitForSelector(tid("budget-swap-error-labour"), { state: "detached" });
    await page.locator(tid("budget-interval")).fill("7"); // every 60 min
    expect(await page.locator(tid("budget-interval-text")).textContent()).toBe("every 1 h");
    const hourly = await life(page, "protobuf", "astrocast");
    expect(hourly).toBeCloseTo(expectedLife("protobuf", "astrocast", 60, { txMa: cited * 4 }), 9);
    await page.locator(tid("budget-radio")).scrollIntoViewIfNeeded();
    await screenshot(page, "budget-05-radio-1440");

    // saved with the project's scenarios: reopening it shows the same budget
    await expect.poll(() => page.locator(tid("cost-save-state")).getAttribute("data-status")).toBe("saved");
    await page.reload();
    await page.waitForSelector(tid("budget-matrix"), { timeout: 60_000 });
    expect(await page.locator(tid("budget-interval-text")).textContent()).toBe("every 1 h");
    expect(await page.inputValue(tid("budget-swap-labour"))).toBe("95");
    await page.selectOption(tid("budget-platform"), "astrocast");
    expect(Number(await page.inputValue(tid("budget-radio-input-txMa")))).toBe(cited * 4);
    await page.waitForSelector(tid("budget-radio-yours-txMa"));
    await expect.poll(() => life(page, "protobuf", "astrocast")).toBeCloseTo(hourly, 9);

    // back to the cited value: the catalog's figures again
    await page.click(tid("budget-radio-reset-txMa"));
    await page.waitForSelector(tid("budget-radio-source-txMa"));
    await expect
      .poll(() => life(page, "protobuf", "astrocast"))
      .toBeCloseTo(expectedLife("protobuf", "astrocast", 60), 9);
    expect(errors).toEqual([]);
  });

  it("has an empty state when the layout has no fields", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await page.click(tid("new-empty"));
    await page.waitForSelector(tid("designer"));
    await page.click(tid("nav-budget"));
    expect(await page.locator(tid("budget-empty")).textContent()).toMatch(/^No layout to budget/);
    // the device form is there all the same: it does not depend on the layout
    await page.waitForSelector(tid("budget-batteryMah"));
    expect(errors).toEqual([]);
  });

  it("fits 1024 × 768", async () => {
    const { page, errors } = await s.open({ width: 1024, height: 768 });
    await openPreset(page, "paper");
    await page.click(tid("nav-budget"));
    await page.waitForSelector(tid("budget-matrix"));
    await page.waitForSelector(tid("budget-headline"));
    await screenshot(page, "budget-03-1024");
    expect(errors).toEqual([]);
  });
});
