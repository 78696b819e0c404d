// The SBE message schema of a layout as data (docs/design/sbe-mapping.md): types, root fields,
// repeating groups and var data, each tied to the codec's plan node it describes, so the XML writer
// and the cross-check harness walk one structure.
import { type Field, type Layout, LayoutError, type ScalarType } from "#codecs";
import {
  count,
  epochIsU32,
  planSbe,
  type PrimCode,
  type SbeField,
  type SbePlan,
  type SbeScalar,
  showNumber,
} from "#codecs/plans";
import { sbeEnumValueNames, sbeName, sbeUpperCamel } from "./names.ts";

/** SBE field ids are xs:unsignedShort in the SBE XML schema (sbe.xsd). */
const MAX_SBE_ID = 65_535;

/** What takes a message's ids: its fields, its repeating groups (every variable-count array, wherever it is), its var data. */
function idUse(fields: number, groups: number, data: number): string {
  const take = (n: number, what: string, how: string) => `${what} ${n === 1 ? "takes" : "take"} ${how}`;
  const parts = [
    fields ? take(fields, count(fields, "field"), "one each") : "",
    groups ? take(groups, count(groups, "variable-count array"), "two each (the repeating group and its entry)") : "",
    data ? take(data, count(data, "variable-length string or bytes field"), "one each") : "",
  ].filter(Boolean);
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts.join("");
}

export type SbePrim =
  "int8" | "uint8" | "int16" | "uint16" | "int32" | "uint32" | "int64" | "uint64" | "float" | "double" | "char";

export const PRIM_OF: Readonly<Record<PrimCode, SbePrim>> = {
  b: "int8",
  B: "uint8",
  h: "int16",
  H: "uint16",
  i: "int32",
  I: "uint32",
  q: "int64",
  Q: "uint64",
  f: "float",
  d: "double",
};

export interface SbeTypeAttrs {
  name: string;
  prim: SbePrim;
  length?: number;
  characterEncoding?: "US-ASCII" | "UTF-8";
  presence?: "optional";
  description?: string;
}

export type SbeMember = ({ kind: "type" } & SbeTypeAttrs) | { kind: "ref"; name: string; type: string };

export type SbeTypeDecl =
  | ({ kind: "type" } & SbeTypeAttrs)
  | {
      kind: "enum";
      name: string;
      encodingType: "uint8" | "uint16";
      values: { name: string; value: number }[];
      description?: string;
    }
  | { kind: "composite"; name: string; members: SbeMember[]; description?: string };

export interface SbeMsgField {
  name: string;
  id: number;
  type: string;
  presence?: "optional";
  description?: string;
  plan: SbeField;
}

export interface SbeMsgGroup {
  name: string;
  id: number;
  entry:
    | { kind: "field"; id: number; type: string }
    | { kind: "data"; id: number; type: "varStringEncoding" | "varDataEncoding" };
  description?: string;
  plan: SbeField;
}

export interface SbeMsgData {
  name: string;
  id: number;
  type: "varStringEncoding" | "varDataEncoding";
  description?: string;
  plan: SbeField;
}

export interface SbeSchemaModel {
  package: string;
  message: string;
  schemaId: number;
  templateId: number;
  version: number;
  description: string;
  plan: SbePlan;
  /** the SBE name of every plan node: composite members their own, hoisted groups and data the joined path */
  names: Map<SbeField, string>;
  types: SbeTypeDecl[];
  fields: SbeMsgField[];
  groups: SbeMsgGroup[];
  data: SbeMsgData[];
}

const PRIMS: ReadonlySet<string> = new Set(Object.values(PRIM_OF));
const num = (x: number) => String(x);

function describeField(f: Field, extra: string[] = []): string {
  return [f.unit ? `${f.name} [${f.unit}]` : f.name, ...extra].join("; ");
}

function scalarNote(t: ScalarType): string[] {
  switch (t.kind) {
    case "fixed":
      return [`fixed-point: value = raw * ${num(t.scale)} + ${num(t.offset)}, range ${num(t.min)}..${num(t.max)}`];
    case "timestamp":
      if (t.encoding === "text") return [`UTC ${t.textFormat}`];
      return [
        epochIsU32(t) ? "epoch seconds (UTC)" : `epoch ticks of ${num(t.resolution)} s since 1970-01-01T00:00:00Z`,
      ];
    case "enum":
      return [`values: ${t.values.map((v) => `${v.name}=${v.value}`).join(", ")}`];
    case "string":
      return [`up to ${t.maxLength} UTF-8 bytes${t.charset !== "utf8" ? `, charset ${t.charset}` : ""}`];
    case "bytes":
      return [t.fixed ? `exactly ${t.maxLength} bytes` : `up to ${t.maxLength} bytes`];
    default:
      return [];
  }
}

