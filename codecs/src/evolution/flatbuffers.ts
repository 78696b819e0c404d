// FlatBuffers: a reader finds a table's field through the vtable slot of its id and reads it as the
// type its own schema states. So (flatbuffers.dev, "Evolution"): adding fields with new ids is free,
// a removed field must keep its slot (deprecated), renaming is free (names are not on the wire), and
// changing a field's type, its default, table ↔ struct, or which id a field has is not — no widening
// as in protobuf: an int16 slot read as int32 takes the wrong bytes. The two .fbs files are compared
// slot by slot; each slot is tied back to its layout field by the stable protobuf number (id + 1).
import { CHECKS_ALL, fieldDomainFindings, meaning } from "./domain.ts";
import { type FbsSchema, type FbsSlot, type FbsTable, parseFbs, type SlotShape, slotShape } from "./fbsSchema.ts";
import type { Direction, Finding } from "./types.ts";
import { flatbuffersSchema } from "../formats/flatbuffers/schema.ts";
import type { Field, Layout, ScalarType } from "../layout/schema.ts";
import { intLimits, protobufWidth } from "../layout/validate.ts";

/** The layout field (and, for an expanded array, its element) behind each slot id of one table. */
interface SlotField {
  field: Field;
  element?: number;
}

function slotFields(fields: readonly Field[]): Map<number, SlotField> {
  const out = new Map<number, SlotField>();
  for (const field of fields) {
    const n = field.options?.protobuf?.number;
    if (n === undefined) continue;
    const width = protobufWidth(field);
    for (let j = 0; j < width; j++) out.set(n - 1 + j, width > 1 ? { field, element: j } : { field });
  }
  return out;
}

const live = (t: FbsTable, id: number): FbsSlot | undefined => t.slots.find((s) => s.id === id && !s.deprecated);

/** One side of the comparison at one table level. */
interface Side {
  schema: FbsSchema;
  table: FbsTable;
  fields: readonly Field[];
  reserved: ReadonlySet<number>;
}

const scalarOf = (f: Field): ScalarType | undefined =>
  f.type.kind === "array" ? f.type.of : f.type.kind === "group" ? undefined : f.type;

function shapeText(s: SlotShape): string {
  switch (s.kind) {
    case "scalar":
      return s.enumName ? `${s.enumName} (${s.scalar})` : s.scalar;
    case "string":
      return "string";
    case "vector":
      return `[${s.of}]`;
    case "array":
      return `[${s.of}:${s.length}]`;
    case "table":
      return `table ${s.name}`;
    case "struct":
      return `struct ${s.name}`;
  }
}

/** FlatBuffers compares defaults as values: "0", "0.0" and an unstated scalar default are the same. */
function sameDefault(a: string | undefined, b: string | undefined): boolean {
  const norm = (d: string | undefined) => {
    const v = (d ?? "0").trim();
    const n = Number(v);
    return v !== "" && Number.isFinite(n) ? String(n) : v === "false" ? "0" : v === "true" ? "1" : v;
  };
  return norm(a) === norm(b);
}

const INT_SIZE: Record<string, number> = {
  bool: 1,
  byte: 1,
  ubyte: 1,
  short: 2,
  ushort: 2,
  int: 4,
  uint: 4,
  long: 8,
  ulong: 8,
};
const INT_RANGE: Record<string, readonly [number, number]> = {
  bool: [0, 1],
  byte: intLimits(8, true),
  ubyte: intLimits(8, false),
  short: intLimits(16, true),
  ushort: intLimits(16, false),
  int: intLimits(32, true),
  uint: intLimits(32, false),
  long: intLimits(64, true),
  ulong: intLimits(64, false),
};

/** The raw values a writer's layout lets into the slot, where the layout says more than the slot's type. */
function writerRange(scalar: string, t: ScalarType | undefined): readonly [number, number] {
  const full = INT_RANGE[scalar]!;
  if (t?.kind === "int") return [Math.max(full[0], t.min ?? full[0]), Math.min(full[1], t.max ?? full[1])];
  if (t?.kind === "enum") return [Math.min(...t.values.map((v) => v.value)), Math.max(...t.values.map((v) => v.value))];
  return full;
}

/**
 * One direction of a scalar type change. A reader takes the slot's bytes as its own type from the
 * offset the vtable gives: a narrower (little-endian) integer reads the low bytes, right while the
 * writer's values fit; a wider one also reads the bytes after the value; floats and integers never
 * read as each other. FlatBuffers has no widening, unlike protobuf's varints.
 */
