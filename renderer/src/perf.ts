// Edit → bars timings, kept on window.__satpayloadPerf so the e2e test and the benchmark script can read them.
import type { FormatId } from "../../codecs/src/formats/types.ts";

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
  /** renderedAt − editAt: what a person waits for after a keystroke */
  editToBarsMs: number;
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

/** Called once React has committed bars for layoutKey; completes the run begun by perfReceived. */
export function perfRendered(layoutKey: number): void {
  const p = partial.get(layoutKey);
  if (!p) return;
  partial.delete(layoutKey);
  const renderedAt = performance.now();
  const run: PerfRun = { ...p, renderedAt, editToBarsMs: renderedAt - p.editAt };
  const l = log();
  l.runs.push(run);
  if (l.runs.length > KEEP) l.runs.splice(0, l.runs.length - KEEP);
  l.last = run;
}

export function installPerfLog(): void {
  log();
}
