// Drag-and-drop ids and where a drop lands, kept apart from the components so the rules are testable.
import type { Field } from "#codecs";
import type { Place } from "./edits/actions.ts";
import { isWithin, locate } from "../../state/tree.ts";

export const rowDndId = (fieldId: string) => `row:${fieldId}`;
export const paletteDndId = (itemId: string) => `palette:${itemId}`;
export const endDndId = (groupId: string | null) => `end:${groupId ?? "root"}`;

export type DndRef =
  { kind: "row"; id: string } | { kind: "palette"; id: string } | { kind: "end"; groupId: string | null };

export function parseDndId(id: string | number): DndRef | null {
  const s = String(id);
  const cut = s.indexOf(":");
  if (cut < 0) return null;
  const kind = s.slice(0, cut);
  const rest = s.slice(cut + 1);
  if (kind === "row") return { kind: "row", id: rest };
  if (kind === "palette") return { kind: "palette", id: rest };
  if (kind === "end") return { kind: "end", groupId: rest === "root" ? null : rest };
  return null;
}

export type Placement = "before" | "after";

/**
 * The place a drop means. Over a row: before or after it; "after" a group's row means first inside
 * the group, which is where the line is drawn. Over a group's end zone: last inside it.
 * Null when the drop would do nothing or put a group inside itself.
 */
export function dropPlace(
  fields: readonly Field[],
  activeFieldId: string | null,
  over: DndRef,
  placement: Placement,
): Place | null {
  let place: Place;
  if (over.kind === "end") {
    if (over.groupId !== null) {
      const g = locate(fields, over.groupId);
      if (!g || g.field.type.kind !== "group") return null;
      place = { parentId: over.groupId, index: g.field.type.fields.length };
    } else place = { parentId: null, index: fields.length };
  } else if (over.kind === "row") {
    const at = locate(fields, over.id);
    if (!at) return null;
    if (activeFieldId === over.id) return null;
    if (placement === "after" && at.field.type.kind === "group") place = { parentId: at.field.id, index: 0 };
    else place = { parentId: at.parentId, index: placement === "before" ? at.index : at.index + 1 };
  } else return null;
  if (activeFieldId !== null && place.parentId !== null && isWithin(fields, place.parentId, activeFieldId)) return null;
  if (activeFieldId !== null) {
    // dropping right before or after itself leaves everything as it is
    const self = locate(fields, activeFieldId);
    if (self && self.parentId === place.parentId && (place.index === self.index || place.index === self.index + 1))
      return null;
  }
  return place;
}
