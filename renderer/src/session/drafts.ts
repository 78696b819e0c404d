// Unsaved drafts kept in the browser's storage, per project, until the host has them: a reload, a
// crash or a closed window never loses edits, including edits the host refuses to save yet because
// the layout is invalid (those are restored with their problems shown).
import type { Layout } from "#codecs";
import type { PendingInput } from "../state/pendingInputs.ts";

export interface StoredDraft {
  /** the project version the draft was edited from: a newer one on the host means a conflict */
  baseVersion: number;
  /** when the draft was last written (ISO time) */
  at: string;
  layout: Layout;
  /** text typed into controls that is not in the layout yet ("abc" in Count), shown again with its message */
  inputs?: PendingInput[];
}

const isInput = (p: unknown): p is PendingInput => {
  const o = p as Partial<PendingInput> | null;
  return (
    typeof o === "object" &&
    o !== null &&
    (o.fieldId === null || typeof o.fieldId === "string") &&
    typeof o.control === "string" &&
    typeof o.text === "string" &&
    typeof o.message === "string" &&
    typeof o.shape === "string"
  );
};

const PREFIX = "satpayload.draft.";

function storage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    // storage disabled by the browser: drafts live only in memory, as before
    return null;
  }
}

export function keepDraft(projectId: string, draft: StoredDraft, store: Storage | null = storage()): boolean {
  if (!store) return false;
  try {
    store.setItem(PREFIX + projectId, JSON.stringify(draft));
    return true;
  } catch {
    // quota exceeded: the beforeunload warning still guards the edits
    return false;
  }
}

export function readDraft(projectId: string, store: Storage | null = storage()): StoredDraft | null {
  const text = store?.getItem(PREFIX + projectId);
  if (!text) return null;
  try {
    const d = JSON.parse(text) as Partial<StoredDraft>;
    if (
      typeof d.baseVersion !== "number" ||
      typeof d.at !== "string" ||
      typeof d.layout !== "object" ||
      d.layout === null ||
      !Array.isArray(d.layout.fields)
    )
      return null;
    // inputs from another version of the studio that do not read back are dropped, the layout kept
    const inputs = Array.isArray(d.inputs) ? d.inputs.filter(isInput) : [];
    const { inputs: _stored, ...rest } = d as StoredDraft;
    return inputs.length ? { ...rest, inputs } : rest;
  } catch {
    return null;
  }
}

export function dropDraft(projectId: string, store: Storage | null = storage()): void {
  store?.removeItem(PREFIX + projectId);
}
