// Text typed into the inspector that cannot become part of the layout ("abc" or nothing where a number
// belongs): it stays in its control with its message until it is fixed or undone, counts as a problem,
// so the header says "Not saved", and is stored with the draft, so a reload brings it back. Values that
// parse but break a rule (Count 100 000) are not held here: they go into the draft, where the layout's
// own validation refuses them.
import { create } from "zustand";
import type { Field } from "#codecs";

export interface PendingInput {
  /** the field the control edits, null for the layout's own settings */
  fieldId: string | null;
  /** which control (its test id: "insp-maxCount", "layout-sbe-schema") */
  control: string;
  text: string;
  message: string;
  /** the field's shape when the text was typed (fieldShape): a different shape may not have the control */
  shape: string;
}

/**
 * What decides which controls the inspector shows for a field: its type (and element type, enum size,
 * fixed count, timestamp encoding), sample model and text form. A held text whose field changed shape
 * lost its control (Count after a switch to int) and goes with it.
 */
export function fieldShape(f: Field | undefined): string {
  if (!f) return "";
  const t = f.type.kind === "array" ? f.type.of : f.type;
  return [
    f.type.kind,
    f.type.kind === "array" ? `${t.kind}${f.type.fixed ? "!" : ""}` : "",
    t.kind === "enum" ? t.values.length : "",
    t.kind === "timestamp" ? t.encoding : "",
    f.sample?.kind ?? "",
    f.text?.as ?? "",
  ].join("|");
}

export interface PendingInputsState {
  byKey: ReadonlyMap<string, PendingInput>;
}

export const usePendingInputs = create<PendingInputsState>()(() => ({ byKey: new Map() }));

const keyOf = (fieldId: string | null, control: string) => `${fieldId ?? ""}\u0000${control}`;

export function holdInput(p: PendingInput): void {
  const key = keyOf(p.fieldId, p.control);
  const was = usePendingInputs.getState().byKey.get(key);
  if (was && was.text === p.text && was.message === p.message) return;
  usePendingInputs.setState((s) => ({ byKey: new Map(s.byKey).set(key, p) }));
}

export function releaseInput(fieldId: string | null, control: string): void {
  const key = keyOf(fieldId, control);
  if (!usePendingInputs.getState().byKey.has(key)) return;
  usePendingInputs.setState((s) => {
    const byKey = new Map(s.byKey);
    byKey.delete(key);
    return { byKey };
  });
}

export function pendingInput(fieldId: string | null, control: string): PendingInput | undefined {
  return usePendingInputs.getState().byKey.get(keyOf(fieldId, control));
}

/** Replaces every held input (a project opened: its stored ones, or none). */
export function restoreInputs(list: readonly PendingInput[]): void {
  usePendingInputs.setState({ byKey: new Map(list.map((p) => [keyOf(p.fieldId, p.control), p])) });
}

/**
 * Drops the inputs whose control went away with an edit: the field was deleted (or undone away), or it
 * changed shape (another type, sample model or text form) so the control is no longer shown.
 */
export function keepInputsOf(fieldOf: (id: string) => Field | undefined): void {
  const { byKey } = usePendingInputs.getState();
  if (!byKey.size) return;
  const kept = [...byKey].filter(([, p]) => p.fieldId === null || fieldShape(fieldOf(p.fieldId)) === p.shape);
  if (kept.length !== byKey.size) usePendingInputs.setState({ byKey: new Map(kept) });
}

export function pendingList(): PendingInput[] {
  return [...usePendingInputs.getState().byKey.values()];
}
