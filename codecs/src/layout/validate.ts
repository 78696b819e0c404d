// Turns untrusted JSON into a Layout: zod for shape, then the rules zod cannot express.
import type { ZodError } from "zod";
import { LayoutError, type IssueAt } from "../errors.ts";
import { layoutSchema, type Field, type FieldType, type Layout, type ScalarType } from "./schema.ts";

function zodPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

function fromZod(err: ZodError): IssueAt[] {
  return err.issues.map((i) => ({ path: zodPath(i.path), message: i.message }));
}

const INT_LIMITS: Record<number, { s: [number, number]; u: [number, number] }> = {
  8: { s: [-128, 127], u: [0, 255] },
  16: { s: [-32768, 32767], u: [0, 65535] },
  32: { s: [-2147483648, 2147483647], u: [0, 4294967295] },
  64: { s: [-(2 ** 63), 2 ** 63 - 1], u: [0, 2 ** 64 - 1] },
};

export function intLimits(bits: 8 | 16 | 32 | 64, signed: boolean): [number, number] {
  return INT_LIMITS[bits]![signed ? "s" : "u"];
}

function checkScalar(t: ScalarType, at: string, issues: IssueAt[]): void {
  const range = (min: number | undefined, max: number | undefined) => {
    if (min !== undefined && max !== undefined && !(max > min))
      issues.push({ path: `${at}.max`, message: "must be > min" });
  };
  switch (t.kind) {
    case "int": {
      range(t.min, t.max);
      const [lo, hi] = intLimits(t.bits, t.signed);
      if (t.min !== undefined && t.min < lo)
        issues.push({ path: `${at}.min`, message: `must be ≥ ${lo} for a ${t.signed ? "" : "u"}int${t.bits}` });
      if (t.max !== undefined && t.max > hi)
        issues.push({ path: `${at}.max`, message: `must be ≤ ${hi} for a ${t.signed ? "" : "u"}int${t.bits}` });
      break;
    }
    case "float":
      range(t.min, t.max);
      break;
    case "fixed":
      range(t.min, t.max);
      if ((t.max - t.min) / t.scale > 2 ** 53)
        issues.push({ path: `${at}.scale`, message: "is too fine for the range (more than 2^53 steps)" });
      break;
    case "timestamp":
      range(t.min, t.max);
      if (t.encoding === "text" && !t.textFormat)
        issues.push({ path: `${at}.textFormat`, message: "is required when encoding is text" });
      break;
    case "enum": {
      const names = new Set<string>();
      const values = new Set<number>();
      t.values.forEach((v, i) => {
        if (names.has(v.name)) issues.push({ path: `${at}.values[${i}].name`, message: `duplicates "${v.name}"` });
        if (values.has(v.value)) issues.push({ path: `${at}.values[${i}].value`, message: `duplicates ${v.value}` });
        names.add(v.name);
        values.add(v.value);
      });
      break;
    }
    default:
      break;
  }
}

function checkType(t: FieldType, at: string, issues: IssueAt[], ctx: Ctx): void {
  if (t.kind === "group") {
    checkFields(t.fields, `${at}.fields`, issues, ctx);
    checkReserved(t.fields, t.protobufReserved ?? [], `${at}.fields`, issues);
  } else if (t.kind === "array") {
    if (t.of.kind === "bytes" || t.of.kind === "string") {
      // allowed: arrays of short strings/bytes
    }
    checkScalar(t.of, `${at}.of`, issues);
  } else checkScalar(t, at, issues);
}

interface Ctx {
  ids: Map<string, string>;
}

function checkFields(fields: Field[], at: string, issues: IssueAt[], ctx: Ctx): void {
  const keys = new Map<string, number>();
  const numbers = new Map<number, number>();
  fields.forEach((f, i) => {
    const p = `${at}[${i}]`;
    const seenId = ctx.ids.get(f.id);
    if (seenId !== undefined) issues.push({ path: `${p}.id`, message: `duplicates the id of ${seenId}` });
    else ctx.ids.set(f.id, p);
    const k = keys.get(f.key);
    if (k !== undefined) issues.push({ path: `${p}.key`, message: `duplicates the key of ${at}[${k}] ("${f.key}")` });
    else keys.set(f.key, i);
    const n = f.options?.protobuf?.number;
    const expand = f.options?.protobuf?.expand;
    if (expand && !(f.type.kind === "array" && f.type.fixed && f.type.maxCount === expand.length))
      issues.push({
        path: `${p}.options.protobuf.expand`,
        message: "needs a fixed-count array with one suffix per element",
      });
    if (n !== undefined) {
      for (let j = 0; j < protobufWidth(f); j++) {
        const m = n + j;
        if (m >= 19000 && m <= 19999)
          issues.push({ path: `${p}.options.protobuf.number`, message: "is in protobuf's reserved range 19000–19999" });
        const other = numbers.get(m);
        if (other !== undefined)
          issues.push({
            path: `${p}.options.protobuf.number`,
            message: `duplicates the number of ${at}[${other}] (${m})`,
          });
        else numbers.set(m, i);
      }
    }
    if (f.text?.as === "string" && f.text.separator !== undefined && f.type.kind !== "array")
      issues.push({ path: `${p}.text.separator`, message: "applies only to arrays" });
    if (f.type.kind === "group" && f.text?.as === "string")
      issues.push({ path: `${p}.text`, message: "a group cannot be written as one string" });
    checkType(f.type, `${p}.type`, issues, ctx);
  });
}

/** How many protobuf field numbers a field occupies (expanded arrays take one per element). */
export function protobufWidth(f: Field): number {
  return f.options?.protobuf?.expand?.length ?? 1;
}

function checkReserved(fields: Field[], reserved: readonly number[], at: string, issues: IssueAt[]): void {
  for (const n of reserved) {
    const clash = fields.findIndex((f) => f.options?.protobuf?.number === n);
    if (clash >= 0)
      issues.push({ path: `${at}[${clash}].options.protobuf.number`, message: `reuses reserved number ${n}` });
  }
}

/** Parses and validates; throws LayoutError listing every problem with its path. */
export function parseLayout(input: unknown): Layout {
  const parsed = layoutSchema.safeParse(input);
  if (!parsed.success) throw new LayoutError(fromZod(parsed.error));
  const layout = parsed.data;
  const issues: IssueAt[] = [];
  checkFields(layout.fields, "fields", issues, { ids: new Map() });
  checkReserved(layout.fields, layout.protobufReserved, "fields", issues);
  if (issues.length) throw new LayoutError(issues);
  return assignProtobufNumbers(layout);
}

/** Validation result for editors: the layout or the list of issues, never a throw. */
export function checkLayout(input: unknown): { ok: true; layout: Layout } | { ok: false; issues: IssueAt[] } {
  try {
    return { ok: true, layout: parseLayout(input) };
  } catch (e) {
    if (e instanceof LayoutError) return { ok: false, issues: e.issues };
    throw e;
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
    const free = (n: number) => !used.has(n) && !reserved.has(n) && !(n >= 19000 && n <= 19999);
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
