// Integer keys (CBOR-int, MsgPack-int): every map key is the field's stable layout number, the one
// the .proto uses (options.protobuf.number, kept in the layout and reserved when a field is
// deleted), so a rename keeps old readers working and a deleted number never comes back. This file
// is what the two formats share beyond the plan: naming a key for an error, and turning a read
// document into the text-keyed one the layout types.
import { isPlainRecord } from "./decoded.ts";
import { DecodeError } from "../../errors.ts";
import type { Field, Layout } from "../../layout/schema.ts";
import { assignProtobufNumbers } from "../../layout/validate.ts";
import type { PlainRecord, PlainValue } from "../../layout/values.ts";

/** The layout with a number on every field (a layout built in code may have none yet). */
export function numberedLayout(layout: Layout): Layout {
  return assignProtobufNumbers(layout);
}

/** The field's key number; numberedLayout has given every field one. */
export function fieldNumber(f: Field): number {
  const n = f.options?.protobuf?.number;
  if (n === undefined) throw new Error(`field ${f.id} has no number: compile a numberedLayout`);
  return n;
}

/** How a checker names a key it refuses: the enclosing keys' numbers, then this key. */
export type DescribeKey = (keyPath: readonly number[], key: number | string) => string;

/** One map level of the layout: the top level, or a group. */
interface Level {
  /** dotted text keys of the enclosing groups, "" at the top */
  at: string;
  fields: Field[];
  byNumber: Map<number, Field>;
}

function levelOf(fields: Field[], at: string): Level {
  return { at, fields, byNumber: new Map(fields.map((f) => [fieldNumber(f), f])) };
}

const keyName = (level: Level, f: Field): string => (level.at ? `${level.at}.${f.key}` : f.key);

/**
 * The layout's levels by key path, for errors that must say both the number and the field's name
 * (a person reading "key 7" needs to know which field that is, and the other way round).
 */
export class IntKeyNames {
  private readonly top: Level;

  constructor(layout: Layout) {
    this.top = levelOf(layout.fields, "");
  }

  private level(keyPath: readonly number[]): Level | undefined {
    let level: Level | undefined = this.top;
    for (const n of keyPath) {
      const f: Field | undefined = level?.byNumber.get(n);
      if (!f || f.type.kind !== "group") return undefined;
      level = levelOf(f.type.fields, keyName(level!, f));
    }
    return level;
  }

  /** `3 ("battery")`, `2.1 ("gps.lat")`; an unknown number or a text key says what the layout has. */
  readonly describe: DescribeKey = (keyPath, key) => {
    const level = this.level(keyPath);
    const where = keyPath.length ? `${keyPath.join(".")}.` : "";
    if (typeof key === "string") {
      const f = level?.fields.find((g) => g.key === key);
      return f
        ? `text key "${key}" (field ${keyName(level!, f)} is number ${where}${fieldNumber(f)})`
        : `text key "${key}" (the layout has no field "${key}" here)`;
    }
    const f = level?.byNumber.get(key);
    if (f) return `${where}${key} ("${keyName(level!, f)}")`;
    return `${where}${key} (${level?.at ? `group "${level.at}"` : "the layout"} has no field number ${key})`;
  };

  /**
   * The text-keyed document the layout types: each number replaced by its field's key, groups
   * recursively. A number the layout does not know, or a required field left out, is refused with
   * the number and the name; what the layout checks anyway (value types, ranges) stays with it.
   */
  named(doc: PlainValue, format: string): PlainValue {
    if (!isPlainRecord(doc)) throw new DecodeError("the document is not a map", format, 0);
    return this.nameLevel(doc, this.top, [], format);
  }

  private nameLevel(doc: PlainRecord, level: Level, keyPath: number[], format: string): PlainRecord {
    for (const k of Object.keys(doc))
      if (!level.byNumber.has(Number(k)))
        throw new DecodeError(`unknown key ${this.describe(keyPath, Number(k))}`, format);
    // in layout order, as the text-keyed formats write it (a record keyed by numbers lists them ascending)
    const out: PlainRecord = {};
    for (const f of level.fields) {
      const n = fieldNumber(f);
      const v = doc[String(n)];
      if (v === undefined) {
        if (f.presence === "required")
          throw new DecodeError(`required field ${this.describe(keyPath, n)} is missing`, format);
        continue;
      }
      out[f.key] =
        f.type.kind === "group" && isPlainRecord(v)
          ? this.nameLevel(v, levelOf(f.type.fields, keyName(level, f)), [...keyPath, n], format)
          : v;
    }
    return out;
  }
}

/**
 * A library's decoded value with every Map (cbor-x reads maps with number keys as Maps) as a plain
 * record keyed by the number's decimal text; the checkers have already refused any other key type.
 */
export function mapsToRecords(v: unknown): PlainValue {
  if (v instanceof Map) {
    const out: PlainRecord = {};
    for (const [k, x] of v as Map<unknown, unknown>) out[String(k)] = mapsToRecords(x);
    return out;
  }
  if (Array.isArray(v)) return v.map(mapsToRecords);
  if (typeof v === "object" && v !== null && !(v instanceof Uint8Array)) {
    const rec = v as Record<string, unknown>;
    for (const k of Object.keys(rec)) rec[k] = mapsToRecords(rec[k]);
    return rec as PlainRecord;
  }
  return v as PlainValue;
}
