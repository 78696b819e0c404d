// Edit → bars timings, kept on window.__satpayloadPerf so the e2e test and the benchmark script can read them.
import type { FormatId } from "#codecs";

export interface PerfRun {
  layoutKey: number;
  /** performance.now() of the edit (main thread) */
  editAt: number;
  /** request posted to the worker */
  sentAt: number;
  /** sizes message received back */
  receivedAt: number;
  /** React committed the bars for these sizes */
  renderedAt: number;
  /** worker-side: drawing samples and encoding all formats */
  generateMs: number;
  measureMs: number;
  perFormatMs: Partial<Record<FormatId, number>>;
  /** renderedAt − editAt: what a person waits for after a keystroke (every size-only format's bar) */
  editToBarsMs: number;
  /** how long after those bars the Struct+Zlib bar for this change was on screen (its first pass; 0: in the same commit) */
  zlibBehindMs?: number;
  /** editAt to the commit with every format over every sample (differs from editToBarsMs when a large run is refined) */
  completeMs?: number;
}

export interface PerfLog {
  runs: PerfRun[];
  last: PerfRun | null;
  clear(): void;
}

declare global {
  interface Window {
    __satpayloadPerf?: PerfLog;
  }
}

const KEEP = 500;
const partial = new Map<number, Omit<PerfRun, "renderedAt" | "editToBarsMs">>();
// runs whose later stages (the Struct+Zlib bar, the refined sizes) may still come in
const open = new Map<number, PerfRun>();
const OPEN = 8;

function log(): PerfLog {
  if (!window.__satpayloadPerf) {
    const l: PerfLog = {
      runs: [],
      last: null,
      clear() {
        l.runs.length = 0;
        l.last = null;
      },
    };
    window.__satpayloadPerf = l;
  }
  return window.__satpayloadPerf;
}

export function perfReceived(run: Omit<PerfRun, "renderedAt" | "editToBarsMs">): void {
  partial.set(run.layoutKey, run);
}

/**
 * Called after each commit of sizes for layoutKey: the first one completes the run begun by perfReceived, later
 * ones note when the Struct+Zlib bar and the refined sizes arrived.
 */
export function perfRendered(layoutKey: number, shown: { zlib: boolean; complete: boolean }): void {
  const now = performance.now();
  const p = partial.get(layoutKey);
  if (p) {
    partial.delete(layoutKey);
    const run: PerfRun = { ...p, renderedAt: now, editToBarsMs: now - p.editAt };
    const l = log();
    l.runs.push(run);
    if (l.runs.length > KEEP) l.runs.splice(0, l.runs.length - KEEP);
    l.last = run;
    open.set(layoutKey, run);
    for (const k of open.keys()) if (open.size > OPEN) open.delete(k);
  }
  const run = open.get(layoutKey);
  if (!run) return;
  if (shown.zlib && run.zlibBehindMs === undefined) run.zlibBehindMs = now - run.renderedAt;
  if (shown.complete && run.completeMs === undefined) {
    run.completeMs = now - run.editAt;
    open.delete(layoutKey);
  }
}

export function installPerfLog(): void {
  log();
}
