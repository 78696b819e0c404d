// Layout problems in words: every issue zod or the layout rules find becomes a sentence that names the
// setting, says what is wrong and what is allowed (and why, for a limit), plus where it is: the field's
// name, not "fields[3]". The designer shows the sentence next to the control, the CLI and the host print
// it after the field ("Field "GPS › Latitude": Count is 100,000; the most is 65,535, because …").
import type { core } from "zod";
import { LIMITS, type Limit } from "./limits.ts";
import { LAYOUT_VERSION } from "./schema.ts";
import type { IssueAt } from "../errors.ts";
import { codePoints, hasVisibleCharacter } from "../text/visible.ts";

export type PathStep = string | number;

/** "fields[3].type.max" → ["fields", 3, "type", "max"] */
export function parsePath(path: string): PathStep[] {
  const out: PathStep[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

interface Located {
  /** the field the path lies in, if any, and how to call it */
  field: Obj | null;
  where: string;
  /** the path inside the field (or inside the layout when there is no field) */
  rest: PathStep[];
}

/**
 * Text cut to `keep` characters plus "…" when longer than `max`. Characters are code points, as zod
 * counts them for a length limit, so a cut never leaves half an emoji (a lone surrogate shows as �).
 */
function shorten(text: string, max: number, keep: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, keep).join("")}…` : text;
}

/** A field's name when it has one that shows, else its position (and key). */
function fieldName(f: unknown, index: number): { named: boolean; text: string } {
  const name = isObj(f) && typeof f.name === "string" && hasVisibleCharacter(f.name) ? f.name : null;
  if (name !== null) return { named: true, text: shorten(name, 60, 57) };
  const key = isObj(f) && typeof f.key === "string" && hasVisibleCharacter(f.key) ? ` (key "${f.key}")` : "";
  return { named: false, text: `#${index + 1}${key}` };
}

/** 'field "GPS › Latitude"', or with an unnamed level 'field "GPS" › #2 (key "lat")'. */
function fieldWhere(levels: readonly { named: boolean; text: string }[]): string {
  if (levels.every((l) => l.named)) return `field "${levels.map((l) => l.text).join(" › ")}"`;
  return `field ${levels.map((l) => (l.named ? `"${l.text}"` : l.text)).join(" › ")}`;
}

/** Walks fields[i](.type.fields[j])* from the document root. */
function locate(root: unknown, path: readonly PathStep[]): Located {
  let list: unknown = isObj(root) ? root.fields : undefined;
  let i = 0;
  const names: { named: boolean; text: string }[] = [];
  let field: Obj | null = null;
  let rest = [...path];
  if (path[0] !== "fields" || typeof path[1] !== "number") return { field: null, where: "", rest };
  for (;;) {
    const index = path[i + 1] as number;
    const f = Array.isArray(list) ? list[index] : undefined;
    names.push(fieldName(f, index));
    field = isObj(f) ? f : null;
    i += 2;
    rest = path.slice(i);
    const nested = path[i] === "type" && path[i + 1] === "fields" && typeof path[i + 2] === "number";
    if (!nested || !field || !isObj(field.type)) break;
    list = field.type.fields;
    i += 1;
  }
  return { field, where: fieldWhere(names), rest };
}

/** "type.values[].name" for ["type", "values", 2, "name"]; array positions kept apart for labels. */
function pattern(rest: readonly PathStep[]): { key: string; positions: number[] } {
  let key = "";
  const positions: number[] = [];
  for (const p of rest) {
    if (typeof p === "number") {
      key += "[]";
      positions.push(p);
    } else key += key ? `.${p}` : p;
  }
  return { key, positions };
}

interface Prop {
  label: string | ((n: number[], owner: Obj | null) => string);
  /** lists: what the entries are called ("fields", "values") and what holds them ("The enum") */
  noun?: string;
  owner?: string;
  /** the bound, for too small/too big */
  limit?: Limit;
  /** why zero or less is refused, for "must be more than 0" */
  positive?: string;
  /** why only the listed values are allowed */
  choice?: string;
}

