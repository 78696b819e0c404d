// The host session: which screen is up, opening/creating projects, autosave with conflict detection, files.
import { create } from "zustand";
import {
  checkLayout,
  describeIssue,
  hasVisibleCharacter,
  joinIssues,
  LayoutError,
  type IssueAt,
  type Layout,
  type LayoutInput,
} from "#codecs";
import { parseLayoutShape } from "#codecs/layout/validate.ts";
import { codePoints } from "#codecs/text/visible.ts";
import type { HostApi, Project, ProjectSummary } from "#host/api/contract.ts";
import { dropDraft, keepDraft, readDraft } from "./drafts.ts";
import { asHostError } from "../host/errors.ts";
import { useAnalysis } from "../state/analysis.ts";
import { useDesigner } from "../state/layoutStore.ts";
import { keepInputsOf, pendingList, restoreInputs, usePendingInputs } from "../state/pendingInputs.ts";
import { locate } from "../state/tree.ts";

export type SaveStatus = "saved" | "pending" | "saving" | "invalid" | "error" | "conflict";

export interface SessionState {
  api: HostApi | null;
  shell: "electron" | "browser";
  screen: "start" | "loading" | "designer";
  /** version the next save builds on */
  version: number;
  save: { status: SaveStatus; message: string | null; savedAt: string | null };
  /** a problem opening/creating/importing, shown on the start screen */
  startError: { title: string; detail: string } | null;
  /** a problem from a designer action (rename, download) shown in the top bar */
  notice: { kind: "error" | "info"; text: string } | null;
}

export const SAVE_DEBOUNCE_MS = 600;

export const useSession = create<SessionState>()(() => ({
  api: null,
  shell: "browser",
  screen: "start",
  version: 0,
  save: { status: "saved", message: null, savedAt: null },
  startError: null,
  notice: null,
}));

function api(): HostApi {
  const a = useSession.getState().api;
  if (!a) throw new Error("host not connected");
  return a;
}

function setUrlProject(id: string | null): void {
  const url = new URL(location.href);
  if (id) url.searchParams.set("project", id);
  else url.searchParams.delete("project");
  history.replaceState(null, "", url.toString());
}

// ---- autosave -------------------------------------------------------------------------------

let savedDraft: Layout | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;
let inFlight: Promise<void> | null = null;
/** highest version announced by host events while our own save was in flight */
let seenVersion = 0;

function setSave(status: SaveStatus, message: string | null = null): void {
  useSession.setState((s) => ({ save: { ...s.save, status, message } }));
}

/** What stops a save: the layout's problems and the text held in controls that is not in the layout yet. */
function problemCount(): number {
  return useDesigner.getState().issueCount + usePendingInputs.getState().byKey.size;
}

function setInvalid(problems: number): void {
  setSave("invalid", `${problems} problem${problems === 1 ? "" : "s"} to fix before saving`);
}

async function saveNow(): Promise<void> {
  useDesigner.getState().checkNow();
  const d = useDesigner.getState();
  const s = useSession.getState();
  if (!d.projectId || s.save.status === "conflict") return;
  const draft = d.history.present;
  const problems = problemCount();
  if (draft === savedDraft && problems === 0) {
    setSave("saved");
    syncDraft();
    return;
  }
  if (problems > 0) {
    setInvalid(problems);
    return;
  }
  setSave("saving");
  const id = d.projectId;
  try {
    const res = await api().call("projects.save", { id, layout: draft, baseVersion: s.version });
    if (useDesigner.getState().projectId !== id) return;
    savedDraft = draft;
    useSession.setState({ version: res.version, save: { status: "saved", message: null, savedAt: res.updatedAt } });
    syncDraft();
    void nameFollowsLayout(id, draft.name);
    if (seenVersion > res.version) markConflict("Saved in another window meanwhile.");
  } catch (e) {
    const err = asHostError(e);
    if (err.code === "conflict") markConflict("Another window saved this project first.");
    else setSave("error", err.describe());
  }
}

function markConflict(message: string): void {
  if (timer) clearTimeout(timer);
  timer = null;
  setSave("conflict", message);
}

function schedule(): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    void flushSave();
  }, SAVE_DEBOUNCE_MS);
}

