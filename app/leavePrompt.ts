// The renderer warns before a window with unsaved edits goes away (beforeunload). A browser shows its
// own prompt for that; Electron cancels such an unload silently unless the app asks the user itself.
import type { MessageBoxSyncOptions } from "electron";

export const LEAVE_PROMPT: MessageBoxSyncOptions = {
  type: "question",
  buttons: ["Leave", "Stay"],
  defaultId: 1,
  cancelId: 1,
  title: "Unsaved edits",
  message: "This layout has edits that are not saved yet.",
  detail: "They are kept as a draft and come back when the project is opened again. Leave anyway?",
};

interface UnloadEvent {
  preventDefault(): void;
}

/** Asks on every blocked unload; "Leave" lets it go ahead (preventDefault cancels the renderer's veto). */
export function wireLeavePrompt(
  contents: { on(event: "will-prevent-unload", listener: (e: UnloadEvent) => void): unknown },
  ask: (o: MessageBoxSyncOptions) => number,
): void {
  contents.on("will-prevent-unload", (e) => {
    if (ask(LEAVE_PROMPT) === 0) e.preventDefault();
  });
}
