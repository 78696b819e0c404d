// Page switches from the page bar (a real mouse click) and the fit advisor, measured from the pointerdown's
// timestamp to the paint of the frame that shows the page's own content, and Chromium's Event Timing for the click.
import type { Page } from "playwright-core";
import { FORMAT_IDS, type FormatId } from "#codecs";
import type { EventEntry } from "./probe.ts";
import { figure, type Figure } from "./stats.ts";
import { tid } from "../../support/ui.ts";

/** The page bar's entries and the element that is each page's own content (not a loading placeholder). */
export const PAGE_ROOTS: readonly { nav: string; root: string }[] = [
  { nav: "cost", root: "cost-page" },
  { nav: "advisor", root: "advisor-page" },
  { nav: "report", root: "report-page" },
  { nav: "export", root: "export-page" },
  { nav: "bench", root: "bench-page" },
  { nav: "loadtest", root: "loadtest-page" },
  { nav: "stack", root: "stack-page" },
  { nav: "channel", root: "channel-page" },
  { nav: "designer", root: "designer" },
];

export interface ClickFigures {
  /** pointerdown → paint of the page's content */
  painted: Figure;
  /** Event Timing duration of the click interaction (the next paint, whatever it shows) */
  inp: Figure;
}

function clickDurations(events: EventEntry[]): number[] {
  const by = new Map<number, number>();
  for (const e of events)
    if (e.interactionId && /^(pointer|click|mouse)/.test(e.name))
      by.set(e.interactionId, Math.max(by.get(e.interactionId) ?? 0, e.duration));
  return [...by.values()];
}

/** Clicks `nav`, resolves with pointerdown → paint of `root`. */
async function clickTo(page: Page, nav: string, root: string): Promise<number> {
  const painted = page.evaluate((sel) => window.__ux!.element(sel), tid(root));
  await page.click(tid(`nav-${nav}`));
  const p = await painted;
  const down = await page.evaluate(() => window.__ux!.downs.at(-1)!);
  return p.paintedAt - down;
}

/** Every page in the bar's order, `rounds` times; the first round (first visit: code and data loaded) apart. */
export async function pageSwitches(
  page: Page,
  rounds: number,
): Promise<{ first: Map<string, number>; byPage: Map<string, ClickFigures> }> {
  const first = new Map<string, number>();
  const times = new Map<string, number[]>();
  const inp = new Map<string, number[]>();
  for (let r = 0; r <= rounds; r++)
    for (const { nav, root } of PAGE_ROOTS) {
      await page.evaluate(() => window.__ux!.clear());
      const t = await clickTo(page, nav, root);
      // let the page finish its own loading before the next click, as a person reading it would
      await page.waitForTimeout(400);
      const d = clickDurations(await page.evaluate(() => window.__ux!.events));
      if (r === 0) {
        first.set(nav, t);
        continue;
      }
      (times.get(nav) ?? times.set(nav, []).get(nav)!).push(t);
      (inp.get(nav) ?? inp.set(nav, []).get(nav)!).push(...d);
    }
  const byPage = new Map<string, ClickFigures>();
  for (const { nav } of PAGE_ROOTS)
    byPage.set(nav, {
      painted: figure(times.get(nav) ?? []),
      inp: figure(inp.get(nav) ?? [], { count: rounds - (inp.get(nav)?.length ?? 0), bound: 16 }),
    });
  return { first, byPage };
}

export interface AdvisorFigures {
  /** pointerdown on "Fit advisor" → paint of the advisor page, and → paint of its advice for this layout */
  open: Figure;
  openAdvice: Figure;
  /** format changed → first paint where the previous format's figures are gone or marked as updating */
  marked: Figure;
  /** format changed → paint of the advice for the new format */
  advice: Figure;
  /** of that, the advisor's own work for the new format in its worker (the page's "… samples in N ms") */
  work: Figure;
}

/** Finished advice on screen, not marked as updating; for `format` when the page says which format it is for. */
const ADVICE = (format: string | null, before: string | null) =>
  `[data-testid="advisor-page"]:has([data-testid="advisor-state"][data-running="false"]):has(` +
  `[data-testid="advisor-result"]:not(.stale)` +
  (format === null
    ? ""
    : `:is([data-format="${format}"], :not([data-format]):not([data-base-max="${before ?? ""}"]))`) +
  ")";

/**
 * Opens the advisor from the designer `rounds` times, then changes its format through every format in turn (each
 * one not asked for before, so never from a cache). The format select is a native popup: its value is set and
 * its change event dispatched from the page, timed from just before.
 */
export async function advisor(page: Page, rounds: number): Promise<AdvisorFigures> {
  const open: number[] = [];
  const openAdvice: number[] = [];
  for (let r = 0; r < rounds; r++) {
    await page.click(tid("nav-designer"));
    await page.waitForSelector(tid("designer"));
    await page.waitForTimeout(300);
    const painted = page.evaluate((sel) => window.__ux!.element(sel), tid("advisor-page"));
    const advised = page.evaluate((sel) => window.__ux!.element(sel), ADVICE(null, null));
    await page.click(tid("nav-advisor"));
    const down = await page.evaluate(() => window.__ux!.downs.at(-1)!);
    open.push((await painted).paintedAt - down);
    await page.waitForSelector(`${tid("advisor-state")}[data-running="false"]`);
    openAdvice.push((await advised).paintedAt - down);
  }
  const marked: number[] = [];
  const advice: number[] = [];
  const work: number[] = [];
  const current = (await page.locator(tid("advisor-format")).inputValue()) as FormatId;
  const order = [...FORMAT_IDS.filter((f) => f === "struct-zlib"), ...FORMAT_IDS.filter((f) => f !== "struct-zlib")];
  for (const format of order.filter((f) => f !== current)) {
    await page.waitForSelector(`${tid("advisor-state")}[data-running="false"]`, { timeout: 120_000 });
    const before = await page.locator(tid("advisor-result")).getAttribute("data-base-max");
    const t = await page.evaluate(
      ({ format, before, adviceFor }) => {
        const ux = window.__ux!;
        const gone = ux.element(
          `[data-testid="advisor-recalculating"], [data-testid="advisor-running"], [data-testid="advisor-result"]:not([data-base-max="${before}"])`,
        );
        const done = ux.element(adviceFor);
        const sel = document.querySelector<HTMLSelectElement>('[data-testid="advisor-format"]')!;
        const t0 = performance.now();
        sel.value = format;
        sel.dispatchEvent(new Event("change", { bubbles: true }));
        return Promise.all([gone, done]).then(([g, d]) => ({ marked: g.paintedAt - t0, advice: d.paintedAt - t0 }));
      },
      { format, before: before ?? "", adviceFor: ADVICE(format, before) },
    );
    marked.push(t.marked);
    advice.push(t.advice);
    const ms = await page.locator(tid("advisor-state")).getAttribute("data-ms");
    if (ms !== null) work.push(Number(ms));
  }
  return {
    open: figure(open),
    openAdvice: figure(openAdvice),
    marked: figure(marked),
    advice: figure(advice),
    work: figure(work),
  };
}