const nth = (n: number[]) => (n[0] ?? 0) + 1;
const sampleKind = (f: Obj | null) => (f && isObj(f.sample) ? f.sample.kind : undefined);
const typeKind = (f: Obj | null) => (f && isObj(f.type) ? f.type.kind : undefined);

const FIELD_PROPS: Record<string, Prop> = {
  "": { label: "The field" },
  id: { label: "Id", limit: LIMITS.id },
  key: { label: "Key", limit: LIMITS.identifier },
  name: { label: "Name", limit: LIMITS.name },
  unit: { label: "Unit", limit: LIMITS.unit },
  description: { label: "Description", limit: LIMITS.fieldDescription },
  presence: { label: "Presence" },
  type: { label: "Type" },
  "type.kind": { label: "Type" },
  "type.bits": { label: "Bits" },
  "type.signed": { label: "Signed" },
  "type.min": { label: (_, f) => (typeKind(f) === "timestamp" ? "Earliest" : "Minimum") },
  "type.max": { label: (_, f) => (typeKind(f) === "timestamp" ? "Latest" : "Maximum") },
  "type.precision": { label: "Precision", positive: "it is the step the value is meaningful to" },
  "type.scale": { label: "Scale", positive: "value = raw × scale + offset needs a step greater than 0" },
  "type.offset": { label: "Offset" },
  "type.encoding": { label: "Encoding" },
  "type.textFormat": { label: "Format", limit: LIMITS.timestampFormat },
  "type.resolution": { label: "Resolution", positive: "it is the step between two times" },
  "type.maxLength": { label: "Max length", limit: LIMITS.byteLength },
  "type.fixed": { label: (_, f) => (typeKind(f) === "array" ? "Fixed count" : "Fixed") },
  "type.charset": { label: "Charset" },
  "type.values": { label: "Values", owner: "The enum", noun: "values", limit: LIMITS.enumValues },
  "type.values[]": { label: (n) => `Value ${nth(n)}` },
  "type.values[].name": { label: (n) => `Name of value ${nth(n)}`, limit: LIMITS.identifier },
  "type.values[].value": { label: (n) => `Number of value ${nth(n)}`, limit: LIMITS.enumValue },
  "type.maxCount": { label: "Count", limit: LIMITS.arrayCount },
  "type.of": { label: "Element type" },
  "type.of.kind": { label: "Element type" },
  "type.fields": { label: "Fields of the group", owner: "The group", noun: "fields", limit: LIMITS.fields },
  "type.protobufReserved": { label: "Reserved protobuf numbers", noun: "numbers" },
  "type.protobufReserved[]": { label: (n) => `Reserved protobuf number ${nth(n)}`, limit: LIMITS.protobufNumber },
  text: { label: "Written as" },
  "text.as": { label: "Written as" },
  "text.decimals": { label: "Decimals", limit: LIMITS.textDecimals },
  "text.pad": { label: "Pad", limit: LIMITS.textPad },
  "text.separator": { label: "Separator", limit: LIMITS.separator },
  sample: { label: "Sample model" },
  "sample.kind": { label: "Sample model" },
  "sample.value": { label: "Constant value" },
  "sample.values": { label: "Choices", owner: "The choice model", noun: "choices" },
  "sample.values[]": { label: (n) => `Choice ${nth(n)}` },
  "sample.weights": { label: "Weights", noun: "weights" },
  "sample.weights[]": { label: (n) => `Weight ${nth(n)}` },
  "sample.min": {
    label: (_, f) => ({ normal: "Clamp min", walk: "Bounce min" })[String(sampleKind(f))] ?? "Sample minimum",
  },
  "sample.max": {
    label: (_, f) => ({ normal: "Clamp max", walk: "Bounce max" })[String(sampleKind(f))] ?? "Sample maximum",
  },
  "sample.mean": { label: "Mean" },
  "sample.sd": { label: "Std dev" },
  "sample.decimals": { label: "Sample decimals", limit: LIMITS.sampleDecimals },
  "sample.start": { label: "Start" },
  "sample.step": { label: "Step" },
  "sample.stepMin": { label: "Step min" },
  "sample.stepMax": { label: "Step max" },
  "sample.wrap": { label: "Wrap after", positive: "the counter starts again after that many steps" },
  "sample.template": { label: "Template", limit: LIMITS.template },
  "sample.maxRate": { label: "Max rate", positive: "it is the most the value moves per second" },
  "sample.amplitude": { label: "Amplitude" },
  "sample.periodSeconds": { label: "Period", positive: "it is the time one swing takes" },
  "sample.noise": { label: "Noise" },
  "sample.chance": { label: "Chance of a change" },
  "sample.from": { label: "Drawn from" },
  "sample.from.value": { label: "Constant value it changes to" },
  "sample.from.values": { label: "Choices it changes to", owner: "The choice model", noun: "choices" },
  "sample.from.values[]": { label: (n) => `Choice ${nth(n)} it changes to` },
  "sample.from.weights": { label: "Weights", noun: "weights" },
  "sample.each": { label: "Element models", owner: "The per-element model", noun: "element models" },
  "sample.minCount": { label: "Minimum count", limit: LIMITS.arrayCount },
  "sample.maxCount": { label: "Maximum count", limit: LIMITS.arrayCount },
  options: { label: "Wire options" },
  "options.protobuf": { label: "Protobuf options" },
  "options.protobuf.number": { label: "Protobuf number", limit: LIMITS.protobufNumber },
  "options.protobuf.intEncoding": { label: "Int encoding" },
  "options.protobuf.expand": { label: "Expand as", noun: "suffixes", limit: LIMITS.arrayCount },
  "options.protobuf.expand[]": { label: (n) => `Expand suffix ${nth(n)}` },
  "options.struct": { label: "Struct options" },
  "options.struct.stringMode": { label: "Struct string mode" },
};

