// Benchmark (prints and writes numbers, asserts nothing): what a person feels in the designer, from real input to
// paint. Playwright types and clicks on the built UI in headless Chromium (browser-mode host); the page reads
// Chromium's Event Timing (the INP measure) and paints after each keystroke and after new bars. Scenarios: 7
// fields, the paper preset, 500 and 2 000 fields, an int16 array of 1 000, page switches, the fit advisor.
// Writes its own section of docs/benchmarks.md.
//
//   npm run bench:designer [-- --burner] [-- --label baseline --renderer <dir>] [-- --only wide500,pages] [-- --no-write]
import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import { parseArgs } from "node:util";
import { machineLine, writeDocSection } from "#services/shared/docSection.ts";
import { advisor, pageSwitches } from "./designer/pages.ts";
import { PROBE_SCRIPT } from "./designer/probe.ts";
import { renderSection, type BenchRun, type TypingRow } from "./designer/report.ts";
import { focusControl, TYPING } from "./designer/scenarios.ts";
import { openPresetProbed, probedPage, VIEWPORT } from "./designer/session.ts";
import { figure } from "./designer/stats.ts";
import { typeAndMeasure } from "./designer/typing.ts";
import { ensureRendererBuilt } from "../support/build.ts";
import { startSession } from "../support/session.ts";

const { values: args } = parseArgs({
  options: {
    burner: { type: "boolean", default: false },
    label: { type: "string", default: "now" },
    only: { type: "string" },
    "no-write": { type: "boolean", default: false },
    /** a renderer built elsewhere (e.g. of an older commit, for a baseline) instead of building dist/renderer */
    renderer: { type: "string" },
  },
});
const only = args.only ? new Set(args.only.split(",")) : null;
const wanted = (id: string) => !only || only.has(id);

function startBurner(): { proc: ChildProcess; text: string } {
  const n = os.availableParallelism();
  const argv = ["--cpu", String(n), "--timeout", "3600s", "--quiet"];
  const proc = spawn("stress-ng", argv, { stdio: "ignore" });
  proc.on("error", (e) => {
    console.error(`stress-ng could not start (${e.message}); install it with apt-get install -y stress-ng`);
    process.exit(1);
  });
  return { proc, text: `stress-ng ${argv.slice(0, 2).join(" ")}` };
}

async function main(): Promise<void> {
  if (!args.renderer) await ensureRendererBuilt();
  const burner = args.burner ? startBurner() : null;
  // the burner's load shows in the load average after a few seconds
  if (burner) await new Promise((r) => setTimeout(r, 5_000));
  const s = await startSession(args.renderer ? { rendererDir: args.renderer } : {});
  try {
    const header = `Measured ${new Date().toISOString().slice(0, 10)}: Chromium ${s.browser.version()} headless ${1440}×${900}, built renderer, browser-mode host; ${machineLine()} at the start.`;
    console.log(header);

    const opens: number[] = [];
    if (wanted("open"))
      for (let k = 0; k < 3; k++) {
        const { page, context } = await probedPage(s);
        const painted = page.evaluate(() => window.__ux!.bars(""));
        await page.click('[data-testid="preset-paper"]');
        const down = await page.evaluate(() => window.__ux!.downs.at(-1)!);
        opens.push((await painted).first.paintedAt - down);
        await context.close();
      }
    const openPaper = figure(opens);
    console.log(`open paper → first bars: ${opens.map((x) => x.toFixed(0)).join(", ")} ms`);

    const typing: TypingRow[] = [];
    if (wanted("floor")) {
      // what this machine gives any page at this load: a bare input, nothing else on the page
      const { page, context } = await s.open(VIEWPORT);
      await page.setContent('<input data-testid="plain" autofocus>');
      await page.evaluate(PROBE_SCRIPT);
      await page.click('[data-testid="plain"]');
      const result = await typeAndMeasure(page, { keys: 20, warmup: 0, burstGapMs: 150 });
      typing.push({
        id: "floor",
        title: "a plain `<input>` on an empty page (the machine's floor)",
        refused: null,
        result,
        floor: true,
      });
      await context.close();
    }
    for (const sc of TYPING) {
      if (!wanted(sc.id)) continue;
      const { page, context } = await probedPage(s);
      try {
        const { refused } = await sc.open(page);
        if (refused) {
          typing.push({ id: sc.id, title: sc.title, refused, result: null });
          console.log(`${sc.title}: refused (${refused})`);
          continue;
        }
        await focusControl(page, sc);
        const result = await typeAndMeasure(page, {
          keys: sc.keys,
          warmup: sc.warmup,
          ...(sc.burstGapMs !== undefined ? { burstGapMs: sc.burstGapMs } : {}),
        });
        typing.push({
          id: sc.id,
          title: sc.title,
          refused: null,
          result,
          ...(sc.barsGoal ? { barsGoal: sc.barsGoal } : {}),
        });
        console.log(
          `${sc.title}: paint p95 ${Math.max(...result.paint.values).toFixed(0)} max; first bars ${result.firstBars.values.map((x) => x.toFixed(0)).join(" ")}`,
        );
      } finally {
        await context.close();
      }
    }

    let pages: BenchRun["pages"] = { first: new Map(), byPage: new Map() };
    let adv: BenchRun["advisor"] = {
      open: figure([]),
      openAdvice: figure([]),
      marked: figure([]),
      advice: figure([]),
      work: figure([]),
    };
    if (wanted("pages") || wanted("advisor")) {
      const { page, context } = await probedPage(s);
      await openPresetProbed(page, "paper");
      if (wanted("pages")) pages = await pageSwitches(page, 3);
      if (wanted("advisor")) adv = await advisor(page, 3);
      await context.close();
    }

    const run: BenchRun = {
      label: args.label!,
      burner: burner?.text ?? null,
      header,
      openPaper,
      typing,
      pages,
      advisor: adv,
    };
    const mark = `<!-- bench:designer${args.label === "now" ? "" : `-${args.label}`}${burner ? "-burner" : ""} -->`;
    const section = renderSection(mark, run);
    console.log(section);
    if (!args["no-write"] && !only) writeDocSection(mark, section);
  } finally {
    await s.close();
    burner?.proc.kill("SIGTERM");
  }
}

await main();
