// The decide pages' state: the project's cost scenarios with a debounced save to the host, and the report's page
// size.
import { create } from "zustand";
import type { PageSize } from "#host/api/report.ts";
import {
  defaultScenario,
  paperTable7Scenario,
  parseCostDoc,
  type BudgetSettings,
  type CostDoc,
  type FleetScenario,
} from "#planning";
import { asHostError } from "../../host/errors.ts";
import { useSession } from "../../session/sessionStore.ts";
import { useDesigner } from "../../state/layoutStore.ts";

export type CostSave = "saved" | "pending" | "saving" | "error";

export interface DecideState {
  projectId: string | null;
  doc: CostDoc | null;
  loading: boolean;
  loadError: string | null;
  save: CostSave;
  saveError: string | null;
  pageSize: PageSize;
}

export const useDecide = create<DecideState>()(() => ({
  projectId: null,
  doc: null,
  loading: false,
  loadError: null,
  save: "saved",
  saveError: null,
  pageSize: "A4",
}));

// ---- cost scenarios ------------------------------------------------------------------------------

const SAVE_DEBOUNCE_MS = 600;
let timer: ReturnType<typeof setTimeout> | null = null;
let loadSeq = 0;

/** Loads the project's scenarios once per project (again after a failure). */
export async function ensureCosts(): Promise<void> {
  const projectId = useDesigner.getState().projectId;
  const api = useSession.getState().api;
  const s = useDecide.getState();
  if (!projectId || !api || (s.projectId === projectId && (s.doc || s.loading))) return;
  const seq = ++loadSeq;
  useDecide.setState({ projectId, doc: null, loading: true, loadError: null, save: "saved", saveError: null });
  try {
    const res = await api.call("costs.get", { projectId });
    if (seq !== loadSeq) return;
    useDecide.setState({ doc: parseCostDoc(res.doc), loading: false });
  } catch (e) {
    if (seq !== loadSeq) return;
    useDecide.setState({ loading: false, loadError: asHostError(e).describe() });
  }
}

async function saveNow(): Promise<void> {
  const { projectId, doc } = useDecide.getState();
  const api = useSession.getState().api;
  if (!projectId || !doc || !api) return;
  useDecide.setState({ save: "saving" });
  try {
    await api.call("costs.save", { projectId, doc });
    // edits made while this save was on the wire are saved by the timer they scheduled
    if (useDecide.getState().doc === doc) useDecide.setState({ save: "saved", saveError: null });
  } catch (e) {
    useDecide.setState({ save: "error", saveError: asHostError(e).describe() });
  }
}

function changeDoc(fn: (d: CostDoc) => CostDoc): void {
  const doc = useDecide.getState().doc;
  if (!doc) return;
  useDecide.setState({ doc: fn(doc), save: "pending" });
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    void saveNow();
  }, SAVE_DEBOUNCE_MS);
}

export function activeScenario(s: DecideState): FleetScenario | null {
  return s.doc ? (s.doc.scenarios[s.doc.active] ?? null) : null;
}

export function editScenario(patch: Partial<FleetScenario> | ((s: FleetScenario) => FleetScenario)): void {
  changeDoc((d) => ({
    ...d,
    scenarios: d.scenarios.map((s, i) =>
      i === d.active ? (typeof patch === "function" ? patch(s) : { ...s, ...patch }) : s,
    ),
  }));
}

/** The Budget view's settings, saved with the scenarios (budget/budgetStore.ts keeps them while editing). */
export function editBudgetSettings(budget: BudgetSettings): void {
  changeDoc((d) => ({ ...d, budget }));
}

export function selectScenario(index: number): void {
  changeDoc((d) => (index >= 0 && index < d.scenarios.length ? { ...d, active: index } : d));
}

function freeName(d: CostDoc, base: string): string {
  const names = new Set(d.scenarios.map((s) => s.name));
  if (!names.has(base)) return base;
  for (let i = 2; ; i++) if (!names.has(`${base} ${i}`)) return `${base} ${i}`;
}

/** A new scenario (a copy of the open one, or the paper's Table 7 fleet), opened at once. */
export function addScenario(kind: "copy" | "paper"): void {
  changeDoc((d) => {
    if (d.scenarios.length >= 50) return d;
    const base = kind === "paper" ? paperTable7Scenario() : { ...(d.scenarios[d.active] ?? defaultScenario()) };
    const s = { ...base, name: freeName(d, kind === "paper" ? base.name : `${base.name} copy`) };
    return { ...d, scenarios: [...d.scenarios, s], active: d.scenarios.length };
  });
}

export function removeScenario(): void {
  changeDoc((d) => {
    if (d.scenarios.length <= 1) return d;
    const scenarios = d.scenarios.filter((_, i) => i !== d.active);
    return { ...d, scenarios, active: Math.min(d.active, scenarios.length - 1) };
  });
}

/** Saves a pending edit now (before printing or leaving). */
export async function flushCosts(): Promise<void> {
  if (!timer) return;
  clearTimeout(timer);
  timer = null;
  await saveNow();
}
