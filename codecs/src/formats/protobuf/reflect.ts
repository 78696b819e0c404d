// The protobuf model as protobufjs reflection types: protobufjs decides wire types, packing and
// presence, and the compiled encoder/decoder follow what it says.
import protobuf from "protobufjs/light.js";
import type { ProtoEnum, ProtoField, ProtoMessage, ProtoModel } from "./model.ts";

export type ReflectedType = protobuf.Type;

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

function messageJson(m: ProtoMessage): Record<string, unknown> {
  const fields: Record<string, FieldJson> = {};
  const oneofs: Record<string, { oneof: string[] }> = {};
  for (const f of m.fields) {
    const type = f.type === "enum" || f.type === "message" ? f.typeName! : f.type;
    const json: FieldJson = { type, id: f.number };
    if (f.label === "repeated") json.rule = "repeated";
    // proto3 `optional` is a synthetic one-field oneof, exactly as protoc describes it
    if (f.label === "optional") {
      json.options = { proto3_optional: true };
      oneofs[`_${f.name}`] = { oneof: [f.name] };
    }
    fields[f.name] = json;
  }
  const nested: Record<string, unknown> = {};
  for (const e of m.enums) nested[e.name] = enumJson(e);
  for (const sub of m.messages) nested[sub.name] = messageJson(sub);
  return {
    edition: "proto3",
    fields,
    ...(Object.keys(oneofs).length ? { oneofs } : {}),
    ...(Object.keys(nested).length ? { nested } : {}),
    ...(m.reserved.length ? { reserved: m.reserved.map((n) => [n, n]) } : {}),
  };
}

/** Builds and resolves the protobufjs type for the model's top-level message. */
export function reflectModel(model: ProtoModel): ReflectedType {
  const root = protobuf.Root.fromJSON({
    nested: { [model.package]: { nested: { [model.root.name]: messageJson(model.root) } } },
  });
  root.resolveAll();
  return root.lookupType(`${model.package}.${model.root.name}`);
}

/** What protobufjs decided for one field: wire type of a single value, packing and presence. */
export interface WireFacts {
  wireType: number;
  packed: boolean;
  hasPresence: boolean;
}

export function wireFacts(type: ReflectedType, f: ProtoField): WireFacts {
  const rf = type.fields[f.name];
  if (!rf || rf.id !== f.number) throw new Error(`protobufjs reflection lost field ${f.name} = ${f.number}`);
  rf.resolve();
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
export function nestedType(type: ReflectedType, f: ProtoField): ReflectedType {
  const rf = type.fields[f.name]!;
  rf.resolve();
  return rf.resolvedType as ReflectedType;
}
