// What keeps the designer fast, end to end (built renderer, real host, headless Chromium): sizes still being
// computed are marked as updating and never shown as the new layout's (the sizes workers are held by the test),
// and a 500-field layout's tree mounts only the rows near the view and brings the others in on scroll. (The pages
// loaded on first use show their empty states in decide.e2e.test.ts.)
import { randomUUID } from "node:crypto";
import type { Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wideLayout } from "./bench/designer/layouts.ts";
import { SCENARIO } from "./support/scenario.ts";
import { screenshot, startSession, type E2eSession } from "./support/session.ts";
import { openPreset, shownLayoutKey, stat, tid, waitForSizes } from "./support/ui.ts";

let s: E2eSession;

beforeAll(async () => {
  s = await startSession();
}, 300_000);

afterAll(async () => {
  await s?.close();
});

/**
 * Serves the sizes worker with its answers held back while the test says so: "hold" (every answer), "hold-final"
 * (only sizes over every sample: a large run's first pass and progress go through) or "release", on a
 * BroadcastChannel of this page's own, which the worker's code (prepended here) listens to. The mode is the page's:
 * a worker holds everything until it has heard the mode (the page answers each worker's hello with it, so one that
 * starts late on a busy machine misses nothing), and the test goes on only when every worker that said hello has
 * acknowledged the mode it set.
 */
async function holdableWorkers(
  page: Page,
): Promise<{ hold(): Promise<void>; holdFinal(): Promise<void>; release(): Promise<void> }> {
  // channels are shared by every page of the origin: names of this page's own, or another test's workers (their
  // pages stay open) would take its modes and answer for it
  const channel = `e2e-sizes-${randomUUID()}`;
  await page.addInitScript((name) => {
    const e2e = { workers: new Set<string>(), acks: new Map<string, Set<string>>(), mode: { mode: "release", id: "" } };
    (window as unknown as { __e2eHold: typeof e2e }).__e2eHold = e2e;
    const modes = new BroadcastChannel(name);
    new BroadcastChannel(`${name}-ack`).onmessage = (
      e: MessageEvent<{ worker: string; hello?: true; ack?: string }>,
    ) => {
      if (e.data.hello) {
        e2e.workers.add(e.data.worker);
        modes.postMessage(e2e.mode);
      } else if (e.data.ack !== undefined) {
        e2e.acks.set(e.data.ack, (e2e.acks.get(e.data.ack) ?? new Set()).add(e.data.worker));
      }
    };
  }, channel);
  await page.route(/sizes\.worker-[^/]*\.js$/, async (route: Route) => {
    const res = await route.fetch();
    const prelude = `
      const __e2eHeld = [];
      const __e2eWorker = Math.random().toString(36).slice(2);
      let __e2eMode = "unknown";
      const __e2ePost = self.postMessage.bind(self);
      const __e2eFinal = (m) => m.type === "sizes" && m.results.every((r) => r.measured === m.samples);
      self.postMessage = (m) =>
        __e2eMode === "unknown" || __e2eMode === "hold" || (__e2eMode === "hold-final" && __e2eFinal(m))
          ? __e2eHeld.push(m)
          : __e2ePost(m);
      const __e2eAck = new BroadcastChannel(${JSON.stringify(`${channel}-ack`)});
      new BroadcastChannel(${JSON.stringify(channel)}).onmessage = (e) => {
        __e2eMode = e.data.mode;
        if (__e2eMode === "release") for (const m of __e2eHeld.splice(0)) __e2ePost(m);
        if (__e2eMode === "hold-final") for (const m of __e2eHeld.splice(0)) self.postMessage(m);
        __e2eAck.postMessage({ worker: __e2eWorker, ack: e.data.id });
      };
      __e2eAck.postMessage({ worker: __e2eWorker, hello: true });
    `;
    await route.fulfill({ response: res, body: prelude + (await res.text()) });
  });
  let said = 0;
  const say = async (mode: string) => {
    const id = `${mode}#${++said}`;
    await page.evaluate(
      ([name, m]) => {
        (window as unknown as { __e2eHold: { mode: typeof m } }).__e2eHold.mode = m;
        new BroadcastChannel(name).postMessage(m);
      },
      [channel, { mode, id }] as const,
    );
    await page.waitForFunction(
      (ack) => {
        const { workers, acks } = (
          window as unknown as { __e2eHold: { workers: Set<string>; acks: Map<string, Set<string>> } }
        ).__e2eHold;
        return workers.size > 0 && [...workers].every((w) => acks.get(ack)?.has(w));
      },
      id,
      { timeout: 120_000 },
    );
  };
  return { hold: () => say("hold"), holdFinal: () => say("hold-final"), release: () => say("release") };
}

