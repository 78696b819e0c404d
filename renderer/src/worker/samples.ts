// Samples drawn column by column: each field's values depend only on that field and the seed (generateSamples
// seeds every top-level field from its own id), so after an edit only the edited field's column is redrawn.
import type { Field, Layout } from "../../../codecs/src/layout/schema.ts";
import type { FieldValue, TypedRecord } from "../../../codecs/src/layout/values.ts";
import { generateSamples } from "../../../codecs/src/samples/generate.ts";

type Column = (FieldValue | undefined)[];

export class SampleColumns {
  private columns = new Map<string, Column>();
  private n = -1;
  private seed = 0;

  /** Records equal to generateSamples(layout, n, seed); `drawn` counts the fields whose values had to be drawn. */
  records(layout: Layout, n: number, seed: number): { records: TypedRecord[]; drawn: number } {
    if (n !== this.n || seed !== this.seed) {
      this.columns.clear();
      this.n = n;
      this.seed = seed;
    }
    const next = new Map<string, Column>();
    const cols: Column[] = [];
    let drawn = 0;
    for (const f of layout.fields) {
      const sig = signature(f);
      let col = sig === null ? undefined : (this.columns.get(sig) ?? next.get(sig));
      if (!col) {
        col = draw(layout, f, n, seed);
        drawn++;
      }
      if (sig !== null) next.set(sig, col);
      cols.push(col);
    }
    // columns of deleted or edited fields are dropped; the map only ever holds the current layout's
    this.columns = next;
    const keys = layout.fields.map((f) => f.key);
    const records: TypedRecord[] = new Array(n);
    for (let i = 0; i < n; i++) {
      const rec: TypedRecord = {};
      for (let k = 0; k < keys.length; k++) {
        const v = cols[k]![i];
        if (v !== undefined) rec[keys[k]!] = v;
      }
      records[i] = rec;
    }
    return { records, drawn };
  }
}

/** Everything that decides a field's values; null when it cannot be written down (then it is always redrawn). */
function signature(f: Field): string | null {
  try {
    return JSON.stringify(f);
  } catch {
    return null;
  }
}

function draw(layout: Layout, f: Field, n: number, seed: number): Column {
  const one = generateSamples({ ...layout, fields: [f] }, n, seed);
  const col: Column = new Array(n);
  for (let i = 0; i < n; i++) col[i] = one[i]![f.key];
  return col;
}