/** Saves pending edits now (a download must contain them); resolves when the host has them or failed. */
export async function flushSave(): Promise<void> {
  if (timer) {
    clearTimeout(timer);
    timer = null;
  }
  while (inFlight) await inFlight;
  inFlight = saveNow().finally(() => {
    inFlight = null;
  });
  await inFlight;
  // edits made while the save was on the wire go out in the next one
  if (useDesigner.getState().history.present !== savedDraft && useSession.getState().save.status === "saved")
    schedule();
}

/** The draft in storage while it differs from what the host has (or text is held); gone once the host has it. */
function syncDraft(): void {
  const d = useDesigner.getState();
  if (!d.projectId) return;
  const inputs = pendingList();
  if (d.history.present === savedDraft && inputs.length === 0) dropDraft(d.projectId);
  else
    keepDraft(d.projectId, {
      baseVersion: useSession.getState().version,
      at: new Date().toISOString(),
      layout: d.history.present,
      ...(inputs.length ? { inputs } : {}),
    });
}

/** Edits the host does not have yet: leaving the page asks first. */
export function hasUnsavedEdits(): boolean {
  const d = useDesigner.getState();
  if (!d.projectId || savedDraft === null) return false;
  return d.history.present !== savedDraft || usePendingInputs.getState().byKey.size > 0;
}

let guarding = false;
function guardUnload(): void {
  if (guarding || typeof window === "undefined") return;
  guarding = true;
  window.addEventListener("beforeunload", (e) => {
    if (!hasUnsavedEdits()) return;
    syncDraft();
    // Electron cancels an unload silently unless the shell handles will-prevent-unload: there the
    // stored draft alone keeps the edits, and the window still closes
    if (useSession.getState().shell !== "browser") return;
    e.preventDefault();
    // older Chromium (Electron) shows the prompt only when returnValue is set
    e.returnValue = "";
  });
}

/** After an edit or a change of held text: the stored draft and the header follow. */
function editsChanged(): void {
  const d = useDesigner.getState();
  if (!d.projectId) return;
  // the draft's problems are known once it has been checked (after the keystroke's frame): decide then
  if (d.checked !== d.history.present) return;
  scheduleDraftWrite();
  const status = useSession.getState().save.status;
  if (status === "conflict") return;
  const problems = problemCount();
  if (d.history.present === savedDraft && problems === 0) {
    if (status !== "saving") setSave("saved");
    if (timer) clearTimeout(timer);
    timer = null;
    return;
  }
  if (problems > 0) {
    if (timer) clearTimeout(timer);
    timer = null;
    setInvalid(problems);
    return;
  }
  if (status !== "saving") setSave("pending");
  schedule();
}

let watching = false;
function watchDraft(): void {
  if (watching) return;
  watching = true;
  let last = useDesigner.getState().history.present;
  let lastChecked = useDesigner.getState().checked;
  useDesigner.subscribe((d) => {
    if (!d.projectId) return;
    if (d.history.present !== last) {
      last = d.history.present;
      // text held for a field that was deleted, or whose control went with a type switch, goes with it
      keepInputsOf((id) => locate(d.history.present.fields, id)?.field);
      // an edit: the header stops saying "Saved" with the keystroke (validity is known once the draft is checked)
      const status = useSession.getState().save.status;
      if (d.history.present !== savedDraft && status === "saved") setSave("pending");
    }
    if (d.checked === lastChecked || d.checked !== d.history.present) return;
    lastChecked = d.checked;
    editsChanged();
  });
  let held = usePendingInputs.getState().byKey;
  usePendingInputs.subscribe((p) => {
    if (p.byKey === held) return;
    held = p.byKey;
    editsChanged();
  });
}

/**
 * Keeps the draft in storage once the page is idle (at most a second after the edit): serialising a large
 * layout on every keystroke would hold up typing. Leaving the page writes it at once (guardUnload).
 */
let draftWriting = false;
/** the longest the stored draft lags behind an edit */
export const DRAFT_WRITE_MAX_MS = 1000;
function scheduleDraftWrite(): void {
  if (draftWriting) return;
  draftWriting = true;
  let idle: number | null = null;
  const write = () => {
    if (!draftWriting) return;
    draftWriting = false;
    clearTimeout(late);
    if (idle !== null) cancelIdleCallback(idle);
    syncDraft();
  };
  const late = setTimeout(write, DRAFT_WRITE_MAX_MS);
  if (typeof requestIdleCallback === "function") idle = requestIdleCallback(write, { timeout: DRAFT_WRITE_MAX_MS });
}

