// Assembles a typed record from a flat array of decoded values. Decoders store into the array
// (fast, monomorphic); one object literal per layout then gives every record the same hidden class.
// Storing 20+ dynamic keys into fresh objects instead costs more than all the byte reading together.
import { primReader, PRIM_SIZE, type PrimCode } from "./prim.ts";
import type { TypedRecord } from "../../layout/values.ts";

/** A field in the record tree: leaves own the slot of their value, groups the slot of their presence. */
export interface ShapeNode {
  key: string;
  optional: boolean;
  slot: number;
  children?: ShapeNode[];
  /**
   * A required primitive (or array of `count` primitives) at a fixed, already bounds-checked
   * position whose wire value is the typed value: the builder reads it itself, no slot needed.
   */
  direct?: { code: PrimCode; pos: number; count?: number };
}

export type RecordBuilder = (v: unknown[], dv: DataView) => TypedRecord;

/** `codegen: false` forces the closure version (what runs under a CSP without 'unsafe-eval'). */
export function recordBuilder(shape: ShapeNode[], little: boolean, codegen = true): RecordBuilder {
  return (codegen ? generated(shape, little) : undefined) ?? interpreted(shape, little);
}

const DV_GET: Readonly<Record<PrimCode, string>> = {
  b: "getInt8",
  B: "getUint8",
  h: "getInt16",
  H: "getUint16",
  i: "getInt32",
  I: "getUint32",
  q: "getBigInt64",
  Q: "getBigUint64",
  f: "getFloat32",
  d: "getFloat64",
};

/**
 * Optional leaves whose slot is undefined, and optional groups whose presence slot is undefined,
 * are left out; everything else is copied as is.
 */
function interpreted(shape: ShapeNode[], little: boolean): RecordBuilder {
  const direct = (d: NonNullable<ShapeNode["direct"]>, dv: DataView): TypedRecord[string] => {
    const read = primReader(d.code, little);
    if (d.count === undefined) return read(dv, d.pos);
    return Array.from({ length: d.count }, (_, i) => read(dv, d.pos + i * PRIM_SIZE[d.code]));
  };
  const build = (nodes: ShapeNode[], v: unknown[], dv: DataView): TypedRecord => {
    const o: TypedRecord = {};
    for (const n of nodes) {
      if (n.children) {
        if (!n.optional || v[n.slot] !== undefined) o[n.key] = build(n.children, v, dv);
      } else if (n.direct) o[n.key] = direct(n.direct, dv);
      else if (!n.optional || v[n.slot] !== undefined) o[n.key] = v[n.slot] as TypedRecord[string];
    }
    return o;
  };
  return (v, dv) => build(shape, v, dv);
}

let codegenWorks: boolean | undefined;

function canGenerate(): boolean {
  if (codegenWorks === undefined) {
    try {
      codegenWorks = new Function("return 1")() === 1;
    } catch {
      // a Content-Security-Policy without 'unsafe-eval'
      codegenWorks = false;
    }
  }
  return codegenWorks;
}

function generated(shape: ShapeNode[], little: boolean): RecordBuilder | undefined {
  if (!canGenerate()) return undefined;
  let tmp = 0;
  const lines: string[] = [];
  // keys only ever appear as JSON string literals; slots and positions are integers
  const k = (key: string) => JSON.stringify(key);
  const read = (code: PrimCode, pos: number) =>
    `dv.${DV_GET[code]}(${pos | 0}${PRIM_SIZE[code] > 1 ? `, ${little}` : ""})`;
  const value = (n: ShapeNode): string => {
    const d = n.direct;
    if (!d) return `v[${n.slot | 0}]`;
    if (d.count === undefined) return read(d.code, d.pos);
    return `[${Array.from({ length: d.count }, (_, i) => read(d.code, d.pos + i * PRIM_SIZE[d.code])).join(", ")}]`;
  };
  const emit = (nodes: ShapeNode[]): string => {
    const name = `o${tmp++}`;
    const props: string[] = [];
    for (const n of nodes) {
      if (n.optional) continue;
      props.push(`${k(n.key)}: ${n.children ? emit(n.children) : value(n)}`);
    }
    lines.push(`const ${name} = {${props.join(", ")}};`);
    for (const n of nodes) {
      if (!n.optional) continue;
      if (!n.children) {
        lines.push(`if (v[${n.slot | 0}] !== undefined) ${name}[${k(n.key)}] = v[${n.slot | 0}];`);
        continue;
      }
      lines.push(`if (v[${n.slot | 0}] !== undefined) {`);
      const child = emit(n.children);
      lines.push(`${name}[${k(n.key)}] = ${child};`, "}");
    }
    return name;
  };
  const root = emit(shape);
  lines.push(`return ${root};`);
  return new Function("v", "dv", lines.join("\n")) as RecordBuilder;
}
