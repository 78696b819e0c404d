// Struct, SBE and bit-packed carry no names or tags: a field is where it sits. Any change of offset,
// width or order breaks every decoder; only SBE lets a newer version append (root fields, and groups
// and var data with a version bump).
import { CHECKS_FIXED_LAYOUT, fieldDomainFindings, meaning } from "./domain.ts";
import type { Finding } from "./types.ts";
import { bitpackedPlan, layoutSpecs, type FieldSpec, type ScalarSpec } from "../formats/bitpacked/plan.ts";
import { planSbe, type SbeField, type SbeScalar } from "../formats/sbe/sbePlan.ts";
import { planStruct, type StructField, type StructNode } from "../formats/struct/structPlan.ts";
import type { Field, Layout, ScalarType } from "../layout/schema.ts";

/** One piece of the wire in order: what occupies it (sig) and which field it belongs to. */
interface Item {
  sig: string;
  id: string;
  path: string;
  field?: Field;
  optional?: boolean;
}

const VERSION_BYTE =
  'Put a version number first in every message (e.g. a u8 field "v") and keep a decoder per version, or move to a tagged format (Protobuf) for fields that change.';

const scalarOf = (f: Field): ScalarType | undefined =>
  f.type.kind === "array" ? f.type.of : f.type.kind === "group" ? undefined : f.type;

/** Same position and width: the same field must be there, meaning the same, within each side's checks. */
function sameSlot(a: Item, b: Item, format: string): Finding[] {
  if (a.id !== b.id)
    return [
      {
        field: b.path,
        direction: "both",
        severity: "breaking",
        message: `the bytes of "${a.path}" now carry "${b.path}"`,
        advice: VERSION_BYTE,
      },
    ];
  if (!a.field || !b.field) return [];
  const sa = scalarOf(a.field);
  const sb = scalarOf(b.field);
  if (sa && sb && meaning(sa) !== meaning(sb) && !(sa.kind === "enum" || sb.kind === "enum"))
    return [
      {
        field: b.path,
        direction: "both",
        severity: "breaking",
        message: `${meaning(sa)} → ${meaning(sb)}: the same ${format} bytes now mean another value`,
        advice: VERSION_BYTE,
      },
    ];
  return fieldDomainFindings(a.field, b.field, b.path, CHECKS_FIXED_LAYOUT);
}

/** First difference of two item lists, or undefined when they match in length and sig. */
function firstDiff(a: Item[], b: Item[]): number | undefined {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i]?.sig !== b[i]?.sig) return i;
  return undefined;
}

function structural(a: Item[], b: Item[], at: number, format: string, advice: string): Finding {
  const first = b[at] ?? a[at]!;
  const appended = at === a.length;
  const removedTail = at === b.length;
  if (first.path === "" && first.sig.startsWith("bitmap"))
    return {
      field: "",
      direction: "both",
      severity: "breaking",
      message: `the presence bitmap changed (${a[at]?.sig.slice(7) ?? 0} → ${b[at]?.sig.slice(7) ?? 0} bytes, or fields became optional or required): every field after it moved`,
      advice,
    };
  const message = appended
    ? `"${first.path}" added after the last field: old ${format} decoders refuse the longer messages (trailing bytes), new decoders the shorter old ones`
    : removedTail
      ? `"${first.path}" removed from the end: new ${format} decoders refuse the longer old messages, old decoders the shorter new ones`
      : `from "${first.path}" on, the ${format} bytes moved or changed width: every later field is misread`;
  return { field: first.path, direction: "both", severity: "breaking", message, advice };
}

/**
 * Optional fields appended after the last one take no bits while absent: a message that leaves them
 * out has the old shape. Which side still reads what depends on the format (see the callers).
 */
function optionalTail(shorter: Item[], longer: Item[]): Item[] | undefined {
  if (longer.length <= shorter.length || firstDiff(shorter, longer.slice(0, shorter.length)) !== undefined)
    return undefined;
  const tail = longer.slice(shorter.length);
  return tail.every((i) => i.optional) ? tail : undefined;
}

function compareSlots(
  a: Item[],
  b: Item[],
  format: string,
  advice: string,
  tail?: (added: Item[], direction: "added" | "removed") => Finding[],
): Finding[] {
  const at = firstDiff(a, b);
  const out: Finding[] = [];
  const upTo = Math.min(at ?? a.length, a.length, b.length);
  for (let i = 0; i < upTo; i++) out.push(...sameSlot(a[i]!, b[i]!, format));
  if (at === undefined) return out;
  const added = tail && optionalTail(a, b);
  const removed = tail && optionalTail(b, a);
  if (added) out.push(...tail(added, "added"));
  else if (removed) out.push(...tail(removed, "removed"));
  else out.push(structural(a, b, at, format, advice));
  return out;
}

