// The open layout: the edited draft with undo/redo, the last valid parse the sizes are computed from, and selection.
// An edit changes the draft at once (the keystroke paints with it); checking the draft (validation, the valid
// layout the sizes follow) runs after that frame is painted, once for all the edits made before it.
import { create } from "zustand";
import { type Field, keepProtobufNumbers, type Layout, LayoutChecker, pinProtobufNumbers } from "#codecs";
import { initHistory, record, redo, undo, type History } from "./history.ts";
import { indexIssues, type IssueIndex } from "./issues.ts";
import { locate } from "./tree.ts";
import { afterPaint } from "../afterPaint.ts";

export interface DesignerState {
  projectId: string | null;
  projectName: string;
  history: History<Layout>;
  /** the draft that `valid`, `issues` and `issueCount` describe: `history.present` once it has been checked */
  checked: Layout;
  /** the last draft that passed parseLayout: what sizes, attribution and the byte map use */
  valid: Layout | null;
  /** increments with every new valid layout; the worker keys its caches on it */
  validKey: number;
  /** performance.now() of the edit that produced `valid` (for the edit → bars timing) */
  validAt: number;
  issues: IssueIndex;
  issueCount: number;
  selectedId: string | null;
  hoveredId: string | null;
  /** fields added since the layout was opened: their keys follow their names */
  newFieldIds: ReadonlySet<string>;

  load(projectId: string, name: string, layout: Layout): void;
  /** the saved layout with an unsaved draft on top (one undo step back to the saved one) */
  restore(projectId: string, name: string, saved: Layout, draft: Layout): void;
  close(): void;
  /** applies fn to the draft as one undo step; the same mergeKey within a short time merges keystrokes */
  edit(fn: (layout: Layout) => Layout, mergeKey?: string | null): void;
  editFields(fn: (fields: Field[]) => Field[], mergeKey?: string | null): void;
  undo(): void;
  redo(): void;
  /** checks the draft now if an edit is waiting for its check (what reads `valid` or `issues` right after an edit calls it) */
  checkNow(): void;
  select(id: string | null): void;
  hover(id: string | null): void;
  setProjectName(name: string): void;
  markNew(...ids: string[]): void;
}

const EMPTY_ISSUES: IssueIndex = { byField: new Map(), layout: [] };

/** One checker for every draft: a field object an edit did not replace is not parsed again, and keeps its identity. */
const checker = new LayoutChecker();

function validate(draft: Layout, prev: Pick<DesignerState, "valid" | "validKey" | "validAt">, at: number) {
  const res = checker.check(draft);
  if (res.ok)
    return { valid: res.layout, validKey: prev.validKey + 1, validAt: at, issues: EMPTY_ISSUES, issueCount: 0 };
  return {
    valid: prev.valid,
    validKey: prev.validKey,
    validAt: prev.validAt,
    issues: indexIssues(draft.fields, res.issues),
    issueCount: res.issues.length,
  };
}

/** A selection that no longer exists (deleted, undone) is dropped rather than left dangling. */
function keepSelection(layout: Layout, id: string | null): string | null {
  return id !== null && locate(layout.fields, id) ? id : null;
}

/** performance.now() of the first edit not checked yet (the edit → bars timing starts there) */
let uncheckedSince: number | null = null;

function scheduleCheck(at: number): void {
  if (uncheckedSince !== null) return;
  uncheckedSince = at;
  afterPaint(() => useDesigner.getState().checkNow());
}

/** The layout of no project: what the designer holds before one is opened. */
export const EMPTY_LAYOUT: Layout = {
  format: "satlayout",
  version: 1,
  name: "",
  package: "telemetry",
  message: "Telemetry",
  struct: { endianness: "big", stringMode: "u16-appended" },
  json: { spacing: "compact" },
  sbe: { schemaId: 1, templateId: 1, version: 0 },
  protobufReserved: [],
  fields: [],
};

export const useDesigner = create<DesignerState>()((set, get) => ({
  projectId: null,
  projectName: "",
  history: initHistory<Layout>(EMPTY_LAYOUT),
  checked: EMPTY_LAYOUT,
  valid: null,
  validKey: 0,
  validAt: 0,
  issues: EMPTY_ISSUES,
  issueCount: 0,
  selectedId: null,
  hoveredId: null,
  newFieldIds: new Set<string>(),

  load(projectId, name, input) {
    const at = performance.now();
    // numbers live in the draft from now on, so moving a field never renumbers it
    const layout = pinProtobufNumbers(input);
    uncheckedSince = null;
    set((s) => ({
      checked: layout,
      projectId,
      projectName: name,
      history: initHistory(layout),
      selectedId: null,
      hoveredId: null,
      newFieldIds: new Set<string>(),
      ...validate(layout, { valid: null, validKey: s.validKey, validAt: 0 }, at),
    }));
  },

  restore(projectId, name, saved, draft) {
    const at = performance.now();
    uncheckedSince = null;
    set((s) => {
      const base = validate(saved, { valid: null, validKey: s.validKey, validAt: 0 }, at);
      return {
        checked: draft,
        projectId,
        projectName: name,
        history: record(initHistory(saved), draft, null, Date.now()),
        selectedId: null,
        hoveredId: null,
        newFieldIds: new Set<string>(),
        ...validate(draft, base, at),
      };
    });
  },

  close() {
    set({
      projectId: null,
      projectName: "",
      valid: null,
      selectedId: null,
      hoveredId: null,
      issues: EMPTY_ISSUES,
      issueCount: 0,
    });
  },

  edit(fn, mergeKey = null) {
    const at = performance.now();
    const s = get();
    const edited = fn(s.history.present);
    if (edited === s.history.present) return;
    const next = keepProtobufNumbers(s.history.present, edited);
    const history = record(s.history, next, mergeKey, Date.now());
    set({ history, selectedId: keepSelection(next, s.selectedId) });
    scheduleCheck(at);
  },

  editFields(fn, mergeKey = null) {
    get().edit((l) => ({ ...l, fields: fn(l.fields) }), mergeKey);
  },

  undo() {
    const at = performance.now();
    const s = get();
    const history = undo(s.history);
    if (history === s.history) return;
    set({ history, selectedId: keepSelection(history.present, s.selectedId) });
    scheduleCheck(at);
  },

  redo() {
    const at = performance.now();
    const s = get();
    const history = redo(s.history);
    if (history === s.history) return;
    set({ history, selectedId: keepSelection(history.present, s.selectedId) });
    scheduleCheck(at);
  },

  checkNow() {
    const at = uncheckedSince;
    uncheckedSince = null;
    const s = get();
    if (s.checked === s.history.present) return;
    set({ checked: s.history.present, ...validate(s.history.present, s, at ?? performance.now()) });
  },

  select(id) {
    if (get().selectedId !== id) set({ selectedId: id });
  },
  hover(id) {
    if (get().hoveredId !== id) set({ hoveredId: id });
  },
  setProjectName(name) {
    set({ projectName: name });
  },
  markNew(...ids) {
    set((s) => ({ newFieldIds: new Set([...s.newFieldIds, ...ids]) }));
  },
}));

export const draftOf = (s: DesignerState): Layout => s.history.present;