function scalarChange(
  reader: string,
  writer: string,
  writerType: ScalarType | undefined,
  direction: Direction,
  id: number,
  field: string,
): Finding[] {
  const advice = `Keep the type of slot ${id}; carry the new type in a new field (a new protobuf number, so a new id) and deprecate the old one.`;
  const bad = (message: string): Finding[] => [{ field, direction, severity: "breaking", message, advice }];
  const ri = INT_SIZE[reader];
  const wi = INT_SIZE[writer];
  if (ri === undefined || wi === undefined)
    return bad(`slot ${id} written as ${writer}, read as ${reader}: the bytes of one are not a value of the other`);
  if (ri > wi)
    return bad(
      `slot ${id} written as ${writer} (${wi} B), read as ${reader} (${ri} B): the reader takes the bytes after the value too`,
    );
  const [lo, hi] = writerRange(writer, writerType);
  const [rlo, rhi] = INT_RANGE[reader]!;
  if (lo < rlo || hi > rhi)
    return bad(
      `slot ${id} written as ${writer}, read as ${reader}: values outside ${rlo}…${rhi} are read as other numbers, silently`,
    );
  return [];
}

/**
 * A writer leaves out a scalar equal to its default; the reader returns its own. `= null` (an optional
 * scalar) has no default: the writer writes every present value, and an absent one reads as absent.
 */
function defaultFindings(sa: FbsSlot, sb: FbsSlot, field: string): Finding[] {
  if (sameDefault(sa.defaultValue, sb.defaultValue)) return [];
  const isNull = (s: FbsSlot) => s.defaultValue === "null";
  const da = sa.defaultValue ?? "0";
  const db = sb.defaultValue ?? "0";
  const advice = "Never change a default: add a new field with the new default and deprecate the old one.";
  // the reader whose default is a value reads a left-out value as that value; the one with `= null` reads it as absent
  const silent = (writer: string, reader: string): string =>
    `writers that leave out ${writer} (their default) are read as ${reader} by readers whose default that is, silently`;
  if (isNull(sa) !== isNull(sb)) {
    const [valueSide, nullSide] = isNull(sa)
      ? (["newReadsOld", "oldReadsNew"] as const)
      : (["oldReadsNew", "newReadsOld"] as const);
    const value = isNull(sa) ? db : da;
    return [
      {
        field,
        direction: valueSide,
        severity: "breaking",
        message: `slot ${sa.id} default ${da} → ${db}: a message without the value (absent) is read as ${value} by readers whose default is ${value}, silently`,
        advice,
      },
      {
        field,
        direction: nullSide,
        severity: "degraded",
        message: `slot ${sa.id} default ${da} → ${db}: ${silent(value, "absent")}; the value ${value} is lost`,
        advice,
      },
    ];
  }
  return [
    {
      field,
      direction: "both",
      severity: "breaking",
      message: `slot ${sa.id} default ${da} → ${db}: ${silent(da, db)}, and the reverse`,
      advice,
    },
  ];
}

/** `(required)` on a string, vector or table: a reader (our decoder, a verifier) refuses a message without it. */
function requiredFindings(sa: FbsSlot, sb: FbsSlot, field: string): Finding[] {
  if (sa.required === sb.required) return [];
  return [
    sa.required
      ? {
          field,
          direction: "oldReadsNew",
          severity: "degraded",
          message: `slot ${sa.id} is no longer required: old readers refuse new messages that leave it out`,
          advice: "Keep sending the field until every reader treats it as optional.",
        }
      : {
          field,
          direction: "newReadsOld",
          severity: "degraded",
          message: `slot ${sa.id} becomes required: new readers refuse old messages that left it out`,
          advice: "Make a field required only once no writer leaves it out.",
        },
  ];
}

