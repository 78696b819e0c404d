// Reads the .fbs text our FlatBuffers format generates back into tables, structs and enums, so the
// evolution rules compare two schemas slot by slot as FlatBuffers' own rules are written (for .fbs
// files), whatever model the codec keeps inside. Covers the subset flatbuffersSchema writes: namespace,
// enum, struct, table, root_type, file_identifier, attributes in parentheses, `//` comments.

export interface FbsSlot {
  id: number;
  name: string;
  /** the type as written: "long", "string", "[ubyte]", "Position", "[float:3]" */
  type: string;
  /** the default as written ("0" when none is stated for a scalar), undefined for non-scalars */
  defaultValue: string | undefined;
  deprecated: boolean;
  /** `(required)`: readers and verifiers refuse a table without it (strings, vectors, tables only) */
  required: boolean;
}

export interface FbsTable {
  name: string;
  slots: FbsSlot[];
}

export interface FbsSchema {
  namespace: string | undefined;
  root: string;
  tables: Map<string, FbsTable>;
  /** struct name → its fields in order (structs have no slots: any change of type moves bytes) */
  structFields: Map<string, { name: string; type: string }[]>;
  /** enum name → its underlying scalar type */
  enums: Map<string, string>;
}

export const FBS_SCALARS = new Set([
  "bool",
  "byte",
  "ubyte",
  "short",
  "ushort",
  "int",
  "uint",
  "long",
  "ulong",
  "float",
  "double",
  "int8",
  "uint8",
  "int16",
  "uint16",
  "int32",
  "uint32",
  "int64",
  "uint64",
  "float32",
  "float64",
]);

/** flatc's aliases, so "int32" and "int" compare equal */
const ALIAS: Record<string, string> = {
  int8: "byte",
  uint8: "ubyte",
  int16: "short",
  uint16: "ushort",
  int32: "int",
  uint32: "uint",
  int64: "long",
  uint64: "ulong",
  float32: "float",
  float64: "double",
};
export const canonicalScalar = (t: string) => ALIAS[t] ?? t;

export class FbsParseError extends Error {
  override readonly name = "FbsParseError";
}

const stripComments = (s: string) => s.replace(/\/\/[^\n]*/g, "");
const unqualified = (name: string) => name.slice(name.lastIndexOf(".") + 1);

function parseField(decl: string, index: number, table: string): FbsSlot {
  const m = /^(\w+)\s*:\s*(\[[^\]]+\]|[\w.]+)\s*(?:=\s*([^()]+?))?\s*(?:\(([^)]*)\))?\s*$/.exec(decl.trim());
  if (!m) throw new FbsParseError(`table ${table}: cannot read the field "${decl.trim()}"`);
  const [, name, type, def, attrs = ""] = m;
  const id = /\bid\s*:\s*(\d+)/.exec(attrs);
  const t = type!.startsWith("[") ? type! : unqualified(type!);
  return {
    id: id ? Number(id[1]) : index,
    name: name!,
    type: FBS_SCALARS.has(t) ? canonicalScalar(t) : t,
    defaultValue: def?.trim(),
    deprecated: /\bdeprecated\b/.test(attrs),
    required: /\brequired\b/.test(attrs),
  };
}

export function parseFbs(text: string): FbsSchema {
  const src = stripComments(text);
  const tables = new Map<string, FbsTable>();
  const structFields = new Map<string, { name: string; type: string }[]>();
  const enums = new Map<string, string>();
  for (const [, kind, name, body] of src.matchAll(/\b(table|struct)\s+(\w+)\s*(?:\([^)]*\))?\s*\{([^}]*)\}/g)) {
    const decls = body!.split(";").filter((d) => d.trim() !== "");
    const fields = decls.map((d, i) => parseField(d, i, name!));
    if (kind === "struct")
      structFields.set(
        name!,
        fields.map((f) => ({ name: f.name, type: f.type })),
      );
    else tables.set(name!, { name: name!, slots: [...fields].sort((a, b) => a.id - b.id) });
  }
  for (const [, name, base] of src.matchAll(/\benum\s+(\w+)\s*:\s*(\w+)/g)) enums.set(name!, canonicalScalar(base!));
  const root = /\broot_type\s+([\w.]+)\s*;/.exec(src)?.[1];
  if (!root || !tables.has(unqualified(root))) throw new FbsParseError(`the schema names no root table it defines`);
  return {
    namespace: /\bnamespace\s+([\w.]+)\s*;/.exec(src)?.[1],
    root: unqualified(root),
    tables,
    structFields,
    enums,
  };
}

/** What a slot holds, as FlatBuffers lays it out: the classes whose bytes never read as each other. */
export type SlotShape =
  | { kind: "scalar"; scalar: string; enumName?: string }
  | { kind: "string" }
  | { kind: "vector"; of: string }
  | { kind: "array"; of: string; length: number }
  | { kind: "table"; name: string }
  | { kind: "struct"; name: string };

export function slotShape(schema: FbsSchema, type: string): SlotShape {
  const vec = /^\[\s*([\w.]+)\s*(?::\s*(\d+))?\s*\]$/.exec(type);
  if (vec) {
    const of = canonicalScalar(unqualified(vec[1]!));
    return vec[2] ? { kind: "array", of, length: Number(vec[2]) } : { kind: "vector", of };
  }
  if (type === "string") return { kind: "string" };
  if (FBS_SCALARS.has(type)) return { kind: "scalar", scalar: canonicalScalar(type) };
  const e = schema.enums.get(type);
  if (e) return { kind: "scalar", scalar: e, enumName: type };
  if (schema.structFields.has(type)) return { kind: "struct", name: type };
  if (schema.tables.has(type)) return { kind: "table", name: type };
  throw new FbsParseError(`unknown type ${type}`);
}
