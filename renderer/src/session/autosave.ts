// Autosave: the draft goes to the host SAVE_DEBOUNCE_MS after the last edit, once it has no problems; the header
// says where it stands (saved, pending, saving, invalid, error, conflict). A save the host refuses because another
// window saved first, or a version another window saved while ours was on the wire, is a conflict (conflicts.ts
// resolves it).
import { scheduleDraftWrite, syncDraft } from "./draftSync.ts";
import { nameFollowsLayout } from "./rename.ts";
import { savedLayout, setSavedLayout } from "./savedLayout.ts";
import { hostApi, setSave, useSession } from "./sessionStore.ts";
import { asHostError } from "../host/errors.ts";
import { useDesigner } from "../state/layoutStore.ts";
import { keepInputsOf, usePendingInputs } from "../state/pendingInputs.ts";
import { locate } from "../state/tree.ts";

export const SAVE_DEBOUNCE_MS = 600;

let timer: ReturnType<typeof setTimeout> | null = null;
let inFlight: Promise<void> | null = null;
/** highest version announced by host events while our own save was in flight */
let seenVersion = 0;

/** What stops a save: the layout's problems and the text held in controls that is not in the layout yet. */
export function problemCount(): number {
  return useDesigner.getState().issueCount + usePendingInputs.getState().byKey.size;
}

export function setInvalid(problems: number): void {
  setSave("invalid", `${problems} problem${problems === 1 ? "" : "s"} to fix before saving`);
}

async function saveNow(): Promise<void> {
  useDesigner.getState().checkNow();
  const d = useDesigner.getState();
  const s = useSession.getState();
  if (!d.projectId || s.save.status === "conflict") return;
  const draft = d.history.present;
  const problems = problemCount();
  if (draft === savedLayout() && problems === 0) {
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
    const res = await hostApi().call("projects.save", { id, layout: draft, baseVersion: s.version });
    if (useDesigner.getState().projectId !== id) return;
    setSavedLayout(draft);
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

export function markConflict(message: string): void {
  if (timer) clearTimeout(timer);
  timer = null;
  setSave("conflict", message);
}

/**
 * A version the host announced as saved: while our own save is on the wire it is judged when that save returns
 * (true); otherwise the caller judges it now (false).
 */
export function noteVersionWhileSaving(version: number): boolean {
  if (!inFlight) return false;
  seenVersion = Math.max(seenVersion, version);
  return true;
}

export function scheduleSave(): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    void flushSave();
  }, SAVE_DEBOUNCE_MS);
}

/** A project opened (or reloaded after a conflict): no save of the one before is waiting, no version was seen. */
export function resetAutosave(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  seenVersion = 0;
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
  if (useDesigner.getState().history.present !== savedLayout() && useSession.getState().save.status === "saved")
    scheduleSave();
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
  if (d.history.present === savedLayout() && problems === 0) {
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
  scheduleSave();
}

let watching = false;
/** From the first project opened on: every edit and every change of held text goes through editsChanged. */
export function watchDraft(): void {
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
      if (d.history.present !== savedLayout() && status === "saved") setSave("pending");
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