// ---- Struct ---------------------------------------------------------------------------------

function structSig(n: StructNode): string {
  switch (n.kind) {
    case "num":
      return n.slot.code;
    case "text":
      return `${n.of}:${n.mode}${n.mode === "fixed" ? `:${n.maxLength}` : ""}`;
    case "array":
      return `array:${n.fixed ? `x${n.maxCount}` : n.countCode}:${structSig(n.elem)}`;
    case "group":
      return "group";
  }
}

function structItems(layout: Layout): Item[] {
  const plan = planStruct(layout);
  const out: Item[] = [{ sig: `bitmap:${plan.bitmapBytes}`, id: "", path: "" }];
  const walk = (fields: Field[], planned: StructField[], keys: string[]) =>
    planned.forEach((pf, i) => {
      const f = fields[i]!;
      const path = [...keys, f.key].join(".");
      out.push({
        sig: `${structSig(pf.node)}${pf.bit >= 0 ? `?${pf.bit}` : ""}`,
        id: pf.idPath,
        path,
        field: f,
        optional: pf.bit >= 0,
      });
      if (pf.node.kind === "group" && f.type.kind === "group") walk(f.type.fields, pf.node.fields, [...keys, f.key]);
    });
  walk(layout.fields, plan.fields, []);
  return out;
}

export function structFindings(oldL: Layout, newL: Layout): Finding[] {
  if (oldL.struct.endianness !== newL.struct.endianness)
    return [
      {
        field: "",
        direction: "both",
        severity: "breaking",
        message: `byte order ${oldL.struct.endianness} → ${newL.struct.endianness}: every multi-byte value is misread`,
        advice: "Keep the byte order of deployed devices.",
      },
    ];
  // the presence bitmap keeps its size: an absent appended field is a 0 bit both sides agree on
  return compareSlots(structItems(oldL), structItems(newL), "Struct", VERSION_BYTE, (items, how) => {
    const names = items.map((i) => `"${i.path}"`).join(", ");
    return [
      how === "added"
        ? {
            field: items[0]!.path,
            direction: "oldReadsNew",
            severity: "degraded",
            message: `optional ${names} appended: old Struct decoders refuse messages that carry ${items.length > 1 ? "them" : "it"} and read the rest`,
            advice:
              "Append new Struct fields as optional, after the last field, while the presence bitmap keeps its size (8 optional fields per byte).",
          }
        : {
            field: items[0]!.path,
            direction: "newReadsOld",
            severity: "degraded",
            message: `optional ${names} removed from the end: new Struct decoders refuse old messages that carry ${items.length > 1 ? "them" : "it"}`,
          },
    ];
  });
}

// ---- SBE ------------------------------------------------------------------------------------

function sbeScalarSig(s: SbeScalar): string {
  return s.kind === "num" ? s.slot.code : `${s.kind}:${s.size}`;
}

interface SbeItems {
  root: Item[];
  tail: Item[];
}

function sbeItems(layout: Layout): SbeItems {
  const plan = planSbe(layout);
  const root: Item[] = [];
  const repeats: Item[] = [];
  const vars: Item[] = [];
  // the wire order: root block slots, then repeating groups, then var data, each in layout order depth first
  const walk = (fields: Field[], planned: SbeField[], keys: string[]): void =>
    planned.forEach((pf, i) => {
      const f = fields[i]!;
      const path = [...keys, f.key].join(".");
      const item = (sig: string): Item => ({ sig, id: pf.idPath, path, field: f, optional: pf.optional });
      const n = pf.node;
      if (n.kind === "group" && f.type.kind === "group") return walk(f.type.fields, n.fields, [...keys, f.key]);
      if (n.kind === "fixed") root.push(item(`@${n.offset}:${sbeScalarSig(n.scalar)}`));
      else if (n.kind === "fixedArray") root.push(item(`@${n.offset}:${sbeScalarSig(n.scalar)}x${n.count}`));
      else if (n.kind === "repeat")
        repeats.push(
          item(
            `group:${n.elem.kind === "var" ? `var:${n.elem.of}` : sbeScalarSig(n.elem)}${n.fixedCount ? `x${n.maxCount}` : ""}`,
          ),
        );
      else if (n.kind === "var") vars.push(item(`data:${n.of}`));
    });
  walk(layout.fields, plan.fields, []);
  return { root, tail: [...repeats, ...vars] };
}

