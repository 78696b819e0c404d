// Turns untrusted JSON into a Layout: zod for shape, then the rules zod cannot express. Every problem is
// told in words (messages.ts): the setting, what is wrong, what is allowed, and the field it is in.
import { checkBatch } from "./batchRules.ts";
import { LayoutError, type IssueAt } from "../errors.ts";
import { LIMITS, PROTOBUF_RESERVED_RANGE } from "./limits.ts";
import { humaniseZodIssue, labelAt, showNumber, showValue, whereAt } from "./messages.ts";
import { checkSampleValues } from "./sampleRules.ts";
import { layoutSchema, type Field, type FieldType, type Layout, type ScalarType } from "./schema.ts";
import { codePoints, hasVisibleCharacter } from "../text/visible.ts";

const INT_LIMITS: Record<number, { s: [number, number]; u: [number, number] }> = {
  8: { s: [-128, 127], u: [0, 255] },
  16: { s: [-32768, 32767], u: [0, 65535] },
  32: { s: [-2147483648, 2147483647], u: [0, 4294967295] },
  64: { s: [-(2 ** 63), 2 ** 63 - 1], u: [0, 2 ** 64 - 1] },
};

export function intLimits(bits: 8 | 16 | 32 | 64, signed: boolean): [number, number] {
  return INT_LIMITS[bits]![signed ? "s" : "u"];
}

const [RESERVED_LO, RESERVED_HI] = PROTOBUF_RESERVED_RANGE;
const MAX_PROTOBUF_NUMBER = LIMITS.protobufNumber.max;
const inProtobufRange = (n: number) => n >= RESERVED_LO && n <= RESERVED_HI;

/** Collects the rule violations of one parsed layout; labels and field names come from the layout itself. */
class Rules {
  readonly issues: IssueAt[] = [];
  constructor(readonly layout: Layout) {}

  label(path: string): string {
    return labelAt(this.layout, path);
  }
  where(path: string): string {
    return whereAt(this.layout, path);
  }
  /** 'field "A" and field "B"'; two fields of the same name are told apart by their positions */
  both(first: string, second: string): string {
    const [a, b] = [this.where(first), this.where(second)];
    if (a !== b) return `${a} and ${b}`;
    const position = (p: string) => Number(/\[(\d+)\]$/.exec(p)?.[1] ?? 0) + 1;
    return `${a} (#${position(first)}) and ${b} (#${position(second)})`;
  }
  add(path: string, message: string, related?: string): void {
    this.issues.push({ path, message, where: this.where(path), ...(related ? { related } : {}) });
  }
}

const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** The range of a 64-bit integer as it is; intLimits' doubles round its ends (9,223,372,036,854,776,000). */
function exact64(signed: boolean): string {
  const [lo, hi] = signed ? [-(1n << 63n), (1n << 63n) - 1n] : [0n, (1n << 64n) - 1n];
  return `${lo.toLocaleString("en-US")} … ${hi.toLocaleString("en-US")}`;
}

/** Names and keys label rows, headers and exports: spaces or zero-width characters alone show nothing. */
function mustShow(text: string, path: string, r: Rules): void {
  if (hasVisibleCharacter(text)) return;
  const label = r.label(path);
  r.add(
    path,
    text === ""
      ? `${label} is empty; it needs at least one visible character.`
      : `${label} holds only invisible characters (${codePoints(text)}); it needs at least one visible character.`,
  );
}

