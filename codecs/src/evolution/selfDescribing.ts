// JSON, CBOR, MessagePack and PSON carry the keys: order does not matter, names do. The studio's
// decoders are strict (unknown keys and missing required keys are refused), so renames and additions
// are seen by decoders that do not know them.
import { CHECKS_ALL, fieldDomainFindings } from "./domain.ts";
import { locate, pathOf, type Located } from "./match.ts";
import type { Finding } from "./types.ts";
import type { Field, Layout } from "../layout/schema.ts";

/** What a value looks like on the wire: decoders accept numbers both as numbers and as numeric text. */
function shape(f: Field): string {
  const t = f.type;
  const text = f.text?.as === "string" ? f.text : undefined;
  if (t.kind === "group") return "object";
  if (t.kind === "array")
    return text?.separator !== undefined
      ? `joined:${text.separator}:${scalarShape(t.of, true)}`
      : `array:${scalarShape(t.of, text !== undefined)}${t.fixed ? `x${t.maxCount}` : ""}`;
  return scalarShape(t, text !== undefined);
}

function scalarShape(t: Exclude<Field["type"], { kind: "group" | "array" }>, asText: boolean): string {
  switch (t.kind) {
    case "int":
    case "float":
    case "fixed":
      return "number";
    case "timestamp":
      return t.encoding === "text" ? `time:${t.textFormat}` : "number";
    case "bytes":
      return asText ? "hex" : "bytes";
    default:
      return t.kind;
  }
}

const KEEP_KEYS =
  "Keep keys stable (rename only the display name), add new fields as optional, and update decoders before devices send new keys.";

export function selfDescribingFindings(oldL: Layout, newL: Layout, format: string): Finding[] {
  const a = locate(oldL);
  const b = locate(newL);
  const out: Finding[] = [];
  const gone = (o: Located): void => {
    const path = pathOf(o);
    if (o.field.presence === "required")
      out.push({
        field: path,
        direction: "oldReadsNew",
        severity: "breaking",
        message: `"${path}" no longer sent: old ${format} decoders refuse every message without this required key`,
        advice: KEEP_KEYS,
      });
    out.push({
      field: path,
      direction: "newReadsOld",
      severity: o.field.presence === "required" ? "breaking" : "degraded",
      message: `old messages still carry "${path}": new decoders refuse the unknown key`,
      advice: KEEP_KEYS,
    });
  };
  const arrived = (n: Located): void => {
    const path = pathOf(n);
    out.push({
      field: path,
      direction: "oldReadsNew",
      severity: n.field.presence === "required" ? "breaking" : "degraded",
      message: `new key "${path}": old ${format} decoders refuse messages that carry it`,
      advice: KEEP_KEYS,
    });
    if (n.field.presence === "required")
      out.push({
        field: path,
        direction: "newReadsOld",
        severity: "breaking",
        message: `"${path}" is required, and old messages do not carry it`,
        advice: "Add new fields as optional.",
      });
  };
  for (const [id, o] of a) {
    const n = b.get(id);
    // a field under a renamed or moved group is reported with its group
    if (!n) {
      if (!a.has(o.parent) || b.has(o.parent)) gone(o);
      continue;
    }
    if (pathOf(o) !== pathOf(n)) {
      const parentMoved = o.parent !== "" && b.has(o.parent) && pathOf(a.get(o.parent)!) !== pathOf(b.get(o.parent)!);
      if (!parentMoved) {
        out.push({
          field: pathOf(n),
          direction: "both",
          severity: "breaking",
          message: `key "${pathOf(o)}" → "${pathOf(n)}": each side's decoder refuses the other's key`,
          advice: KEEP_KEYS,
        });
      }
      continue;
    }
    if (o.field.presence === "required" && n.field.presence === "optional")
      out.push({
        field: pathOf(n),
        direction: "oldReadsNew",
        severity: "degraded",
        message: "required → optional: old decoders refuse messages that leave it out",
      });
    if (o.field.presence === "optional" && n.field.presence === "required")
      out.push({
        field: pathOf(n),
        direction: "newReadsOld",
        severity: "degraded",
        message: "optional → required: new decoders refuse old messages that leave it out",
      });
    const sa = shape(o.field);
    const sb = shape(n.field);
    if (sa !== sb) {
      out.push({
        field: pathOf(n),
        direction: "both",
        severity: "breaking",
        message: `value written as ${sa} → ${sb}: decoders refuse the other form`,
        advice: "Add a field with a new key for the new form.",
      });
      continue;
    }
    out.push(
      ...fieldDomainFindings(o.field, n.field, pathOf(n), { ...CHECKS_ALL, enumByName: n.field.text?.as === "string" }),
    );
  }
  for (const [id, n] of b) if (!a.has(id) && (!b.has(n.parent) || a.has(n.parent))) arrived(n);
  return out;
}
