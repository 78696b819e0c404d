// The bench's keystroke scenarios: which layout is opened, which control is typed into, how.
import type { Page } from "playwright-core";
import { arrayLayout, smallLayout, wideLayout } from "./layouts.ts";
import { importLayout, openPresetProbed } from "./session.ts";
import { tid } from "../../support/ui.ts";

export interface TypingScenario {
  id: string;
  title: string;
  /** opens the layout; a refusal (the layout is not accepted) is reported instead of figures */
  open(page: Page): Promise<{ refused: string | null }>;
  /** row to select and inspector control to type at the end of */
  row: string;
  control: string;
  keys: number;
  warmup: number;
  burstGapMs?: number;
  /** keystroke → updated bars goal, ms p95 */
  barsGoal?: number;
}

const preset = (id: string) => async (page: Page) => {
  await openPresetProbed(page, id);
  return { refused: null };
};

export const TYPING: readonly TypingScenario[] = [
  {
    id: "small",
    title: "7 fields: Key of a field",
    open: (p) => importLayout(p, smallLayout()),
    row: "f_3",
    control: "insp-key",
    keys: 20,
    warmup: 3,
  },
  {
    id: "paper-key",
    title: "paper preset, 1 000 samples: Key of pressure",
    open: preset("paper"),
    row: "pressure",
    control: "insp-key",
    keys: 20,
    warmup: 3,
    barsGoal: 50,
  },
  {
    id: "paper-values",
    title: "paper preset, 1 000 samples: sample template of the container id",
    open: preset("paper"),
    row: "iso6346",
    control: "insp-sample-template",
    keys: 20,
    warmup: 3,
    barsGoal: 50,
  },
  {
    id: "wide500",
    title: "500 fields: Key of a field",
    open: (p) => importLayout(p, wideLayout(500)),
    row: "f_250",
    control: "insp-key",
    keys: 15,
    warmup: 3,
    barsGoal: 100,
  },
  {
    id: "wide500-burst",
    title: "500 fields: a word typed into Key (12 keys, 90 ms apart)",
    open: (p) => importLayout(p, wideLayout(500)),
    row: "f_250",
    control: "insp-key",
    keys: 12,
    warmup: 2,
    burstGapMs: 90,
  },
  {
    id: "wide2000",
    title: "2 000 fields: Key of a field",
    open: (p) => importLayout(p, wideLayout(2000)),
    row: "f_1000",
    control: "insp-key",
    keys: 10,
    warmup: 2,
  },
  {
    id: "array10000",
    title: "int16 array of 10 000 elements: Key of another field",
    open: (p) => importLayout(p, arrayLayout(10_000)),
    row: "f_1",
    control: "insp-key",
    keys: 10,
    warmup: 2,
  },
  {
    id: "array1000",
    title: "int16 array of 1 000 elements: Key of another field",
    open: (p) => importLayout(p, arrayLayout(1000)),
    row: "f_1",
    control: "insp-key",
    keys: 10,
    warmup: 2,
  },
];

/** Selects the row (scrolled into view in a long tree) and puts the caret at the end of the control. */
export async function focusControl(page: Page, s: TypingScenario): Promise<void> {
  const row = page.locator(tid(`row-${s.row}`));
  if ((await row.count()) === 0) {
    // a virtualised tree renders only the rows near the view: search for it by scrolling
    // (no named functions in here: tsx would wrap them in a helper the page does not have)
    await page.locator(tid("layout-tree")).evaluate(async (el, key) => {
      const pane = el.closest(".pane-body") ?? el;
      while (
        !el.querySelector(`[data-testid="row-${key}"]`) &&
        pane.scrollTop + pane.clientHeight < pane.scrollHeight
      ) {
        pane.scrollTop += pane.clientHeight;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      }
    }, s.row);
  }
  await row.scrollIntoViewIfNeeded();
  await row.click();
  await page.click(tid(s.control));
  await page.keyboard.press("End");
}
