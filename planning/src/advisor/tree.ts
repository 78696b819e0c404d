// Finding a field by id in a layout and its value in a record, and replacing or removing either without mutation.
import type { Field, FieldValue, Layout, TypedRecord } from "#codecs";
import { AdvisorError } from "./types.ts";

export interface FieldAt {
  field: Field;
  /** keys from the top level down to the field */
  keys: string[];
  topLevel: boolean;
}

export function findField(fields: readonly Field[], id: string, keys: string[] = []): FieldAt | undefined {
  for (const f of fields) {
    if (f.id === id) return { field: f, keys: [...keys, f.key], topLevel: keys.length === 0 };
    if (f.type.kind === "group") {
      const hit = findField(f.type.fields, id, [...keys, f.key]);
      if (hit) return hit;
    }
  }
  return undefined;
}

/** Every field that holds a value (groups opened), with its key path, in layout order. */
export function leafFields(
  fields: readonly Field[],
  keys: string[] = [],
  out: Array<{ field: Field; keys: string[] }> = [],
): Array<{ field: Field; keys: string[] }> {
  for (const f of fields) {
    const k = [...keys, f.key];
    if (f.type.kind === "group") leafFields(f.type.fields, k, out);
    else out.push({ field: f, keys: k });
  }
  return out;
}

export function requireField(layout: Layout, id: string): FieldAt {
  const at = findField(layout.fields, id);
  if (!at) throw new AdvisorError(`the layout has no field "${id}"`);
  return at;
}

/** Replaces (or, with null, removes) the field with this id wherever it sits. */
export function replaceField(fields: readonly Field[], id: string, next: Field | null): Field[] {
  const out: Field[] = [];
  for (const f of fields) {
    if (f.id === id) {
      if (next) out.push(next);
    } else if (f.type.kind === "group") {
      const inner = replaceField(f.type.fields, id, next);
      out.push(
        inner.length === f.type.fields.length && inner.every((c, i) => c === (f.type as { fields: Field[] }).fields[i])
          ? f
          : { ...f, type: { ...f.type, kind: "group", fields: inner } },
      );
    } else out.push(f);
  }
  return out;
}

export function valueAt(rec: TypedRecord, keys: readonly string[]): FieldValue | undefined {
  let v: FieldValue | undefined = rec;
  for (const k of keys) {
    if (v === undefined || typeof v !== "object" || Array.isArray(v) || v instanceof Uint8Array) return undefined;
    v = (v as TypedRecord)[k];
  }
  return v;
}

/** A copy of the record with the value at `keys` replaced (undefined removes it); absent groups stay absent. */
export function withValueAt(rec: TypedRecord, keys: readonly string[], value: FieldValue | undefined): TypedRecord {
  const [k, ...rest] = keys;
  if (k === undefined) return rec;
  const out: TypedRecord = { ...rec };
  if (rest.length === 0) {
    if (value === undefined) delete out[k];
    else out[k] = value;
    return out;
  }
  const inner = rec[k];
  if (inner === undefined || typeof inner !== "object" || Array.isArray(inner) || inner instanceof Uint8Array)
    return rec;
  out[k] = withValueAt(inner as TypedRecord, rest, value);
  return out;
}
