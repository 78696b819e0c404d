// JSON Schema (draft 2020-12) of the decoded record in its plain JSON form (json/record.ts): what the
// network-server decoders return and the decoder service forwards, so consumers can validate it.
import { type Field, intLimits, type Layout, type ScalarType, type TextRep } from "#codecs";
import { charsetPattern, compileTextTime, padInteger } from "#codecs/plans";
import type { JsonValue } from "./json/record.ts";
import type { Exporter, ExportFile } from "./types.ts";

type Schema = { [key: string]: JsonValue };
type StringRep = Extract<TextRep, { as: "string" }>;

const NON_FINITE = "NaN|-?Infinity";
const PY_FLOAT = "-?\\d+(?:\\.\\d+)?(?:e[+-]\\d+)?";
const JS_NUMBER = "-?\\d+(?:\\.\\d+)?(?:e[+-]\\d+)?";

// "-" and "/" stay bare: ECMAScript's unicode mode (which JSON Schema validators use) refuses escaping them
const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** One instant formatted, every digit generalised: the text format's exact shape without re-parsing it. */
function timePattern(format: string): string {
  const sample = compileTextTime(format).format(0) ?? "";
  return `^${escapeRegex(sample).replace(/[0-9]/g, "\\d")}$`;
}

function intDigits(pad: number | undefined): string {
  return pad ? `-?\\d{${pad},}` : "-?\\d+";
}

/** Python f"{x:.Nf}" text, zero padded to `pad` integer digits. */
function fixedDecimals(decimals: number, pad: number | undefined, allowNonFinite: boolean): string {
  const body = `${intDigits(pad)}${decimals > 0 ? `\\.\\d{${decimals}}` : ""}`;
  return `^(?:${body}${allowNonFinite ? `|${NON_FINITE}` : ""})$`;
}

function range(min: number | undefined, max: number | undefined): Schema {
  const out: Schema = {};
  if (min !== undefined && Number.isFinite(min)) out.minimum = min;
  if (max !== undefined && Number.isFinite(max)) out.maximum = max;
  return out;
}

function intRange(t: Extract<ScalarType, { kind: "int" }>): [number, number] {
  const [lo, hi] = intLimits(t.bits, t.signed);
  return [Math.max(lo, t.min ?? lo), Math.min(hi, t.max ?? hi)];
}

function asText(t: ScalarType, rep: StringRep): Schema {
  const pad = rep.pad;
  switch (t.kind) {
    case "bool":
      return { type: "string", enum: ["0", "1"] };
    case "enum":
      return { type: "string", enum: t.values.map((v) => (pad !== undefined ? padInteger(v.name, pad) : v.name)) };
    case "int":
      return { type: "string", pattern: `^${intDigits(pad)}$` };
    case "float":
    case "fixed":
      return {
        type: "string",
        pattern:
          rep.decimals !== undefined
            ? fixedDecimals(rep.decimals, pad, t.kind === "float")
            : `^(?:${PY_FLOAT.replace("-?\\d+", intDigits(pad))}${t.kind === "float" ? `|${NON_FINITE}` : ""})$`,
      };
    case "timestamp":
      if (t.encoding === "text") return { type: "string", pattern: timePattern(t.textFormat!) };
      return {
        type: "string",
        pattern: rep.decimals !== undefined ? fixedDecimals(rep.decimals, undefined, false) : `^${JS_NUMBER}$`,
      };
    case "string":
      return stringSchema(t);
    case "bytes":
      return {
        type: "string",
        pattern: "^(?:[0-9a-f]{2})*$",
        maxLength: 2 * t.maxLength,
        ...(t.fixed ? { minLength: 2 * t.maxLength } : {}),
      };
  }
}

function stringSchema(t: Extract<ScalarType, { kind: "string" }>): Schema {
  const cs = charsetPattern(t.charset);
  // maxLength counts UTF-8 bytes in the layout and code points here: a necessary bound, exact for one-byte charsets
  return { type: "string", maxLength: t.maxLength, ...(cs ? { pattern: cs.source } : {}) };
}

