// Keystrokes in the designer's inspector, as Playwright's keyboard types them (real key events through the
// browser's input pipeline), each measured from the keydown's timestamp: to the paint of the frame showing the
// character (own probe, and Chromium's Event Timing, the INP measure), to the paint of bars for the new layout
// (first figures, possibly an estimate), and to the paint of final bars (nothing computing or marked updating).
import type { Page } from "playwright-core";
import type { EventEntry } from "./probe.ts";
import { figure, type Figure } from "./stats.ts";

export interface TypingResult {
  keys: number;
  /** keydown → paint of the frame after its input event (probe) */
  paint: Figure;
  /** the interaction's Event Timing duration (max over its entries); under 16 ms is not reported */
  inp: Figure;
  /** for the keystrokes Event Timing reported: where their time went */
  inputDelay: Figure;
  processing: Figure;
  presentation: Figure;
  /** keydown → paint of bars for the new layout, and of final bars (one keystroke at a time) */
  firstBars: Figure;
  finalBars: Figure;
  /** the renderer's own stages for the last change of each keystroke (window.__satpayloadPerf) */
  stages: Record<string, Figure>;
}

const CHARS = "abcdefghijklmnopqrstuvwxyz";
const BARS_TIMEOUT_MS = 120_000;

async function shownKey(page: Page): Promise<string> {
  return (await page.locator('[data-testid^="panel-"]').getAttribute("data-layout-key")) ?? "";
}

interface StageRun {
  editAt: number;
  sentAt: number;
  receivedAt: number;
  renderedAt: number;
}

/** Event Timing per keystroke interaction: the longest entry of each, with its phases. */
function interactions(events: EventEntry[]): EventEntry[] {
  const by = new Map<number, EventEntry>();
  for (const e of events) {
    if (!e.interactionId || !/^key/.test(e.name)) continue;
    const had = by.get(e.interactionId);
    if (!had || e.duration > had.duration) by.set(e.interactionId, e);
  }
  return [...by.values()];
}

/**
 * Types `keys` characters (after `warmup` more) into the focused control. Paced: each keystroke waits for the
 * final bars of the one before, then `pauseMs`, so each is measured alone. Burst (`burstGapMs`): keystrokes
 * `burstGapMs` apart as a person types a word, bars not waited for (only keystroke → paint is measured: which
 * bars belong to which keystroke of a burst cannot be told from the screen).
 */
export async function typeAndMeasure(
  page: Page,
  o: { keys: number; warmup: number; pauseMs?: number; burstGapMs?: number },
): Promise<TypingResult> {
  const paint: number[] = [];
  const first: number[] = [];
  const final: number[] = [];
  const stageRuns: StageRun[] = [];
  const typeOne = (i: number) => page.keyboard.press(CHARS[i % CHARS.length]!);

  for (let i = 0; i < o.warmup; i++) {
    const prev = await shownKey(page);
    const bars = page.evaluate((p) => window.__ux!.bars(p), prev);
    await typeOne(i);
    await bars;
  }
  await page.evaluate(() => window.__ux!.clear());

  if (o.burstGapMs !== undefined) {
    for (let i = 0; i < o.keys; i++) {
      await typeOne(i);
      if (i < o.keys - 1) await page.waitForTimeout(o.burstGapMs);
    }
  } else {
    for (let i = 0; i < o.keys; i++) {
      const prev = await shownKey(page);
      const bars = page.evaluate((p) => window.__ux!.bars(p), prev);
      await typeOne(i);
      const b = await withTimeout(bars);
      const k = await page.evaluate(() => window.__ux!.keys.at(-1)!);
      first.push(b.first.paintedAt - k.downAt);
      final.push(b.final.paintedAt - k.downAt);
      const run = await page.evaluate(() => window.__satpayloadPerf?.last ?? null);
      if (run) stageRuns.push(run);
      await page.waitForTimeout(o.pauseMs ?? 50);
    }
  }
  // every keystroke's frame has been painted by now (bars come later still)
  await page.waitForFunction(() => window.__ux!.keys.every((k) => k.paintedAt !== null), undefined, {
    timeout: 30_000,
  });
  const keys = await page.evaluate(() => window.__ux!.keys);
  for (const k of keys) paint.push(k.paintedAt! - k.downAt);
  const reported = interactions(await page.evaluate(() => window.__ux!.events));
  const under = { count: Math.max(0, keys.length - reported.length), bound: 16 };
  return {
    keys: keys.length,
    paint: figure(paint),
    inp: figure(
      reported.map((e) => e.duration),
      under,
    ),
    inputDelay: figure(reported.map((e) => e.processingStart - e.startTime)),
    processing: figure(reported.map((e) => e.processingEnd - e.processingStart)),
    presentation: figure(reported.map((e) => e.startTime + e.duration - e.processingEnd)),
    firstBars: figure(first),
    finalBars: figure(final),
    stages: stageRuns.length
      ? {
          "edit → posted to the workers": figure(stageRuns.map((r) => r.sentAt - r.editAt)),
          "worker round trip": figure(stageRuns.map((r) => r.receivedAt - r.sentAt)),
          "React commit of the bars": figure(stageRuns.map((r) => r.renderedAt - r.receivedAt)),
        }
      : {},
  };
}

async function withTimeout<T>(p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no new bars within ${BARS_TIMEOUT_MS} ms`)), BARS_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
