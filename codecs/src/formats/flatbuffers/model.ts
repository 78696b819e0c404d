// Layout → FlatBuffers model: one table per message (the root and every group), each field at the slot
// its stable protobuf number gives (id = number − 1), so the .fbs text, the encoder and the reader all
// read the same decisions (docs/design/flatbuffers-mapping.md).
import { LayoutError, type IssueAt } from "../../errors.ts";
import type { Field, Layout, ScalarType } from "../../layout/schema.ts";
import { assignProtobufNumbers, intLimits, protobufWidth } from "../../layout/validate.ts";
import { compileTextTime, type TextTime } from "../../text/timestamp.ts";
import { isNumericType, numericSlot, type NumericSlot } from "../fixed/numeric.ts";
import type { PrimCode, Raw } from "../fixed/prim.ts";
import { ProtoScope, protoFieldName, protoTypeName } from "../protobuf/names.ts";

/** FlatBuffers' scalar type for each fixed-width primitive (bool and enums name their own). */
const FBS_TYPE: Readonly<Record<PrimCode, string>> = {
  b: "byte",
  B: "ubyte",
  h: "short",
  H: "ushort",
  i: "int",
  I: "uint",
  q: "long",
  Q: "ulong",
  f: "float",
  d: "double",
};

export interface FbEnum {
  name: string;
  /** underlying integer type: ubyte or ushort, as numericSlot picks it */
  base: string;
  /** ascending by value, as flatc requires */
  values: { name: string; value: number }[];
}

/** A value stored inline in its table (or as a vector element). */
export interface FbNum {
  kind: "num";
  slot: NumericSlot;
  code: PrimCode;
  /** the type as the .fbs writes it: a scalar name, "bool" or the enum's name */
  fbsType: string;
  /** the value FlatBuffers leaves out of the table (null: an optional scalar, `= null`, written whenever present) */
  def: Raw | null;
  /** the layout's tighter integer range, checked on read (the slot checks only the width) */
  range?: readonly [number, number];
}

/** A string: text, or a text timestamp of the format's fixed length. */
export interface FbStr {
  kind: "string";
  maxLength: number;
  time?: TextTime;
}

export interface FbBytes {
  kind: "bytes";
  maxLength: number;
  fixed: boolean;
}

export type FbNode =
  | FbNum
  | FbStr
  | FbBytes
  | { kind: "vector"; elem: FbNum | FbStr; maxCount: number; fixed: boolean }
  | { kind: "table"; table: FbTable };

export interface FbField {
  name: string;
  /** the slot id: protobuf number − 1 */
  id: number;
  /** layout key of the record member that holds the value */
  key: string;
  /** expanded arrays (protobuf expand): which element of the record's array this field carries */
  element?: number;
  /** field ids from the top level joined by "/" (spans) */
  idPath: string;
  /** keys joined by "." (errors) */
  keyPath: string;
  optional: boolean;
  node: FbNode;
}

export interface FbTable {
  name: string;
  /** ascending id: the order flatc's Python object API (Pack) adds them, and so the byte order */
  fields: FbField[];
  /** slots in the vtable: the largest id + 1 (gaps are deprecated placeholders) */
  slots: number;
  /** the layout fields, in layout order, to rebuild records */
  layoutFields: Field[];
}

export interface FbModel {
  namespace: string;
  root: FbTable;
  /** every table, nested ones first (the order the .fbs declares them) */
  tables: FbTable[];
  enums: FbEnum[];
}

const cache = new WeakMap<Layout, FbModel>();

/** The model of a layout (LayoutError when FlatBuffers cannot carry one of its fields). */
export function flatbuffersModel(input: Layout): FbModel {
  let m = cache.get(input);
  if (!m) cache.set(input, (m = build(input)));
  return m;
}