const LAYOUT_PROPS: Record<string, Prop> = {
  "": { label: "The layout" },
  format: { label: "Format", choice: "that is what marks a SatPayload layout file" },
  version: {
    label: "Version",
    choice: `this SatPayload Studio reads version ${LAYOUT_VERSION} layout files (a newer studio may have written this one)`,
  },
  name: { label: "Layout name", limit: LIMITS.name },
  description: { label: "Layout description", limit: LIMITS.layoutDescription },
  package: { label: "Protobuf package", limit: LIMITS.identifier },
  message: { label: "Protobuf message", limit: LIMITS.identifier },
  struct: { label: "Struct settings" },
  "struct.endianness": { label: "Byte order" },
  "struct.stringMode": { label: "Struct strings" },
  json: { label: "JSON settings" },
  "json.spacing": { label: "JSON spacing" },
  sbe: { label: "SBE settings" },
  "sbe.schemaId": { label: "SBE schema id", limit: LIMITS.sbeHeader },
  "sbe.templateId": { label: "SBE template id", limit: LIMITS.sbeHeader },
  "sbe.version": { label: "SBE version", limit: LIMITS.sbeHeader },
  protobufReserved: { label: "Reserved protobuf numbers", noun: "numbers" },
  "protobufReserved[]": { label: (n) => `Reserved protobuf number ${nth(n)}`, limit: LIMITS.protobufNumber },
  fields: { label: "Fields", owner: "The layout", noun: "fields", limit: LIMITS.fields },
  batch: { label: "Readings per message settings" },
  "batch.perReading": { label: "Per-reading fields", owner: "The batch", noun: "per-reading fields" },
  "batch.perReading[]": { label: (n) => `Per-reading field ${nth(n)}` },
  "batch.perReading[].field": { label: (n) => `Per-reading field ${nth(n)}` },
  "batch.perReading[].maxRate": { label: (n) => `Max rate of per-reading field ${nth(n)}` },
  "batch.intervalSeconds": { label: "Interval" },
  "batch.readings": { label: "Readings per message" },
  "batch.readings.kind": { label: "Readings per message" },
  "batch.readings.count": { label: "Readings per message", limit: LIMITS.arrayCount },
  "batch.readings.platform": { label: "Platform", limit: LIMITS.id },
  "batch.time": { label: "Time field" },
  "batch.keyframeEvery": { label: "Keyframe every" },
};

