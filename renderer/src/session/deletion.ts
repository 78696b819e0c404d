// Deleting projects: the host keeps a deleted project in "Recently deleted" for a week, so a delete is one click
// and the toast's Undo (or Restore in that list) brings it back. The start screen reloads its lists on `revision`.
import { create } from "zustand";
import { goHome } from "./projects.ts";
import { hostApi } from "./sessionStore.ts";
import { asHostError } from "../host/errors.ts";
import { useDesigner } from "../state/layoutStore.ts";

export interface DeletionState {
  /** the project just deleted, offered for Undo */
  undo: { id: string; name: string } | null;
  /** grows with every delete, restore and purge: the start screen's lists load again */
  revision: number;
  /** a delete, restore or purge the host refused, said on the start screen */
  error: string | null;
}

export const useDeletion = create<DeletionState>()(() => ({ undo: null, revision: 0, error: null }));

const changed = (patch: Partial<DeletionState>) =>
  useDeletion.setState((s) => ({ ...patch, revision: s.revision + 1 }));

/**
 * Deletes the project. The open one is saved and closed first (goHome), so what Undo restores has its last
 * edits; a draft with problems stays in this browser, and a restored project opens with it.
 */
export async function deleteProject(id: string, name: string): Promise<boolean> {
  if (useDesigner.getState().projectId === id) await goHome();
  try {
    await hostApi().call("projects.delete", { id });
    changed({ undo: { id, name }, error: null });
    return true;
  } catch (e) {
    changed({ error: `"${name}" could not be deleted: ${asHostError(e).describe()}` });
    return false;
  }
}

/** Brings a deleted project back to the recent list, where it was. */
export async function restoreProject(id: string, name: string): Promise<boolean> {
  try {
    await hostApi().call("projects.restore", { id });
    changed({ undo: null, error: null });
    return true;
  } catch (e) {
    changed({ undo: null, error: `"${name}" could not be restored: ${asHostError(e).describe()}` });
    return false;
  }
}

export function undoDelete(): Promise<boolean> {
  const u = useDeletion.getState().undo;
  return u ? restoreProject(u.id, u.name) : Promise.resolve(false);
}

/** Removes a deleted project for good now (its versions and cost scenario go with it). */
export async function purgeProject(id: string, name: string): Promise<void> {
  try {
    await hostApi().call("projects.purge", { id });
    changed({ undo: useDeletion.getState().undo?.id === id ? null : useDeletion.getState().undo, error: null });
  } catch (e) {
    changed({ error: `"${name}" could not be removed: ${asHostError(e).describe()}` });
  }
}

export function dismissUndo(): void {
  useDeletion.setState({ undo: null });
}
