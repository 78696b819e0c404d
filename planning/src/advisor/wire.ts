// What a change does to receivers already deployed: the codecs' schema-evolution verdict for the target format,
// so a change that breaks the wire (Protobuf sint32 → uint32, a bit moved in a packed frame) is marked before it is
// applied rather than found afterwards on the Schema evolution tab.
import { diffLayouts, type FormatId, type Layout, worseCompat } from "#codecs";
import type { WireVerdict } from "./types.ts";

export function wireVerdict(before: Layout, after: Layout, format: FormatId): WireVerdict {
  const v = diffLayouts(before, after, { formats: [format] }).formats[0]!;
  const reasons = v.findings
    .filter((f) => f.severity !== "info")
    .map((f) => (f.field ? `${f.field}: ${f.message}` : f.message));
  return { compat: worseCompat(v.oldReadsNew, v.newReadsOld), reasons: [...new Set(reasons)] };
}
