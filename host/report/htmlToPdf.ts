// Browser mode's report PDF: the host prints the report page's HTML snapshot with a headless Chromium (the same
// engine the user's page runs in), offline and without scripts, at the CSS page size.
import { existsSync } from "node:fs";
import type { PageSize } from "../api/report.ts";
import { HostError } from "../errors.ts";
import { assertPdf } from "./pdfFile.ts";

/** Debian's chromium unless SATPAYLOAD_CHROMIUM names another binary. */
export function chromiumPath(): string {
  return process.env.SATPAYLOAD_CHROMIUM ?? "/usr/bin/chromium";
}

// Chromium's sandbox cannot start as root (CI, containers); everywhere else it stays on
const ARGS = [
  "--headless",
  ...(process.getuid?.() === 0 ? ["--no-sandbox"] : []),
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
/** a report is a few pages: far longer than this means the printer hangs */
const TIMEOUT_MS = 60_000;

/**
 * PDF bytes of a self-contained HTML document (styles inlined, charts as inline SVG). Nothing is fetched and no
 * script runs: the snapshot is printed as it was drawn.
 */
export async function htmlToPdf(
  html: string,
  pageSize: PageSize,
  executablePath = chromiumPath(),
): Promise<Uint8Array> {
  if (!existsSync(executablePath))
    throw new HostError(
      "conflict",
      `no Chromium to print with at ${executablePath}: install chromium (apt-get install chromium) or set SATPAYLOAD_CHROMIUM`,
    );
  // playwright-core is loaded only when a PDF is asked for: the desktop shell prints with Electron instead
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath, headless: true, args: ARGS, timeout: TIMEOUT_MS });
  try {
    const context = await browser.newContext({ javaScriptEnabled: false, offline: true });
    await context.route("**/*", (route) =>
      route.request().url().startsWith("data:") ? route.continue() : route.abort(),
    );
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT_MS);
    await page.setContent(html, { waitUntil: "load" });
    const pdf = await page.pdf({ format: pageSize, preferCSSPageSize: true, printBackground: true });
    const bytes = new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
    assertPdf(bytes);
    return bytes;
  } finally {
    await browser.close();
  }
}