// ---- projects ---------------------------------------------------------------------------------

/**
 * The project's layout as the designer opens it. One saved before a rule existed (a name of spaces, say)
 * opens with that problem marked, so it can be fixed; only a layout of the wrong shape stays closed.
 */
function openable(stored: unknown): { ok: true; layout: Layout; broken: boolean } | { ok: false; issues: IssueAt[] } {
  const parsed = checkLayout(stored);
  if (parsed.ok) return { ok: true, layout: parsed.layout, broken: false };
  try {
    return { ok: true, layout: parseLayoutShape(stored), broken: true };
  } catch (e) {
    if (e instanceof LayoutError) return { ok: false, issues: e.issues };
    throw e;
  }
}

function enterDesigner(p: Project, restoreDraft = true): boolean {
  const parsed = openable(p.layout);
  if (!parsed.ok) {
    useSession.setState({
      screen: "start",
      startError: {
        title: `"${p.name}" holds an invalid layout`,
        detail:
          joinIssues(parsed.issues.slice(0, 3).map(describeIssue)) +
          (parsed.issues.length > 3 ? ` (${parsed.issues.length - 3} more)` : ""),
      },
    });
    return false;
  }
  if (timer) clearTimeout(timer);
  timer = null;
  seenVersion = 0;
  useAnalysis.setState({ sizes: null, attribution: null, byteMap: null, computing: false, error: null });
  const draft = restoreDraft ? readDraft(p.id) : null;
  if (!restoreDraft) dropDraft(p.id);
  restoreInputs(draft?.inputs ?? []);
  if (draft) useDesigner.getState().restore(p.id, p.name, parsed.layout, draft.layout);
  else useDesigner.getState().load(p.id, p.name, parsed.layout);
  keepInputsOf((id) => locate(useDesigner.getState().history.present.fields, id)?.field);
  savedDraft = useDesigner.getState().history.past[0] ?? useDesigner.getState().history.present;
  // a draft made on an older version saves against that version: the host then reports the conflict
  useSession.setState({
    screen: "designer",
    version: draft ? Math.min(draft.baseVersion, p.version) : p.version,
    save: { status: "saved", message: null, savedAt: p.updatedAt },
    startError: null,
    notice: null,
  });
  setUrlProject(p.id);
  watchDraft();
  guardUnload();
  // the designer's subscribers ran before savedDraft was set: store (or drop) the draft now
  syncDraft();
  if (draft) {
    const problems = problemCount();
    const when = new Date(draft.at).toLocaleString();
    useSession.setState({
      notice: {
        kind: "info",
        text: `Restored unsaved edits from ${when}${problems > 0 ? ": fix the marked problems to save them" : ""}.`,
      },
    });
    if (problems > 0) setInvalid(problems);
    else {
      setSave("pending");
      schedule();
    }
  } else if (parsed.broken) {
    useSession.setState({
      notice: {
        kind: "info",
        text: "This layout was saved before some of today's rules existed: fix the marked problems to save it again.",
      },
    });
    setInvalid(problemCount());
  }
  return true;
}

async function withLoading(what: string, fn: () => Promise<Project | null>): Promise<boolean> {
  const before = useSession.getState().screen;
  useSession.setState({ screen: "loading", startError: null });
  try {
    const p = await fn();
    if (!p) {
      useSession.setState({ screen: before });
      return false;
    }
    return enterDesigner(p);
  } catch (e) {
    useSession.setState({ screen: "start", startError: { title: what, detail: asHostError(e).describe() } });
    setUrlProject(null);
    return false;
  }
}

export function openProject(id: string): Promise<boolean> {
  return withLoading("Could not open the project", () => api().call("projects.open", { id }));
}

export function createProject(name: string, layout: LayoutInput | unknown): Promise<boolean> {
  return withLoading("Could not create the project", () => api().call("projects.create", { name, layout }));
}

export function createEmpty(): Promise<boolean> {
  const layout: LayoutInput = { format: "satlayout", version: 1, name: "Untitled layout", fields: [] };
  return createProject("Untitled layout", layout);
}

export async function importFile(file: File): Promise<boolean> {
  if (file.size > 5_000_000) {
    useSession.setState({
      startError: { title: `Could not open "${file.name}"`, detail: "The file is larger than 5 MB." },
    });
    return false;
  }
  const content = await file.text();
  return withLoading(`Could not open "${file.name}"`, () =>
    api().call("files.importLayout", { fileName: file.name, content }),
  );
}

