// Inspector edits: one field patched as one undo step; keystrokes in the same control merge.
import type { Field, FieldType, SampleModel, ScalarType, TextRep } from "#codecs";
import { useDesigner } from "../../../state/layoutStore.ts";
import { locate, siblingsOf, updateField } from "../../../state/tree.ts";
import { renameWithKey } from "../edits/keys.ts";
import { paletteItem } from "../edits/palette.ts";

export function patchField(id: string, control: string, fn: (f: Field) => Field): void {
  useDesigner.getState().editFields((fs) => updateField(fs, id, fn), `${id}:${control}`);
}

/** A new name; a new field's key follows it unless the user set the key to something of their own. */
export function renameField(id: string, name: string): void {
  const isNew = useDesigner.getState().newFieldIds.has(id);
  useDesigner.getState().editFields((fs) => {
    const at = locate(fs, id);
    if (!at) return fs as Field[];
    const others = siblingsOf(fs, at.parentId).filter((f) => f.id !== id);
    return updateField(fs, id, (f) => renameWithKey(f, name, others, isNew));
  }, `${id}:name`);
}

/** Drops undefined-valued keys so optional properties disappear from the document instead of reading "undefined". */
export function clean<T extends object>(o: T): T {
  const out = { ...o } as Record<string, unknown>;
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out as T;
}

type Category = "number" | "text" | "bool" | "enum" | "bytes" | "group" | "array";

function category(t: FieldType): Category {
  switch (t.kind) {
    case "int":
    case "float":
    case "fixed":
    case "timestamp":
      return "number";
    case "string":
      return "text";
    default:
      return t.kind;
  }
}

/** A type switch keeps what still makes sense (integer range, float range) and starts the rest fresh. */
export function switchType(f: Field, paletteId: string): Field {
  const item = paletteItem(paletteId);
  if (!item) return f;
  let type = item.make();
  const old = f.type;
  if (type.kind === "int" && old.kind === "int") type = clean({ ...type, min: old.min, max: old.max });
  if (type.kind === "float" && (old.kind === "float" || old.kind === "int"))
    type = clean({ ...type, min: old.min, max: old.max, precision: old.kind === "float" ? old.precision : undefined });
  if (type.kind === "array" && old.kind !== "array" && old.kind !== "group") type = { ...type, of: old };
  const next: Field = { ...f, type };
  if (category(type) !== category(old) || type.kind === "array" || old.kind === "array") delete next.sample;
  if (next.text) {
    if (type.kind === "group") delete next.text;
    else if (next.text.as === "string" && next.text.separator !== undefined && type.kind !== "array")
      next.text = clean({ ...next.text, separator: undefined });
  }
  const pb = next.options?.protobuf;
  if (pb?.expand && !(type.kind === "array" && type.fixed))
    next.options = { ...next.options, protobuf: clean({ ...pb, expand: undefined }) };
  if (pb?.intEncoding && !(type.kind === "int" || (type.kind === "array" && type.of.kind === "int")))
    next.options = { ...next.options, protobuf: clean({ ...next.options!.protobuf!, intEncoding: undefined }) };
  return next;
}

/** The array element type switch (scalars only). */
export function switchElement(of: ScalarType, paletteId: string): ScalarType {
  const item = paletteItem(paletteId);
  const t = item?.make();
  if (!t || t.kind === "array" || t.kind === "group") return of;
  return t;
}

export type { SampleModel, TextRep };
