// Pure operations on the field tree (by id): every edit the designer makes is one of these, so undo is a snapshot swap.
import type { Field } from "#codecs";

export interface Located {
  field: Field;
  /** id of the enclosing group, null at the top level */
  parentId: string | null;
  index: number;
  depth: number;
}

export interface Row extends Located {
  /** ids from the top level down to this field */
  path: string[];
}

export function flatten(
  fields: readonly Field[],
  parentId: string | null = null,
  depth = 0,
  prefix: string[] = [],
  out: Row[] = [],
): Row[] {
  fields.forEach((field, index) => {
    const path = [...prefix, field.id];
    out.push({ field, parentId, index, depth, path });
    if (field.type.kind === "group") flatten(field.type.fields, field.id, depth + 1, path, out);
  });
  return out;
}

export function locate(
  fields: readonly Field[],
  id: string,
  parentId: string | null = null,
  depth = 0,
): Located | undefined {
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index]!;
    if (field.id === id) return { field, parentId, index, depth };
    if (field.type.kind === "group") {
      const hit = locate(field.type.fields, id, field.id, depth + 1);
      if (hit) return hit;
    }
  }
  return undefined;
}

export function siblingsOf(fields: readonly Field[], parentId: string | null): readonly Field[] {
  if (parentId === null) return fields;
  const parent = locate(fields, parentId)?.field;
  return parent?.type.kind === "group" ? parent.type.fields : [];
}

/** True when `id` is `ancestorId` or lies inside it: a group must never move into itself. */
export function isWithin(fields: readonly Field[], id: string, ancestorId: string): boolean {
  if (id === ancestorId) return true;
  const anc = locate(fields, ancestorId)?.field;
  return anc?.type.kind === "group" ? locate(anc.type.fields, id) !== undefined : false;
}

function mapChildren(fields: readonly Field[], parentId: string | null, fn: (children: Field[]) => Field[]): Field[] {
  if (parentId === null) return fn([...fields]);
  return fields.map((f) => {
    if (f.type.kind !== "group") return f;
    if (f.id === parentId) return { ...f, type: { ...f.type, fields: fn([...f.type.fields]) } };
    const inner = mapChildren(f.type.fields, parentId, fn);
    return inner === f.type.fields ? f : { ...f, type: { ...f.type, fields: inner } };
  });
}

export function updateField(fields: readonly Field[], id: string, fn: (f: Field) => Field): Field[] {
  let changed = false;
  const walk = (list: readonly Field[]): Field[] =>
    list.map((f) => {
      if (f.id === id) {
        changed = true;
        return fn(f);
      }
      if (f.type.kind === "group") {
        const inner = walk(f.type.fields);
        return changed ? { ...f, type: { ...f.type, fields: inner } } : f;
      }
      return f;
    });
  const out = walk(fields);
  return changed ? out : [...fields];
}

export function insertField(fields: readonly Field[], parentId: string | null, index: number, field: Field): Field[] {
  return mapChildren(fields, parentId, (children) => {
    children.splice(Math.max(0, Math.min(index, children.length)), 0, field);
    return children;
  });
}

export function removeField(fields: readonly Field[], id: string): Field[] {
  const at = locate(fields, id);
  if (!at) return [...fields];
  return mapChildren(fields, at.parentId, (children) => children.filter((f) => f.id !== id));
}

/**
 * Moves a field to `index` among the children of `parentId`, where index counts positions in the
 * target list as it is *before* the move (so "drop before row X" is simply X's index).
 */
export function moveField(fields: readonly Field[], id: string, parentId: string | null, index: number): Field[] {
  const at = locate(fields, id);
  if (!at) return [...fields];
  if (parentId !== null && isWithin(fields, parentId, id)) return [...fields];
  let target = index;
  if (at.parentId === parentId && at.index < index) target--;
  const without = removeField(fields, id);
  return insertField(without, parentId, target, at.field);
}

export function moveBy(fields: readonly Field[], id: string, delta: -1 | 1): Field[] {
  const at = locate(fields, id);
  if (!at) return [...fields];
  const n = siblingsOf(fields, at.parentId).length;
  const to = at.index + delta;
  if (to < 0 || to >= n) return [...fields];
  return moveField(fields, id, at.parentId, delta > 0 ? to + 1 : to);
}

/** Into the group just above it (as its last child); the keyboard twin of dropping onto a group. */
export function indent(fields: readonly Field[], id: string): Field[] {
  const at = locate(fields, id);
  if (!at || at.index === 0) return [...fields];
  const prev = siblingsOf(fields, at.parentId)[at.index - 1]!;
  if (prev.type.kind !== "group") return [...fields];
  return moveField(fields, id, prev.id, prev.type.fields.length);
}

/** Out of its group, placed right after the group. */
export function outdent(fields: readonly Field[], id: string): Field[] {
  const at = locate(fields, id);
  if (!at || at.parentId === null) return [...fields];
  const parent = locate(fields, at.parentId)!;
  return moveField(fields, id, parent.parentId, parent.index + 1);
}

export function canIndent(fields: readonly Field[], id: string): boolean {
  const at = locate(fields, id);
  if (!at || at.index === 0) return false;
  return siblingsOf(fields, at.parentId)[at.index - 1]!.type.kind === "group";
}

/** A key not yet used among the siblings: base, base_2, base_3 … */
export function uniqueKey(siblings: readonly Field[], base: string): string {
  const used = new Set(siblings.map((f) => f.key));
  if (!used.has(base)) return base;
  for (let i = 2; ; i++) if (!used.has(`${base}_${i}`)) return `${base}_${i}`;
}

export function allIds(fields: readonly Field[]): Set<string> {
  return new Set(flatten(fields).map((r) => r.field.id));
}

/**
 * Fresh ids everywhere, no pinned protobuf numbers (they would clash); the copy is named "<name> (copy)"
 * and its key is `keyFor` that name among its new siblings (the designer derives it like a new field's).
 */
export function duplicateField(
  fields: readonly Field[],
  id: string,
  newId: () => string,
  keyFor: (name: string, siblings: readonly Field[]) => string,
): { fields: Field[]; copyId: string | null } {
  const at = locate(fields, id);
  if (!at) return { fields: [...fields], copyId: null };
  const clone = (f: Field): Field => {
    const copy: Field = structuredClone(f);
    copy.id = newId();
    const pb = copy.options?.protobuf;
    if (pb) delete pb.number;
    if (copy.type.kind === "group") copy.type = { kind: "group", fields: copy.type.fields.map(clone) };
    return copy;
  };
  const copy = clone(at.field);
  copy.name = `${at.field.name} (copy)`;
  copy.key = keyFor(copy.name, siblingsOf(fields, at.parentId));
  return { fields: insertField(fields, at.parentId, at.index + 1, copy), copyId: copy.id };
}