function asValue(t: ScalarType): Schema {
  switch (t.kind) {
    case "bool":
      return { type: "boolean" };
    case "enum":
      return { enum: t.values.map((v) => v.value) };
    case "int": {
      if (t.bits === 64) {
        const lo = t.min ?? (t.signed ? -(2 ** 63) : 0);
        const hi = t.max ?? (t.signed ? 2 ** 63 : 2 ** 64);
        // beyond ±2^53 a JSON number loses digits, so those values travel as decimal strings
        return {
          anyOf: [
            { type: "integer", ...range(Math.max(lo, Number.MIN_SAFE_INTEGER), Math.min(hi, Number.MAX_SAFE_INTEGER)) },
            { type: "string", pattern: `^${t.signed ? "-?" : ""}\\d{16,20}$` },
          ],
        };
      }
      const [lo, hi] = intRange(t);
      return { type: "integer", minimum: lo, maximum: hi };
    }
    case "float":
      return { anyOf: [{ type: "number", ...range(t.min, t.max) }, { enum: ["NaN", "Infinity", "-Infinity"] }] };
    case "fixed":
      return { type: "number", minimum: t.min, maximum: t.max };
    case "timestamp":
      if (t.encoding === "text") return { type: "string", pattern: timePattern(t.textFormat!) };
      return { type: "number", ...range(t.min, t.max) };
    case "string":
      return stringSchema(t);
    case "bytes":
      return {
        type: "string",
        contentEncoding: "base64",
        pattern: "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
        maxLength: 4 * Math.ceil(t.maxLength / 3),
      };
  }
}

function describe(f: Field): Schema {
  const parts = [f.unit ? `${f.name} [${f.unit}]` : f.name];
  if (f.description) parts.push(f.description);
  return { title: f.name, description: parts.join(". ") };
}

function fieldSchema(f: Field): Schema {
  const t = f.type;
  const rep = f.text?.as === "string" ? f.text : undefined;
  if (t.kind === "group") return { ...describe(f), ...objectSchema(t.fields) };
  if (t.kind === "array") {
    if (rep?.separator !== undefined)
      return {
        ...describe(f),
        type: "string",
        description: `${describe(f).description}. ${t.fixed ? "Exactly" : "Up to"} ${t.maxCount} values joined by ${JSON.stringify(rep.separator)}`,
      };
    const items = rep ? asText(t.of, rep) : asValue(t.of);
    return { ...describe(f), type: "array", items, maxItems: t.maxCount, ...(t.fixed ? { minItems: t.maxCount } : {}) };
  }
  return { ...describe(f), ...(rep ? asText(t, rep) : asValue(t)) };
}

function objectSchema(fields: Field[]): Schema {
  const properties: Schema = {};
  for (const f of fields) properties[f.key] = fieldSchema(f);
  return {
    type: "object",
    properties,
    required: fields.filter((f) => f.presence === "required").map((f) => f.key),
    additionalProperties: false,
  };
}

/** The schema object itself (for validators in the same process). */
export function jsonSchemaOf(layout: Layout): Schema {
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `urn:satpayload:${layout.package}.${layout.message}`,
    title: layout.name,
    description: `${layout.package}.${layout.message} decoded to JSON in its text representation. Generated by SatPayload Studio from the layout.`,
    ...objectSchema(layout.fields),
  };
}

export function generateJsonSchema(layout: Layout): ExportFile[] {
  return [
    {
      path: `${layout.message}.schema.json`,
      language: "json",
      content: `${JSON.stringify(jsonSchemaOf(layout), null, 2)}\n`,
    },
  ];
}

export const jsonSchemaExporter: Exporter = {
  id: "json-schema",
  label: "JSON Schema",
  description: "JSON Schema (2020-12) of the decoded record as the network decoders and the decoder service emit it.",
  generate: (layout) => generateJsonSchema(layout),
};