function slotFindings(a: Side, b: Side, sa: FbsSlot, sb: FbsSlot, fa: SlotField, fb: SlotField, path: string[]) {
  const field = path.join(".");
  const ka = slotShape(a.schema, sa.type);
  const kb = slotShape(b.schema, sb.type);
  const breaking = (message: string, advice: string): Finding[] => [
    { field, direction: "both", severity: "breaking", message, advice },
  ];
  const newSlot = `Keep slot ${sa.id} as it is; carry the new form in a new field (a new protobuf number, so a new id) and deprecate the old one.`;
  if (ka.kind !== kb.kind) {
    const tableStruct = new Set([ka.kind, kb.kind]).has("table") && new Set([ka.kind, kb.kind]).has("struct");
    return breaking(
      tableStruct
        ? `slot ${sa.id} changes between table and struct (${shapeText(ka)} → ${shapeText(kb)}): a table is reached through an offset, a struct is stored inline, so each side reads the other's bytes as something else`
        : `slot ${sa.id} changes from ${shapeText(ka)} to ${shapeText(kb)}: each side reads the other's bytes as its own type`,
      newSlot,
    );
  }
  if (ka.kind === "scalar" && kb.kind === "scalar" && ka.scalar !== kb.scalar) {
    const typeChange = [
      ...scalarChange(ka.scalar, kb.scalar, scalarOf(fb.field), "oldReadsNew", sa.id, field),
      ...scalarChange(kb.scalar, ka.scalar, scalarOf(fa.field), "newReadsOld", sa.id, field),
    ];
    if (typeChange.length) return typeChange;
  }
  if ((ka.kind === "vector" || ka.kind === "array") && ka.kind === kb.kind && ka.of !== (kb as typeof ka).of)
    return breaking(`slot ${sa.id} ${shapeText(ka)} → ${shapeText(kb)}: the elements change size or type`, newSlot);
  if (ka.kind === "array" && kb.kind === "array" && ka.length !== kb.length)
    return breaking(
      `slot ${sa.id} ${shapeText(ka)} → ${shapeText(kb)}: a fixed-length array's size is not on the wire`,
      newSlot,
    );
  if (ka.kind === "struct" && kb.kind === "struct") {
    const types = (sc: FbsSchema, n: string) => JSON.stringify(sc.structFields.get(n)?.map((f) => f.type));
    const same = types(a.schema, ka.name) === types(b.schema, kb.name);
    if (!same)
      return breaking(
        `struct ${kb.name} (slot ${sa.id}) changes its fields: a struct has no vtable, so every member after the change moves`,
        "Structs can never change: use a table for data that may grow, or a new field with a new struct.",
      );
  }
  const out: Finding[] = [];
  if (ka.kind === "scalar") out.push(...defaultFindings(sa, sb, field));
  else out.push(...requiredFindings(sa, sb, field));
  if (ka.kind === "table" && kb.kind === "table") {
    const group = (f: Field) => (f.type.kind === "group" ? f.type : undefined);
    const ga = group(fa.field);
    const gb = group(fb.field);
    const ta = a.schema.tables.get(ka.name);
    const tb = b.schema.tables.get(kb.name);
    if (ga && gb && ta && tb)
      out.push(
        ...tableFindings(
          { schema: a.schema, table: ta, fields: ga.fields, reserved: new Set(ga.protobufReserved) },
          { schema: b.schema, table: tb, fields: gb.fields, reserved: new Set(gb.protobufReserved) },
          path,
        ),
      );
    return out;
  }
  // same slot, same type: the layout may still give the same raw another meaning or another domain
  const xa = scalarOf(fa.field);
  const xb = scalarOf(fb.field);
  if (xa && xb && meaning(xa) !== meaning(xb))
    return [
      ...out,
      ...breaking(
        `${meaning(xa)} → ${meaning(xb)}: the same ${shapeText(kb)} in slot ${sa.id} now means another value`,
        `Put the re-scaled value in a new field (a new id) and deprecate slot ${sa.id}.`,
      ),
    ];
  if (fa.element === undefined && fb.element === undefined)
    out.push(...fieldDomainFindings(fa.field, fb.field, field, CHECKS_ALL));
  else if (xa && xb)
    out.push(...fieldDomainFindings({ ...fa.field, type: xa }, { ...fb.field, type: xb }, field, CHECKS_ALL));
  return out;
}

