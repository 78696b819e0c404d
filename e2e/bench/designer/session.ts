// A bench page: the probe installed before the app's scripts, a layout opened the way a user opens one.
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import type { LayoutInput } from "#codecs";
import { PROBE_SCRIPT } from "./probe.ts";
import type { E2eSession } from "../../support/session.ts";
import { tid, waitForSizes } from "../../support/ui.ts";

export const VIEWPORT = { width: 1440, height: 900 };

export async function probedPage(s: E2eSession): Promise<{ page: Page; context: BrowserContext }> {
  const { page, context } = await s.open(VIEWPORT);
  await page.addInitScript({ content: PROBE_SCRIPT });
  await page.reload();
  await page.waitForSelector(tid("new-empty"));
  return { page, context };
}

/** "Open file…" with the layout as a .satlayout.json; resolves when its first sizes are in, or with the refusal. */
export async function importLayout(page: Page, layout: LayoutInput): Promise<{ refused: string | null }> {
  const file = path.join(os.tmpdir(), `bench-${process.pid}-${Date.now()}.satlayout.json`);
  writeFileSync(file, JSON.stringify(layout));
  await page.setInputFiles(tid("file-input"), file);
  const outcome = await Promise.race([
    page.waitForSelector(tid("designer"), { timeout: 120_000 }).then(() => "open" as const),
    page.waitForSelector(tid("start-error"), { timeout: 120_000 }).then(() => "refused" as const),
  ]);
  if (outcome === "refused")
    return { refused: (await page.locator(tid("start-error")).innerText()).replace(/\s+/g, " ") };
  await waitForSizes(page);
  return { refused: null };
}

export async function openPresetProbed(page: Page, id: string): Promise<void> {
  await page.click(tid(`preset-${id}`));
  await page.waitForSelector(tid("designer"));
  await waitForSizes(page);
}
