// Page helpers for the designer e2e tests: waiting for the worker's answers, reading numbers, dragging.
import type { Locator, Page } from "playwright-core";

export const tid = (id: string) => `[data-testid="${id}"]`;

/** The layout key the analysis panel currently shows sizes for ("" before the first answer). */
export async function shownLayoutKey(page: Page): Promise<string> {
  return (await page.locator('[data-testid^="panel-"]').getAttribute("data-layout-key")) ?? "";
}

/**
 * Waits until complete sizes (every sample, every format) for a layout other than `previous` are on screen, for the
 * layout being edited now (not marked outdated), and nothing is being computed. The figures are drawn as a deferred
 * render, so the workers can be done while a first estimate for the same layout is still what the panel shows: both
 * are checked.
 */
export async function waitForSizes(page: Page, previous = ""): Promise<string> {
  await page.waitForFunction(
    (prev) => {
      const panel = document.querySelector('[data-testid^="panel-"]');
      const key = panel?.getAttribute("data-layout-key");
      const busy = document.querySelector('[data-testid="compute-state"]')?.getAttribute("data-computing");
      const stale = document.querySelector('[data-testid="sizes-view"]')?.getAttribute("data-stale");
      return (
        !!key && key !== prev && busy === "false" && panel?.getAttribute("data-complete") === "true" && stale !== "true"
      );
    },
    previous,
    { timeout: 60_000 },
  );
  return shownLayoutKey(page);
}

export async function openPreset(page: Page, id: string): Promise<void> {
  await page.click(tid(`preset-${id}`));
  await page.waitForSelector(tid("designer"));
  await waitForSizes(page);
}

export async function stat(
  page: Page,
  format: string,
  name: "min" | "mean" | "p50" | "p95" | "p99" | "max",
): Promise<number> {
  const v = await page.locator(tid(`size-${format}-${name}`)).getAttribute("data-value");
  if (v === null || v === "") throw new Error(`no ${name} shown for ${format}`);
  return Number(v);
}

/** Keys of the tree rows in screen order ("gps.lat" for nested rows). */
export async function rowKeys(page: Page): Promise<string[]> {
  return page.$$eval('[data-testid="layout-tree"] [role="treeitem"]', (els) =>
    els.map((e) => (e.getAttribute("data-testid") ?? "").replace(/^row-/, "")),
  );
}

/**
 * A real pointer drag: press, nudge past dnd-kit's activation distance, glide to the target and
 * release at the given height inside it (before/after decisions depend on it).
 */
export async function drag(
  page: Page,
  from: Locator,
  to: Locator,
  at: "top" | "middle" | "bottom" = "middle",
): Promise<void> {
  const a = await from.boundingBox();
  if (!a) throw new Error("drag source is not visible");
  await to.scrollIntoViewIfNeeded();
  const x0 = a.x + a.width / 2;
  const y0 = a.y + a.height / 2;
  await page.mouse.move(x0, y0);
  await page.mouse.down();
  await page.mouse.move(x0 + 8, y0 + 8, { steps: 4 });
  const b = await to.boundingBox();
  if (!b) throw new Error("drop target is not visible");
  const y = at === "top" ? b.y + b.height * 0.25 : at === "bottom" ? b.y + b.height * 0.75 : b.y + b.height / 2;
  await page.mouse.move(b.x + Math.min(b.width / 2, 120), y, { steps: 12 });
  await page.mouse.move(b.x + Math.min(b.width / 2, 120) + 1, y, { steps: 2 });
  await page.mouse.up();
}

export async function savedVersion(page: Page): Promise<number> {
  return Number(await page.locator(tid("save-state")).getAttribute("data-version"));
}

/** Waits for the autosave to land: status "saved" at a version above `above`. */
export async function waitForSaved(page: Page, above: number): Promise<number> {
  await page.waitForFunction(
    (v) => {
      const el = document.querySelector('[data-testid="save-state"]');
      return el?.getAttribute("data-status") === "saved" && Number(el.getAttribute("data-version")) > v;
    },
    above,
    { timeout: 20_000 },
  );
  return savedVersion(page);
}

/**
 * Waits until the Stack page says the stack runs. When it cannot (the start failed, or it is still not running after
 * `timeout`), fails with what the page shows — the state, the error box and the last log lines — so a failure
 * says why instead of only "timeout".
 */
export async function waitForStackRunning(page: Page, timeout = 120_000): Promise<void> {
  const state = page.locator(tid("stack-state"));
  const outcome = await page
    .waitForFunction(
      () => {
        const s = document.querySelector('[data-testid="stack-state"]')?.getAttribute("data-state");
        if (s === "running") return "running";
        // an error box with the chip back at "stopped": the start failed
        return document.querySelector('[data-testid="stack-error"]') && s === "stopped" ? "failed" : false;
      },
      undefined,
      { timeout },
    )
    .then((h) => h.jsonValue())
    .catch(() => "timeout");
  if (outcome === "running") return;
  const error = await page
    .locator(tid("stack-error"))
    .textContent({ timeout: 1000 })
    .catch(() => null);
  const logs = await page
    .locator(tid("stack-logs"))
    .textContent({ timeout: 1000 })
    .catch(() => null);
  throw new Error(
    `the stack did not start (${outcome}; the page shows "${await state.getAttribute("data-state")}"): ` +
      `error: ${error ?? "none"}; last logs: ${(logs ?? "none").slice(-1500)}`,
  );
}