describe("designer speed (browser mode)", SCENARIO, () => {
  it("marks the sizes as updating while they are computed, and never shows them as the new layout's", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    const workers = await holdableWorkers(page);
    await page.reload();
    await openPreset(page, "paper");
    const before = await shownLayoutKey(page);
    const jsonP50 = await stat(page, "json", "p50");
    expect(await page.locator(tid("sizes-view")).getAttribute("data-stale")).toBe("false");

    await workers.hold();
    await page.click(tid("row-pressure"));
    await page.click(tid("insp-key"));
    await page.keyboard.press("End");
    await page.keyboard.type("x");
    // the keystroke is on screen; the figures are the previous layout's, and say so
    await page.waitForSelector(`${tid("sizes-view")}[data-stale="true"]`);
    expect(await page.locator(tid("insp-key")).inputValue()).toBe("pressurex");
    expect(await page.locator(tid("sizes-updating")).isVisible()).toBe(true);
    expect(await shownLayoutKey(page)).toBe(before);
    expect(await stat(page, "json", "p50")).toBe(jsonP50);
    expect(await page.locator(tid("compute-state")).getAttribute("data-computing")).toBe("true");
    await screenshot(page, "speed-01-sizes-updating");

    await workers.release();
    const after = await waitForSizes(page, before);
    expect(after).not.toBe(before);
    expect(await page.locator(tid("sizes-view")).getAttribute("data-stale")).toBe("false");
    expect(await page.locator(tid("sizes-updating")).count()).toBe(0);
    // one more character in one key of every JSON record
    expect(await stat(page, "json", "p50")).toBe(jsonP50 + 1);
    expect(errors).toEqual([]);
  });

  it("shows a large run's progress, stops refining it on Stop, and refines again when asked", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    const workers = await holdableWorkers(page);
    await page.reload();
    await openPreset(page, "paper");
    await workers.holdFinal();
    await page.selectOption(tid("samples"), "10000");
    // the first 1 000 samples are on screen as an estimate, refining, with a way to stop (the figures of the
    // 1 000-sample run before also say 1 000 measured: the text tells the estimate from them; on a busy machine a
    // first estimate over 100 samples may come before it)
    await page.waitForFunction(
      (sel) => document.querySelector(sel)?.textContent?.includes("estimate from the first 1,000 of 10,000"),
      tid("sizes-measured"),
      { timeout: 60_000 },
    );
    await page.waitForSelector(tid("sizes-stop"));
    await page.waitForSelector(`${tid("sizes-progress")}:not([data-measured=""])`);
    await screenshot(page, "speed-04-refining");
    await page.click(tid("sizes-stop"));
    await page.waitForSelector(`${tid("compute-state")}[data-computing="false"]`);
    expect(await page.locator(tid("sizes-measured")).textContent()).toContain("(refinement stopped)");
    expect(await page.locator(tid("sizes-stop")).count()).toBe(0);

    await page.click(tid("sizes-refine"));
    await workers.release();
    await page.waitForSelector(`${tid("sizes-measured")}[data-measured="10000"]`);
    await page.waitForSelector(`${tid("compute-state")}[data-computing="false"]`);
    expect(await page.locator(tid("sizes-measured")).textContent()).toContain("10,000 samples");
    expect(errors).toEqual([]);
  });

  // 2 000 fields at 1 000 samples, twice (estimate, then refined): minutes on a 2-core machine under a CPU burner
  it(
    "shows a first estimate of a slow run at 1 000 samples at once, marked, and stops it on Stop",
    { timeout: 300_000 },
    async () => {
      const { page, errors } = await s.open({ width: 1440, height: 900 });
      const workers = await holdableWorkers(page);
      await page.reload();
      await page.waitForSelector(tid("file-input"), { state: "attached" });
      // every sample over all samples is held back: only an estimate can reach the screen
      await workers.holdFinal();
      // 2 000 fields, nothing measured yet: the rest of the run takes far longer than a frame on any machine
      await page.setInputFiles(tid("file-input"), {
        name: "wide.satlayout.json",
        mimeType: "application/json",
        buffer: Buffer.from(JSON.stringify(wideLayout(2000))),
      });
      await page.waitForSelector(tid("designer"));
      const measured = page.locator(tid("sizes-measured"));
      await page.waitForSelector(`${tid("sizes-measured")}[data-measured="100"]`, { timeout: 120_000 });
      expect(await page.locator(tid("samples")).inputValue()).toBe("1000");
      expect(await measured.textContent()).toContain("estimate from the first 100 of 1,000 samples, refining…");
      // an estimate is not the final figures: the rows say they are updating, the state says computing
      expect(await page.locator(tid("sizes-row-json")).getAttribute("data-pending")).toBe("true");
      expect(await page.locator(tid("compute-state")).getAttribute("data-computing")).toBe("true");
      await screenshot(page, "speed-05-estimate-2000-fields");
      await page.click(tid("sizes-stop"));
      await page.waitForSelector(`${tid("compute-state")}[data-computing="false"]`);
      expect(await measured.textContent()).toContain(
        "estimate from the first 100 of 1,000 samples (refinement stopped)",
      );

      await page.click(tid("sizes-refine"));
      await workers.release();
      await page.waitForSelector(`${tid("sizes-measured")}[data-measured="1000"]`, { timeout: 120_000 });
      await page.waitForSelector(`${tid("compute-state")}[data-computing="false"]`);
      expect(await measured.textContent()).toContain("1,000 samples");
      expect(await page.locator(tid("sizes-row-json")).getAttribute("data-pending")).toBe("false");
      expect(errors).toEqual([]);
    },
  );

  it("mounts only the rows of a 500-field layout near the view, and the others on scroll", async () => {
    const { page, errors } = await s.open({ width: 1440, height: 900 });
    await page.waitForSelector(tid("file-input"), { state: "attached" });
    await page.setInputFiles(tid("file-input"), {
      name: "wide.satlayout.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(wideLayout(500))),
    });
    await page.waitForSelector(tid("designer"));
    await waitForSizes(page);
    const tree = page.locator(tid("layout-tree"));
    expect(await tree.getAttribute("data-rows")).toBe("500");
    expect(await page.locator(tid("field-count")).textContent()).toBe("500");
    const mounted = await tree.locator('[role="treeitem"]').count();
    expect(mounted).toBeGreaterThan(10);
    expect(mounted).toBeLessThan(150);
    expect(await page.locator(tid("row-f_0")).count()).toBe(1);
    expect(await page.locator(tid("row-f_499")).count()).toBe(0);

    // scrolled to the end: the last rows are there, the first ones gone
    await tree.evaluate((el) => {
      const pane = el.closest(".pane-body")!;
      pane.scrollTop = pane.scrollHeight;
    });
    await page.waitForSelector(tid("row-f_499"));
    expect(await page.locator(tid("row-f_0")).count()).toBe(0);
    await page.click(tid("row-f_499"));
    expect(await page.locator(tid("inspector")).getAttribute("data-field-id")).toBe("f499");

    // the arrow keys walk into rows that were not mounted: back to the top from the last row
    await page.evaluate(() => {
      const pane = document.querySelector('[data-testid="layout-tree"]')!.closest(".pane-body")!;
      pane.scrollTop = 0;
    });
    await page.click(tid("row-f_1"));
    await page.keyboard.press("ArrowUp");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("row-f_0");

    // typing in a field of the long layout: the tree row follows the key
    await page.click(tid("row-f_0"));
    await page.click(tid("insp-key"));
    await page.keyboard.press("End");
    await page.keyboard.type("_speed", { delay: 60 });
    await screenshot(page, "speed-02-500-fields-typing");
    await page.waitForSelector(tid("row-f_0_speed"));
    await waitForSizes(page);
    await screenshot(page, "speed-03-500-fields-settled");
    expect(errors).toEqual([]);
  });
});
