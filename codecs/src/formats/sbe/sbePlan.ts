// The SBE mapping (docs/design/sbe-mapping.md) as data: root-block offsets, repeating groups, var data
// and the null value of every optional slot.
import { LayoutError, type IssueAt } from "../../errors.ts";
import type { Field, Layout, ScalarType } from "../../layout/schema.ts";
import { compileTextTime, type TextTime } from "../../text/timestamp.ts";
import { isNumericType, numericSlot, SlotError, type NumericSlot } from "../fixed/numeric.ts";
import { primReader, primWriter, sbeNull, type PrimRead, type PrimWrite, type Raw } from "../fixed/prim.ts";

export const HEADER_BYTES = 8;
export const GROUP_HEADER_BYTES = 4;
export const VAR_LENGTH_BYTES = 2;

/** A fixed-size value: a primitive, a char array (strings, text timestamps) or a uint8 array. */
export type SbeScalar =
  | { kind: "num"; size: number; slot: NumericSlot; nullRaw: Raw; writeRaw: PrimWrite; readRaw: PrimRead }
  | { kind: "chars"; size: number; of: "string" | "time"; time?: TextTime }
  | { kind: "bytes"; size: number };

export type SbeNode =
  /** in the root block at `offset` (from the block start) */
  | { kind: "fixed"; scalar: SbeScalar; offset: number }
  | { kind: "fixedArray"; scalar: SbeScalar; offset: number; count: number }
  /** a repeating group: one entry per element, the element as the entry's only field or var data */
  | {
      kind: "repeat";
      elem: SbeScalar | { kind: "var"; of: "string" | "bytes"; maxLength: number };
      fixedCount: boolean;
      maxCount: number;
    }
  | { kind: "var"; of: "string" | "bytes"; maxLength: number }
  /** members flattened into the sections they belong to; `og` is its optional-group index, -1 if required */
  | { kind: "group"; fields: SbeField[]; og: number };

export interface SbeField {
  key: string;
  idPath: string;
  keyPath: string;
  optional: boolean;
  /** innermost enclosing optional group (not counting the field itself), -1 when none */
  og: number;
  node: SbeNode;
}

export interface SbePlan {
  templateId: number;
  schemaId: number;
  version: number;
  blockLength: number;
  fields: SbeField[];
  /** parent optional group of each optional group, -1 at the top (pre-order, so parents come first) */
  ogParent: number[];
  /** the optional groups themselves, for finishing presence after a decode */
  ogFields: SbeField[];
  hasRepeats: boolean;
}

export function planSbe(layout: Layout): SbePlan {
  const issues: IssueAt[] = [];
  let offset = 0;
  let hasRepeats = false;
  const ogParent: number[] = [];
  const ogFields: SbeField[] = [];

  function scalar(t: ScalarType, optional: boolean, at: string): SbeScalar | undefined {
    if (t.kind === "timestamp" && t.encoding === "text") {
      const time = compileTextTime(t.textFormat ?? "");
      return { kind: "chars", size: time.length, of: "time", time };
    }
    if (t.kind === "string") return { kind: "chars", size: t.maxLength, of: "string" };
    if (t.kind === "bytes") return { kind: "bytes", size: t.maxLength };
    // text timestamps, strings and bytes are handled above
    if (!isNumericType(t)) throw new Error("unreachable");
    try {
      const slot = numericSlot(t, true, optional);
      return {
        kind: "num",
        size: slot.size,
        slot,
        nullRaw: sbeNull(slot.code),
        writeRaw: primWriter(slot.code, true),
        readRaw: primReader(slot.code, true),
      };
    } catch (e) {
      if (!(e instanceof SlotError)) throw e;
      issues.push({ path: at, message: e.message });
      return undefined;
    }
  }

  const isVar = (t: ScalarType) => (t.kind === "string" || t.kind === "bytes") && !t.fixed;

  function fields(fs: Field[], idPrefix: string, keyPrefix: string, at: string, og: number): SbeField[] {
    const out: SbeField[] = [];
    fs.forEach((f, i) => {
      const fat = `${at}[${i}]`;
      const t = f.type;
      const optional = f.presence === "optional";
      const idPath = idPrefix ? `${idPrefix}/${f.id}` : f.id;
      const keyPath = keyPrefix ? `${keyPrefix}.${f.key}` : f.key;
      let node: SbeNode | undefined;
      if (t.kind === "group") {
        const own = optional ? ogParent.length : -1;
        if (optional) ogParent.push(og);
        const field: SbeField = {
          key: f.key,
          idPath,
          keyPath,
          optional,
          og,
          node: { kind: "group", fields: [], og: own },
        };
        if (optional) ogFields.push(field);
        (field.node as Extract<SbeNode, { kind: "group" }>).fields = fields(
          t.fields,
          idPath,
          keyPath,
          `${fat}.type.fields`,
          optional ? own : og,
        );
        out.push(field);
        return;
      }
      if (t.kind === "array") {
        if (t.fixed && !isVar(t.of)) {
          const s = scalar(t.of, optional, `${fat}.type.of`);
          if (s) node = { kind: "fixedArray", scalar: s, offset, count: t.maxCount };
          if (s) offset += s.size * t.maxCount;
        } else {
          hasRepeats = true;
          const ofT = t.of;
          const elem =
            ofT.kind === "string" || ofT.kind === "bytes"
              ? ofT.fixed
                ? scalar(ofT, false, `${fat}.type.of`)
                : { kind: "var" as const, of: ofT.kind, maxLength: ofT.maxLength }
              : scalar(ofT, false, `${fat}.type.of`);
          if (elem) node = { kind: "repeat", elem, fixedCount: t.fixed, maxCount: t.maxCount };
          if (t.maxCount > 65535)
            issues.push({ path: `${fat}.type.maxCount`, message: "exceeds SBE numInGroup (uint16)" });
        }
      } else if (isVar(t)) {
        node = { kind: "var", of: t.kind as "string" | "bytes", maxLength: (t as { maxLength: number }).maxLength };
      } else {
        const s = scalar(t, optional, `${fat}.type`);
        if (s) node = { kind: "fixed", scalar: s, offset };
        if (s) offset += s.size;
      }
      if (node) out.push({ key: f.key, idPath, keyPath, optional, og, node });
    });
    return out;
  }

  const planned = fields(layout.fields, "", "", "fields", -1);
  if (offset > 65535)
    issues.push({
      path: "fields",
      message: `the SBE root block would be ${offset} bytes, more than blockLength (uint16) allows`,
    });
  if (issues.length) throw new LayoutError(issues);
  return {
    templateId: layout.sbe.templateId,
    schemaId: layout.sbe.schemaId,
    version: layout.sbe.version,
    blockLength: offset,
    fields: planned,
    ogParent,
    ogFields,
    hasRepeats,
  };
}
