// The Load Test page's state: the form, the run in progress (fed by host events), the history, the
// run shown in detail and the runs picked for comparison.
import { create } from "zustand";
import type { FormatId } from "#codecs";
import type { Progress, TimelinePoint } from "#contracts/loadtest/result.ts";
import type { HostApi } from "#host/api/contract.ts";
import type { LoadTestRun, LoadTestSummary } from "#host/api/loadtest.ts";
import type { StackStatus } from "#host/api/stack.ts";
import { DEFAULT_FORM, formSettings, projectForm, rememberedInputs, type LoadTestForm } from "./form.ts";
import { downloadText } from "../../download.ts";
import { asHostError } from "../../host/errors.ts";
import { projectFormat, rememberProjectFormat } from "../../session/projectDefaults.ts";
import { useSession } from "../../session/sessionStore.ts";
import { useDesigner } from "../../state/layoutStore.ts";

export { DEFAULT_FORM, type LoadTestForm } from "./form.ts";

export interface LayoutOption {
  value: string;
  label: string;
}

export interface ActiveRun {
  run: LoadTestSummary;
  progress: Progress | null;
  timeline: TimelinePoint[];
}

export interface LoadTestState {
  form: LoadTestForm;
  layouts: LayoutOption[];
  active: ActiveRun | null;
  history: LoadTestSummary[];
  historyLoaded: boolean;
  /** the run shown in the result card */
  detail: LoadTestRun | null;
  /** runs ticked in the history for compare/export */
  picked: string[];
  compared: LoadTestRun[];
  busy: Record<string, boolean>;
  errors: Record<string, string | null>;
  /** the stack the Stack page runs (a "Running stack" target sends to it); null until known */
  stack: StackStatus | null;
  /** the user picked a target: the page no longer picks the running stack for them */
  targetChosen: boolean;
  /** the project the form was set up for (its inputs are remembered under it); null: no project open */
  formProject: string | null;
}

export const useLoadTest = create<LoadTestState>()(() => ({
  form: DEFAULT_FORM,
  layouts: [],
  active: null,
  history: [],
  historyLoaded: false,
  detail: null,
  picked: [],
  compared: [],
  busy: {},
  errors: {},
  stack: null,
  targetChosen: false,
  formProject: null,
}));

// ---- the form remembered per project ---------------------------------------------------------------

const FORM_KEY = "satpayload.loadtest.forms";
/** the key of the forms made with no project open */
const NO_PROJECT = "-";

function storedForms(): Record<string, unknown> {
  try {
    const raw = JSON.parse(localStorage.getItem(FORM_KEY) ?? "{}") as unknown;
    return raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  } catch {
    // unreadable: nothing remembered
    return {};
  }
}

function rememberForm(projectId: string | null, form: LoadTestForm): void {
  const { format: _format, target: _target, ...inputs } = form;
  try {
    localStorage.setItem(FORM_KEY, JSON.stringify({ ...storedForms(), [projectId ?? NO_PROJECT]: inputs }));
  } catch {
    // private mode or quota: the form is remembered for this session only (the store keeps it)
  }
}

/**
 * Sets the form up for the open project on every visit: the inputs the user last used with it, else the
 * project's own layout; the format the project's chosen one (it may have been chosen on another page
 * since); the target as it stands (it follows the running stack).
 */
export function enterProject(projectId: string | null): void {
  const remembered = rememberedInputs(storedForms()[projectId ?? NO_PROJECT]);
  useLoadTest.setState((s) => ({
    formProject: projectId,
    form: { ...projectForm(projectId, projectFormat(projectId)), ...remembered, target: s.form.target },
  }));
}

function api(): HostApi {
  const a = useSession.getState().api;
  if (!a) throw new Error("host not connected");
  return a;
}

async function act<T>(key: string, fn: (api: HostApi) => Promise<T>): Promise<T | undefined> {
  useLoadTest.setState((s) => ({ busy: { ...s.busy, [key]: true }, errors: { ...s.errors, [key]: null } }));
  try {
    return await fn(api());
  } catch (e) {
    useLoadTest.setState((s) => ({ errors: { ...s.errors, [key]: asHostError(e).describe() } }));
    return undefined;
  } finally {
    useLoadTest.setState((s) => ({ busy: { ...s.busy, [key]: false } }));
  }
}

export function setForm(patch: Partial<LoadTestForm>): void {
  useLoadTest.setState((s) => ({
    form: { ...s.form, ...patch },
    targetChosen: s.targetChosen || patch.target !== undefined,
  }));
  const { formProject, form } = useLoadTest.getState();
  rememberForm(formProject, form);
  if (patch.format !== undefined) rememberProjectFormat(formProject, form.format as FormatId);
}

/** Whether a stack answers where the Stack page (or `satpayload stack up`) started it. */
export function stackRunning(s: StackStatus | null): boolean {
  return !!s?.endpoints && (s.state === "running" || s.state === "degraded");
}