export function sbeSchemaModel(layout: Layout): SbeSchemaModel {
  const plan = planSbe(layout);
  const types: SbeTypeDecl[] = [
    {
      kind: "composite",
      name: "messageHeader",
      description: "SBE 1.0 message header",
      members: (["blockLength", "templateId", "schemaId", "version"] as const).map((n) => ({
        kind: "type" as const,
        name: n,
        prim: "uint16" as const,
      })),
    },
    {
      kind: "composite",
      name: "groupSizeEncoding",
      description: "repeating group dimensions",
      members: [
        { kind: "type", name: "blockLength", prim: "uint16" },
        { kind: "type", name: "numInGroup", prim: "uint16" },
      ],
    },
    {
      kind: "composite",
      name: "varStringEncoding",
      description: "variable-length UTF-8 string",
      members: [
        { kind: "type", name: "length", prim: "uint16" },
        { kind: "type", name: "varData", prim: "uint8", length: 0, characterEncoding: "UTF-8" },
      ],
    },
    {
      kind: "composite",
      name: "varDataEncoding",
      description: "variable-length bytes",
      members: [
        { kind: "type", name: "length", prim: "uint16" },
        { kind: "type", name: "varData", prim: "uint8", length: 0 },
      ],
    },
  ];
  const taken = new Set(types.map((t) => t.name));
  const uniqueType = (base: string) => {
    let n = base;
    for (let i = 2; taken.has(n); i++) n = `${base}${i}`;
    taken.add(n);
    return n;
  };
  let boolDeclared = false;
  const booleanType = () => {
    if (!boolDeclared) {
      boolDeclared = true;
      taken.add("BooleanType");
      types.push({
        kind: "enum",
        name: "BooleanType",
        encodingType: "uint8",
        values: [
          { name: "F", value: 0 },
          { name: "T", value: 1 },
        ],
        description: "false / true",
      });
    }
    return "BooleanType";
  };

  /** The type a fixed-size value is declared with: a primitive name or a named type declared here. */
  function scalarType(s: SbeScalar, t: ScalarType, f: Field, base: string, optional: boolean): string {
    const description = describeField(f, scalarNote(t));
    if (s.kind === "chars") {
      const name = uniqueType(`${base}Type`);
      types.push({
        kind: "type",
        name,
        prim: "char",
        length: s.size,
        characterEncoding: s.of === "time" ? "US-ASCII" : "UTF-8",
        description: optional ? `${description}; absent when all NUL` : description,
      });
      return name;
    }
    if (s.kind === "bytes") {
      const name = uniqueType(`${base}Type`);
      types.push({
        kind: "type",
        name,
        prim: "uint8",
        length: s.size,
        description: optional ? `${description}; absent when every byte is 0xFF` : description,
      });
      return name;
    }
    const prim = PRIM_OF[s.slot.code];
    if (t.kind === "bool") return booleanType();
    if (t.kind === "enum") {
      const name = uniqueType(`${base}Type`);
      const names = sbeEnumValueNames(t.values.map((v) => v.name));
      types.push({
        kind: "enum",
        name,
        encodingType: prim as "uint8" | "uint16",
        values: t.values.map((v, i) => ({ name: names[i]!, value: v.value })),
        description,
      });
      return name;
    }
    if (!optional && (t.kind === "int" || t.kind === "float")) return prim;
    const name = uniqueType(`${base}Type`);
    types.push({ kind: "type", name, prim, ...(optional ? { presence: "optional" as const } : {}), description });
    return name;
  }

  /** Fixed-count arrays in the root block: a primitive array, or a composite of char/uint8 arrays. */
  function arrayType(s: SbeScalar, t: ScalarType, f: Field, base: string, count: number): string {
    const description = describeField(f, [`exactly ${count} elements`, ...scalarNote(t)]);
    if (s.kind === "num") {
      const name = uniqueType(`${base}Type`);
      types.push({ kind: "type", name, prim: PRIM_OF[s.slot.code], length: count, description });
      return name;
    }
    const name = uniqueType(`${base}Elements`);
    const members: SbeMember[] = Array.from({ length: count }, (_, i) => ({
      kind: "type" as const,
      name: `e${i}`,
      prim: s.kind === "chars" ? ("char" as const) : ("uint8" as const),
      length: s.size,
      ...(s.kind === "chars"
        ? { characterEncoding: s.of === "time" ? ("US-ASCII" as const) : ("UTF-8" as const) }
        : {}),
    }));
    types.push({ kind: "composite", name, members, description });
    return name;
  }

  const names = new Map<SbeField, string>();
  const rootFields: Array<Omit<SbeMsgField, "id">> = [];
  const groups: Array<
    Omit<SbeMsgGroup, "id" | "entry"> & {
      entry: { kind: "field"; type: string } | { kind: "data"; type: "varStringEncoding" | "varDataEncoding" };
    }
  > = [];
  const data: Array<Omit<SbeMsgData, "id">> = [];

  /**
   * Walks a level of fields: fixed-size values become root fields (or composite members, for a
   * group), arrays that cannot sit in the block become message groups, variable strings var data.
   * Returns the composite members of this level.
   */
  function walk(layoutFields: Field[], planFields: SbeField[], prefix: string, topLevel: boolean): SbeMember[] {
    const members: SbeMember[] = [];
    planFields.forEach((pf, i) => {
      const f = layoutFields[i]!;
      const own = sbeName(f.key);
      const name = prefix ? `${prefix}_${own}` : own;
      const base = sbeUpperCamel(name);
      const t = f.type;
      const n = pf.node;
      const optional = pf.optional;
      names.set(pf, n.kind === "repeat" || n.kind === "var" ? name : own);
      const put = (type: string, inline?: SbeTypeAttrs) => {
        if (topLevel)
          rootFields.push({
            name: own,
            type,
            ...(optional ? { presence: "optional" as const } : {}),
            description: describeField(f),
            plan: pf,
          });
        else members.push(inline ? { kind: "type", ...inline, name: own } : { kind: "ref", name: own, type });
      };
      switch (n.kind) {
        case "fixed": {
          const scalar = t.kind === "array" || t.kind === "group" ? undefined : t;
          if (!scalar) break;
          const type = scalarType(n.scalar, scalar, f, base, optional);
          // a composite member whose type is a bare primitive is declared inline (a ref needs a named type)
          put(type, PRIMS.has(type) ? { name: own, prim: type as SbePrim } : undefined);
          break;
        }
        case "fixedArray":
          if (t.kind === "array") put(arrayType(n.scalar, t.of, f, base, n.count));
          break;
        case "repeat": {
          if (t.kind !== "array") break;
          const entry =
            n.elem.kind === "var"
              ? {
                  kind: "data" as const,
                  type: n.elem.of === "string" ? ("varStringEncoding" as const) : ("varDataEncoding" as const),
                }
              : { kind: "field" as const, type: scalarType(n.elem, t.of, f, `${base}Value`, false) };
          groups.push({
            name,
            entry,
            description: describeField(f, [
              n.fixedCount ? `exactly ${n.maxCount} entries` : `0..${n.maxCount} entries`,
            ]),
            plan: pf,
          });
          break;
        }
        case "var":
          data.push({
            name,
            type: n.of === "string" ? "varStringEncoding" : "varDataEncoding",
            description: describeField(f, t.kind === "array" || t.kind === "group" ? [] : scalarNote(t)),
            plan: pf,
          });
          break;
        case "group": {
          if (t.kind !== "group") break;
          const inner = walk(t.fields, n.fields, name, false);
          if (inner.length === 0) break;
          const type = uniqueType(`${base}Type`);
          types.push({
            kind: "composite",
            name: type,
            members: inner,
            description: describeField(f, optional ? ["optional: absent when every member is null"] : []),
          });
          put(type);
          break;
        }
      }
    });
    return members;
  }

  walk(layout.fields, plan.fields, "", true);

  let id = 1;
  const fields = rootFields.map((f) => ({ ...f, id: id++ }));
  const msgGroups = groups.map((g) => {
    const gid = id++;
    return { ...g, id: gid, entry: { ...g.entry, id: id++ } } as SbeMsgGroup;
  });
  const msgData = data.map((d) => ({ ...d, id: id++ }));
  // the schema's field ids are xs:unsignedShort: a message needing more cannot be written as SBE
  if (id - 1 > MAX_SBE_ID)
    throw new LayoutError([
      {
        path: "fields",
        where: "",
        message: `The SBE message would need field ids up to ${showNumber(id - 1)}, and SBE ids are 16-bit (at most ${showNumber(MAX_SBE_ID)}): ${idUse(fields.length, msgGroups.length, msgData.length)}. Give arrays a fixed count (one id each) or put scalar fields into a group (one id for all of them).`,
      },
    ]);

  return {
    package: layout.package,
    message: layout.message,
    schemaId: layout.sbe.schemaId,
    templateId: layout.sbe.templateId,
    version: layout.sbe.version,
    description: layout.name,
    plan,
    names,
    types,
    fields,
    groups: msgGroups,
    data: msgData,
  };
}
