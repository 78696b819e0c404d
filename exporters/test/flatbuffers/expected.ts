// The wire value of every slot of a source record, written from docs/design/flatbuffers-mapping.md
// and the shared conversions of wireValues.ts (fixed-point raws, epoch ticks, enum numbers, timestamp
// text), without the codecs: what flatc-generated readers must find in our bytes, in walk.ts's JSON.
import type { Field, ScalarType } from "#codecs";
import { type FbsSchema, type FbsTable, slotShape } from "#codecs/plans";
import type { Walked } from "./walk.ts";
import { rawOf, timeText } from "../support/wireValues.ts";

/** struct/SBE primitive codes by FlatBuffers scalar type (wireValues.ts speaks in codes) */
const CODE = {
  bool: "B",
  byte: "b",
  ubyte: "B",
  short: "h",
  ushort: "H",
  int: "i",
  uint: "I",
  long: "q",
  ulong: "Q",
  float: "f",
  double: "d",
} as const;

const scalarOf = (f: Field): ScalarType => {
  if (f.type.kind === "group") throw new Error(`${f.key} is a group`);
  return f.type.kind === "array" ? f.type.of : f.type;
};

function scalarWire(t: ScalarType, scalar: string, v: unknown): Walked {
  const code = CODE[scalar as keyof typeof CODE];
  if (!code) throw new Error(`no primitive for ${scalar}`);
  const raw = rawOf(t, v as never, code);
  if (scalar === "float") return Math.fround(Number(raw));
  if (scalar === "double") return Number(raw);
  return String(raw);
}

function elementWire(schema: FbsSchema, t: ScalarType, type: string, v: unknown): Walked {
  const s = slotShape(schema, type);
  if (s.kind === "string") return t.kind === "timestamp" ? timeText(t, v as number) : (v as string);
  if (s.kind === "scalar") return scalarWire(t, s.scalar, v);
  throw new Error(`unexpected element type ${type}`);
}

/** The walk of `record` at `table`, whose slots hold `fields` (slot id = protobuf number − 1). */
export function expectedWalk(
  schema: FbsSchema,
  table: FbsTable,
  fields: readonly Field[],
  record: Record<string, unknown>,
): Walked {
  const bySlot = new Map<number, { field: Field; element?: number }>();
  for (const field of fields) {
    const n = field.options?.protobuf?.number;
    const width = field.options?.protobuf?.expand?.length ?? 1;
    if (n !== undefined)
      for (let j = 0; j < width; j++) bySlot.set(n - 1 + j, width > 1 ? { field, element: j } : { field });
  }
  const out: Record<string, Walked> = {};
  for (const slot of table.slots) {
    if (slot.deprecated) continue;
    const at = bySlot.get(slot.id);
    if (!at) throw new Error(`slot ${slot.id} of ${table.name} holds no layout field`);
    const { field, element } = at;
    let v = record[field.key];
    if (element !== undefined) v = (v as unknown[] | undefined)?.[element];
    const s = slotShape(schema, slot.type);
    if (v === undefined || v === null) {
      // an absent optional: `= null` scalars, strings, vectors and tables read as absent
      out[slot.name] = s.kind === "scalar" && slot.defaultValue !== "null" ? "0" : null;
      continue;
    }
    switch (s.kind) {
      case "scalar":
        out[slot.name] = scalarWire(scalarOf(field), s.scalar, v);
        break;
      case "string":
        out[slot.name] = elementWire(schema, scalarOf(field), "string", v);
        break;
      case "vector":
      case "array":
        out[slot.name] =
          field.type.kind === "bytes"
            ? [...(v as Uint8Array)].map(String)
            : (v as unknown[]).map((e) => elementWire(schema, scalarOf(field), s.of, e));
        break;
      case "table":
        if (field.type.kind !== "group") throw new Error(`${field.key}: a table slot for a ${field.type.kind}`);
        out[slot.name] = expectedWalk(
          schema,
          schema.tables.get(s.name)!,
          field.type.fields,
          v as Record<string, unknown>,
        );
        break;
      case "struct":
        throw new Error(`${field.key}: our schemas write no structs`);
    }
  }
  return out;
}