/** What a path inside a field (or the layout) is called, with its limit; the element type reads like its field. */
function propOf(rest: readonly PathStep[], field: Obj | null, inField: boolean): { label: string; prop: Prop } {
  const { key, positions } = pattern(rest);
  const table = inField ? FIELD_PROPS : LAYOUT_PROPS;
  const element = inField && key.startsWith("type.of.") && key !== "type.of.kind";
  const lookup = element ? `type.${key.slice("type.of.".length)}` : key;
  const prop = table[lookup] ?? table[lookup.replace(/\[\]$/, "")] ?? { label: lookup || "This setting" };
  const elementField = element && field && isObj(field.type) ? { ...field, type: field.type.of } : field;
  const base = typeof prop.label === "function" ? prop.label(positions, elementField as Obj | null) : prop.label;
  const label = element ? `Element ${base.charAt(0).toLowerCase()}${base.slice(1)}` : base;
  return { label, prop };
}

/** The label of the setting at a path of the layout document ("Count", "Name of value 2", "SBE schema id"). */
export function labelAt(root: unknown, path: string | readonly PathStep[]): string {
  const steps = typeof path === "string" ? parsePath(path) : path;
  const at = locate(root, steps);
  return propOf(at.rest, at.field, at.where !== "").label;
}

/** Where a path is, for a person: 'field "GPS › Latitude"', or "" for the layout's own settings. */
export function whereAt(root: unknown, path: string | readonly PathStep[]): string {
  return locate(root, typeof path === "string" ? parsePath(path) : path).where;
}

// ---- values in sentences ----------------------------------------------------------------------

export function showNumber(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 1e21 ? n.toLocaleString("en-US") : String(n);
}

export function showValue(v: unknown): string {
  if (typeof v === "number") return showNumber(v);
  if (typeof v === "string") {
    if (!hasVisibleCharacter(v)) return v === "" ? "empty" : `"${v}" (${codePoints(v)}, nothing visible)`;
    return JSON.stringify(shorten(v, 40, 39));
  }
  if (typeof v === "bigint") return `${v}`;
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === "object") return "an object";
  return String(v);
}

const EXPECTED: Record<string, string> = {
  number: "a number",
  int: "a whole number",
  string: "text",
  boolean: "true or false",
  array: "a list [ … ]",
  object: "an object { … }",
};

const because = (why: string | undefined) => (why ? `, because ${why}` : "");

/** "1 number", "3 numbers" */
export const count = (n: number, one: string, many = `${one}s`) => `${showNumber(n)} ${n === 1 ? one : many}`;

/** Property names the document knows, for "did you mean" on a misspelt one. */
const KNOWN_PROPERTIES = [
  ...new Set(
    [...Object.keys(FIELD_PROPS), ...Object.keys(LAYOUT_PROPS)]
      .flatMap((k) => k.replace(/\[\]/g, "").split("."))
      .concat(["mode", "endianness", "fields", "of", "each"]),
  ),
].filter(Boolean);

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const here = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = here;
    }
  }
  return row[b.length]!;
}

function suggestion(key: string): string {
  const lower = key.toLowerCase();
  const best = KNOWN_PROPERTIES.map((k) => ({ k, d: k.toLowerCase() === lower ? 0 : distance(lower, k.toLowerCase()) }))
    .filter((c) => c.d <= Math.min(2, Math.floor(key.length / 3)))
    .sort((a, b) => a.d - b.d)[0];
  return best ? `"${best.k}"` : "";
}

// ---- one zod issue in words --------------------------------------------------------------------

