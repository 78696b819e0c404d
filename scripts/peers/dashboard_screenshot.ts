// Opens the paper author's dashboard (served by dashboard_server.mjs) in Debian's Chromium and saves a
// full-page screenshot once its table and numbers have loaded; with --details, also one of a
// container's details dialog. Prints what the page shows (its headline numbers and table rows).
//
// node --import tsx scripts/peers/dashboard_screenshot.ts --url http://127.0.0.1:<port>/ --out page.png [--details details.png]
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS } from "../../e2e/support/chromium.ts";

const { values: o } = parseArgs({
  options: { url: { type: "string" }, out: { type: "string" }, details: { type: "string" } },
});
if (!o.url || !o.out) {
  process.stderr.write("needs --url URL --out FILE.png\n");
  process.exit(2);
}
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(o.url);
  await page.waitForSelector("#containerTableBody tr", { timeout: 30_000 });
  // his stats and chart load after the table; his activity chart asks /api/activity separately
  await page.waitForFunction(() => document.getElementById("totalRecords")?.textContent !== "0", null, {
    timeout: 30_000,
  });
  await page.waitForTimeout(1500);
  // the page's headline numbers by element id (no named functions inside: tsx would name them)
  const ids = ["totalRecords", "uniqueContainers", "successRate", "avgCompression", "totalContainers", "queueLength"];
  const shown: Record<string, unknown> = await page.evaluate(
    (list) => ({
      ...Object.fromEntries(list.map((id) => [id, document.getElementById(id)?.textContent?.trim() ?? null])),
      rows: document.querySelectorAll("#containerTableBody tr").length,
      firstRow: document.querySelector("#containerTableBody tr")?.textContent?.replace(/\s+/g, " ").trim() ?? null,
    }),
    ids,
  );
  await page.screenshot({ path: o.out, fullPage: true });
  if (o.details) {
    await page.click(".view-details-btn");
    await page.waitForSelector("#containerModal", { state: "visible" });
    await page.waitForTimeout(1000);
    await page.screenshot({ path: o.details, fullPage: false });
    shown.details = (await page.textContent("#containerModal"))?.replace(/\s+/g, " ").trim().slice(0, 600);
  }
  process.stdout.write(`${JSON.stringify({ ...shown, pageErrors: errors })}\n`);
} finally {
  await browser.close();
}
