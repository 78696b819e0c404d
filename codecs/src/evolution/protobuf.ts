// Protobuf: fields are found by number and wire type, not by name or position. Renaming and
// reordering are free; renumbering, reusing a number, or changing the wire type are not.
import { CHECKS_ALL, fieldDomainFindings, meaning } from "./domain.ts";
import type { Finding } from "./types.ts";
import { protoModel, type ProtoField, type ProtoMessage } from "../formats/protobuf/model.ts";
import type { Field, Layout, ScalarType } from "../layout/schema.ts";

/** Wire type, and within it the encodings that read each other's values. */
const WIRE_CLASS: Record<string, string> = {
  int32: "varint",
  int64: "varint",
  uint32: "varint",
  uint64: "varint",
  bool: "varint",
  enum: "varint",
  sint32: "zigzag",
  sint64: "zigzag",
  fixed32: "i32",
  sfixed32: "i32",
  float: "float",
  fixed64: "i64",
  sfixed64: "i64",
  double: "double",
  string: "text",
  bytes: "text",
  message: "message",
};

interface Entry {
  pf: ProtoField;
  /** the layout field id, plus the element for expanded arrays */
  key: string;
  path: string;
}

function entries(m: ProtoMessage, prefix: string[], scope: string, out: Map<string, Entry>): void {
  for (const pf of m.fields) {
    const keys = [...prefix, pf.source.key];
    const key = `${pf.source.id}${pf.element ? `#${pf.element.index}` : ""}`;
    out.set(`${scope}/${pf.number}`, { pf, key, path: keys.join(".") });
    if (pf.message) entries(pf.message, keys, `${scope}/${pf.source.id}`, out);
  }
}

function scopeOf(k: string): string {
  return k.slice(0, k.lastIndexOf("/"));
}

const scalarOf = (f: Field): ScalarType | undefined =>
  f.type.kind === "array" ? f.type.of : f.type.kind === "group" ? undefined : f.type;

function wireFindings(a: Entry, b: Entry): Finding[] {
  const field = b.path;
  const ta = a.pf.type;
  const tb = b.pf.type;
  const out: Finding[] = [];
  if (WIRE_CLASS[ta] !== WIRE_CLASS[tb])
    return [
      {
        field,
        direction: "both",
        severity: "breaking",
        message: `protobuf type ${ta} → ${tb} changes the wire type: decoders misread or reject field ${b.pf.number}`,
        advice: `Keep field ${a.pf.number} as ${ta}; carry the new type in a new field with a new number and reserve ${a.pf.number} when the old one is gone.`,
      },
    ];
  if ((a.pf.label === "repeated") !== (b.pf.label === "repeated"))
    return [
      {
        field,
        direction: "both",
        severity: "breaking",
        message: `field ${b.pf.number} changes between repeated and single`,
        advice: "Add a new field with a new number instead of changing a field to or from repeated.",
      },
    ];
  const sa = scalarOf(a.pf.source);
  const sb = scalarOf(b.pf.source);
  if (sa && sb) {
    if (meaning(sa) !== meaning(sb))
      return [
        {
          field,
          direction: "both",
          severity: "breaking",
          message: `${meaning(sa)} → ${meaning(sb)}: the same ${tb} now means another value`,
          advice: `Put the re-scaled value in a new field with a new number; reserve ${a.pf.number} once the old field is gone.`,
        },
      ];
    if (sa.kind !== sb.kind)
      out.push({
        field,
        direction: "both",
        severity: "degraded",
        message: `${sa.kind} → ${sb.kind} (${ta} → ${tb}): the same wire type, but values one side cannot represent are refused`,
      });
  }
  // proto3 has no "missing" for a field without presence: an omitted value silently reads as 0
  if (a.pf.label === "implicit" && b.pf.label === "optional")
    out.push({
      field,
      direction: "oldReadsNew",
      severity: "breaking",
      message:
        "required → optional: old decoders read an omitted value as 0 (a wrong value, silently), or refuse the message where 0 is not valid",
      advice: "Keep sending the field until every decoder treats it as optional.",
    });
  if (a.pf.label === "optional" && b.pf.label === "implicit")
    out.push({
      field,
      direction: "newReadsOld",
      severity: "breaking",
      message:
        "optional → required: old messages without the value read as 0 (a wrong value, silently), or are refused where 0 is not valid",
      advice: "Make a field required only once no writer leaves it out.",
    });
  // an expanded array's elements are single fields: compare their element types
  if (!a.pf.element && !b.pf.element) out.push(...fieldDomainFindings(a.pf.source, b.pf.source, field, CHECKS_ALL));
  else if (sa && sb)
    out.push(...fieldDomainFindings({ ...a.pf.source, type: sa }, { ...b.pf.source, type: sb }, field, CHECKS_ALL));
  return out;
}

