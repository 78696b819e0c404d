// What a schema-evolution check reports: per wire format, whether decoders built for the old layout
// read messages written with the new one (and the reverse), why, and what to do about it.
import type { BatchForm } from "../batch/plan.ts";
import type { FormatId } from "../formats/registry.ts";

/**
 * compatible: every message reads, every shared field keeps its value.
 * degraded: some messages (those using a changed value range, a new enum value, a new optional
 *   field …) are refused, or a field the reader expects is missing; nothing is silently misread.
 * breaking: every message is refused, or values are silently misread (wrong field, scale, number).
 */
export type Compat = "compatible" | "degraded" | "breaking";
export const COMPAT_ORDER: readonly Compat[] = ["compatible", "degraded", "breaking"];

export type Direction = "oldReadsNew" | "newReadsOld";

export interface Finding {
  /** key path of the field ("gps.lat"), "" for the layout as a whole */
  field: string;
  direction: Direction | "both";
  /** "info": no reader is affected now, but the edit invites trouble later (an unreserved number) */
  severity: Exclude<Compat, "compatible"> | "info";
  message: string;
  advice?: string;
  /** a batch layout's wire form the finding is about (docs/design/batch-wire.md); absent: the one-reading message */
  form?: BatchForm;
}

export interface FormatVerdict {
  format: FormatId;
  /** decoders built for the old layout, reading messages from writers using the new one */
  oldReadsNew: Compat;
  /** decoders built for the new layout, reading messages from writers still using the old one */
  newReadsOld: Compat;
  findings: Finding[];
  /**
   * batch layouts (either version): the verdicts of each wire form on its own. The format's verdicts above
   * are the worse of the two, as a deployment may send either form.
   */
  forms?: { form: BatchForm; oldReadsNew: Compat; newReadsOld: Compat }[];
  /** encode with one layout, decode with the other, over generated samples (when requested) */
  observed?: { oldReadsNew: Compat; newReadsOld: Compat; samples: number; examples: string[] };
}

export type ChangeKind =
  "added" | "removed" | "renamed" | "moved" | "presence" | "type" | "text" | "protobuf" | "struct" | "batch";

/** One edit between the two layouts, independent of any format. */
export interface FieldChange {
  kind: ChangeKind;
  /** stable field id */
  id: string;
  /** key path in the new layout (the old one for removed fields) */
  field: string;
  detail: string;
}

export interface LayoutDiff {
  schema: "satpayload.diff/1";
  changes: FieldChange[];
  formats: FormatVerdict[];
  /** the advice of every finding, once each, most severe first */
  advice: string[];
}

export function worse(a: Compat, b: Compat): Compat {
  return COMPAT_ORDER.indexOf(a) >= COMPAT_ORDER.indexOf(b) ? a : b;
}

/** The verdict of one direction from its findings. */
export function verdictOf(findings: Finding[], direction: Direction): Compat {
  let v: Compat = "compatible";
  for (const f of findings)
    if (f.severity !== "info" && (f.direction === direction || f.direction === "both")) v = worse(v, f.severity);
  return v;
}
