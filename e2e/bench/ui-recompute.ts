// Benchmark (prints numbers, asserts nothing): change → updated bars in the real designer, paper preset, all 9 formats.
// Scenarios: first sizes after opening; an edit not on the wire (a unit) and an edit of one field's values, at 1 000
// and 10 000 samples; layout-wide changes (seed, JSON spacing) at 1 000. Run: npx tsx e2e/bench/ui-recompute.ts [edits]
import os from "node:os";
import type { Page } from "playwright-core";
import { FORMAT_IDS } from "#codecs";
import type { PerfRun } from "#renderer/perf.ts";
import { startSession } from "../support/session.ts";
import { openPreset, tid, waitForSizes } from "../support/ui.ts";

const EDITS = Number(process.argv[2] ?? 30);
const WARMUP = 5;
const OPENS = 3;

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
}

const fmt = (x: number) => x.toFixed(1).padStart(7);
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");

/** One change at a time, each waited for until every bar (Struct+Zlib and refinement included) is in. */
async function measure(page: Page, change: (i: number) => Promise<void>): Promise<PerfRun[]> {
  await page.evaluate(() => window.__satpayloadPerf!.clear());
  for (let i = 0; i < EDITS + WARMUP; i++) {
    const before = await page.evaluate(() => window.__satpayloadPerf!.runs.length);
    await change(i);
    await page.waitForFunction(
      (n) => window.__satpayloadPerf!.runs.length > n && window.__satpayloadPerf!.last!.completeMs !== undefined,
      before,
      { timeout: 120_000 },
    );
  }
  return (await page.evaluate(() => window.__satpayloadPerf!.runs)).slice(WARMUP);
}

function report(title: string, runs: PerfRun[]): void {
  const col = (f: (r: PerfRun) => number | undefined) => runs.map(f).filter((x): x is number => x !== undefined);
  const rows: [string, number[]][] = [
    ["change → 8 bars (UI, total)", col((r) => r.editToBarsMs)],
    ["Struct+Zlib bar behind them", col((r) => r.zlibBehindMs)],
    ["change → every bar, all samples", col((r) => r.completeMs)],
    ["  main: parse + post", col((r) => r.sentAt - r.editAt)],
    ["  worker round trip", col((r) => r.receivedAt - r.sentAt)],
    ["    draw samples", col((r) => r.generateMs)],
    ["    measure (slowest worker)", col((r) => r.measureMs)],
    ["  React commit of bars", col((r) => r.renderedAt - r.receivedAt)],
  ];
  for (const f of FORMAT_IDS) rows.push([`      ${f}`, col((r) => r.perFormatMs[f])]);
  console.log(`\n${title}: ${runs.length} changes (after ${WARMUP} warm-up), load average ${load()} at the end`);
  console.log(`${"".padEnd(34)}    p50     p95     max  (ms)`);
  for (const [name, v] of rows)
    if (v.length) console.log(`${name.padEnd(34)}${fmt(pct(v, 50))} ${fmt(pct(v, 95))} ${fmt(Math.max(...v))}`);
}

async function setSamples(page: Page, n: number): Promise<void> {
  await page.selectOption(tid("samples"), String(n));
  await page.waitForFunction(
    (want) =>
      document.querySelector('[data-testid="sizes-measured"]')?.getAttribute("data-measured") === want &&
      document.querySelector('[data-testid="compute-state"]')?.getAttribute("data-computing") === "false",
    String(n),
    { timeout: 120_000 },
  );
}

async function main(): Promise<void> {
  const s = await startSession();
  try {
    console.log(
      `Chromium ${s.browser.version()} headless 1280×720, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), load average ${load()} at the start`,
    );

    // first sizes after opening: a fresh page (cold workers, cold JIT) each time, click → first bars
    const opens: number[] = [];
    const zlibOpen: number[] = [];
    for (let k = 0; k < OPENS; k++) {
      const { page, context } = await s.open();
      await page.waitForSelector(tid("preset-paper"));
      await page.evaluate(() => {
        (window as unknown as { __clickAt: number }).__clickAt = performance.now();
        (document.querySelector('[data-testid="preset-paper"]') as HTMLElement).click();
      });
      await page.waitForFunction(
        () =>
          (window.__satpayloadPerf?.runs.length ?? 0) > 0 && window.__satpayloadPerf!.last!.completeMs !== undefined,
        undefined,
        { timeout: 120_000 },
      );
      const [first, zlib] = await page.evaluate(() => {
        const r = window.__satpayloadPerf!.runs[0]!;
        const at = (window as unknown as { __clickAt: number }).__clickAt;
        return [r.renderedAt - at, r.renderedAt + (r.zlibBehindMs ?? 0) - at];
      });
      opens.push(first!);
      zlibOpen.push(zlib!);
      await context.close();
    }
    console.log(
      `\nfirst sizes after opening the paper preset (fresh page each, click → bars): ${opens.map((x) => x.toFixed(0)).join(", ")} ms; Struct+Zlib bar: ${zlibOpen.map((x) => x.toFixed(0)).join(", ")} ms`,
    );

    const { page } = await s.open();
    await openPreset(page, "paper");
    await page.click(tid("row-pressure"));
    const unit = (i: number) => page.fill(tid("insp-unit"), `hPa ${i}`);
    // each scenario its own prefix, so its first template always differs from the one on screen
    const values = (prefix: string) => async (i: number) => {
      await page.click(tid("row-iso6346"));
      await page.fill(tid("insp-sample-template"), `${prefix}{digits:${6 + (i % 2)}}`);
    };
    report("1 000 samples, edit not on the wire (unit of pressure)", await measure(page, unit));
    report("1 000 samples, edit of one field's values (container id template)", await measure(page, values("ABCU")));
    report("1 000 samples, layout-wide: new seed", await measure(page, (i) => page.fill(tid("seed"), String(100 + i))));
    await page.fill(tid("seed"), "1");
    await waitForSizes(page, "");
    await setSamples(page, 10_000);
    await page.click(tid("row-pressure"));
    report("10 000 samples, edit not on the wire (unit of pressure)", await measure(page, unit));
    report("10 000 samples, edit of one field's values (container id template)", await measure(page, values("XYZU")));
  } finally {
    await s.close();
  }
}

await main();