function checkScalar(t: ScalarType, at: string, r: Rules): void {
  const range = (min: number | undefined, max: number | undefined) => {
    if (min !== undefined && max !== undefined && !(max > min))
      r.add(
        `${at}.max`,
        `${r.label(`${at}.max`)} is ${showNumber(max)}; it must be greater than the ${lower(r.label(`${at}.min`))} (${showNumber(min)}).`,
      );
  };
  switch (t.kind) {
    case "int": {
      range(t.min, t.max);
      const [lo, hi] = intLimits(t.bits, t.signed);
      // the limits are written only for a problem: formatting them for every int field was most of a check's time
      const name = () => `${t.signed ? "an" : "a"} ${t.signed ? "" : "u"}int${t.bits}`;
      const holds = () =>
        `${name()} holds ${t.bits === 64 ? exact64(t.signed) : `${showNumber(lo)} … ${showNumber(hi)}`}`;
      for (const [prop, v, outside] of [
        ["min", t.min, (x: number) => x < lo],
        ["max", t.max, (x: number) => x > hi],
      ] as const) {
        if (v === undefined) continue;
        // a fraction would also reach BigInt() in the 64-bit range checks, which throws
        if (!Number.isInteger(v))
          r.add(
            `${at}.${prop}`,
            `${r.label(`${at}.${prop}`)} is ${showNumber(v)}; ${name()} holds whole numbers, so its bounds are whole numbers too.`,
          );
        else if (outside(v)) r.add(`${at}.${prop}`, `${r.label(`${at}.${prop}`)} is ${showNumber(v)}; ${holds()}.`);
      }
      break;
    }
    case "float":
      range(t.min, t.max);
      break;
    case "fixed":
      range(t.min, t.max);
      if ((t.max - t.min) / t.scale > 2 ** 53)
        r.add(
          `${at}.scale`,
          `${r.label(`${at}.scale`)} ${t.scale} is too fine for the range ${showNumber(t.min)} … ${showNumber(t.max)}: that is more than 2^53 steps, which no number holds exactly. Use a coarser scale or a narrower range.`,
        );
      break;
    case "timestamp":
      range(t.min, t.max);
      if (t.encoding === "text" && !t.textFormat)
        r.add(
          `${at}.textFormat`,
          `${r.label(`${at}.textFormat`)} is missing; a timestamp written as text needs one, e.g. "YYYY-MM-DD hh:mm:ss".`,
        );
      break;
    case "enum": {
      // names and numbers alike: the later of two equal ones is told which value has it first
      t.values.forEach((v, i) => mustShow(v.name, `${at}.values[${i}].name`, r));
      const unique = (prop: "name" | "value", word: string) => {
        const first = new Map<string | number, number>();
        t.values.forEach((v, i) => {
          const seen = first.get(v[prop]);
          if (seen === undefined) first.set(v[prop], i);
          else
            r.add(
              `${at}.values[${i}].${prop}`,
              `${word === "name" ? "Name" : "Number"} of value ${i + 1} (${showValue(v[prop])}) is also the ${word} of value ${seen + 1}; every value needs its own ${word}.`,
            );
        });
      };
      unique("name", "name");
      unique("value", "number");
      break;
    }
    default:
      break;
  }
}

function checkType(t: FieldType, at: string, r: Rules, ids: Map<string, string>): void {
  if (t.kind === "group") {
    checkFields(t.fields, `${at}.fields`, r, ids);
    checkReserved(t.fields, t.protobufReserved ?? [], `${at}.fields`, r);
  } else if (t.kind === "array") checkScalar(t.of, `${at}.of`, r);
  else checkScalar(t, at, r);
}

function expandProblem(f: Field, suffixes: number): string | null {
  if (f.type.kind !== "array") return `this field is ${article(f.type.kind)}, not an array`;
  if (!f.type.fixed) return "this array has no fixed count (tick Fixed count)";
  if (f.type.maxCount !== suffixes)
    return `this array has ${showNumber(f.type.maxCount)} elements and ${showNumber(suffixes)} suffixes`;
  return null;
}

const article = (kind: string) => `${/^[aeiou]/.test(kind) ? "an" : "a"} ${kind}`;

