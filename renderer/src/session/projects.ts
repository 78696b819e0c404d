// Opening, creating and closing projects: the loading screen while the host answers, the start screen with the
// reason when it cannot, and the designer with the project's layout (and any unsaved draft stored for it) when it can.
import {
  checkLayout,
  describeIssue,
  joinIssues,
  LayoutError,
  type IssueAt,
  type Layout,
  type LayoutInput,
  parseLayoutShape,
} from "#codecs";
import type { Project } from "#host/api/contract.ts";
import { flushSave, problemCount, resetAutosave, scheduleSave, setInvalid, watchDraft } from "./autosave.ts";
import { dropDraft, readDraft } from "./drafts.ts";
import { guardUnload, syncDraft } from "./draftSync.ts";
import { setUrlProject } from "./projectUrl.ts";
import { setSavedLayout } from "./savedLayout.ts";
import { hostApi, setSave, useSession } from "./sessionStore.ts";
import { asHostError } from "../host/errors.ts";
import { useAnalysis } from "../state/analysis.ts";
import { useDesigner } from "../state/layoutStore.ts";
import { keepInputsOf, restoreInputs } from "../state/pendingInputs.ts";
import { locate } from "../state/tree.ts";

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

export function enterDesigner(p: Project, restoreDraft = true): boolean {
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
  resetAutosave();
  useAnalysis.setState({ sizes: null, attribution: null, byteMap: null, batch: null, computing: false, error: null });
  const draft = restoreDraft ? readDraft(p.id) : null;
  if (!restoreDraft) dropDraft(p.id);
  restoreInputs(draft?.inputs ?? []);
  if (draft) useDesigner.getState().restore(p.id, p.name, parsed.layout, draft.layout);
  else useDesigner.getState().load(p.id, p.name, parsed.layout);
  keepInputsOf((id) => locate(useDesigner.getState().history.present.fields, id)?.field);
  setSavedLayout(useDesigner.getState().history.past[0] ?? useDesigner.getState().history.present);
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
  // the designer's subscribers ran before the saved layout was set: store (or drop) the draft now
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
      scheduleSave();
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

/** The loading screen while `fn` asks the host for a project; the designer with it, or the start screen with `what`. */
export async function withLoading(what: string, fn: () => Promise<Project | null>): Promise<boolean> {
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
  return withLoading("Could not open the project", () => hostApi().call("projects.open", { id }));
}

export function createProject(name: string, layout: LayoutInput | unknown): Promise<boolean> {
  return withLoading("Could not create the project", () => hostApi().call("projects.create", { name, layout }));
}

export function createEmpty(): Promise<boolean> {
  const layout: LayoutInput = { format: "satlayout", version: 1, name: "Untitled layout", fields: [] };
  return createProject("Untitled layout", layout);
}

export async function goHome(): Promise<void> {
  await flushSave();
  useDesigner.getState().close();
  restoreInputs([]);
  setSavedLayout(null);
  useSession.setState({ screen: "start", notice: null });
  setUrlProject(null);
}
