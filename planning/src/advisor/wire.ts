// What a change does to receivers already deployed: the codecs' schema-evolution verdict for the target format,
// so a change that breaks the wire (Protobuf sint32 → uint32, a bit moved in a packed frame) is marked before it is
// applied rather than found afterwards on the Schema evolution tab.
import { diffLayouts, type FormatId, type Layout, worseCompat } from "#codecs";
import type { WireVerdict } from "./types.ts";
import { readingsPerMessage } from "../batch/perMessage.ts";

export function wireVerdict(before: Layout, after: Layout, format: FormatId): WireVerdict {
  // a batch's count shapes its wire; "as many as fit" is measured as everywhere else (the advisor runs in a worker)
  const v = diffLayouts(before, after, { formats: [format], readingsPerMessage }).formats[0]!;
  const reasons = v.findings
    .filter((f) => f.severity !== "info")
    .map((f) => `${f.form ? `${f.form} form, ` : ""}${f.field ? `${f.field}: ` : ""}${f.message}`);
  return { compat: worseCompat(v.oldReadsNew, v.newReadsOld), reasons: [...new Set(reasons)] };
}