function checkFields(fields: Field[], at: string, r: Rules, ids: Map<string, string>): void {
  const keys = new Map<string, number>();
  const numbers = new Map<number, number>();
  fields.forEach((f, i) => {
    const p = `${at}[${i}]`;
    mustShow(f.name, `${p}.name`, r);
    mustShow(f.key, `${p}.key`, r);
    const seenId = ids.get(f.id);
    if (seenId !== undefined)
      r.add(
        `${p}.id`,
        `Id ${showValue(f.id)} is used by both ${r.both(seenId, p)}; every field needs its own id.`,
        seenId,
      );
    else ids.set(f.id, p);
    const k = keys.get(f.key);
    if (k !== undefined)
      r.add(
        `${p}.key`,
        `Key ${showValue(f.key)} is used by both ${r.both(`${at}[${k}]`, p)}; the fields of one message need different keys, because the key names the value on the wire.`,
        `${at}[${k}]`,
      );
    else keys.set(f.key, i);
    const n = f.options?.protobuf?.number;
    const expand = f.options?.protobuf?.expand;
    const wrongExpand = expand ? expandProblem(f, expand.length) : null;
    if (wrongExpand)
      r.add(
        `${p}.options.protobuf.expand`,
        `Expand as needs a fixed-count array with exactly one suffix per element; ${wrongExpand}.`,
      );
    if (n !== undefined) {
      const width = protobufWidth(f);
      for (let j = 0; j < width; j++) {
        const m = n + j;
        const element = j > 0 ? ` (element ${j + 1} of the expanded array takes ${showNumber(m)})` : "";
        // the schema bounds the first number; an expansion's later ones must fit too
        if (m > MAX_PROTOBUF_NUMBER) {
          r.add(
            `${p}.options.protobuf.number`,
            `Protobuf number ${showNumber(n)}${element} is past ${showNumber(MAX_PROTOBUF_NUMBER)}, the largest protobuf field number; choose a number of at most ${showNumber(MAX_PROTOBUF_NUMBER - width + 1)}.`,
          );
          break;
        }
        if (inProtobufRange(m))
          r.add(
            `${p}.options.protobuf.number`,
            `Protobuf number ${showNumber(n)}${element} lies in ${showNumber(RESERVED_LO)} … ${showNumber(RESERVED_HI)}, which protobuf reserves for itself; choose another number.`,
          );
        const other = numbers.get(m);
        if (other !== undefined)
          r.add(
            `${p}.options.protobuf.number`,
            `Protobuf number ${showNumber(m)} is used by both ${r.both(`${at}[${other}]`, p)}; the fields of one message need different numbers.`,
            `${at}[${other}]`,
          );
        else numbers.set(m, i);
      }
    }
    if (f.text?.as === "string" && f.text.separator !== undefined && f.type.kind !== "array")
      r.add(
        `${p}.text.separator`,
        `Separator joins the elements of an array, and this field is ${article(f.type.kind)}; clear it or make the field an array.`,
      );
    if (f.type.kind === "group" && f.text?.as === "string")
      r.add(
        `${p}.text`,
        `Written as "string" cannot apply to a group: a group holds several values, each written on its own.`,
      );
    checkSampleValues(f, `${p}.sample`, r);
    checkType(f.type, `${p}.type`, r, ids);
  });
}

/** How many protobuf field numbers a field occupies (expanded arrays take one per element). */
export function protobufWidth(f: Field): number {
  return f.options?.protobuf?.expand?.length ?? 1;
}

function checkReserved(fields: Field[], reserved: readonly number[], at: string, r: Rules): void {
  for (const n of reserved) {
    // an expanded array takes its number and the next ones, one per element
    const element = (f: Field) => n - (f.options?.protobuf?.number ?? Number.NaN);
    const clash = fields.findIndex((f) => element(f) >= 0 && element(f) < protobufWidth(f));
    if (clash < 0) continue;
    const j = element(fields[clash]!);
    r.add(
      `${at}[${clash}].options.protobuf.number`,
      `Protobuf number ${showNumber(n)}${j > 0 ? ` (element ${j + 1} of the expanded array)` : ""} is reserved: a field deleted from this message had it, and a device still sending it would be misread. Choose another number.`,
    );
  }
}

/**
 * The document's shape only (types, kinds, limits, unknown properties), with defaults filled; the rules
 * below are not checked. For a project saved before a rule existed: it opens with the rule's problems marked.
 */
export function parseLayoutShape(input: unknown): Layout {
  const parsed = layoutSchema.safeParse(input, { reportInput: true });
  if (!parsed.success) throw new LayoutError(parsed.error.issues.map((i) => humaniseZodIssue(input, i)));
  return parsed.data;
}

type Parsed = WeakMap<object, Field>;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * parseLayoutShape, re-parsing only the top-level fields `parsed` does not hold (by object): a field parses the
 * same wherever it stands (no rule of the shape looks across fields), so an unchanged field object keeps its
 * parsed value, and its identity. Any problem is found again by a whole parse, so every message is worded
 * exactly as parseLayoutShape words it.
 */