export function protobufFindings(oldL: Layout, newL: Layout): Finding[] {
  const ma = protoModel(oldL);
  const mb = protoModel(newL);
  const a = new Map<string, Entry>();
  const b = new Map<string, Entry>();
  entries(ma.root, [], "", a);
  entries(mb.root, [], "", b);
  const out: Finding[] = [];
  const bByKey = new Map([...b.values()].map((e) => [e.key, e]));
  const aByKey = new Map([...a.values()].map((e) => [e.key, e]));
  const reservedNew = new Set(newL.protobufReserved);
  const reservedOld = new Set(oldL.protobufReserved);

  for (const [at, ea] of a) {
    const eb = b.get(at);
    const moved = bByKey.get(ea.key);
    if (eb && eb.key === ea.key) {
      out.push(...wireFindings(ea, eb));
      continue;
    }
    if (eb)
      out.push({
        field: eb.path,
        direction: "both",
        severity: "breaking",
        message: `number ${ea.pf.number} reused: it carried "${ea.path}" and now carries "${eb.path}"`,
        advice: `Give "${eb.path}" a number never used before and add ${ea.pf.number} to the reserved numbers.`,
      });
    if (moved && scopeOf(at) === scopeOf([...b].find(([, e]) => e === moved)![0])) {
      out.push({
        field: moved.path,
        direction: "both",
        severity: "breaking",
        message: `renumbered ${ea.pf.number} → ${moved.pf.number}: each side reads the other's field as unknown and loses the value`,
        advice: `Keep number ${ea.pf.number} for "${moved.path}" (set options.protobuf.number).`,
      });
      continue;
    }
    if (moved) continue;
    if (!eb) {
      // the field is gone from the new layout
      if (ea.pf.label === "implicit")
        out.push({
          field: ea.path,
          direction: "oldReadsNew",
          severity: "degraded",
          message: `"${ea.path}" (number ${ea.pf.number}) removed: old decoders read it as 0 (or refuse the message where 0 is not a valid value)`,
        });
      if (scopeOf(at) === "" && !reservedNew.has(ea.pf.number))
        out.push({
          field: ea.path,
          direction: "both",
          severity: "info",
          message: `number ${ea.pf.number} of the removed "${ea.path}" is not reserved: a later field may reuse it and be misread by old decoders`,
          advice: `Add ${ea.pf.number} to protobufReserved.`,
        });
    }
  }
  for (const [at, eb] of b) {
    if (a.has(at) || aByKey.has(eb.key)) continue;
    if (scopeOf(at) === "" && reservedOld.has(eb.pf.number))
      out.push({
        field: eb.path,
        direction: "both",
        severity: "degraded",
        message: `"${eb.path}" uses number ${eb.pf.number}, reserved for a field deleted earlier: messages and decoders from before that deletion misread it`,
        advice: "Pick a number that was never used.",
      });
    else if (eb.pf.label === "implicit")
      out.push({
        field: eb.path,
        direction: "newReadsOld",
        severity: "degraded",
        message: `"${eb.path}" added as required: old messages do not carry it and read as 0 (or are refused where 0 is not a valid value)`,
        advice: "Add new fields as optional.",
      });
  }
  return out;
}
