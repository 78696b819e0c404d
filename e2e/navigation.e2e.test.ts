// The page bar and the route in the URL end to end: every page reached from the one bar, a reload lands on the
// same page and tab, the back and forward buttons walk the visits, and the URLs of before still land.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

/** the bar's entries that say they are the page on screen */
async function currentEntries(page: Page): Promise<string[]> {
  return page
    .locator('nav.app-nav [aria-current="page"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-testid") ?? ""));
}

const search = (page: Page) => new URL(page.url()).searchParams;

describe("navigation (browser mode)", SCENARIO, () => {
  it("reaches the pages from the one bar; reload, back and forward keep the route", { timeout: 300_000 }, async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await openPreset(page, "paper");
    const project = search(page).get("project");
    expect(project).toBeTruthy();
    expect(await page.locator("nav.app-nav").count()).toBe(1);
    expect(await currentEntries(page)).toEqual(["nav-designer"]);
    await screenshot(page, "nav-01-designer");

    await page.click(tid("nav-cost"));
    await page.waitForSelector(tid("cost-table"));
    await page.click(tid("nav-advisor"));
    await page.waitForSelector(tid("decide-advisor"));
    expect(search(page).get("page")).toBe("decide");
    expect(search(page).get("tab")).toBe("advisor");
    expect(search(page).get("project")).toBe(project);
    expect(await currentEntries(page)).toEqual(["nav-advisor"]);
    await screenshot(page, "nav-02-advisor");

    // a reload opens the project again and lands on the same page and tab
    await page.reload();
    await page.waitForSelector(tid("decide-advisor"));
    expect(await currentEntries(page)).toEqual(["nav-advisor"]);
    expect(await page.locator("nav.app-nav").count()).toBe(1);

    await page.click(tid("nav-stack"));
    await page.waitForSelector(tid("stack-page"));
    expect(await currentEntries(page)).toEqual(["nav-stack"]);
    await screenshot(page, "nav-03-stack");

    // back walks the visits: stack → advisor → fleet cost → designer; forward returns
    await page.goBack();
    await page.waitForSelector(tid("decide-advisor"));
    expect(await currentEntries(page)).toEqual(["nav-advisor"]);
    await page.goBack();
    await page.waitForSelector(tid("decide-cost"));
    expect(await currentEntries(page)).toEqual(["nav-cost"]);
    await page.goBack();
    await page.waitForSelector(tid("designer"));
    expect(await currentEntries(page)).toEqual(["nav-designer"]);
    expect(search(page).get("page")).toBeNull();
    await page.goForward();
    await page.waitForSelector(tid("decide-cost"));
    expect(await currentEntries(page)).toEqual(["nav-cost"]);

    // a page's own way back is a visit too: back returns to the page
    await page.click(tid("decide-back"));
    await page.waitForSelector(tid("designer"));
    await page.goBack();
    await page.waitForSelector(tid("decide-cost"));

    // the export page's tabs are routes as well
    await page.click(tid("nav-export"));
    await page.waitForSelector(tid("export-page"));
    await page.click(tid("tab-export-evolution"));
    expect(search(page).get("tab")).toBe("evolution");
    await page.reload();
    await page.waitForSelector(`${tid("tab-export-evolution")}[aria-selected="true"]`);
    await page.goBack();
    await page.waitForSelector(`${tid("tab-export-files")}[aria-selected="true"]`);
    expect(await currentEntries(page)).toEqual(["nav-export"]);
    expect(errors).toEqual([]);
  });

  it("lands the ?page= URLs of before on their page", { timeout: 300_000 }, async () => {
    const { page, errors } = await s.open();
    await openPreset(page, "paper");
    const base = new URL(page.url());
    for (const [old, testId, entry] of [
      ["report", "decide-report", "nav-report"],
      ["cost", "decide-cost", "nav-cost"],
      ["export", "export-page", "nav-export"],
      ["bench", "bench-page", "nav-bench"],
      ["loadtest", "loadtest-page", "nav-loadtest"],
    ] as const) {
      const url = new URL(base);
      url.searchParams.set("page", old);
      await page.goto(url.toString());
      await page.waitForSelector(tid(testId));
      expect(await currentEntries(page)).toEqual([entry]);
    }
    expect(errors).toEqual([]);
  });

  it(
    "shows the start screen for a page that needs a project when there is none, and the designer's entry leads home",
    { timeout: 120_000 },
    async () => {
      const { page, errors } = await s.open();
      await page.waitForSelector(tid("start-screen"));
      expect(await page.locator(tid("nav-cost")).count()).toBe(0);
      expect(await page.locator(tid("nav-export")).count()).toBe(0);
      const url = new URL(page.url());
      url.searchParams.set("page", "report");
      await page.goto(url.toString());
      await page.waitForSelector(tid("start-screen"));
      // no project to show the report of: the URL no longer promises it
      await page.waitForFunction(() => new URL(location.href).searchParams.get("page") === null);
      await page.click(tid("nav-channel"));
      await page.waitForSelector(tid("channel-page"));
      await page.click(tid("nav-designer"));
      await page.waitForSelector(tid("start-screen"));
      expect(errors).toEqual([]);
    },
  );

  it(
    "shows a lazy page's loading state until its code arrives; the bar's badges are drawn from the start",
    { timeout: 120_000 },
    async () => {
      const { context, page, errors } = await s.open();
      // each page's chunk is held until the test has seen that page's loading state (routing turns the HTTP cache
      // off, so the reload below fetches every chunk through here)
      const pages = [
        ["bench", "Bench", "DevKit bench", "bench-page"],
        ["loadtest", "LoadTest", "Load test", "loadtest-page"],
        ["stack", "Stack", "Stack", "stack-page"],
        ["channel", "Channel", "Channel", "channel-page"],
      ] as const;
      const release = new Map<string, () => void>();
      const gates = new Map<string, Promise<void>>(
        pages.map(([, chunk]) => [chunk, new Promise<void>((r) => release.set(chunk, r))]),
      );
      const asked = new Set<string>();
      await context.route(/\/assets\/(Bench|LoadTest|Stack|Channel)Page-[^/]*\.js$/, async (route, request) => {
        const chunk = /\/(\w+)Page-[^/]*\.js$/.exec(request.url())![1]!;
        asked.add(chunk);
        await gates.get(chunk);
        await route.continue();
      });
      await page.reload();
      await page.waitForSelector(tid("start-screen"));
      // the badges and their styles come with the app, not with their pages' chunks
      expect(await page.locator(`${tid("nav-bench")} .bench-state`).textContent()).toContain("no DevKit");
      const dot = await page
        .locator(`${tid("nav-stack")} .stack-nav-dot`)
        .evaluate((e) => [getComputedStyle(e).width, getComputedStyle(e).borderRadius]);
      expect(dot).toEqual(["8px", "50%"]);
      for (const [id, chunk, label, ready] of pages) {
        await page.click(tid(`nav-${id}`));
        const loading = page.locator(`.page-slot:not([hidden]) ${tid("page-loading")}`);
        await loading.waitFor();
        expect(await loading.textContent()).toBe(`Opening ${label}…`);
        expect(await page.locator(tid(ready)).count()).toBe(0);
        release.get(chunk)!();
        await page.waitForSelector(tid(ready));
        expect(await loading.count()).toBe(0);
      }
      // every lazy page came as a chunk of its own
      expect([...asked].sort()).toEqual(["Bench", "Channel", "LoadTest", "Stack"]);
      expect(errors).toEqual([]);
    },
  );
});
