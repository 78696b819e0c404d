// Samples drawn column by column: each field's values depend only on that field and the seed (generateSamples
// seeds every top-level field from its own id), so after an edit only the edited field's column is redrawn.
import type { Field, Layout } from "../layout/schema.ts";
import type { FieldValue, TypedRecord } from "../layout/values.ts";
import { generateColumn } from "../samples/generate.ts";

export type Values = (FieldValue | undefined)[];

/** One top-level field's values over all samples; `sig` names everything that decided them (and how they encode). */
export interface SampleColumn {
  field: Field;
  sig: string;
  values: Values;
}

export class SampleColumns {
  /** by valuesSignature */
  private columns = new Map<string, Values>();
  private n = -1;
  private seed = 0;
  private unsigned = 0;

  /** The layout's columns, equal field by field to generateSamples(layout, n, seed); `drawn` counts the redrawn ones. */
  columnsOf(layout: Layout, n: number, seed: number): { columns: SampleColumn[]; drawn: number } {
    if (n !== this.n || seed !== this.seed) {
      this.columns.clear();
      this.n = n;
      this.seed = seed;
    }
    const next = new Map<string, Values>();
    const columns: SampleColumn[] = [];
    let drawn = 0;
    for (const f of layout.fields) {
      const { sig: known, drawnBy } = signaturesOf(f);
      let values = drawnBy === null ? undefined : (this.columns.get(drawnBy) ?? next.get(drawnBy));
      if (!values) {
        values = generateColumn(f, n, seed);
        drawn++;
      }
      // a field that cannot be written down gets a name of its own, so nothing else reuses its values
      const sig = known ?? `#unsigned${this.unsigned++}`;
      if (drawnBy !== null) next.set(drawnBy, values);
      columns.push({ field: f, sig, values });
    }
    // columns of deleted or edited fields are dropped; the map only ever holds the current layout's
    this.columns = next;
    return { columns, drawn };
  }

  /** Records equal to generateSamples(layout, n, seed). */
  records(layout: Layout, n: number, seed: number): { records: TypedRecord[]; drawn: number } {
    const { columns, drawn } = this.columnsOf(layout, n, seed);
    const records: TypedRecord[] = new Array(n);
    for (let i = 0; i < n; i++) records[i] = recordAt(columns, i);
    return { records, drawn };
  }
}

/** Sample i as a record, keys in layout order. */
export function recordAt(columns: readonly SampleColumn[], i: number): TypedRecord {
  const rec: TypedRecord = {};
  for (const c of columns) {
    const v = c.values[i];
    if (v !== undefined) rec[c.field.key] = v;
  }
  return rec;
}

/**
 * A field's signatures, written once per field object (fields are immutable values; an edit replaces the object):
 * a 500-field layout was 3 ms of JSON.stringify for every edit.
 */
const signatures = new WeakMap<Field, { sig: string | null; drawnBy: string | null }>();

function signaturesOf(f: Field): { sig: string | null; drawnBy: string | null } {
  let s = signatures.get(f);
  if (!s) {
    const sig = signature(f);
    signatures.set(f, (s = { sig, drawnBy: sig === null ? null : valuesSignature(f) }));
  }
  return s;
}

/** Everything that decides a field's values and bytes; null when it cannot be written down (then it is always redrawn). */
function signature(f: Field): string | null {
  try {
    return JSON.stringify(f);
  } catch {
    return null;
  }
}

/**
 * What decides a top-level field's values: its id, presence, type and sample model (samples/generate.ts draws
 * from nothing else; the key only names the values in the record, recordAt). A rename, a unit, a protobuf
 * number or a text representation keeps the column's values, so only the bytes that depend on them change.
 * Called only for fields `signature` could write down.
 */
function valuesSignature(f: Field): string {
  return JSON.stringify({ id: f.id, presence: f.presence, type: f.type, sample: f.sample });
}
