// Charts and tables that keep information visible (issue #26 point 6), at 1440 and at 1024 px: with four limits the
// size chart says per format which limit it fits, its limit labels and format names do not overlap, and the Bytes on
// air table shows its last (Sigfox) column, scrolling sideways inside its panel with the format column in view.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSamples, measureSizes, parseLayout, presetById } from "#codecs";
import { platformById } from "#planning";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot, startSession, type E2eSession } from "./support/session.ts";
import { openPreset, tid } from "./support/ui.ts";
import { fitLabel } from "../renderer/src/ui/sizes/verdict.ts";

let s: E2eSession;
beforeAll(async () => {
  s = await startSession();
}, 300_000);
afterAll(async () => {
  await s?.close();
});

// Astrocast (the default) plus three stricter limits; Sigfox last in the table, as a user picking it last sees it
const PICKED = ["kineis", "kineis-standard", "nbiot-tn", "sigfox"];
const limits = ["astrocast", ...PICKED]
  .map((id) => platformById(id)!)
  .filter((p) => p.uplinkBytes !== undefined)
  .map((p) => ({ id: p.id, name: p.name, bytes: p.uplinkBytes! }))
  .sort((a, b) => a.bytes - b.bytes);
const paper = parseLayout(presetById("paper")!.layout);
// the designer's defaults: 1 000 samples, seed 1
const measured = measureSizes(paper, generateSamples(paper, 1000, 1));

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxes(page: Page, selector: string): Promise<Box[]> {
  return page.$$eval(selector, (els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
}

function expectApart(found: Box[], what: string): void {
  for (let i = 0; i < found.length; i++)
    for (let j = i + 1; j < found.length; j++)
      expect(overlaps(found[i]!, found[j]!), `${what} ${i} and ${j} overlap`).toBe(false);
}

async function checkDesigner(page: Page, width: number): Promise<void> {
  await page.locator(tid("sizes-panel")).scrollIntoViewIfNeeded();
  await screenshot(page, `charts-${width}-designer-sizes`);
  // every format says which limit its largest message fits, from the same numbers the core measures
  for (const m of measured) {
    const label = page.locator(`${tid("sizes-chart")} .size-fit-label[data-format="${m.format}"]`);
    expect(await label.textContent(), m.format).toBe(fitLabel(m.stats.max, limits));
  }
  // with limits from 12 to 160 B some bars are over the strictest yet fit a looser one: not all red
  expect(await page.locator(`${tid("sizes-chart")} .size-bar[data-reach="some"]`).count()).toBeGreaterThan(0);
  expectApart(await boxes(page, `${tid("sizes-chart")} .size-limit text`), "limit labels");
  expectApart(await boxes(page, `${tid("sizes-chart")} svg > g > text`), "format names and verdicts");

  // Bytes on air: the panel holds the table; what does not fit scrolls inside it
  const onair = page.locator(tid("onair"));
  await onair.scrollIntoViewIfNeeded();
  const panel = (await onair.boundingBox())!;
  expect(panel.x + panel.width).toBeLessThanOrEqual(width);
  const scroller = page.locator(tid("onair-scroll"));
  // at 1440 px the five platforms' columns are all in view at once; at 1024 px the table scrolls
  if (width >= 1440)
    expect(await scroller.evaluate((el) => el.scrollWidth - el.clientWidth), "on-air table wider than its panel").toBe(
      0,
    );
  const sigfox = page.locator(`${tid("onair-table")} th[title="${platformById("sigfox")!.name}"]`);
  await scroller.evaluate((el) => (el.scrollLeft = el.scrollWidth));
  const view = (await scroller.boundingBox())!;
  const last = (await sigfox.boundingBox())!;
  expect(last.x + last.width).toBeLessThanOrEqual(view.x + view.width + 1);
  expect(last.x).toBeGreaterThanOrEqual(view.x);
  // scrolled to its end, the format names are still there at the left edge
  const name = (await page.locator(`${tid("onair-table")} tbody tr:first-child td:first-child`).boundingBox())!;
  expect(name.x).toBeGreaterThanOrEqual(view.x - 1);
  expect(name.x).toBeLessThan(view.x + 4);
  await scroller.evaluate((el) => (el.scrollLeft = 0));
  // the headers chart under it: format names apart ("MsgPackProtobuf", "StructStruct+Zlib" ran together)
  await page.locator(tid("onair-chart")).scrollIntoViewIfNeeded();
  expectApart(await boxes(page, `${tid("onair-chart")} .onair-tick`), "on-air chart names");
  // NB-IoT's stacks side by side (NIDD, SCHC, CoAP): the same names under its grouped bars
  await page.locator(tid("stack-compare-chart")).scrollIntoViewIfNeeded();
  expectApart(await boxes(page, `${tid("stack-compare-chart")} .onair-tick`), "stack comparison chart names");
}

describe("charts and tables at 1440 and 1024 px (browser mode)", SCENARIO, () => {
  it("keeps each format's verdict per limit, the limit labels and the last table column visible", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await openPreset(page, "paper");
    await page.click(tid("platform-picker"));
    for (const id of PICKED) await page.check(tid(`platform-${id}`));
    await page.keyboard.press("Escape");
    await page.waitForSelector(tid("onair-protobuf-sigfox"));

    for (const [width, height] of [
      [1440, 900],
      [1024, 768],
    ] as const) {
      await page.setViewportSize({ width, height });
      await checkDesigner(page, width);
      await noneClipped(page, tid("sizes-table"));
      await noneClipped(page, tid("verdicts"));
      await page.locator(tid("onair")).scrollIntoViewIfNeeded();
      await screenshot(page, `charts-${width}-designer-onair`);
    }

    await page.setViewportSize({ width: 1440, height: 900 });
    await page.click(tid("nav-cost"));
    await page.waitForSelector(tid("cost-table"));
    for (const [width, height] of [
      [1440, 900],
      [1024, 768],
    ] as const) {
      await page.setViewportSize({ width, height });
      await screenshot(page, `charts-${width}-cost`);
      await page.locator(tid("cost-table")).scrollIntoViewIfNeeded();
      await screenshot(page, `charts-${width}-cost-table`);
      await noneClipped(page, tid("cost-table"));
    }

    // the Channel page: seed 003's charts and table at both widths
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.click(tid("nav-channel"));
    await page.fill(tid("ch-horizon"), "30");
    await page.click(tid("ch-run"));
    await page.waitForSelector(tid("ch-seed003-table"), { timeout: 120_000 });
    await page.waitForSelector(`${tid("ch-chart-nstart")} .recharts-line`);
    for (const [width, height] of [
      [1440, 900],
      [1024, 768],
    ] as const) {
      await page.setViewportSize({ width, height });
      await screenshot(page, `charts-${width}-channel`);
      await page.locator(tid("ch-chart-nstart")).scrollIntoViewIfNeeded();
      await screenshot(page, `charts-${width}-channel-charts`);
      await noneClipped(page, tid("ch-seed003-table"));
    }
    expect(errors).toEqual([]);
  });
});

describe("the Export page at 1024 px (browser mode)", SCENARIO, () => {
  it("leaves the code at least half the window, its Copy and Download buttons in view", async () => {
    const { page, errors } = await s.open({ width: 1024, height: 768 });
    await page.waitForSelector(tid("start-screen"));
    await openPreset(page, "paper");
    await page.click(tid("nav-export"));
    await page.waitForSelector(tid("export-file-container_data_struct.h"), { timeout: 60_000 });
    await page.click(tid("export-file-container_data_struct.h"));
    await page.waitForSelector(`${tid("preview-code")}[data-path="container_data_struct.h"]`);
    await screenshot(page, "charts-1024-export");
    // the options and the file list took 620 of the 1024 px and left the code 404
    const code = (await boxes(page, ".export-preview"))[0]!;
    expect(code.width).toBeGreaterThanOrEqual(512);
    for (const id of ["copy-file", "download-file"]) {
      const b = (await boxes(page, tid(id)))[0]!;
      expect(b.x + b.width, id).toBeLessThanOrEqual(1024);
    }
    expect(errors).toEqual([]);
  });
});

/**
 * A table's last column is not cut: it is inside the window and inside every box around the table, or the table
 * scrolls inside the nearest box that clips it, that box being inside the window and holding the table (a page that
 * scrolls sideways around a panel the table ran out of does not count).
 */
async function noneClipped(page: Page, table: string): Promise<void> {
  const width = page.viewportSize()!.width;
  const r = await page.locator(table).evaluate((t) => {
    const right = Math.max(...[...t.querySelectorAll("th")].map((th) => th.getBoundingClientRect().right));
    const outside: string[] = [];
    let box: HTMLElement | null = t.parentElement;
    while (box && getComputedStyle(box).overflowX === "visible") {
      if (box.getBoundingClientRect().right < right - 1) outside.push(box.className);
      box = box.parentElement;
    }
    const scrolls = !!box && box.scrollWidth > box.clientWidth + 1 && getComputedStyle(box).overflowX !== "hidden";
    return { right, scrolls, outside, boxRight: box?.getBoundingClientRect().right ?? Infinity };
  });
  expect(r.outside, `${table} runs out of these boxes`).toEqual([]);
  if (r.scrolls) expect(r.boxRight, `${table} scrolls inside a box wider than the window`).toBeLessThanOrEqual(width);
  else expect(r.right, `${table}'s last column is cut`).toBeLessThanOrEqual(Math.min(width, r.boxRight) + 1);
}