function build(input: Layout): FbModel {
  const layout = assignProtobufNumbers(input);
  const issues: IssueAt[] = [];
  // FlatBuffers has one namespace for tables and enums: the root's name first
  const types = new ProtoScope();
  const rootName = types.unique(protoTypeName(layout.message));
  const tables: FbTable[] = [];
  const enums: FbEnum[] = [];

  function num(t: ScalarType, name: string, optional: boolean, at: string): FbNum | undefined {
    if (!isNumericType(t)) return undefined;
    let slot: NumericSlot;
    try {
      slot = numericSlot(t, true);
    } catch (e) {
      issues.push({ path: `${at}.type`, message: e instanceof Error ? e.message : String(e) });
      return undefined;
    }
    let fbsType = t.kind === "bool" ? "bool" : FBS_TYPE[slot.code];
    let def: Raw | null = slot.code === "q" || slot.code === "Q" ? 0n : 0;
    if (t.kind === "enum") {
      const values = [...t.values].sort((a, b) => a.value - b.value);
      const scope = new ProtoScope();
      const e: FbEnum = {
        name: types.unique(protoTypeName(name)),
        base: fbsType,
        values: values.map((v) => ({ name: scope.unique(protoFieldName(v.name)), value: v.value })),
      };
      enums.push(e);
      fbsType = e.name;
      // flatc refuses a default that is not a value of the enum: the lowest value then stands in for 0
      def = values.some((v) => v.value === 0) ? 0 : values[0]!.value;
    }
    let range: [number, number] | undefined;
    if (t.kind === "int" && t.bits !== 64 && (t.min !== undefined || t.max !== undefined)) {
      const [lo, hi] = intLimits(t.bits, t.signed);
      range = [Math.max(lo, Math.ceil(t.min ?? lo)), Math.min(hi, Math.floor(t.max ?? hi))];
    }
    return { kind: "num", slot, code: slot.code, fbsType, def: optional ? null : def, ...(range ? { range } : {}) };
  }

  function scalarNode(t: ScalarType, name: string, optional: boolean, at: string): FbNum | FbStr | FbBytes | undefined {
    if (t.kind === "string") return { kind: "string", maxLength: t.maxLength };
    if (t.kind === "timestamp" && t.encoding === "text") {
      const time = compileTextTime(t.textFormat ?? "");
      return { kind: "string", maxLength: time.length, time };
    }
    if (t.kind === "bytes") return { kind: "bytes", maxLength: t.maxLength, fixed: t.fixed };
    return num(t, name, optional, at);
  }

  function table(name: string, fields: Field[], idPrefix: string, keyPrefix: string, at: string): FbTable {
    const scope = new ProtoScope();
    const out: FbField[] = [];
    fields.forEach((f, i) => {
      const p = `${at}[${i}]`;
      const number = f.options!.protobuf!.number!;
      const optional = f.presence === "optional";
      const idPath = `${idPrefix}${f.id}`;
      const keyPath = `${keyPrefix}${f.key}`;
      const fieldName = scope.unique(protoFieldName(f.key));
      const t = f.type;
      const expand = f.options?.protobuf?.expand;
      if (t.kind === "array" && expand && protobufWidth(f) > 1) {
        // one field per element, numbered on from the array's number, as protobuf expands it
        expand.forEach((suffix, j) => {
          const node = scalarNode(t.of, `${fieldName}_${suffix}`, optional, p);
          if (node)
            out.push({
              name: scope.unique(`${fieldName}_${suffix}`),
              id: number - 1 + j,
              key: f.key,
              element: j,
              idPath,
              keyPath,
              optional,
              node,
            });
        });
        return;
      }
      let node: FbNode | undefined;
      if (t.kind === "group") {
        const sub = table(
          types.unique(protoTypeName(fieldName)),
          t.fields,
          `${idPath}/`,
          `${keyPath}.`,
          `${p}.type.fields`,
        );
        node = { kind: "table", table: sub };
      } else if (t.kind === "array") {
        if (t.of.kind === "bytes") {
          issues.push({
            path: `${p}.type.of`,
            message:
              "FlatBuffers has no vector of byte vectors; make the elements strings or the field a group per element.",
          });
          return;
        }
        // vector elements are never absent: their default is irrelevant
        const elem = scalarNode(t.of, fieldName, false, p) as FbNum | FbStr | undefined;
        if (elem) node = { kind: "vector", elem, maxCount: t.maxCount, fixed: t.fixed };
      } else node = scalarNode(t, fieldName, optional, p);
      if (node) out.push({ name: fieldName, id: number - 1, key: f.key, idPath, keyPath, optional, node });
    });
    out.sort((a, b) => a.id - b.id);
    const tbl: FbTable = {
      name,
      fields: out,
      slots: out.length === 0 ? 0 : out[out.length - 1]!.id + 1,
      layoutFields: fields,
    };
    tables.push(tbl);
    return tbl;
  }

  const root = table(rootName, layout.fields, "", "", "fields");
  if (issues.length > 0) throw new LayoutError(issues);
  return { namespace: layout.package, root, tables, enums };
}
