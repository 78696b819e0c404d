// The advisor page's state: target and format, the running request and its progress, the last result; plus
// applying changes to the designer's layout as undoable edits.
import { create } from "zustand";
import { checkLayout, FORMAT_IDS, type FormatId } from "#codecs";
import type { HostApi } from "#host/api/contract.ts";
import {
  type AdvisorLimits,
  type AdvisorResult,
  applyAll,
  applyTransform,
  type DeployedLayout,
  type Transform,
  type WireVerdict,
  withBudget,
} from "#planning/advisor";
import type { AdviseAnswer, AdviseRequest } from "./protocol.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
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
  /** coarsest step of a latitude or longitude, in metres */
  positionMetres: number;
  /** a wire-breaking change waiting for the user's yes: nothing is applied before it */
  confirm: { transforms: Transform[]; wire: WireVerdict; what: string; receivers?: string } | null;
  /** the open project's version marked deployed (Export → Schema evolution), which plans are checked against too */
  deployed: (DeployedLayout & { projectId: string }) | null;
}

/** The precision positions keep unless the user sets another (a tracker's fix, not a town). */
export const DEFAULT_POSITION_METRES = 10;

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
  positionMetres: DEFAULT_POSITION_METRES,
  confirm: null,
  deployed: null,
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
/** recent answers by inputs: undoing an applied change, or going back to a format, shows its advice again at once */
const recent = new Map<string, { result: AdvisorResult; ms: number }>();
/** every format's advice for two sets of inputs */
const RECENT = 2 * FORMAT_IDS.length;
/**
 * Advice for the formats not asked for yet, worked out one after the other while the page is idle, so choosing
 * another format usually shows its advice at once (the advice for one format takes a second or more).
 */
let ahead: { seq: number; key: string; format: FormatId } | null = null;
let aheadTimer: ReturnType<typeof setTimeout> | null = null;
/** how long the page is left alone after an answer before the next format's advice is worked out */
const AHEAD_AFTER_MS = 400;
/** the inputs of the request `seq`, for its answer */
const keyOfSeq = new Map<number, string>();
/**
 * The advice whose byte-budget plan the worker is still working out (its second stage, after the advice was
 * posted): the worker is busy until it answers, and the advice is remembered only once it is whole.
 */
let budgetOf: { seq: number; key: string; result: AdvisorResult; ms: number } | null = null;

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
  deployed = deployedOf(useAdvisor.getState()),
): string {
  return `${validKey}|${target}|${format}|${samples}|${seed}|${JSON.stringify(limits)}|${deployed?.version ?? "-"}`;
}

/** The deployed version of the project open in the designer (one loaded for another project does not count). */
function deployedOf(a: Pick<AdvisorState, "deployed">): DeployedLayout | undefined {
  const d = a.deployed;
  if (!d || d.projectId !== useDesigner.getState().projectId) return undefined;
  return { version: d.version, label: d.label, layout: d.layout };
}

/**
 * Reads which version of the project is marked deployed and its layout, for the plan's second wire check; none
 * marked (or the host cannot say) leaves the check against the current layout only.
 */
export async function loadDeployed(api: HostApi, projectId: string): Promise<void> {
  let found: AdvisorState["deployed"] = null;
  try {
    const versions = await api.call("projects.history", { id: projectId, limit: 1 });
    const v = versions.find((x) => x.deployed);
    if (v) {
      const res = await api.call("projects.version", { id: projectId, version: v.version });
      const parsed = checkLayout(res.layout);
      if (parsed.ok) found = { projectId, version: v.version, label: v.label ?? null, layout: parsed.layout };
    }
  } catch {
    // the project was deleted or the host is gone: the advice is still right against the current layout
    found = null;
  }
  if (useDesigner.getState().projectId === projectId) useAdvisor.setState({ deployed: found });
}

/**
 * The inputs advice is asked for, as the key a result is stored with: a result whose key differs is for another
 * layout, target, format or samples, and is shown as out of date (never as the current advice).
 */
export function adviceKey(
  a: Pick<AdvisorState, "format" | "locked" | "maxStep" | "positionMetres" | "deployed">,
  validKey: number,
  targetBytes: number | undefined,
  samples: number,
  seed: number,
): string | null {
  return targetBytes === undefined
    ? null
    : keyOf(validKey, targetBytes, a.format, samples, seed, limitsOf(a), deployedOf(a));
}