function tableFindings(a: Side, b: Side, prefix: string[]): Finding[] {
  const out: Finding[] = [];
  const fa = slotFields(a.fields);
  const fb = slotFields(b.fields);
  // where each layout field (element) sits on either side, to tell a renumbered field from a new one
  const key = (s: SlotField) => `${s.field.id}#${s.element ?? ""}`;
  const slotOfA = new Map([...fa].filter(([id]) => live(a.table, id)).map(([id, s]) => [key(s), id]));
  const slotOfB = new Map([...fb].filter(([id]) => live(b.table, id)).map(([id, s]) => [key(s), id]));
  const ids = new Set([...a.table.slots, ...b.table.slots].map((s) => s.id));
  for (const id of [...ids].sort((x, y) => x - y)) {
    const sa = live(a.table, id);
    const sb = live(b.table, id);
    const la = fa.get(id);
    const lb = fb.get(id);
    const path = (s: SlotField | undefined, slot: FbsSlot) => [...prefix, s ? s.field.key : slot.name];
    if (sa && sb && la && lb) {
      if (key(la) !== key(lb)) {
        out.push({
          field: path(lb, sb).join("."),
          direction: "both",
          severity: "breaking",
          message: `slot ${id} reused: it carried "${path(la, sa).join(".")}" and now carries "${path(lb, sb).join(".")}"`,
          advice: `Give "${path(lb, sb).join(".")}" a protobuf number never used before (a new id) and reserve ${id + 1}.`,
        });
        continue;
      }
      out.push(...slotFindings(a, b, sa, sb, la, lb, path(lb, sb)));
      continue;
    }
    if (sa && la && !sb) {
      const moved = slotOfB.get(key(la));
      if (moved !== undefined) {
        out.push({
          field: path(fb.get(moved), live(b.table, moved)!).join("."),
          direction: "both",
          severity: "breaking",
          message: `id ${id} → ${moved}: each side finds the field in a slot the other does not write, and reads its default instead`,
          advice: `Keep protobuf number ${id + 1} (id ${id}) for "${la.field.key}" (set options.protobuf.number).`,
        });
        continue;
      }
      const where = path(la, sa).join(".");
      if (sa.required)
        out.push({
          field: where,
          direction: "oldReadsNew",
          severity: "breaking",
          message: `"${where}" (id ${id}) removed, but old readers require it: they refuse every new message`,
          advice: "Make the field optional in every reader first, then stop writing it.",
        });
      else if (la.field.presence === "required")
        out.push({
          field: where,
          direction: "oldReadsNew",
          severity: "degraded",
          message: `"${where}" (id ${id}) removed: old readers no longer find it and read its default (0, false or empty) instead, silently`,
          advice: "Stop relying on the field in readers before writers drop it.",
        });
      if (!b.reserved.has(id + 1))
        out.push({
          field: where,
          direction: "both",
          severity: "info",
          message: `slot ${id} of the removed "${where}" is free again: a later field may take it and old readers would read it as "${where}"`,
          advice: `Add ${id + 1} to protobufReserved, so no later field takes slot ${id}.`,
        });
      continue;
    }
    if (sb && lb && !sa) {
      if (slotOfA.has(key(lb))) continue; // renumbered: told from the old slot above
      const where = path(lb, sb).join(".");
      if (a.reserved.has(id + 1))
        out.push({
          field: where,
          direction: "both",
          severity: "degraded",
          message: `"${where}" takes slot ${id}, kept for a field deleted earlier: messages and readers from before that deletion read one as the other`,
          advice: "Pick a protobuf number that was never used (a slot never held).",
        });
      else if (sb.required)
        out.push({
          field: where,
          direction: "newReadsOld",
          severity: "breaking",
          message: `"${where}" added as required (id ${id}): new readers refuse every old message, which cannot carry it; old readers skip it`,
          advice: "Add new fields as optional.",
        });
      else if (lb.field.presence === "required")
        out.push({
          field: where,
          direction: "newReadsOld",
          severity: "degraded",
          message: `"${where}" added (id ${id}): old messages do not carry it, and new readers read its default (0, false or empty) instead, silently; old readers skip it`,
          advice: "Add new fields as optional, or give readers a way to tell the default from a real value.",
        });
    }
  }
  return out;
}

export function flatbuffersFindings(oldL: Layout, newL: Layout): Finding[] {
  const a = parseFbs(flatbuffersSchema(oldL));
  const b = parseFbs(flatbuffersSchema(newL));
  return tableFindings(
    { schema: a, table: a.tables.get(a.root)!, fields: oldL.fields, reserved: new Set(oldL.protobufReserved) },
    { schema: b, table: b.tables.get(b.root)!, fields: newL.fields, reserved: new Set(newL.protobufReserved) },
    [],
  );
}
