// The designer bench's section of docs/benchmarks.md: every figure with the load average it was taken at, and
// each goal of issue #23 met or not, with the stage that holds a missed one.
import type { AdvisorFigures, ClickFigures } from "./pages.ts";
import { count, meets, ms, type Figure } from "./stats.ts";
import type { TypingResult } from "./typing.ts";

export interface TypingRow {
  id: string;
  title: string;
  refused: string | null;
  result: TypingResult | null;
  barsGoal?: number;
  /** a calibration row (not the app): shown, never judged against the goals */
  floor?: boolean;
}

export interface BenchRun {
  label: string;
  burner: string | null;
  header: string;
  openPaper: Figure;
  typing: TypingRow[];
  pages: { first: Map<string, number>; byPage: Map<string, ClickFigures> };
  advisor: AdvisorFigures;
}

const KEY_GOAL = 16;
const PAGE_GOAL = 100;

const pp = (f: Figure | undefined) => `${ms(f, 50)} / ${ms(f, 95)}`;
const loadOf = (f: Figure | undefined) => (f ? f.load.toFixed(1) : "–");
const verdict = (ok: boolean | null) => (ok === null ? "not measured" : ok ? "met" : "**NOT met**");

/** The slowest stage of the keystrokes Event Timing reported (input delay, processing, presentation). */
function keyStage(r: TypingResult): string {
  if (r.inputDelay.values.length === 0) return "";
  const parts: [string, Figure][] = [
    ["input delay (main thread busy before the key's handlers ran)", r.inputDelay],
    ["processing (the key's handlers: store edit and React render)", r.processing],
    ["presentation (style, layout and paint of that frame)", r.presentation],
  ];
  const [name, f] = parts.sort((a, b) => (Number(ms(b[1], 95)) || 0) - (Number(ms(a[1], 95)) || 0))[0]!;
  return `${name}: ${pp(f)} ms p50 / p95 of the ${count(f)} keystrokes over 16 ms`;
}

function barsStage(r: TypingResult): string {
  const entries = Object.entries(r.stages);
  if (!entries.length) return "";
  return entries.map(([name, f]) => `${name} ${pp(f)} ms`).join("; ");
}

export function renderSection(mark: string, run: BenchRun): string {
  const out: string[] = [mark];
  out.push(
    `### ${run.label === "now" ? "" : `${run.label}: `}${run.burner ? `under a CPU burner (\`${run.burner}\`)` : "no burner (the machine's other work: see the load)"}`,
    "",
    run.header,
    "",
    "Times in ms, p50 / p95 (nearest rank); **load** is the 1-minute load average when the row was measured.",
    "",
    "| keystrokes | keys | keystroke → paint | Event Timing (INP) | → first bars | → final bars | load |",
    "|---|---:|---:|---:|---:|---:|---:|",
  );
  for (const t of run.typing) {
    if (!t.result) {
      out.push(
        `| ${t.title} | – | refused: ${(t.refused ?? "?").replace(/^.*? is not a valid SatPayload layout: /, "")} | | | | |`,
      );
      continue;
    }
    const r = t.result;
    const burst = r.firstBars.values.length === 0;
    out.push(
      `| ${t.title} | ${r.keys} | ${pp(r.paint)} | ${pp(r.inp)} | ${burst ? "–" : pp(r.firstBars)} | ${burst ? "–" : pp(r.finalBars)} | ${loadOf(r.finalBars.values.length ? r.finalBars : r.paint)} |`,
    );
  }
  out.push(
    "",
    "| page switch (page bar click) | first visit | pointerdown → page painted | Event Timing (INP) | load |",
    "|---|---:|---:|---:|---:|",
  );
  out.push(
    `| open the paper preset from the start screen → first bars | – | ${pp(run.openPaper)} | | ${loadOf(run.openPaper)} |`,
  );
  for (const [nav, f] of run.pages.byPage)
    out.push(
      `| ${nav} | ${(run.pages.first.get(nav) ?? NaN).toFixed(0)} | ${pp(f.painted)} | ${pp(f.inp)} | ${loadOf(f.painted)} |`,
    );
  const a = run.advisor;
  out.push(
    "",
    "| fit advisor (paper preset) | n | p50 / p95 | load |",
    "|---|---:|---:|---:|",
    `| click "Fit advisor" → advisor painted | ${count(a.open)} | ${pp(a.open)} | ${loadOf(a.open)} |`,
    `| click "Fit advisor" → advice painted | ${count(a.openAdvice)} | ${pp(a.openAdvice)} | ${loadOf(a.openAdvice)} |`,
    `| format changed → previous format's figures gone or marked updating | ${count(a.marked)} | ${pp(a.marked)} | ${loadOf(a.marked)} |`,
    `| format changed → advice for the new format painted | ${count(a.advice)} | ${pp(a.advice)} | ${loadOf(a.advice)} |`,
    `| of which the advisor's work for that format in its worker | ${count(a.work)} | ${pp(a.work)} | ${loadOf(a.work)} |`,
  );

  out.push("", "Goals (issue #23), p95:", "");
  for (const t of run.typing) {
    if (t.floor) continue;
    if (!t.result) {
      out.push(`- ${t.title}: keystroke → paint ≤ ${KEY_GOAL} ms: not measured (layout refused)`);
      continue;
    }
    const r = t.result;
    const keyOk = meets(r.paint, 95, KEY_GOAL);
    const inpOk = meets(r.inp, 95, KEY_GOAL);
    let line = `- ${t.title}: keystroke → paint ≤ ${KEY_GOAL} ms: ${verdict(keyOk && inpOk)} (${ms(r.paint, 95)}; INP ${ms(r.inp, 95)})`;
    if (!(keyOk && inpOk) && keyStage(r)) line += `; slowest stage: ${keyStage(r)}`;
    if (t.barsGoal !== undefined) {
      const barsOk = meets(r.firstBars, 95, t.barsGoal);
      line += `; → updated bars ≤ ${t.barsGoal} ms: ${verdict(barsOk)} (${ms(r.firstBars, 95)}; final ${ms(r.finalBars, 95)})`;
      if (!barsOk && barsStage(r)) line += `; stages: ${barsStage(r)}`;
    }
    out.push(line);
  }
  const slowPages = [...run.pages.byPage]
    .filter(([, f]) => !meets(f.painted, 95, PAGE_GOAL))
    .map(([n, f]) => `${n} ${ms(f.painted, 95)}`);
  out.push(
    `- page switch → first paint ≤ ${PAGE_GOAL} ms: ${slowPages.length ? `**NOT met** for ${slowPages.join(", ")}` : "met for every page"}`,
    `- advisor → first paint ≤ ${PAGE_GOAL} ms: ${verdict(meets(a.open, 95, PAGE_GOAL))} (${ms(a.open, 95)}); previous format's figures never shown unmarked: gone or marked after ${ms(a.marked, 95)} ms p95`,
    `- advice for a format not asked for before: ${pp(a.advice)} ms p50 / p95 to its paint, held by the advisor's own work for that format in its worker (${pp(a.work)} ms), with its progress on screen meanwhile`,
  );
  out.push("", mark);
  return out.join("\n");
}
