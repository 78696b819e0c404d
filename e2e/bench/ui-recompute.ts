// Benchmark (prints numbers, asserts nothing): edit → updated bars in the real designer, paper preset, all 9 formats,
// 1 000 samples. Run: npx tsx e2e/bench/ui-recompute.ts [edits]
import os from "node:os";
import { FORMAT_IDS } from "../../codecs/src/formats/types.ts";
import { startSession } from "../support/session.ts";
import { openPreset, tid } from "../support/ui.ts";

const EDITS = Number(process.argv[2] ?? 40);
const WARMUP = 5;

function pct(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil((p / 100) * s.length) - 1)]!;
}

const fmt = (x: number) => x.toFixed(1).padStart(7);

async function main(): Promise<void> {
  const s = await startSession();
  try {
    const { page } = await s.open();
    await openPreset(page, "paper");
    await page.click(tid("row-pressure"));
    await page.evaluate(() => window.__satpayloadPerf!.clear());
    // one keystroke at a time, each waited for: the latency of a single recompute, not of a burst
    for (let i = 0; i < EDITS + WARMUP; i++) {
      const before = await page.evaluate(() => window.__satpayloadPerf!.runs.length);
      await page.fill(tid("insp-unit"), `hPa ${i}`);
      await page.waitForFunction((n) => window.__satpayloadPerf!.runs.length > n, before, { timeout: 60_000 });
    }
    const runs = (await page.evaluate(() => window.__satpayloadPerf!.runs)).slice(WARMUP);
    const col = (f: (r: (typeof runs)[number]) => number) => runs.map(f);
    const rows: [string, number[]][] = [
      ["edit → bars (UI, total)", col((r) => r.editToBarsMs)],
      ["  main: parse + post", col((r) => r.sentAt - r.editAt)],
      ["  worker round trip", col((r) => r.receivedAt - r.sentAt)],
      ["    draw samples", col((r) => r.generateMs)],
      ["    encode 9 formats", col((r) => r.measureMs)],
      ["  React commit of bars", col((r) => r.renderedAt - r.receivedAt)],
    ];
    // the workers run side by side: the per-format times add up to the CPU spent, not to the wait
    rows.push(["    sum over formats (CPU)", col((r) => FORMAT_IDS.reduce((sum, f) => sum + (r.perFormatMs[f] ?? 0), 0))]);
    for (const f of FORMAT_IDS) rows.push([`      ${f}`, col((r) => r.perFormatMs[f] ?? 0)]);
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const workers = await page.evaluate(() => Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2)));
    console.log(`${runs.length} edits (after ${WARMUP} warm-up), ${workers} sizes workers, Chromium ${s.browser.version()} headless 1280×720, ${cores} cores (${os.cpus()[0]?.model ?? "?"}), load average ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
    console.log(`${"".padEnd(26)}    p50     p95     max  (ms)`);
    for (const [name, v] of rows) console.log(`${name.padEnd(26)}${fmt(pct(v, 50))} ${fmt(pct(v, 95))} ${fmt(Math.max(...v))}`);
  } finally {
    await s.close();
  }
}

await main();