function parseShapeReusing(input: unknown, parsed: Parsed): Layout {
  const fields = isObject(input) && Array.isArray(input.fields) ? (input.fields as unknown[]) : null;
  if (fields && fields.length <= LIMITS.fields.max) {
    const known = fields.map((f) => (isObject(f) ? parsed.get(f) : undefined));
    const fresh = fields.filter((_, i) => known[i] === undefined);
    const rest = layoutSchema.safeParse({ ...(input as Record<string, unknown>), fields: fresh });
    if (rest.success) {
      let k = 0;
      const all = fields.map((f, i) => known[i] ?? remember(parsed, f, rest.data.fields[k++]!));
      return { ...rest.data, fields: all };
    }
  }
  const layout = parseLayoutShape(input);
  fields?.forEach((f, i) => remember(parsed, f, layout.fields[i]!));
  return layout;
}

function remember(parsed: Parsed, input: unknown, field: Field): Field {
  if (isObject(input)) parsed.set(input, field);
  return field;
}

/** Parses and validates; throws LayoutError listing every problem, in words, with its path. */
export function parseLayout(input: unknown): Layout {
  return checkRules(parseLayoutShape(input));
}

function checkRules(layout: Layout): Layout {
  const rules = new Rules(layout);
  mustShow(layout.name, "name", rules);
  checkFields(layout.fields, "fields", rules, new Map());
  checkReserved(layout.fields, layout.protobufReserved, "fields", rules);
  if (layout.batch) checkBatch(layout, layout.batch, rules);
  if (rules.issues.length) throw new LayoutError(rules.issues);
  return assignProtobufNumbers(layout);
}

export type LayoutCheck = { ok: true; layout: Layout } | { ok: false; issues: IssueAt[] };

function asCheck(parse: () => Layout): LayoutCheck {
  try {
    return { ok: true, layout: parse() };
  } catch (e) {
    if (e instanceof LayoutError) return { ok: false, issues: e.issues };
    throw e;
  }
}

/** Validation result for editors: the layout or the list of issues, never a throw. */
export function checkLayout(input: unknown): LayoutCheck {
  return asCheck(() => parseLayout(input));
}

/**
 * checkLayout for an editor that checks one draft after another, each a copy of the last with a few fields
 * replaced: the shape of an unchanged field object is not parsed again, and its parsed value keeps its identity
 * (later stages cache on it). The drafts must be immutable values; the rules across fields run every time.
 */
export class LayoutChecker {
  private readonly parsed: Parsed = new WeakMap();

  check(input: unknown): LayoutCheck {
    return asCheck(() => checkRules(parseShapeReusing(input, this.parsed)));
  }
}

/**
 * Gives every field without a protobuf number the next free one (per message level), never a
 * reserved one. A file written without numbers is numbered by position, as it always was; the
 * designer then keeps those numbers in the draft (see protobufNumbers.ts) so moves never renumber.
 */
export function assignProtobufNumbers(layout: Layout): Layout {
  const assign = (fields: Field[], reserved: ReadonlySet<number>): Field[] => {
    const used = new Set<number>();
    for (const f of fields) {
      const n = f.options?.protobuf?.number;
      if (n !== undefined) for (let j = 0; j < protobufWidth(f); j++) used.add(n + j);
    }
    const free = (n: number) => !used.has(n) && !reserved.has(n) && !inProtobufRange(n);
    let next = 1;
    return fields.map((f) => {
      const type: FieldType =
        f.type.kind === "group"
          ? { ...f.type, fields: assign(f.type.fields, new Set(f.type.protobufReserved)) }
          : f.type;
      if (f.options?.protobuf?.number !== undefined) return type === f.type ? f : { ...f, type };
      const width = protobufWidth(f);
      const fits = (n: number) => Array.from({ length: width }, (_, j) => n + j).every(free);
      while (!fits(next)) next++;
      for (let j = 0; j < width; j++) used.add(next + j);
      return { ...f, type, options: { ...f.options, protobuf: { ...f.options?.protobuf, number: next } } };
    });
  };
  return { ...layout, fields: assign(layout.fields, new Set(layout.protobufReserved)) };
}
