// The layout as a proto3 schema file: what firmware (nanopb), servers and Python compile against.
// Same names, numbers and types as the protobuf codec, so their bytes are interchangeable.
import type { Field, Layout } from "#codecs";
import { protoModel, type ProtoEnum, type ProtoField, type ProtoMessage, type ValueMap } from "#codecs/plans";

/** Comments are single-line `//`: control characters in user text must not break out of them. */
function clean(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ").trim();
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of clean(text).split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

const num = (n: number | bigint) => String(n);

function valueNote(m: ValueMap): string {
  switch (m.kind) {
    case "bool":
      return "";
    case "enum":
      return "";
    case "int":
    case "int64":
      return `range ${num(m.min)}..${num(m.max)}`;
    case "float": {
      const range =
        Number.isFinite(m.min) || Number.isFinite(m.max)
          ? `range ${Number.isFinite(m.min) ? num(m.min) : "-inf"}..${Number.isFinite(m.max) ? num(m.max) : "inf"}`
          : "";
      return range;
    }
    case "fixed":
      return `fixed-point: value = raw × ${num(m.scale)}${m.offset > 0 ? ` + ${num(m.offset)}` : m.offset < 0 ? ` − ${num(-m.offset)}` : ""}, range ${num(m.min)}..${num(m.max)} (raw ${m.rawMin}..${m.rawMax})`;
    case "epoch": {
      const range = Number.isFinite(m.min) && Number.isFinite(m.max) ? `, range ${num(m.min)}..${num(m.max)}` : "";
      return `${m.resolution === 1 ? "epoch seconds" : `epoch seconds / ${num(m.resolution)}`}${range}`;
    }
    case "text-time":
      return `UTC timestamp as text "${m.format}"`;
    case "string":
    case "bytes":
      return `max ${m.maxLength} byte${m.maxLength === 1 ? "" : "s"}`;
  }
}

function fieldNote(f: ProtoField): string {
  const src: Field = f.source;
  const parts: string[] = [];
  const t = src.type;
  if (t.kind === "array" && !f.element) parts.push(`${t.fixed ? "exactly" : "up to"} ${t.maxCount} elements`);
  if (f.element) parts.push(`element ${f.element.index + 1} of ${f.element.count} of "${src.key}"`);
  if (f.value) {
    const v = valueNote(f.value);
    if (v) parts.push(v);
  }
  const scalar = t.kind === "array" ? t.of : t;
  if (scalar.kind === "float" && scalar.precision !== undefined) parts.push(`precision ${num(scalar.precision)}`);
  if (scalar.kind === "string" && scalar.charset && scalar.charset !== "utf8") parts.push(`charset ${scalar.charset}`);
  if ((scalar.kind === "string" || scalar.kind === "bytes") && scalar.fixed)
    parts.push("fixed length in fixed-layout formats");
  const head = `${src.name}${src.unit ? ` [${src.unit}]` : ""}`;
  return clean([head, ...parts].join("; "));
}

function typeOf(f: ProtoField): string {
  return f.type === "enum" || f.type === "message" ? f.typeName! : f.type;
}

function reservedLine(numbers: number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(j > i ? `${sorted[i]} to ${sorted[j]}` : `${sorted[i]}`);
    i = j + 1;
  }
  return `reserved ${parts.join(", ")};`;
}

function enumLines(e: ProtoEnum, indent: string): string[] {
  const out = [`${indent}enum ${e.name} {`];
  for (const v of e.values) {
    const note =
      v.layoutName === undefined
        ? "proto3 needs a zero value; never a valid value of the field"
        : `"${clean(v.layoutName)}"`;
    out.push(`${indent}  ${v.name} = ${v.number}; // ${note}`);
  }
  out.push(`${indent}}`);
  return out;
}

function messageLines(m: ProtoMessage, indent: string, note: string | undefined): string[] {
  const out: string[] = [];
  if (note) out.push(`${indent}// ${clean(note)}`);
  out.push(`${indent}message ${m.name} {`);
  const inner = `${indent}  `;
  if (m.reserved.length)
    out.push(`${inner}${reservedLine(m.reserved)} // numbers of deleted fields: never reuse them`, "");
  for (const e of m.enums) out.push(...enumLines(e, inner), "");
  for (const sub of m.messages) {
    const owner = m.fields.find((f) => f.message === sub);
    out.push(
      ...messageLines(
        sub,
        inner,
        owner ? `${owner.source.name}${owner.source.unit ? ` [${owner.source.unit}]` : ""}` : undefined,
      ),
      "",
    );
  }
  for (const f of m.fields) {
    const label = f.label === "optional" ? "optional " : f.label === "repeated" ? "repeated " : "";
    const packed = f.packed ? " [packed = true]" : "";
    out.push(`${inner}${label}${typeOf(f)} ${f.name} = ${f.number}${packed}; // ${fieldNote(f)}`);
  }
  out.push(`${indent}}`);
  return out;
}

/**
 * proto3 source for the layout: package and message from the layout, stable field numbers,
 * `reserved` numbers, enums, nested messages for groups, `optional` for optional fields and packed
 * repeated numerics, with unit, range and precision on every field. Throws LayoutError when the
 * layout cannot be expressed in protobuf.
 */
export function generateProto(layout: Layout): string {
  const model = protoModel(layout);
  const head = [`// ${clean(layout.name)}`];
  if (layout.description) head.push(...wrap(layout.description, 96).map((l) => `// ${l}`));
  head.push(
    "// Generated by SatPayload Studio from the layout: change the layout, not this file.",
    "// Fields without `optional` use proto3 implicit presence: 0, false and empty are not sent.",
  );
  const lines = [
    ...head,
    "",
    'syntax = "proto3";',
    "",
    `package ${model.package};`,
    "",
    ...messageLines(model.root, "", undefined),
  ];
  return `${lines.join("\n")}\n`;
}
