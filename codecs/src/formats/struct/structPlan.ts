// The Struct mapping (docs/design/struct-mapping.md) as data: which primitive, prefix and place
// every field gets. Encoder, decoder and the Python pack arguments are all built from this plan.
import { LayoutError, type IssueAt } from "../../errors.ts";
import type { Field, Layout, ScalarType, StructStringMode } from "../../layout/schema.ts";
import { compileTextTime, type TextTime } from "../../text/timestamp.ts";
import { isNumericType, numericSlot, SlotError, type NumericSlot } from "../fixed/numeric.ts";

export type StructNode =
  | { kind: "num"; slot: NumericSlot }
  | {
      kind: "text";
      /** string, bytes or a text timestamp (its formatted text) */
      of: "string" | "bytes" | "time";
      mode: StructStringMode;
      maxLength: number;
      /** bytes in fixed mode: exactly maxLength bytes, since padding could not be told from data */
      exact: boolean;
      time?: TextTime;
    }
  | { kind: "array"; elem: StructNode; fixed: boolean; maxCount: number; countCode: "B" | "H" }
  | { kind: "group"; fields: StructField[] };

export interface StructField {
  key: string;
  /** field ids joined by "/" (span attribution) */
  idPath: string;
  /** keys joined by "." (error messages) */
  keyPath: string;
  /** presence bit of an optional field, -1 when required */
  bit: number;
  /** optional groups: their nested optional fields own bits bit+1 … bitEnd-1 */
  bitEnd: number;
  node: StructNode;
}

export interface StructPlan {
  little: boolean;
  optionalCount: number;
  bitmapBytes: number;
  fields: StructField[];
  /** largest possible stream (bounds inflation and buffers) */
  maxSize: number;
  /** any string placed after the in-place part */
  hasAppended: boolean;
}

export const PREFIX_BYTES: Readonly<Record<StructStringMode, number>> = {
  fixed: 0,
  "u8-inline": 1,
  "u16-inline": 2,
  "u8-appended": 1,
  "u16-appended": 2,
};

export function isAppended(mode: StructStringMode): boolean {
  return mode === "u8-appended" || mode === "u16-appended";
}

export function planStruct(layout: Layout): StructPlan {
  const issues: IssueAt[] = [];
  let bits = 0;
  let hasAppended = false;
  const layoutMode = layout.struct.stringMode;
  const little = layout.struct.endianness === "little";

  function scalar(t: ScalarType, mode: StructStringMode, at: string): StructNode | undefined {
    if (t.kind === "timestamp" && t.encoding === "text") {
      const time = compileTextTime(t.textFormat ?? "");
      return text("time", mode, time.length, at, time);
    }
    if (t.kind === "string" || t.kind === "bytes") return text(t.kind, t.fixed ? "fixed" : mode, t.maxLength, at);
    // text timestamps, strings and bytes are handled above
    if (!isNumericType(t)) throw new Error("unreachable");
    try {
      return { kind: "num", slot: numericSlot(t, little) };
    } catch (e) {
      if (e instanceof SlotError) issues.push({ path: at, message: e.message });
      else throw e;
      return undefined;
    }
  }

  function text(
    of: "string" | "bytes" | "time",
    mode: StructStringMode,
    maxLength: number,
    at: string,
    time?: TextTime,
  ): StructNode {
    if ((mode === "u8-inline" || mode === "u8-appended") && maxLength > 255)
      issues.push({
        path: at,
        message: `maxLength ${maxLength} needs more than the 1-byte length of struct string mode "${mode}"`,
      });
    if (isAppended(mode)) hasAppended = true;
    return { kind: "text", of, mode, maxLength, exact: of === "bytes" && mode === "fixed", ...(time ? { time } : {}) };
  }

  function fields(fs: Field[], idPrefix: string, keyPrefix: string, at: string): StructField[] {
    const out: StructField[] = [];
    fs.forEach((f, i) => {
      const fat = `${at}[${i}]`;
      const bit = f.presence === "optional" ? bits++ : -1;
      const mode = f.options?.struct?.stringMode ?? layoutMode;
      const t = f.type;
      const idPath = idPrefix ? `${idPrefix}/${f.id}` : f.id;
      const keyPath = keyPrefix ? `${keyPrefix}.${f.key}` : f.key;
      let node: StructNode | undefined;
      if (t.kind === "group") node = { kind: "group", fields: fields(t.fields, idPath, keyPath, `${fat}.type.fields`) };
      else if (t.kind === "array") {
        const elem = scalar(t.of, mode, `${fat}.type.of`);
        if (elem)
          node = { kind: "array", elem, fixed: t.fixed, maxCount: t.maxCount, countCode: t.maxCount > 255 ? "H" : "B" };
      } else node = scalar(t, mode, `${fat}.type`);
      if (node) out.push({ key: f.key, idPath, keyPath, bit, bitEnd: bits, node });
    });
    return out;
  }

  const planned = fields(layout.fields, "", "", "fields");
  if (issues.length) throw new LayoutError(issues);
  const bitmapBytes = Math.ceil(bits / 8);
  return {
    little,
    optionalCount: bits,
    bitmapBytes,
    fields: planned,
    maxSize: bitmapBytes + planned.reduce((n, f) => n + nodeMax(f.node), 0),
    hasAppended,
  };
}

function nodeMax(n: StructNode): number {
  switch (n.kind) {
    case "num":
      return n.slot.size;
    case "text":
      return PREFIX_BYTES[n.mode] + n.maxLength;
    case "array":
      return (n.fixed ? 0 : n.countCode === "H" ? 2 : 1) + n.maxCount * nodeMax(n.elem);
    case "group":
      return n.fields.reduce((s, f) => s + nodeMax(f.node), 0);
  }
}
