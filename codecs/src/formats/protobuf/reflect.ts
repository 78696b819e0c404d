// The protobuf model as protobufjs reflection types: protobufjs decides wire types, packing and
// presence, and the compiled encoder/decoder follow what it says.
//
// The codec asks about each top-level field through a type of its own (that field, the enum or message it
// refers to and the message's reserved numbers), cached by what it holds: a whole message of n fields costs
// protobufjs O(n²) to build (Type.add rebuilds its id index for every field: 22 ms at 500 fields), and an edit
// of one field asks again about that field only. protoModel has already checked what only the whole message
// shows (duplicate names and numbers, JSON name clashes, reserved numbers), so nothing is lost by asking per field.
import protobuf from "protobufjs/light.js";
import type { ProtoEnum, ProtoField, ProtoMessage, ProtoModel } from "./model.ts";

export type ReflectedType = protobuf.Type;

/** Where the encoder and decoder look up what protobufjs decided for a message's fields. */
export interface Reflection {
  /** the resolved protobufjs field that carries `f` */
  field(f: ProtoField): protobuf.Field;
}

interface FieldJson {
  type: string;
  id: number;
  rule?: string;
  options?: Record<string, unknown>;
}

function enumJson(e: ProtoEnum): { values: Record<string, number> } {
  const values: Record<string, number> = {};
  for (const v of e.values) values[v.name] = v.number;
  return { values };
}

/** The message as protobufjs JSON, with only `fields` of it (all by default) and the nested types they use. */
function messageJson(m: ProtoMessage, fields: readonly ProtoField[] = m.fields): Record<string, unknown> {
  const out: Record<string, FieldJson> = {};
  const oneofs: Record<string, { oneof: string[] }> = {};
  const used = new Set<string>();
  for (const f of fields) {
    const type = f.type === "enum" || f.type === "message" ? f.typeName! : f.type;
    if (f.typeName) used.add(f.typeName);
    const json: FieldJson = { type, id: f.number };
    if (f.label === "repeated") json.rule = "repeated";
    // proto3 `optional` is a synthetic one-field oneof, exactly as protoc describes it
    if (f.label === "optional") {
      json.options = { proto3_optional: true };
      oneofs[`_${f.name}`] = { oneof: [f.name] };
    }
    out[f.name] = json;
  }
  const all = fields === m.fields;
  const nested: Record<string, unknown> = {};
  for (const e of m.enums) if (all || used.has(e.name)) nested[e.name] = enumJson(e);
  for (const sub of m.messages) if (all || used.has(sub.name)) nested[sub.name] = messageJson(sub);
  return {
    edition: "proto3",
    fields: out,
    ...(Object.keys(oneofs).length ? { oneofs } : {}),
    ...(Object.keys(nested).length ? { nested } : {}),
    ...(m.reserved.length ? { reserved: m.reserved.map((n) => [n, n]) } : {}),
  };
}

function resolvedType(pkg: string, name: string, message: Record<string, unknown>): ReflectedType {
  const root = protobuf.Root.fromJSON({ nested: { [pkg]: { nested: { [name]: message } } } });
  root.resolveAll();
  return root.lookupType(`${pkg}.${name}`);
}

/** Builds and resolves the protobufjs type for the model's whole top-level message (the .proto's schema). */
export function reflectModel(model: ProtoModel): ReflectedType {
  return resolvedType(model.package, model.root.name, messageJson(model.root));
}

/** A reflected message type as a Reflection. */
export function ofType(type: ReflectedType): Reflection {
  return {
    field(f) {
      const rf = type.fields[f.name];
      if (!rf || rf.id !== f.number) throw new Error(`protobufjs reflection lost field ${f.name} = ${f.number}`);
      rf.resolve();
      return rf;
    },
  };
}

/** one-field types by their JSON; bounded, since every edit of a field adds one */
const oneField = new Map<string, ReflectedType>();
const ONE_FIELD_MAX = 20_000;

/** The top-level message's fields, each asked about through its own cached one-field type. */
export function reflectFields(model: ProtoModel): Reflection {
  const byName = new Map<string, ReflectedType>();
  for (const f of model.root.fields) {
    const json = messageJson(model.root, [f]);
    const key = JSON.stringify(json);
    let type = oneField.get(key);
    if (!type) {
      // the names are the message's own, so protobufjs sees each field exactly as in the whole message
      type = resolvedType(model.package, model.root.name, json);
      if (oneField.size >= ONE_FIELD_MAX) oneField.clear();
      oneField.set(key, type);
    }
    byName.set(f.name, type);
  }
  return {
    field(f) {
      const type = byName.get(f.name);
      if (!type) throw new Error(`protobufjs reflection lost field ${f.name} = ${f.number}`);
      return ofType(type).field(f);
    },
  };
}

/** What protobufjs decided for one field: wire type of a single value, packing and presence. */
export interface WireFacts {
  wireType: number;
  packed: boolean;
  hasPresence: boolean;
}

export function wireFacts(r: Reflection, f: ProtoField): WireFacts {
  const rf = r.field(f);
  const isEnum = rf.resolvedType instanceof protobuf.Enum;
  const isMessage = rf.resolvedType instanceof protobuf.Type;
  const scalar = isEnum ? "int32" : rf.type;
  const basic = (protobuf.types.basic as Record<string, number | undefined>)[scalar];
  const wireType = isMessage ? 2 : basic;
  if (wireType === undefined) throw new Error(`protobufjs has no wire type for ${rf.type}`);
  const packable = (protobuf.types.packed as Record<string, number | undefined>)[scalar] !== undefined;
  return { wireType, packed: rf.repeated && packable && rf.packed, hasPresence: !rf.repeated && rf.hasPresence };
}

/** The nested reflected type of a message field. */
export function nestedType(r: Reflection, f: ProtoField): Reflection {
  return ofType(r.field(f).resolvedType as ReflectedType);
}
