// Pairs the fields of two layout versions by their stable id (keys may be renamed, fields moved) and
// lists the edits between them.
import type { FieldChange } from "./types.ts";
import type { Field, FieldType, Layout } from "../layout/schema.ts";

export interface Located {
  field: Field;
  /** keys from the top level */
  keys: string[];
  /** id of the enclosing group, "" at the top level */
  parent: string;
  index: number;
  /** number of fields at its level */
  siblings: number;
}

export function locate(layout: Layout): Map<string, Located> {
  const out = new Map<string, Located>();
  const walk = (fields: Field[], keys: string[], parent: string) =>
    fields.forEach((f, index) => {
      out.set(f.id, { field: f, keys: [...keys, f.key], parent, index, siblings: fields.length });
      if (f.type.kind === "group") walk(f.type.fields, [...keys, f.key], f.id);
    });
  walk(layout.fields, [], "");
  return out;
}

export const pathOf = (l: Located) => l.keys.join(".");

/** The type without the parts that only concern other fields (a group's members are compared on their own). */
function typeShape(t: FieldType): unknown {
  return t.kind === "group" ? { kind: "group" } : t;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function fieldChanges(oldL: Layout, newL: Layout): FieldChange[] {
  const a = locate(oldL);
  const b = locate(newL);
  const out: FieldChange[] = [];
  for (const [id, o] of a) {
    const n = b.get(id);
    if (!n) {
      out.push({ kind: "removed", id, field: pathOf(o), detail: `${o.field.type.kind} field removed` });
      continue;
    }
    if (o.field.key !== n.field.key)
      out.push({ kind: "renamed", id, field: pathOf(n), detail: `key "${o.field.key}" → "${n.field.key}"` });
    if (o.parent !== n.parent || o.index !== n.index)
      out.push({
        kind: "moved",
        id,
        field: pathOf(n),
        detail:
          o.parent !== n.parent
            ? `moved from ${o.parent || "the top level"} to ${n.parent || "the top level"}`
            : `position ${o.index + 1} → ${n.index + 1}`,
      });
    if (o.field.presence !== n.field.presence)
      out.push({ kind: "presence", id, field: pathOf(n), detail: `${o.field.presence} → ${n.field.presence}` });
    if (!same(typeShape(o.field.type), typeShape(n.field.type)))
      out.push({ kind: "type", id, field: pathOf(n), detail: describeTypeChange(o.field.type, n.field.type) });
    if (!same(o.field.text, n.field.text))
      out.push({
        kind: "text",
        id,
        field: pathOf(n),
        detail: `text representation ${JSON.stringify(o.field.text ?? { as: "number" })} → ${JSON.stringify(n.field.text ?? { as: "number" })}`,
      });
    if (!same(o.field.options?.protobuf, n.field.options?.protobuf))
      out.push({
        kind: "protobuf",
        id,
        field: pathOf(n),
        detail: `protobuf options ${JSON.stringify(o.field.options?.protobuf ?? {})} → ${JSON.stringify(n.field.options?.protobuf ?? {})}`,
      });
    if (!same(o.field.options?.struct, n.field.options?.struct))
      out.push({
        kind: "struct",
        id,
        field: pathOf(n),
        detail: `struct options ${JSON.stringify(o.field.options?.struct ?? {})} → ${JSON.stringify(n.field.options?.struct ?? {})}`,
      });
  }
  for (const [id, n] of b)
    if (!a.has(id))
      out.push({
        kind: "added",
        id,
        field: pathOf(n),
        detail: `${n.field.presence} ${n.field.type.kind} field added${n.index === n.siblings - 1 ? " at the end" : ` at position ${n.index + 1} of ${n.siblings}`}`,
      });
  return out;
}

function describeTypeChange(a: FieldType, b: FieldType): string {
  if (a.kind !== b.kind) return `${a.kind} → ${b.kind}`;
  const diffs: string[] = [];
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)]))
    if (!same(ra[k], rb[k])) diffs.push(`${k} ${JSON.stringify(ra[k])} → ${JSON.stringify(rb[k])}`);
  return `${a.kind}: ${diffs.join(", ")}`;
}
