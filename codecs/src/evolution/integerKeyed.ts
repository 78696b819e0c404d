// CBOR-int and MsgPack-int carry each field's number instead of its name, and their decoders are as
// strict as the text-keyed ones (an unknown number or a missing required field is refused). So a
// rename or a move within its map is free; a changed number, or a number that meant another field
// before (reused, or taken from the reserved ones), is not. Values are written as the text-keyed
// forms write them, so a field kept under its number is judged by the self-describing value rules.
import { arrivedFindings, goneFindings, keptFieldFindings } from "./selfDescribing.ts";
import { type Finding } from "./types.ts";
import { fieldNumber, numberedLayout } from "../formats/selfdescribing/intKeys.ts";
import type { Field, Layout } from "../layout/schema.ts";

interface Keyed {
  field: Field;
  /** numbers from the top level, joined by "." (what the wire carries) */
  numbers: string;
  /** the enclosing group's numbers, "" at the top level */
  scope: string;
  /** text keys from the top level, joined by "." (what people read) */
  path: string;
  /** id of the enclosing group, "" at the top level */
  parent: string;
}

/** Every field by id, and every number path by the field it carries, of one numbered layout. */
function keyed(layout: Layout): { byId: Map<string, Keyed>; byNumbers: Map<string, Keyed>; reserved: Set<string> } {
  const byId = new Map<string, Keyed>();
  const byNumbers = new Map<string, Keyed>();
  const reserved = new Set<string>();
  const walk = (fields: Field[], scope: string, keys: string, parent: string, held: number[]): void => {
    for (const n of held) reserved.add(scope ? `${scope}.${n}` : `${n}`);
    for (const f of fields) {
      const numbers = scope ? `${scope}.${fieldNumber(f)}` : `${fieldNumber(f)}`;
      const path = keys ? `${keys}.${f.key}` : f.key;
      const k: Keyed = { field: f, numbers, scope, path, parent };
      byId.set(f.id, k);
      byNumbers.set(numbers, k);
      if (f.type.kind === "group") walk(f.type.fields, numbers, path, f.id, f.type.protobufReserved ?? []);
    }
  };
  walk(layout.fields, "", "", "", layout.protobufReserved);
  return { byId, byNumbers, reserved };
}

const keyOf = (k: Keyed): string => `key ${k.numbers} ("${k.path}")`;

const KEEP_NUMBERS =
  "Keep each field's number (rename freely), add new fields as optional under numbers never used before, and reserve the numbers of deleted fields.";

export function integerKeyedFindings(oldL: Layout, newL: Layout, format: string): Finding[] {
  const a = keyed(numberedLayout(oldL));
  const b = keyed(numberedLayout(newL));
  const out: Finding[] = [];
  for (const [id, o] of a.byId) {
    const n = b.byId.get(id);
    const heir = b.byNumbers.get(o.numbers);
    if (heir && heir.field.id !== id && (!n || n.numbers !== o.numbers))
      out.push({
        field: heir.path,
        direction: "both",
        severity: "breaking",
        message: `number ${o.numbers} reused: it carried "${o.path}" and now carries "${heir.path}"; each side reads the other's value as its own field`,
        advice: `Give "${heir.path}" a number never used before and reserve ${o.numbers}.`,
      });
    if (!n) {
      // a field under a removed group is reported with its group
      if (o.parent === "" || b.byId.has(o.parent))
        out.push(...goneFindings(o.field, o.path, keyOf(o), format, KEEP_NUMBERS));
      continue;
    }
    if (n.numbers !== o.numbers) {
      // a field under a renumbered group (its own number and group kept) is reported with its group
      if (fieldNumber(o.field) !== fieldNumber(n.field) || o.parent !== n.parent)
        out.push({
          field: n.path,
          direction: "both",
          severity: "breaking",
          message: `renumbered ${o.numbers} → ${n.numbers}: each side's ${format} decoder refuses the other's key`,
          advice: `Keep number ${o.numbers} for "${n.path}" (set options.protobuf.number); a rename is free.`,
        });
      continue;
    }
    out.push(...keptFieldFindings(o.field, n.field, n.path));
  }
  for (const [id, n] of b.byId) {
    if (a.byId.has(id) || a.byNumbers.has(n.numbers)) continue;
    // a field under a new group arrives with its group
    if (n.parent !== "" && !a.byId.has(n.parent)) continue;
    // the versions compared never used the number, so the harm is to versions from before the
    // deletion (as protobuf's reserved numbers): degraded here, not breaking
    if (a.reserved.has(n.numbers))
      out.push({
        field: n.path,
        direction: "both",
        severity: "degraded",
        message: `"${n.path}" uses number ${n.numbers}, reserved for a field deleted earlier: messages and decoders from before that deletion read it as the old field`,
        advice: "Pick a number that was never used.",
      });
    out.push(...arrivedFindings(n.field, n.path, keyOf(n), format, KEEP_NUMBERS));
  }
  return out;
}