function sentence(issue: core.$ZodIssue, label: string, prop: Prop): string {
  const value = (issue as { input?: unknown }).input;
  const shown = showValue(value);
  switch (issue.code) {
    case "invalid_type": {
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      const received = (issue as { received?: string }).received;
      if (received === "NaN" || received === "Infinity")
        return `${label} is not a finite number; it must be ${expected}.`;
      if (value === undefined) return `${label} is missing; it must be ${expected}.`;
      return `${label} is ${shown}; it must be ${expected}.`;
    }
    case "too_big": {
      const max = Number(issue.maximum);
      const why = because(prop.limit?.why);
      if (issue.origin === "string")
        return `${label} is ${count([...String(value)].length, "character")} long; the most is ${showNumber(max)}${why}.`;
      if (issue.origin === "array") {
        const n = Array.isArray(value) ? value.length : 0;
        return `${prop.owner ?? label} has ${count(n, singular(prop.noun ?? "entries"), prop.noun ?? "entries")}; the most is ${showNumber(max)}${why}.`;
      }
      return issue.inclusive
        ? `${label} is ${shown}; the most is ${showNumber(max)}${why}.`
        : `${label} is ${shown}; it must be less than ${showNumber(max)}${why}.`;
    }
    case "too_small": {
      const min = Number(issue.minimum);
      if (issue.origin === "string") return `${label} is empty; it needs at least ${count(min, "character")}.`;
      if (issue.origin === "array")
        return `${prop.owner ?? label} has no ${prop.noun ?? "entries"}; it needs at least ${showNumber(min)}.`;
      if (!issue.inclusive)
        return `${label} is ${shown}; it must be more than ${showNumber(min)}${because(prop.positive)}.`;
      // the limit's `why` explains its most (16-bit counts); the least has its own reason, or none
      return `${label} is ${shown}; the least is ${showNumber(min)}${because(prop.limit?.whyMin)}.`;
    }
    case "invalid_value": {
      const allowed = issue.values.map((v) => showValue(v));
      if (value === undefined) return `${label} is missing; it must be ${allowed.join(" or ")}.`;
      return allowed.length === 1
        ? `${label} is ${shown}; it must be ${allowed[0]}${because(prop.choice)}.`
        : `${label} is ${shown}; allowed: ${allowed.join(", ")}${because(prop.choice)}.`;
    }
    case "invalid_union": {
      const u = issue as core.$ZodIssueInvalidUnion & { discriminator?: string; options?: unknown[] };
      if (u.discriminator !== undefined) {
        const got = isObj(value) ? value[u.discriminator] : undefined;
        const options = (u.options ?? []).map((o) => showValue(o)).join(", ");
        return got === undefined
          ? `${label} is missing its "${u.discriminator}"; allowed: ${options}.`
          : `${label} is ${showValue(got)}; allowed: ${options}.`;
      }
      return `${label} matches none of the forms it may take.`;
    }
    case "invalid_format": {
      const rule = issue.message.startsWith("Invalid") ? "has the wrong form" : issue.message;
      return `${label} ${shown} ${rule}.`;
    }
    case "unrecognized_keys": {
      const keys = issue.keys.map((k) => `"${k}"`);
      const what = keys.length === 1 ? `a property ${keys[0]}` : `properties ${keys.join(", ")}`;
      const hints = issue.keys.map(suggestion).filter(Boolean);
      const hint = hints.length ? ` (did you mean ${hints.join(", ")}?)` : "";
      return `${label} has ${what} that layout files do not have${hint}; remove ${keys.length === 1 ? "it" : "them"} or correct the name.`;
    }
    case "custom":
      return `${label} ${issue.message}.`;
    default:
      return `${label}: ${issue.message}.`;
  }
}

function singular(noun: string): string {
  return noun === "entries" ? "entry" : noun.replace(/s$/, "");
}

/** One zod issue of the layout schema as an IssueAt a person can read. */
export function humaniseZodIssue(root: unknown, issue: core.$ZodIssue): IssueAt {
  const steps = issue.path.map((p) => (typeof p === "number" ? p : String(p)));
  const at = locate(root, steps);
  const { label, prop } = propOf(at.rest, at.field, at.where !== "");
  return { path: pathText(steps), message: sentence(issue, label, prop), where: at.where };
}

export function pathText(steps: readonly PathStep[]): string {
  let out = "";
  for (const p of steps) out += typeof p === "number" ? `[${p}]` : out ? `.${p}` : p;
  return out;
}
