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

/**
 * A field the new layout no longer has, to strict key-carrying decoders. `key` names it on the wire
 * (`"gps.lat"`, or `key 3 ("battery")` for integer keys); the integer-keyed rules share these.
 */
export function goneFindings(field: Field, path: string, key: string, format: string, advice: string): Finding[] {
  const out: Finding[] = [];
  if (field.presence === "required")
    out.push({
      field: path,
      direction: "oldReadsNew",
      severity: "breaking",
      message: `${key} no longer sent: old ${format} decoders refuse every message without this required key`,
      advice,
    });
  out.push({
    field: path,
    direction: "newReadsOld",
    severity: field.presence === "required" ? "breaking" : "degraded",
    message: `old messages still carry ${key}: new decoders refuse the unknown key`,
    advice,
  });
  return out;
}

/** A field the old layout did not have, to strict key-carrying decoders (see goneFindings). */
export function arrivedFindings(field: Field, path: string, key: string, format: string, advice: string): Finding[] {
  const out: Finding[] = [
    {
      field: path,
      direction: "oldReadsNew",
      severity: field.presence === "required" ? "breaking" : "degraded",
      message: `new key ${key}: old ${format} decoders refuse messages that carry it`,
      advice,
    },
  ];
  if (field.presence === "required")
    out.push({
      field: path,
      direction: "newReadsOld",
      severity: "breaking",
      message: `${key} is required, and old messages do not carry it`,
      advice: "Add new fields as optional.",
    });
  return out;
}

/**
 * One field under the same key on both sides: presence, the value's form on the wire, and its
 * domain. Shared with the integer-keyed rules, whose values are written the same way.
 */
export function keptFieldFindings(o: Field, n: Field, path: string): Finding[] {
  const out: Finding[] = [];
  if (o.presence === "required" && n.presence === "optional")
    out.push({
      field: path,
      direction: "oldReadsNew",
      severity: "degraded",
      message: "required → optional: old decoders refuse messages that leave it out",
    });
  if (o.presence === "optional" && n.presence === "required")
    out.push({
      field: path,
      direction: "newReadsOld",
      severity: "degraded",
      message: "optional → required: new decoders refuse old messages that leave it out",
    });
  const sa = shape(o);
  const sb = shape(n);
  if (sa !== sb) {
    out.push({
      field: path,
      direction: "both",
      severity: "breaking",
      message: `value written as ${sa} → ${sb}: decoders refuse the other form`,
      advice: "Add a field with a new key for the new form.",
    });
    return out;
  }
  out.push(...fieldDomainFindings(o, n, path, { ...CHECKS_ALL, enumByName: n.text?.as === "string" }));
  return out;
}

export function selfDescribingFindings(oldL: Layout, newL: Layout, format: string): Finding[] {
  const a = locate(oldL);
  const b = locate(newL);
  const out: Finding[] = [];
  const gone = (o: Located): void => {
    out.push(...goneFindings(o.field, pathOf(o), `"${pathOf(o)}"`, format, KEEP_KEYS));
  };
  const arrived = (n: Located): void => {
    out.push(...arrivedFindings(n.field, pathOf(n), `"${pathOf(n)}"`, format, KEEP_KEYS));
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
    out.push(...keptFieldFindings(o.field, n.field, pathOf(n)));
  }
  for (const [id, n] of b) if (!a.has(id) && (!b.has(n.parent) || a.has(n.parent))) arrived(n);
  return out;
}