const SBE_APPEND =
  "Append new fields after the last root field, repeating group and var data, bump sbe.version, and never reorder or resize existing ones.";

/** A presence change on an unchanged slot: the null value is a value to a required reader. */
function sbePresence(a: Item, b: Item): Finding[] {
  if (a.optional === b.optional || a.id !== b.id) return [];
  return a.optional
    ? [
        {
          field: b.path,
          direction: "newReadsOld",
          severity: "breaking",
          message:
            "optional → required: an absent old value reads as the type's null value (255, NaN, empty …), silently",
          advice: "Make a field required only once no writer leaves it out.",
        },
      ]
    : [
        {
          field: b.path,
          direction: "oldReadsNew",
          severity: "breaking",
          message:
            "required → optional: old decoders read an absent value as the type's null value (255, NaN, empty …), silently",
          advice: "Keep sending the field until every decoder treats it as optional.",
        },
      ];
}

function appendedOnly(a: Item[], b: Item[]): boolean {
  return b.length > a.length && firstDiff(a, b.slice(0, a.length)) === undefined;
}

export function sbeFindings(oldL: Layout, newL: Layout): Finding[] {
  if (oldL.sbe.templateId !== newL.sbe.templateId || oldL.sbe.schemaId !== newL.sbe.schemaId)
    return [
      {
        field: "",
        direction: "both",
        severity: "breaking",
        message: `templateId/schemaId ${oldL.sbe.templateId}/${oldL.sbe.schemaId} → ${newL.sbe.templateId}/${newL.sbe.schemaId}: each side refuses the other's messages`,
        advice: "Keep templateId and schemaId; use sbe.version for changes.",
      },
    ];
  const a = sbeItems(oldL);
  const b = sbeItems(newL);
  const out: Finding[] = [];
  const part = (x: Item[], y: Item[], what: "root" | "tail") => {
    const n = Math.min(x.length, y.length);
    for (let i = 0; i < n && x[i]!.sig === y[i]!.sig; i++)
      out.push(...sameSlot(x[i]!, y[i]!, "SBE"), ...sbePresence(x[i]!, y[i]!));
    if (firstDiff(x, y) === undefined) return;
    if (appendedOnly(x, y)) {
      const added = y
        .slice(x.length)
        .map((i) => `"${i.path}"`)
        .join(", ");
      out.push({
        field: y[x.length]!.path,
        direction: "newReadsOld",
        severity: "breaking",
        message: `${added} appended to the ${what === "root" ? "root block" : "groups / var data"}: new decoders refuse the shorter old messages`,
        advice: "Decode old messages with a decoder of the old layout (the header's version tells which).",
      });
      if (what === "tail" && newL.sbe.version <= oldL.sbe.version)
        out.push({
          field: y[x.length]!.path,
          direction: "oldReadsNew",
          severity: "breaking",
          message: `${added} appended without raising sbe.version (${newL.sbe.version}): old decoders refuse the extra bytes`,
          advice: SBE_APPEND,
        });
      return;
    }
    out.push(structural(x, y, firstDiff(x, y)!, "SBE", SBE_APPEND));
  };
  part(a.root, b.root, "root");
  part(a.tail, b.tail, "tail");
  return out;
}

// ---- bit-packed -----------------------------------------------------------------------------

function bitsSig(s: ScalarSpec): string {
  switch (s.k) {
    case "bool":
      return "bool";
    case "enum":
      return `enum:${s.bits}`;
    case "int":
      return `int:${s.bits}:${s.lo}`;
    case "int64":
      return `int64:${s.bits}:${s.lo}`;
    // float32 or float64 only changes how the decoded value is stored, not the bits
    case "quant":
      return `quant:${s.bits}:${s.qz.lo}:${s.qz.step}`;
    case "fixed":
      return `fixed:${s.bits}:${s.rawLo}:${s.scale}:${s.offset}`;
    case "ieee":
      return `ieee:${s.bits}`;
    case "string":
      return `string:${s.alphabet?.charset ?? "utf8"}:${s.fixed ? `x${s.maxLength}` : s.lenBits}`;
    case "bytes":
      return `bytes:${s.fixed ? `x${s.maxLength}` : s.lenBits}`;
  }
}

