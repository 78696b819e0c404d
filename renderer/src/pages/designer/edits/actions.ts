// Designer commands shared by buttons, keyboard shortcuts and drops: each is one undoable edit.
import type { Field } from "#codecs";
import { keyFromName } from "./keys.ts";
import { newField, newFieldId, type PaletteItem } from "./palette.ts";
import type { NewPart } from "./position.ts";
import { useDesigner } from "../../../state/layoutStore.ts";
import {
  allIds,
  duplicateField,
  flatten,
  indent,
  insertField,
  locate,
  moveBy,
  moveField,
  outdent,
  removeField,
  siblingsOf,
  uniqueKey,
} from "../../../state/tree.ts";

export interface Place {
  parentId: string | null;
  index: number;
}

function freshId(fields: readonly Field[]): string {
  const used = allIds(fields);
  let id = newFieldId();
  while (used.has(id)) id = newFieldId();
  return id;
}

/** Where a click on a palette item puts the new field: into a selected group, after a selected field, or at the end. */
export function placeForNew(fields: readonly Field[], selectedId: string | null): Place {
  const at = selectedId ? locate(fields, selectedId) : undefined;
  if (!at) return { parentId: null, index: fields.length };
  if (at.field.type.kind === "group") return { parentId: at.field.id, index: at.field.type.fields.length };
  return { parentId: at.parentId, index: at.index + 1 };
}

export function addField(item: PaletteItem, place: Place): string {
  const d = useDesigner.getState();
  let fields = d.history.present.fields;
  // one undo step for the whole entry (a position's latitude and longitude come and go together)
  const parts: NewPart[] = item.parts?.() ?? [{ keyStem: item.keyStem, type: item.make() }];
  const added: Field[] = [];
  for (const [i, part] of parts.entries()) {
    const key = uniqueKey(siblingsOf(fields, place.parentId), part.keyStem);
    const field: Field = { ...newField(item, key), id: freshId(fields), type: part.type };
    if (part.unit !== undefined) field.unit = part.unit;
    fields = insertField(fields, place.parentId, place.index + i, field);
    added.push(field);
  }
  d.editFields((fs) => added.reduce((acc, f, i) => insertField(acc, place.parentId, place.index + i, f), fs));
  d.markNew(...added.map((f) => f.id));
  d.select(added[0]!.id);
  return added[0]!.id;
}

export function moveTo(id: string, place: Place): void {
  useDesigner.getState().editFields((fs) => moveField(fs, id, place.parentId, place.index));
}

export function moveUp(id: string): void {
  useDesigner.getState().editFields((fs) => moveBy(fs, id, -1));
}

export function moveDown(id: string): void {
  useDesigner.getState().editFields((fs) => moveBy(fs, id, 1));
}

export function moveIntoGroupAbove(id: string): void {
  useDesigner.getState().editFields((fs) => indent(fs, id));
}

export function moveOutOfGroup(id: string): void {
  useDesigner.getState().editFields((fs) => outdent(fs, id));
}

export function deleteField(id: string): void {
  const d = useDesigner.getState();
  const fields = d.history.present.fields;
  const at = locate(fields, id);
  if (!at) return;
  // keep the keyboard user where they were: select the neighbour that takes the deleted row's place
  const sibs = siblingsOf(fields, at.parentId);
  const neighbour =
    sibs[at.index + 1] ?? sibs[at.index - 1] ?? (at.parentId ? locate(fields, at.parentId)?.field : undefined);
  d.editFields((fs) => removeField(fs, id));
  d.select(neighbour?.id ?? null);
}

/**
 * The copy is a new field: its key is derived from its name ("Latitude (copy)" → latitude_copy) and keeps
 * following the name until the user types a key, so renaming the copy "Longitude" sends "longitude".
 */
export function duplicate(id: string): void {
  const d = useDesigner.getState();
  let copyId: string | null = null;
  d.editFields((fs) => {
    const res = duplicateField(
      fs,
      id,
      () => freshId(fs),
      (name, siblings) => uniqueKey(siblings, keyFromName(name)),
    );
    copyId = res.copyId;
    return res.fields;
  });
  if (!copyId) return;
  const copy = locate(useDesigner.getState().history.present.fields, copyId)?.field;
  if (copy) d.markNew(...flatten([copy]).map((r) => r.field.id));
  d.select(copyId);
}
