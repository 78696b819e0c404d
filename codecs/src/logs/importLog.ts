// A user's own log of readings (CSV with a header, or JSON Lines) read into typed records of a layout,
// so sizes, batches and benches can run on real data instead of generated samples (issue #27). Every
// line is checked field by field with the same rules as any record (fromPlain): each bad value is a
// problem naming its line and field, a line with a problem gives no record, and nothing is skipped
// without saying so (only blank lines, which hold nothing).
import { parseCsv } from "./csv.ts";
import { parseIsoTime } from "./isoTime.ts";
import { RecordError } from "../errors.ts";
import type { Field, Layout } from "../layout/schema.ts";
import type { PlainRecord, PlainValue, TypedRecord } from "../layout/values.ts";
import { parseJsonLenient } from "../text/jsonLenient.ts";
import { fromPlain, type PlainMode } from "../text/plain.ts";

export type LogFormat = "csv" | "jsonl";

export interface LogProblem {
  /** 1-based line of the file */
  line: number;
  /** the column or key ("gps.lat", "acc[2]"), "" when the problem is the line itself */
  field: string;
  message: string;
}

export interface ImportedLog {
  format: LogFormat;
  /** one per good line, in file order; a line with any problem gives none */
  records: TypedRecord[];
  /** the 1-based line of each record */
  lines: number[];
  /** the first MAX_LISTED problems; the import is usable only when there are none */
  problems: LogProblem[];
  /** problems found beyond those listed */
  problemsNotListed: number;
}

export const MAX_LISTED = 200;

/** "line 7, lat: "4x.2" is not a number" */
export function describeLogProblem(p: LogProblem): string {
  return `line ${p.line}${p.field ? `, ${p.field}` : ""}: ${p.message}`;
}

/** JSON Lines when the first thing in the text is an object; otherwise CSV. */
export function detectLogFormat(text: string): LogFormat {
  return /^\uFEFF?\s*\{/.test(text) ? "jsonl" : "csv";
}

class Problems {
  readonly listed: LogProblem[] = [];
  notListed = 0;
  add(line: number, field: string, message: string): void {
    if (this.listed.length < MAX_LISTED) this.listed.push({ line, field, message });
    else this.notListed++;
  }
}

/**
 * Reads a log of readings for `layout`. CSV: a header of field keys (a group's fields as "gps.lat",
 * an array's elements as "acc[0]", "acc[1]"… or the whole array in one cell as [1,2,3] or in its text
 * form), an empty cell for a value the line does not have. JSON Lines: one record a line, as a device
 * writes it (the CLI's --records form). Epoch timestamps may also be written as ISO 8601 date-times
 * with a zone ("2010-08-05T14:23:59Z").
 */
export function importLog(layout: Layout, text: string, format: LogFormat = detectLogFormat(text)): ImportedLog {
  const problems = new Problems();
  const records: TypedRecord[] = [];
  const lines: number[] = [];
  const take = (line: number, obj: PlainRecord, mode: PlainMode) => {
    const rec = checkRecord(layout, obj, mode, (field, message) => problems.add(line, field, message));
    if (rec) {
      records.push(rec);
      lines.push(line);
    }
  };
  if (format === "jsonl") readJsonl(text, problems, take);
  else readCsv(layout, text, problems, take);
  if (records.length === 0 && problems.listed.length === 0) problems.add(1, "", "the log holds no readings");
  return { format, records, lines, problems: problems.listed, problemsNotListed: problems.notListed };
}

type Take = (line: number, obj: PlainRecord, mode: PlainMode) => void;

function readJsonl(text: string, problems: Problems, take: Take): void {
  text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .forEach((raw, i) => {
      if (raw.trim() === "") return;
      let obj: unknown;
      try {
        obj = parseJsonLenient(raw);
      } catch (e) {
        problems.add(i + 1, "", `is not JSON (${(e as Error).message})`);
        return;
      }
      if (typeof obj !== "object" || obj === null || Array.isArray(obj))
        problems.add(i + 1, "", 'is not a JSON object ({"key": value, …})');
      else take(i + 1, obj as PlainRecord, "json");
    });
}

/** Where a CSV column's cell goes in the record: a leaf, or one element of an array. */
interface Column {
  path: string[];
  field: Field;
  element?: number;
}

function columnsOf(fields: readonly Field[], prefix: string[], out: Map<string, Column>): void {
  for (const f of fields) {
    const path = [...prefix, f.key];
    if (f.type.kind === "group") columnsOf(f.type.fields, path, out);
    else {
      out.set(path.join("."), { path, field: f });
      if (f.type.kind === "array")
        for (let i = 0; i < f.type.maxCount; i++) out.set(`${path.join(".")}[${i}]`, { path, field: f, element: i });
    }
  }
}

function readCsv(layout: Layout, text: string, problems: Problems, take: Take): void {
  const csv = parseCsv(text);
  const [header, ...rows] = csv.rows;
  if (!header) return;
  const known = new Map<string, Column>();
  columnsOf(layout.fields, [], known);
  const columns: (Column | undefined)[] = [];
  const seen = new Map<string, number>();
  let headerOk = true;
  header.cells.forEach((name, i) => {
    const key = name.trim();
    const col = known.get(key);
    if (!col) {
      headerOk = false;
      const keys = [...known.keys()].filter((k) => !k.endsWith("]")).join(", ");
      problems.add(header.line, key, `column ${i + 1} "${key}" is not a field of the layout (its fields: ${keys})`);
    } else if (seen.has(key)) {
      headerOk = false;
      problems.add(header.line, key, `column ${i + 1} repeats column ${seen.get(key)! + 1}`);
    }
    seen.set(key, i);
    columns.push(col);
  });
  // a header that names something the layout does not have would drop that column's data: read nothing
  if (!headerOk) return;
  for (const row of rows) {
    if (row.cells.length !== columns.length) {
      problems.add(row.line, "", `has ${row.cells.length} cells; the header names ${columns.length} columns`);
      continue;
    }
    const obj = rowRecord(columns, row.cells, (field, message) => problems.add(row.line, field, message));
    if (obj) take(row.line, obj, "binary");
  }
  if (csv.unterminatedAt !== undefined)
    problems.add(csv.unterminatedAt, "", 'opens a quoted cell (") that is never closed');
}

function rowRecord(
  columns: readonly (Column | undefined)[],
  cells: readonly string[],
  problem: (field: string, message: string) => void,
): PlainRecord | undefined {
  const obj: PlainRecord = {};
  const elements = new Map<Field, { path: string[]; items: (string | undefined)[] }>();
  const whole = new Set<Field>();
  let ok = true;
  columns.forEach((col, i) => {
    const cell = cells[i]!;
    if (!col || cell === "") return;
    if (col.element !== undefined) {
      const arr = elements.get(col.field) ?? { path: col.path, items: [] };
      arr.items[col.element] = cell;
      elements.set(col.field, arr);
      return;
    }
    const v = col.field.type.kind === "array" ? arrayCell(col.field, cell) : cell;
    if (v === undefined) {
      ok = false;
      problem(
        col.path.join("."),
        `"${cell}" is not an array: write it as [1,2,3] or one column per element (${col.path.join(".")}[0], …)`,
      );
    } else {
      whole.add(col.field);
      setAt(obj, col.path, v);
    }
  });
  for (const [field, { path, items }] of elements) {
    if (whole.has(field)) {
      ok = false;
      problem(path.join("."), "is given both whole and element by element");
      continue;
    }
    const gap = Array.from(items, (x) => x === undefined).indexOf(true);
    if (gap >= 0) {
      ok = false;
      problem(`${path.join(".")}[${gap}]`, "is empty while a later element has a value");
      continue;
    }
    setAt(obj, path, items as string[]);
  }
  return ok ? obj : undefined;
}

/** A whole array in one cell: its text form when the field declares a separator, else a JSON array. */
function arrayCell(f: Field, cell: string): PlainValue | undefined {
  if (f.text?.as === "string" && f.text.separator !== undefined) return cell;
  if (!cell.trim().startsWith("[")) return undefined;
  try {
    const v = parseJsonLenient(cell);
    return Array.isArray(v) ? (v as PlainValue[]) : undefined;
  } catch {
    return undefined;
  }
}

function setAt(obj: PlainRecord, path: readonly string[], v: PlainValue): void {
  let at = obj;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    if (next && typeof next === "object" && !Array.isArray(next) && !(next instanceof Uint8Array))
      at = next as PlainRecord;
    else at = at[key] = {};
  }
  at[path[path.length - 1]!] = v;
}