function bitsItems(layout: Layout): Item[] {
  const out: Item[] = [];
  const walk = (specs: FieldSpec[], keys: string[]) => {
    for (const spec of specs) {
      const f = spec.field;
      const path = [...keys, f.key].join(".");
      const n = spec.node;
      const presence = spec.optional ? "?" : "";
      const optional = spec.optional;
      if (n.k === "group") {
        out.push({ sig: `group${presence}`, id: spec.path, path, field: f, optional });
        walk(n.fields, [...keys, f.key]);
      } else if (n.k === "array")
        out.push({
          sig: `array${presence}:${n.fixed ? `x${n.maxCount}` : n.countBits}:${bitsSig(n.s)}`,
          id: spec.path,
          path,
          field: f,
          optional,
        });
      else out.push({ sig: `${bitsSig(n.s)}${presence}`, id: spec.path, path, field: f, optional });
    }
  };
  walk(layoutSpecs(layout), []);
  return out;
}

/** Enum values travel as their index: only values appended at the end keep old indexes. */
function enumIndexes(a: Item, b: Item): Finding[] {
  const ea = a.field && scalarOf(a.field);
  const eb = b.field && scalarOf(b.field);
  if (ea?.kind !== "enum" || eb?.kind !== "enum") return [];
  const na = ea.values.map((v) => v.name);
  const nb = eb.values.map((v) => v.name);
  if (na.every((n, i) => nb[i] === n))
    return nb.length > na.length
      ? [
          {
            field: b.path,
            direction: "oldReadsNew",
            severity: "degraded",
            message: `new enum value${nb.length - na.length > 1 ? "s" : ""} ${nb.slice(na.length).join(", ")}: old decoders refuse messages that carry ${nb.length - na.length > 1 ? "them" : "it"}`,
          },
        ]
      : [];
  if (nb.every((n, i) => na[i] === n))
    return [
      {
        field: b.path,
        direction: "newReadsOld",
        severity: "degraded",
        message: `enum values ${na.slice(nb.length).join(", ")} removed from the end: new decoders refuse old messages that carry them`,
      },
    ];
  return [
    {
      field: b.path,
      direction: "both",
      severity: "breaking",
      message:
        "enum values inserted, removed or reordered: bit-packed sends the index, so indexes now name other values",
      advice: "Only append enum values at the end of the list.",
    },
  ];
}

export function bitpackedFindings(oldL: Layout, newL: Layout): Finding[] {
  const a = bitsItems(oldL);
  const b = bitsItems(newL);
  const at = firstDiff(a, b);
  const out: Finding[] = [];
  for (let i = 0; i < Math.min(at ?? a.length, a.length, b.length); i++) {
    const same = sameSlot(a[i]!, b[i]!, "bit-packed").filter(
      (f) => !f.message.startsWith("enum") && !f.message.startsWith("new enum"),
    );
    out.push(...same, ...(a[i]!.id === b[i]!.id ? enumIndexes(a[i]!, b[i]!) : []));
  }
  if (at === undefined) return out;
  // an absent appended optional field is one 0 bit, read from (or written into) the padding when the
  // last byte has room: some messages still read, others are refused as too long or too short
  const tail = optionalTail(a, b) ?? optionalTail(b, a);
  if (tail) {
    const names = tail.map((i) => `"${i.path}"`).join(", ");
    // the shorter layout's messages must end with spare padding bits for any of them to carry the bit
    const shorter = bitpackedPlan(b.length > a.length ? oldL : newL);
    const room = !(shorter.minBits === shorter.maxBits && shorter.minBits % 8 === 0);
    out.push({
      field: tail[0]!.path,
      direction: "both",
      severity: room ? "degraded" : "breaking",
      message: room
        ? `optional ${names} ${b.length > a.length ? "appended" : "removed from the end"}: only messages whose presence bit fits the other side's padding (and that leave the field out) still read`
        : `optional ${names} ${b.length > a.length ? "appended" : "removed from the end"}: the shorter messages end on a byte boundary, so the presence bit always needs one more byte and every message is refused`,
      advice: VERSION_BYTE,
    });
    return out;
  }
  out.push(
    structural(
      a,
      b,
      at,
      "bit-packed",
      `${VERSION_BYTE} Ranges and precisions decide the bit widths: any change to them moves every later bit.`,
    ),
  );
  return out;
}