/** Electron only: the native open dialog. */
export function openFileDialog(): Promise<boolean> {
  return withLoading("Could not open the file", () => api().call("files.openLayout", {}));
}

export async function goHome(): Promise<void> {
  await flushSave();
  useDesigner.getState().close();
  restoreInputs([]);
  savedDraft = null;
  useSession.setState({ screen: "start", notice: null });
  setUrlProject(null);
}

/** One name: a layout saved under a new name renames its project (code, exports and runs use the layout's). */
async function nameFollowsLayout(id: string, layoutName: string): Promise<void> {
  const name = layoutName.trim();
  const d = useDesigner.getState();
  if (!name || d.projectId !== id || name === d.projectName) return;
  try {
    const res = await api().call("projects.rename", { id, name });
    if (useDesigner.getState().projectId === id) useDesigner.getState().setProjectName(res.name);
  } catch (e) {
    useSession.setState({
      notice: { kind: "error", text: `The project keeps its old name: ${asHostError(e).describe()}` },
    });
  }
}

export async function renameProject(name: string): Promise<void> {
  const id = useDesigner.getState().projectId;
  const trimmed = name.trim();
  if (!id || trimmed === useDesigner.getState().projectName) return;
  if (!hasVisibleCharacter(trimmed)) {
    // the name field closes on Enter or blur: say why the old name is back rather than drop the edit silently
    useSession.setState({
      notice: {
        kind: "error",
        text: `The project keeps its name: the new one ${trimmed ? `holds only invisible characters (${codePoints(trimmed)})` : "is empty"}; a name needs at least one visible character.`,
      },
    });
    return;
  }
  const before = useDesigner.getState().projectName;
  useDesigner.getState().setProjectName(trimmed);
  try {
    const res: ProjectSummary = await api().call("projects.rename", { id, name: trimmed });
    useDesigner.getState().setProjectName(res.name);
    // the layout carries the same name (the autosave stores it): headers, exports and runs follow
    useDesigner.getState().edit((l) => (l.name === res.name ? l : { ...l, name: res.name }));
  } catch (e) {
    useDesigner.getState().setProjectName(before);
    useSession.setState({ notice: { kind: "error", text: `Rename failed: ${asHostError(e).describe()}` } });
  }
}

/** Browser: a download of the layout file; Electron: the native save dialog. */
export async function exportLayout(): Promise<void> {
  const id = useDesigner.getState().projectId;
  if (!id) return;
  await flushSave();
  const status = useSession.getState().save.status;
  if (status !== "saved") {
    useSession.setState({
      notice: { kind: "error", text: "Fix the layout problems first: the file is written from the saved layout." },
    });
    return;
  }
  try {
    if (useSession.getState().shell === "electron") {
      const res = await api().call("files.saveLayout", { id });
      if (res) useSession.setState({ notice: { kind: "info", text: `Saved to ${res.path}` } });
      return;
    }
    const { fileName, content } = await api().call("files.layoutText", { id });
    const url = URL.createObjectURL(new Blob([content], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = fileName;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (e) {
    useSession.setState({ notice: { kind: "error", text: `Export failed: ${asHostError(e).describe()}` } });
  }
}

/** After a conflict: take the other window's version, or write ours over it. */
export async function resolveConflict(choice: "reload" | "overwrite"): Promise<void> {
  const id = useDesigner.getState().projectId;
  if (!id) return;
  try {
    const latest = await api().call("projects.open", { id });
    if (choice === "reload") {
      enterDesigner(latest, false);
      return;
    }
    useSession.setState({ version: latest.version });
    setSave("pending");
    savedDraft = null;
    await flushSave();
  } catch (e) {
    setSave("conflict", `Could not resolve: ${asHostError(e).describe()}`);
  }
}

/** Host events: another window saving the open project puts us in conflict before our next save fails. */
export function listenToHost(): () => void {
  return api().on("project.saved", (p) => {
    const d = useDesigner.getState();
    if (p.id !== d.projectId) return;
    if (inFlight) {
      seenVersion = Math.max(seenVersion, p.version);
      return;
    }
    if (p.version > useSession.getState().version) markConflict("Saved in another window.");
  });
}
