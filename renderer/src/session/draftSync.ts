// The draft in the browser's storage follows the edits: kept while it differs from what the host has (or text is
// held in a control), dropped once the host has it, written at once when the page is left (drafts.ts stores it).
import { dropDraft, keepDraft } from "./drafts.ts";
import { savedLayout } from "./savedLayout.ts";
import { useSession } from "./sessionStore.ts";
import { useDesigner } from "../state/layoutStore.ts";
import { pendingList, usePendingInputs } from "../state/pendingInputs.ts";

/** The draft in storage while it differs from what the host has (or text is held); gone once the host has it. */
export function syncDraft(): void {
  const d = useDesigner.getState();
  if (!d.projectId) return;
  const inputs = pendingList();
  if (d.history.present === savedLayout() && inputs.length === 0) dropDraft(d.projectId);
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
  const saved = savedLayout();
  if (!d.projectId || saved === null) return false;
  return d.history.present !== saved || usePendingInputs.getState().byKey.size > 0;
}

let guarding = false;
export function guardUnload(): void {
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

/**
 * Keeps the draft in storage once the page is idle (at most a second after the edit): serialising a large
 * layout on every keystroke would hold up typing. Leaving the page writes it at once (guardUnload).
 */
let draftWriting = false;
/** the longest the stored draft lags behind an edit */
export const DRAFT_WRITE_MAX_MS = 1000;
export function scheduleDraftWrite(): void {
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
