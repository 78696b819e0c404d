// Protobuf numbers across edits: assigned once, kept forever, reserved when they leave a message.
//
// A field number is the wire identity of a field, so an edit must never change it silently:
//  - a field that stays in the same message (same parent group) keeps its number, wherever it moves;
//  - the numbers of a field that leaves a message (deleted, or moved into another group) join that
//    message's reserved list, so no later field reuses them. A number the user types over is their
//    explicit choice and is not reserved (the inspector types keystroke by keystroke);
//  - a new field (or one moved in from another message) takes the lowest number that is neither
//    used nor reserved in its message.
// Layouts saved before numbers were kept in the file are numbered by position on load, exactly as
// they always were (assignProtobufNumbers), so their wire format does not change.
import type { Field, FieldType, Layout } from "./schema.ts";
import { assignProtobufNumbers, protobufWidth } from "./validate.ts";

const TOP = "";

/** Per message (keyed by the id of its group, TOP for the root): the numbers each field id occupies. */
type Levels = Map<string, Map<string, number[]>>;

function levels(fields: readonly Field[], parent: string, out: Levels): Levels {
  const level = new Map<string, number[]>();
  for (const f of fields) {
    const n = f.options?.protobuf?.number;
    if (n !== undefined)
      level.set(
        f.id,
        Array.from({ length: protobufWidth(f) }, (_, j) => n + j),
      );
    if (f.type.kind === "group") levels(f.type.fields, f.id, out);
  }
  out.set(parent, level);
  return out;
}

function withNumber(f: Field, number: number | undefined): Field {
  if (number === undefined) return f;
  return { ...f, options: { ...f.options, protobuf: { ...f.options?.protobuf, number } } };
}

function withoutNumber(f: Field): Field {
  const pb = f.options?.protobuf;
  if (pb?.number === undefined) return f;
  const { number: _dropped, ...rest } = pb;
  return { ...f, options: { ...f.options, protobuf: rest } };
}

/** Numbers every field of a layout (by position where none is stored): what the designer keeps in its draft. */
export function pinProtobufNumbers(layout: Layout): Layout {
  return assignProtobufNumbers(layout);
}

/**
 * The edit replaced some top-level fields by fields of the same id, neither of them a group, each still with a
 * number (a keystroke in the inspector): no field moved, left or arrived, so there is nothing to carry, reserve or
 * assign, and `next` is the answer as it is (the walk below gives an equal layout, after three passes over it).
 */
function onlyNumberedScalarsReplaced(prev: Layout, next: Layout): boolean {
  if (prev.fields.length !== next.fields.length || !Array.isArray(next.protobufReserved)) return false;
  return next.fields.every((b, i) => {
    const a = prev.fields[i]!;
    return (
      a === b ||
      (a.id === b.id && a.type.kind !== "group" && b.type.kind !== "group" && b.options?.protobuf?.number !== undefined)
    );
  });
}

/**
 * The edited layout `next` with the numbers of `prev` kept: `prev` is the draft before one edit
 * (already pinned), `next` the result of that edit. Returns a layout where every field has a number.
 */
export function keepProtobufNumbers(prev: Layout, next: Layout): Layout {
  if (onlyNumberedScalarsReplaced(prev, next)) return next;
  const before = levels(prev.fields, TOP, new Map());

  const parentOf = new Map<string, string>();
  for (const [parent, level] of before) for (const id of level.keys()) parentOf.set(id, parent);

  // 1. fields still in the same message keep their number (an edit that dropped it did not mean to
  //    renumber); a field moved in from another message drops the number it had there
  const carry = (fields: Field[], parent: string): Field[] => {
    const old = before.get(parent);
    return fields.map((f) => {
      const type: FieldType = f.type.kind === "group" ? { ...f.type, fields: carry(f.type.fields, f.id) } : f.type;
      const g = type === f.type ? f : { ...f, type };
      const from = parentOf.get(f.id);
      if (from !== undefined && from !== parent) return withoutNumber(g);
      return f.options?.protobuf?.number === undefined ? withNumber(g, old?.get(f.id)?.[0]) : g;
    });
  };
  const carried = carry(next.fields, TOP);

  // 2. numbers of fields that left a surviving message are reserved there, so nothing reuses them
  const after = levels(carried, TOP, new Map());
  const gone = (parent: string, reserved: readonly number[] | undefined): number[] | undefined => {
    const was = before.get(parent);
    const now = after.get(parent);
    if (!was || !now) return reserved ? [...reserved] : undefined;
    const stillUsed = new Set([...now.values()].flat());
    const left = [...was].filter(([id]) => !now.has(id)).flatMap(([, numbers]) => numbers);
    const add = [...new Set(left)].filter((n) => !stillUsed.has(n) && !(reserved ?? []).includes(n));
    if (!add.length) return reserved ? [...reserved] : undefined;
    return [...(reserved ?? []), ...add].sort((a, b) => a - b);
  };
  const reserve = (fields: Field[]): Field[] =>
    fields.map((f) => {
      if (f.type.kind !== "group") return f;
      const protobufReserved = gone(f.id, f.type.protobufReserved);
      const { protobufReserved: _old, ...rest } = f.type;
      return {
        ...f,
        type: { ...rest, fields: reserve(f.type.fields), ...(protobufReserved ? { protobufReserved } : {}) },
      };
    });
  const reserved: Layout = {
    ...next,
    protobufReserved: gone(TOP, next.protobufReserved) ?? [],
    fields: reserve(carried),
  };

  // 3. new fields take the lowest free, unreserved number of their message
  return assignProtobufNumbers(reserved);
}