function limitsOf(a: Pick<AdvisorState, "locked" | "maxStep" | "positionMetres">): AdvisorLimits {
  return {
    locked: [...a.locked].sort(),
    maxStep: Object.fromEntries(Object.entries(a.maxStep).sort(([x], [y]) => x.localeCompare(y))),
    positionMetres: a.positionMetres,
  };
}

function remember(key: string, result: AdvisorResult, ms: number): void {
  recent.delete(key);
  recent.set(key, { result, ms });
  if (recent.size > RECENT) recent.delete(recent.keys().next().value!);
}

function onAnswer(a: AdviseAnswer): void {
  if (a.type === "budget" || (a.type === "error" && budgetOf?.seq === a.seq)) {
    onBudget(a);
    return;
  }
  if (a.type !== "progress") {
    const key = keyOfSeq.get(a.seq);
    keyOfSeq.delete(a.seq);
    if (a.seq === ahead?.seq) ahead = null;
    if (a.type === "result" && key !== undefined) {
      if (a.result.plan.budgetPending) budgetOf = { seq: a.seq, key, result: a.result, ms: a.ms };
      else remember(key, a.result, a.ms);
    }
    if (a.seq !== seq) {
      // advice worked out ahead, kept for when its format is chosen
      scheduleAhead();
      return;
    }
  }
  if (a.seq !== seq) return;
  if (a.type === "progress") useAdvisor.setState({ progress: { phase: a.phase, done: a.done, total: a.total } });
  else if (a.type === "result") {
    useAdvisor.setState({
      running: false,
      progress: null,
      result: a.result,
      resultKey: sentKey,
      ms: a.ms,
      error: null,
    });
    scheduleAhead();
  } else useAdvisor.setState({ running: false, progress: null, error: a.message, result: null, resultKey: sentKey });
}

/** The second stage's answer: the advice made whole, remembered, and shown if it is still the one on screen. */
function onBudget(a: Extract<AdviseAnswer, { type: "budget" | "error" }>): void {
  const pending = budgetOf;
  if (!pending || pending.seq !== a.seq) return;
  budgetOf = null;
  // the advice on screen is this one (it may have been shown again since: the same object either way)
  const shown = useAdvisor.getState().result === pending.result;
  if (a.type === "error") {
    // a failure of the budget stage is a failure like any other: said, not hidden behind the advice
    if (shown) useAdvisor.setState({ error: a.message });
    return;
  }
  const whole = withBudget(pending.result, a.budget);
  remember(pending.key, whole, pending.ms);
  if (shown) useAdvisor.setState({ result: whole });
  scheduleAhead();
}

function workerOrNew(): Worker {
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
  return worker;
}

/** What advice for `format` would be asked with, for the inputs on screen; null when none can be asked. */
function inputsFor(
  format: FormatId,
  targetBytes: number | undefined,
): { key: string; req: Omit<AdviseRequest, "seq"> } | null {
  const d = useDesigner.getState();
  const st = useSettings.getState();
  const a = useAdvisor.getState();
  if (!d.valid || d.valid.fields.length === 0 || targetBytes === undefined) return null;
  const limits = limitsOf(a);
  return {
    key: keyOf(d.validKey, targetBytes, format, st.samples, st.seed, limits),
    req: {
      type: "advise",
      layout: d.valid,
      targetBytes,
      format,
      samples: st.samples,
      seed: st.seed,
      limits,
      deployed: deployedOf(a),
    },
  };
}

let aheadTarget: number | undefined;

/** After an answer, once the page has been left alone a moment: the next format without advice for these inputs. */
function scheduleAhead(): void {
  if (aheadTimer) clearTimeout(aheadTimer);
  aheadTimer = setTimeout(() => {
    aheadTimer = null;
    if (ahead || budgetOf || useAdvisor.getState().running || !makeWorker) return;
    const current = useAdvisor.getState().format;
    const from = FORMAT_IDS.indexOf(current);
    for (let i = 1; i < FORMAT_IDS.length; i++) {
      const format = FORMAT_IDS[(from + i) % FORMAT_IDS.length]!;
      const next = inputsFor(format, aheadTarget);
      if (!next || recent.has(next.key)) continue;
      seq++;
      ahead = { seq, key: next.key, format };
      keyOfSeq.set(seq, next.key);
      workerOrNew().postMessage({ ...next.req, seq } satisfies AdviseRequest);
      // the answer shown is still the current format's: a later answer to this seq is only remembered
      seq++;
      return;
    }
  }, AHEAD_AFTER_MS);
}

