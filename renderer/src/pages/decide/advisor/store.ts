// The advisor page's state: target and format, the running request and its progress, the last result; plus
// applying changes to the designer's layout as undoable edits.
import { create } from "zustand";
import type { FormatId } from "#codecs";
import { applyAll } from "#codecs/advisor/advise.ts";
import { applyTransform } from "#codecs/advisor/transforms.ts";
import type { AdvisorLimits, AdvisorResult, Transform } from "#codecs/advisor/types.ts";
import type { AdviseAnswer, AdviseRequest } from "./protocol.ts";
import { useDesigner } from "../../../state/designer.ts";
import { useSettings } from "../../../state/settings.ts";

export interface AdvisorState {
  /** a platform id, or "custom" with customBytes */
  target: string;
  customBytes: number;
  format: FormatId;
  running: boolean;
  progress: { phase: string; done: number; total: number } | null;
  result: AdvisorResult | null;
  /** what the result was computed for, so a stale one is never applied */
  resultKey: string | null;
  ms: number;
  error: string | null;
  notice: string | null;
  /** fields the user locked and the coarsest step each may take, by field id (kept while the page is away) */
  locked: string[];
  maxStep: Record<string, number>;
}

export const useAdvisor = create<AdvisorState>()(() => ({
  target: "kineis",
  customBytes: 30,
  format: "bitpacked",
  running: false,
  progress: null,
  result: null,
  resultKey: null,
  ms: 0,
  error: null,
  notice: null,
  locked: [],
  maxStep: {},
}));

/** Locks or unlocks a field: a locked field is never changed. */
export function setLocked(fieldId: string, locked: boolean): void {
  const cur = useAdvisor.getState().locked.filter((id) => id !== fieldId);
  useAdvisor.setState({ locked: locked ? [...cur, fieldId] : cur });
}

/** The coarsest step a field may be rounded to (undefined: any step the advisor finds). */
export function setMaxStep(fieldId: string, step: number | undefined): void {
  const { [fieldId]: _old, ...rest } = useAdvisor.getState().maxStep;
  useAdvisor.setState({ maxStep: step === undefined ? rest : { ...rest, [fieldId]: step } });
}

let worker: Worker | null = null;
let makeWorker: (() => Worker) | null = null;
let seq = 0;
let sentKey: string | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;
/** recent answers by inputs: undoing an applied change shows its advice again at once */
const recent = new Map<string, { result: AdvisorResult; ms: number }>();
const RECENT = 8;

export function targetBytesOf(
  s: Pick<AdvisorState, "target" | "customBytes">,
  limitOf: (id: string) => number | undefined,
): number | undefined {
  return s.target === "custom" ? s.customBytes : limitOf(s.target);
}

function keyOf(
  validKey: number,
  target: number,
  format: FormatId,
  samples: number,
  seed: number,
  limits: AdvisorLimits,
): string {
  return `${validKey}|${target}|${format}|${samples}|${seed}|${JSON.stringify(limits)}`;
}

/**
 * The inputs advice is asked for, as the key a result is stored with: a result whose key differs is for another
 * layout, target, format or samples, and is shown as out of date (never as the current advice).
 */
export function adviceKey(
  a: Pick<AdvisorState, "format" | "locked" | "maxStep">,
  validKey: number,
  targetBytes: number | undefined,
  samples: number,
  seed: number,
): string | null {
  return targetBytes === undefined ? null : keyOf(validKey, targetBytes, a.format, samples, seed, limitsOf(a));
}

function limitsOf(a: Pick<AdvisorState, "locked" | "maxStep">): AdvisorLimits {
  return {
    locked: [...a.locked].sort(),
    maxStep: Object.fromEntries(Object.entries(a.maxStep).sort(([x], [y]) => x.localeCompare(y))),
  };
}

function onAnswer(a: AdviseAnswer): void {
  if (a.seq !== seq) return;
  if (a.type === "progress") useAdvisor.setState({ progress: { phase: a.phase, done: a.done, total: a.total } });
  else if (a.type === "result") {
    if (sentKey) {
      recent.set(sentKey, { result: a.result, ms: a.ms });
      if (recent.size > RECENT) recent.delete(recent.keys().next().value!);
    }
    useAdvisor.setState({
      running: false,
      progress: null,
      result: a.result,
      resultKey: sentKey,
      ms: a.ms,
      error: null,
    });
  } else useAdvisor.setState({ running: false, progress: null, error: a.message, result: null, resultKey: sentKey });
}

/** The worker factory (Vite needs the `new Worker(new URL(…))` expression in the importing module). */
export function setAdvisorWorker(factory: () => Worker): void {
  makeWorker = factory;
}

/** Asks for advice on the current layout unless the shown result (or the running request) is for the same inputs. */
export function requestAdvice(targetBytes: number | undefined): void {
  const d = useDesigner.getState();
  const st = useSettings.getState();
  const a = useAdvisor.getState();
  if (!d.valid || d.valid.fields.length === 0 || targetBytes === undefined || !makeWorker) return;
  const limits = limitsOf(a);
  const key = keyOf(d.validKey, targetBytes, a.format, st.samples, st.seed, limits);
  if (key === sentKey) return;
  if (timer) clearTimeout(timer);
  const hit = recent.get(key);
  if (hit) {
    if (a.running && worker) {
      worker.terminate();
      worker = null;
    }
    sentKey = key;
    seq++;
    useAdvisor.setState({
      running: false,
      progress: null,
      result: hit.result,
      resultKey: key,
      ms: hit.ms,
      error: null,
    });
    return;
  }
  const layout = d.valid;
  // typing in the target or editing the layout fires many changes: wait until they settle
  timer = setTimeout(() => {
    timer = null;
    // a run in progress cannot be interrupted inside the worker: replace the worker instead
    if (useAdvisor.getState().running && worker) {
      worker.terminate();
      worker = null;
    }
    if (!worker) {
      worker = makeWorker!();
      worker.onmessage = (ev: MessageEvent<AdviseAnswer>) => onAnswer(ev.data);
      worker.onerror = (ev) =>
        useAdvisor.setState({
          running: false,
          progress: null,
          error: `advisor worker failed: ${ev.message || "unknown error"}`,
        });
    }
    sentKey = key;
    seq++;
    useAdvisor.setState({ running: true, progress: { phase: "sampling", done: 0, total: 1 }, error: null });
    const req: AdviseRequest = {
      type: "advise",
      seq,
      layout,
      targetBytes,
      format: a.format,
      samples: st.samples,
      seed: st.seed,
      limits,
    };
    worker.postMessage(req);
  }, 250);
}

export function stopAdvisor(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  worker?.terminate();
  worker = null;
  sentKey = null;
  if (useAdvisor.getState().running) useAdvisor.setState({ running: false, progress: null });
}

/** One undo step in the designer; refused (with a notice) when the layout no longer has what the change needs. */
export function applyChanges(transforms: readonly Transform[]): boolean {
  const d = useDesigner.getState();
  try {
    const next =
      transforms.length === 1
        ? applyTransform(d.history.present, transforms[0]!)
        : applyAll(d.history.present, transforms);
    d.edit(() => next);
    useAdvisor.setState({ notice: null });
    return true;
  } catch (e) {
    useAdvisor.setState({ notice: `Could not apply: ${e instanceof Error ? e.message : String(e)}` });
    return false;
  }
}
