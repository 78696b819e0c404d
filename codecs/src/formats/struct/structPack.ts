// The record as arguments of Python's struct.pack(format, *values), walked from the same plan as the
// encoder but without touching bytes: the reference test packs these in Python, exporters print the format.
import { isAppended, type StructField, type StructNode, type StructPlan } from "./structPlan.ts";
import { EncodeError } from "../../errors.ts";
import type { TypedRecord } from "../../layout/values.ts";
import { utf8Encode } from "../../text/bytes.ts";
import { SlotError } from "../fixed/numeric.ts";
import type { Raw } from "../fixed/prim.ts";

export type PackValue = { int: bigint } | { float: number } | { bytes: Uint8Array };

export interface PackArgs {
  /** e.g. ">HHHB…53s": byte order, then one code per value, appended strings last */
  format: string;
  values: PackValue[];
}

interface Acc {
  codes: string[];
  values: PackValue[];
  tailCodes: string[];
  tailValues: PackValue[];
}

const num = (raw: Raw, code: string): PackValue =>
  code === "f" || code === "d" ? { float: raw as number } : { int: BigInt(raw) };

function walkNode(n: StructNode, f: StructField, v: unknown, a: Acc, bitmap: Uint8Array): void {
  switch (n.kind) {
    case "num": {
      let raw: Raw;
      try {
        raw = n.slot.toRaw(v);
      } catch (e) {
        if (e instanceof SlotError) throw new EncodeError(e.message, "struct", f.keyPath);
        throw e;
      }
      a.codes.push(n.slot.code);
      a.values.push(num(raw, n.slot.code));
      return;
    }
    case "text": {
      let content: Uint8Array;
      if (n.of === "string") content = utf8Encode(v as string);
      else if (n.of === "bytes") content = v as Uint8Array;
      else {
        content = new Uint8Array(n.maxLength);
        n.time!.write(content, 0, v as number);
      }
      if (n.mode === "fixed") {
        // Python's "Ns" pads with NULs itself
        a.codes.push(`${n.maxLength}s`);
        a.values.push({ bytes: content });
        return;
      }
      a.codes.push(n.mode.startsWith("u8") ? "B" : "H");
      a.values.push({ int: BigInt(content.length) });
      const codes = isAppended(n.mode) ? a.tailCodes : a.codes;
      const values = isAppended(n.mode) ? a.tailValues : a.values;
      codes.push(`${content.length}s`);
      values.push({ bytes: content });
      return;
    }
    case "array": {
      const items = v as unknown[];
      if (!n.fixed) {
        a.codes.push(n.countCode);
        a.values.push({ int: BigInt(items.length) });
      }
      for (const x of items) walkNode(n.elem, f, x, a, bitmap);
      return;
    }
    case "group":
      walkFields(n.fields, v as TypedRecord, a, bitmap);
      return;
  }
}

/**
 * struct.pack arguments for one record. Assumes a record the encoder accepts (run `encode` first
 * to get its EncodeError for one it does not).
 */
export function structPackArgs(plan: StructPlan, rec: TypedRecord): PackArgs {
  const a: Acc = { codes: [], values: [], tailCodes: [], tailValues: [] };
  const bitmap = new Uint8Array(plan.bitmapBytes);
  const marker = { bytes: bitmap };
  if (plan.bitmapBytes) {
    a.codes.push(`${plan.bitmapBytes}s`);
    a.values.push(marker);
  }
  walkFields(plan.fields, rec, a, bitmap);
  return {
    format: (plan.little ? "<" : ">") + a.codes.join("") + a.tailCodes.join(""),
    values: [...a.values, ...a.tailValues],
  };
}

function walkFields(fields: StructField[], rec: TypedRecord, a: Acc, bitmap: Uint8Array): void {
  for (const f of fields) {
    const v = rec[f.key];
    if (v === undefined) continue;
    // nested optional members own bits of the one top-level bitmap too
    if (f.bit >= 0) bitmap[f.bit >> 3]! |= 1 << (f.bit & 7);
    walkNode(f.node, f, v, a, bitmap);
  }
}
