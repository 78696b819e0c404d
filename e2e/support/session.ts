// One e2e session: the real browser-mode host on a free port with a throw-away data directory, and one
// headless Chromium; each test gets its own browser context (fresh storage) from it.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { startBrowserHost, type BrowserHost } from "#host/httpHost.ts";
import { rendererDist, repoRoot, requireRendererBuilt } from "./build.ts";
import { CHROMIUM, CHROMIUM_ARGS } from "./chromium.ts";

export { CHROMIUM, CHROMIUM_ARGS } from "./chromium.ts";
export const artifactsDir = path.join(repoRoot, "e2e/artifacts");

export interface E2eSession {
  server: BrowserHost;
  browser: Browser;
  dataDir: string;
  /** a page in a fresh context, 1280×720 unless told otherwise, already at the tokened URL */
  open(opts?: {
    width?: number;
    height?: number;
    colorScheme?: "light" | "dark";
  }): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  close(): Promise<void>;
}

export async function startSession(opts: { rendererDir?: string } = {}): Promise<E2eSession> {
  if (!opts.rendererDir) requireRendererBuilt();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "satpayload-e2e-"));
  const previous = process.env.SATPAYLOAD_DATA_DIR;
  process.env.SATPAYLOAD_DATA_DIR = dataDir;
  const server = await startBrowserHost({ dataDir, port: 0, rendererDir: opts.rendererDir ?? rendererDist });
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  } catch (e) {
    await server.close();
    throw e;
  }
  const contexts: BrowserContext[] = [];
  return {
    server,
    browser,
    dataDir,
    async open({ width = 1280, height = 720, colorScheme = "light" } = {}) {
      const context = await browser.newContext({ viewport: { width, height }, colorScheme, acceptDownloads: true });
      contexts.push(context);
      const page = await context.newPage();
      const errors: string[] = [];
      // CSP violations and uncaught errors both surface here; a clean UI produces none
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(server.url);
      return { context, page, errors };
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await server.close();
      if (previous === undefined) delete process.env.SATPAYLOAD_DATA_DIR;
      else process.env.SATPAYLOAD_DATA_DIR = previous;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}