/** The worker factory (Vite needs the `new Worker(new URL(…))` expression in the importing module). */
export function setAdvisorWorker(factory: () => Worker): void {
  makeWorker = factory;
}

/** the inputs apart from the format of the last request: a change of format alone is a click, not typing */
let lastTyped = "";

/** Asks for advice on the current layout unless the shown result (or the running request) is for the same inputs. */
export function requestAdvice(targetBytes: number | undefined): void {
  const a = useAdvisor.getState();
  aheadTarget = targetBytes;
  const asked = makeWorker ? inputsFor(a.format, targetBytes) : null;
  if (!asked) return;
  const { key } = asked;
  if (key === sentKey) return;
  // a change waiting for a yes was worked out for the inputs before: it is not applied to other ones
  if (a.confirm) useAdvisor.setState({ confirm: null });
  if (timer) clearTimeout(timer);
  const hit = recent.get(key);
  if (hit) {
    if (a.running && worker && !ahead) {
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
    scheduleAhead();
    return;
  }
  if (budgetOf?.key === key) {
    // the advice is there, its budget plan still being worked out: show it, and the budget when it comes
    sentKey = key;
    seq++;
    useAdvisor.setState({
      running: false,
      progress: null,
      result: budgetOf.result,
      resultKey: key,
      ms: budgetOf.ms,
      error: null,
    });
    return;
  }
  if (ahead?.key === key) {
    // the advice asked for is the one being worked out ahead: it becomes this request's, nothing starts again
    sentKey = key;
    seq = ahead.seq;
    useAdvisor.setState({ running: true, progress: { phase: "measuring", done: 0, total: 1 }, error: null });
    return;
  }
  const typed = key.replace(`|${a.format}|`, "|");
  // typing in the target or editing the layout fires many changes: wait until they settle; the first request
  // (the page opened) and a change of format (one click) go at once
  const settle = typed === lastTyped || lastTyped === "" ? 0 : 250;
  lastTyped = typed;
  timer = setTimeout(() => {
    timer = null;
    // a run in progress (or one worked out ahead) cannot be interrupted inside the worker: replace the worker instead
    if ((useAdvisor.getState().running || ahead || budgetOf) && worker) {
      worker.terminate();
      worker = null;
      if (ahead) keyOfSeq.delete(ahead.seq);
      ahead = null;
      budgetOf = null;
    }
    sentKey = key;
    seq++;
    keyOfSeq.set(seq, key);
    useAdvisor.setState({ running: true, progress: { phase: "sampling", done: 0, total: 1 }, error: null });
    workerOrNew().postMessage({ ...asked.req, seq } satisfies AdviseRequest);
  }, settle);
}

export function stopAdvisor(): void {
  lastTyped = "";
  if (timer) clearTimeout(timer);
  timer = null;
  if (aheadTimer) clearTimeout(aheadTimer);
  aheadTimer = null;
  ahead = null;
  budgetOf = null;
  worker?.terminate();
  worker = null;
  sentKey = null;
  if (useAdvisor.getState().running) useAdvisor.setState({ running: false, progress: null });
}

/**
 * Applies changes whose wire verdict is compatible at once; a degraded or breaking one first asks (the page shows
 * why, from the schema-evolution check) and is applied only by confirmApply.
 */
export function requestApply(
  transforms: readonly Transform[],
  wire: WireVerdict,
  what: string,
  /** whose receivers the verdict is for, when not the current layout's ("version v3 (deployed)") */
  receivers?: string,
): boolean {
  if (wire.compat === "compatible") return applyChanges(transforms);
  useAdvisor.setState({ confirm: { transforms: [...transforms], wire, what, receivers } });
  return false;
}

export function confirmApply(): boolean {
  const c = useAdvisor.getState().confirm;
  useAdvisor.setState({ confirm: null });
  return c ? applyChanges(c.transforms) : false;
}

export function cancelApply(): void {
  useAdvisor.setState({ confirm: null });
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