/**
 * The record, checked one top-level field at a time so that every bad field of a line is named (not
 * only the first); undefined when any is bad.
 */
function checkRecord(
  layout: Layout,
  obj: PlainRecord,
  mode: PlainMode,
  problem: (field: string, message: string) => void,
): TypedRecord | undefined {
  const out: TypedRecord = {};
  let ok = true;
  const keys = new Set(layout.fields.map((f) => f.key));
  for (const k of Object.keys(obj))
    if (!keys.has(k)) {
      ok = false;
      problem(k, "is not a field of the layout");
    }
  for (const f of layout.fields) {
    const v = isoTimes(f, obj[f.key], [f.key], problem);
    if (v === null) {
      ok = false;
      continue;
    }
    try {
      const rec = fromPlain({ ...layout, fields: [f] }, v === undefined ? {} : { [f.key]: v }, mode);
      if (rec[f.key] !== undefined) out[f.key] = rec[f.key]!;
    } catch (e) {
      if (!(e instanceof RecordError)) throw e;
      ok = false;
      problem(e.path, e.message.slice(e.path.length + 2));
    }
  }
  return ok ? out : undefined;
}

/**
 * The value with ISO 8601 date-times of epoch timestamp fields (in groups too) turned into epoch
 * seconds; null after a problem (a date-time without a zone, or not of the calendar).
 */
function isoTimes(
  f: Field,
  v: PlainValue | undefined,
  path: readonly string[],
  problem: (field: string, message: string) => void,
): PlainValue | undefined | null {
  const t = f.type;
  if (t.kind === "group" && v && typeof v === "object" && !Array.isArray(v) && !(v instanceof Uint8Array)) {
    const out: PlainRecord = { ...(v as PlainRecord) };
    let ok = true;
    for (const g of t.fields) {
      const x = isoTimes(g, out[g.key], [...path, g.key], problem);
      if (x === null) ok = false;
      else if (x !== undefined) out[g.key] = x;
    }
    return ok ? out : null;
  }
  if (t.kind !== "timestamp" || t.encoding !== "epoch" || typeof v !== "string") return v;
  const iso = parseIsoTime(v);
  if (iso === undefined) return v;
  if (iso.ok) return iso.seconds;
  problem(path.join("."), iso.reason);
  return null;
}
