// Export options as zod schemas: each exporter declares its options once (type, range, default, and in
// `.meta()` the label, sentence and CLI flag), and everything else is read from that declaration — the
// parsed, typed value `generate` receives, the error a person reads, the CLI's flags and help, and the
// fields of the Export page's form (through the host's `exports.list`).
import { z } from "zod";
import { CODECS, type FormatId, formatsWith } from "#codecs";
import { ExportOptionError } from "./types.ts";

/** What a form and a CLI need of an option beside its type; set with `option(schema, meta)`. */
export interface OptionMeta {
  /** the form's label, a few words ("Network servers") */
  label: string;
  /** one sentence: the form's tooltip and the CLI's help */
  description: string;
  /** the CLI flag without its dashes ("network-servers"); the form's data-testid is `opt-<flag>` */
  flag: string;
  /** how a choice's values read in the form, by value (the value itself where missing) */
  choiceLabels?: Record<string, string>;
  /** what leaving an option without a default out means ("every format the layout can be written in") */
  unset?: string;
}

/** An exporter's options: one object of options, none of them required (each has a default or means something when left out). */
export type OptionsSchema = z.ZodObject;

/** One option: its schema with the label, sentence and flag a form and a CLI need. */
export function option<T extends z.ZodType>(schema: T, meta: OptionMeta): T {
  return schema.meta({ ...meta });
}

/** The choice of one of `ids` (formats), labelled with the formats' own labels. */
export function formatChoice<K extends FormatId>(ids: readonly K[]): z.ZodEnum<{ [P in K]: P }> {
  return z.enum(ids as [K, ...K[]]) as unknown as z.ZodEnum<{ [P in K]: P }>;
}

export function formatLabels(ids: readonly FormatId[]): Record<string, string> {
  return Object.fromEntries(ids.map((id) => [id, CODECS[id].info.label]));
}

/**
 * The formats an exporter accepts (the flags of `FormatInfo.exports`, the one statement of it), typed as
 * the keys of its table of per-format code. A format flagged for the exporter that the table lacks is a
 * programming error and stops the module from loading.
 */
export function flaggedFormats<K extends FormatId>(
  exporter: Parameters<typeof formatsWith>[0],
  implementations: Readonly<Record<K, unknown>>,
): K[] {
  return formatsWith(exporter).map((f) => {
    if (!Object.hasOwn(implementations, f))
      throw new Error(`format "${f}" is flagged for the ${exporter} export, which has no code for it`);
    return f as K;
  });
}

/** One option as a form and a CLI see it: derived from the schema (`describeOptions`), never written by hand. */
export interface OptionField {
  key: string;
  flag: string;
  label: string;
  description: string;
  /** choice: one of `choices`; choices: a list of them; text, integer, number, boolean */
  kind: "choice" | "choices" | "text" | "integer" | "number" | "boolean";
  choices?: Array<{ value: string; label: string }>;
  default?: string | number | boolean | string[];
  unset?: string;
  min?: number;
  max?: number;
  /** a list's fewest entries */
  minItems?: number;
  maxLength?: number;
  pattern?: string;
}

type JsonSchema = {
  type?: string;
  enum?: unknown[];
  items?: JsonSchema;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxLength?: number;
  pattern?: string;
} & Partial<OptionMeta>;

const described = new WeakMap<OptionsSchema, OptionField[]>();

/** The options of a schema in declaration order, read from its JSON Schema (zod's own conversion). */
export function describeOptions(schema: OptionsSchema): OptionField[] {
  const seen = described.get(schema);
  if (seen) return seen;
  const json = z.toJSONSchema(schema, { io: "input" }) as { properties?: Record<string, JsonSchema> };
  const fields = Object.entries(json.properties ?? {}).map(([key, p]) => optionField(key, p));
  described.set(schema, fields);
  return fields;
}

function optionField(key: string, p: JsonSchema): OptionField {
  if (!p.label || !p.description || !p.flag)
    throw new Error(`option "${key}" has no label, description or flag: declare it with option(schema, meta)`);
  const choices = (values: unknown[] | undefined) =>
    values?.map((v) => ({ value: String(v), label: p.choiceLabels?.[String(v)] ?? String(v) }));
  const kind: OptionField["kind"] | undefined = p.enum
    ? "choice"
    : p.type === "array" && p.items?.enum
      ? "choices"
      : p.type === "string"
        ? "text"
        : p.type === "integer" || p.type === "number" || p.type === "boolean"
          ? p.type
          : undefined;
  if (!kind) throw new Error(`option "${key}": no form or flag for a ${p.type ?? "value"} of this shape`);
  const field: OptionField = { key, flag: p.flag, label: p.label, description: p.description, kind };
  const list = choices(kind === "choices" ? p.items!.enum : p.enum);
  if (list) field.choices = list;
  if (p.default !== undefined) field.default = p.default as OptionField["default"];
  if (p.unset !== undefined) field.unset = p.unset;
  if (p.minimum !== undefined) field.min = p.minimum;
  if (p.maximum !== undefined) field.max = p.maximum;
  if (p.minItems !== undefined) field.minItems = p.minItems;
  if (p.maxLength !== undefined) field.maxLength = p.maxLength;
  if (p.pattern !== undefined) field.pattern = p.pattern;
  return field;
}

/**
 * Parses untrusted options (from the UI, the host API or the CLI) with an exporter's schema. Keys the
 * schema does not declare are left to the caller (runExports refuses those no exporter declares).
 * Throws ExportOptionError naming the first bad option, in words a person reads.
 */
export function parseOptions<S extends OptionsSchema>(schema: S, raw: Record<string, unknown>): z.output<S> {
  // zod puts a message the schema itself gives (a pattern's "must be * or …") before this one
  const parsed = schema.safeParse(raw, { error: () => NO_OWN_MESSAGE });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const key = String(issue.path[0]);
  const field = describeOptions(schema).find((f) => f.key === key);
  if (!field) throw parsed.error;
  const reason = issue.message === NO_OWN_MESSAGE ? reasonFor(field, raw[key]) : issue.message;
  throw new ExportOptionError(key, reason, field.label);
}

const NO_OWN_MESSAGE = "\u0000no message of its own";

const quoted = (v: unknown) => (typeof v === "string" ? `"${v}"` : (JSON.stringify(v) ?? String(v)));

function range(f: OptionField, what: string): string {
  if (f.min !== undefined && f.max !== undefined) return `${what} from ${f.min} to ${f.max}`;
  if (f.min !== undefined) return `${what} of at least ${f.min}`;
  if (f.max !== undefined) return `${what} of at most ${f.max}`;
  return what;
}

function reasonFor(f: OptionField, value: unknown): string {
  const values = f.choices?.map((c) => c.value).join(", ");
  switch (f.kind) {
    case "choice":
      return `must be one of ${values}, not ${quoted(value)}`;
    case "choices": {
      if (!Array.isArray(value)) return `must be a list of ${values}`;
      const bad = value.find((v) => !f.choices!.some((c) => c.value === v));
      if (bad !== undefined) return `has ${quoted(bad)}, which is not one of ${values}`;
      if (f.minItems && value.length < f.minItems) return `needs at least ${f.minItems} of ${values}`;
      return `must be a list of ${values}`;
    }
    case "integer":
      return `must be ${range(f, "a whole number")}`;
    case "number":
      return `must be ${range(f, "a number")}`;
    case "boolean":
      return "must be true or false";
    case "text":
      return f.maxLength !== undefined ? `must be text of at most ${f.maxLength} characters` : "must be text";
  }
}