/** A running stack is the default target until the user picks one: load then shows on the Stack page. */
function followStack(stack: StackStatus | null): void {
  useLoadTest.setState((s) => {
    if (s.targetChosen) return { stack };
    const target = stackRunning(stack) ? "stack" : s.form.target === "stack" ? "local" : s.form.target;
    return { stack, form: target === s.form.target ? s.form : { ...s.form, target } };
  });
}

let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  const a = api();
  a.on("loadtest.progress", ({ id, progress }) => {
    useLoadTest.setState((s) => {
      if (!s.active || s.active.run.id !== id) return {};
      const timeline = progress.point ? [...s.active.timeline, progress.point].slice(-3600) : s.active.timeline;
      return { active: { ...s.active, progress, timeline } };
    });
  });
  a.on("stack.status", (st) => followStack(st));
  a.on("loadtest.finished", (summary) => {
    useLoadTest.setState((s) => ({ active: s.active?.run.id === summary.id ? null : s.active }));
    void refreshHistory().then(() => showRun(summary.id));
  });
}

export async function startLoadTest(): Promise<void> {
  enterProject(useDesigner.getState().projectId);
  listen();
  await Promise.all([loadLayouts(), refreshHistory(), loadActive(), loadStack()]);
}

async function loadStack(): Promise<void> {
  const st = await act("stack", (a) => a.call("stack.status", {}));
  if (st) followStack(st);
}

async function loadLayouts(): Promise<void> {
  const [presets, projects] = await Promise.all([
    act("layouts", (a) => a.call("presets.list", {})),
    act("layouts", (a) => a.call("projects.list", { limit: 50 })),
  ]);
  const layouts: LayoutOption[] = [
    ...(presets ?? []).map((p) => ({ value: `preset:${p.id}`, label: `${p.name} (preset)` })),
    ...(projects ?? []).map((p) => ({ value: `project:${p.id}`, label: `${p.name} (project)` })),
  ];
  useLoadTest.setState({ layouts });
}

async function loadActive(): Promise<void> {
  const a = await act("active", (x) => x.call("loadtest.active", {}));
  if (a) useLoadTest.setState({ active: { run: a.run, progress: a.progress, timeline: a.timeline } });
}

export async function refreshHistory(): Promise<void> {
  const h = await act("history", (a) => a.call("loadtest.history", { limit: 100 }));
  if (h)
    useLoadTest.setState((s) => ({
      history: h,
      historyLoaded: true,
      picked: s.picked.filter((id) => h.some((r) => r.id === id)),
    }));
}

export async function runLoad(): Promise<void> {
  const { form } = useLoadTest.getState();
  const parsed = formSettings(form);
  // the form shows each problem next to its input and keeps Start disabled meanwhile
  if (!parsed.ok) return;
  const [kind, ...rest] = form.layout.split(":");
  const layout = { kind: kind === "project" ? ("project" as const) : ("preset" as const), id: rest.join(":") };
  const run = await act("start", (a) => a.call("loadtest.start", { layout, settings: parsed.settings }));
  if (run) {
    useLoadTest.setState((s) => ({
      active: { run, progress: null, timeline: [] },
      history: [run, ...s.history.filter((h) => h.id !== run.id)],
    }));
  }
}

export async function cancelRun(): Promise<void> {
  const id = useLoadTest.getState().active?.run.id;
  if (id) await act("cancel", (a) => a.call("loadtest.cancel", { id }));
}

export async function showRun(id: string): Promise<void> {
  const run = await act("detail", (a) => a.call("loadtest.get", { id }));
  if (run) useLoadTest.setState({ detail: run });
}

export function togglePick(id: string): void {
  useLoadTest.setState((s) => ({
    picked: s.picked.includes(id) ? s.picked.filter((x) => x !== id) : [...s.picked, id],
  }));
}

export async function compareRuns(): Promise<void> {
  const ids = useLoadTest.getState().picked.slice(0, 6);
  const runs = await act("compare", (a) => a.call("loadtest.compare", { ids }));
  if (runs) useLoadTest.setState({ compared: runs });
}

export function closeCompare(): void {
  useLoadTest.setState({ compared: [] });
}

export async function exportRuns(format: "csv" | "json"): Promise<void> {
  const { picked, history } = useLoadTest.getState();
  const ids = picked.length
    ? picked
    : history.filter((h) => h.status !== "running" && h.status !== "failed").map((h) => h.id);
  const file = await act("export", (a) => a.call("loadtest.export", { ids, format }));
  if (file) downloadText(file.content, file.fileName, file.mediaType);
}

export async function deleteRun(id: string): Promise<void> {
  const r = await act("delete", (a) => a.call("loadtest.delete", { id }));
  if (r?.deleted) {
    useLoadTest.setState((s) => ({
      detail: s.detail?.id === id ? null : s.detail,
      compared: s.compared.filter((c) => c.id !== id),
      picked: s.picked.filter((p) => p !== id),
    }));
    await refreshHistory();
  }
}
