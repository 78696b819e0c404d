// Size-only walk of the self-describing formats: key bytes from the compiled plan, each value measured through the
// format's own sink (the very calls encode() makes) without assembling the message, and the map head and separators
// from the present-field count.
import { EncodeError, RecordError } from "../../errors.ts";
import type { FieldValue, PlainValue, TypedRecord } from "../../layout/values.ts";
import { fieldValueToPlain, type PlainMode } from "../../text/plain.ts";
import type { FieldSizer } from "../sizer.ts";
import { encodeRecord, type PlanEntry, type Sink } from "./plan.ts";

type Values = readonly (FieldValue | undefined)[];

/** the value's text representation could not be made; encode() refuses the record */
const REFUSED: unique symbol = Symbol("refused");
type Plain = PlainValue | typeof REFUSED | undefined;

/**
 * Plain values per sample column and mode: JSON, CBOR, MessagePack and PSON size the same column, and
 * three of them in the same (binary) mode. Columns are immutable and named by their field's whole
 * definition (SampleColumns), so the column array is the key.
 */
const plainColumns = new WeakMap<Values, Map<PlainMode, Plain[]>>();

function plainColumn(values: Values, mode: PlainMode): Plain[] {
  let m = plainColumns.get(values);
  if (!m) plainColumns.set(values, (m = new Map()));
  let col = m.get(mode);
  if (!col) m.set(mode, (col = new Array<Plain>(values.length)));
  return col;
}

export function selfDescribingSizer(entries: PlanEntry[], sink: Sink, mode: PlainMode): FieldSizer {
  const out = sink.out;
  const measure = (write: () => void): number => {
    out.reset();
    write();
    return out.pos;
  };
  const close = measure(() => sink.mapClose());
  // entrySeparator(0) writes nothing before the first entry, entrySeparator(i > 0) the same bytes every time
  const separator = measure(() => sink.entrySeparator(1));
  const heads = new Map<number, number>();
  const head = (count: number): number => {
    let h = heads.get(count);
    if (h === undefined) heads.set(count, (h = measure(() => sink.mapOpen(count))));
    return h;
  };
  return {
    keys: entries.map((e) => e.key),
    field(rec: TypedRecord, i: number): number {
      const e = entries[i]!;
      const v = rec[e.key];
      if (v === undefined) return 0;
      if (e.children) {
        if (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof Uint8Array)
          throw new EncodeError("expected a group record", sink.format, e.path);
        return e.keyBytes.length + encodeRecord(e.children, v as TypedRecord, sink, mode).length;
      }
      out.reset();
      try {
        sink.value(fieldValueToPlain(e.field, v, mode), e.hint, e.path);
      } catch (err) {
        // the same rule as the encoder's walk: a value the field's text form refuses is bad input; any other exception is a bug
        if (err instanceof RecordError) throw new EncodeError(err.message, sink.format, e.path);
        throw err;
      }
      return e.keyBytes.length + out.pos;
    },
    total: (sum, present) => head(present) + close + (present > 1 ? (present - 1) * separator : 0) + sum,
    column(values, i, from, to, result) {
      const e = entries[i]!;
      const holder: TypedRecord = {};
      if (e.children) {
        // groups: through the record path (their members' values are not columns of their own)
        for (let s = from; s < to; s++) {
          const v = values[s];
          if (v === undefined) delete holder[e.key];
          else holder[e.key] = v;
          try {
            result[s] = this.field(holder, i);
          } catch (err) {
            if (!(err instanceof EncodeError)) throw err;
            result[s] = -1;
          }
        }
        return;
      }
      const plain = plainColumn(values, mode);
      const keyBytes = e.keyBytes.length;
      for (let s = from; s < to; s++) {
        const v = values[s];
        if (v === undefined) {
          result[s] = 0;
          continue;
        }
        let p = plain[s];
        if (p === undefined) {
          try {
            p = fieldValueToPlain(e.field, v, mode);
          } catch (err) {
            if (!(err instanceof RecordError)) throw err;
            p = REFUSED;
          }
          plain[s] = p;
        }
        if (p === REFUSED) {
          result[s] = -1;
          continue;
        }
        out.reset();
        try {
          sink.value(p, e.hint, e.path);
        } catch (err) {
          if (!(err instanceof EncodeError || err instanceof RecordError)) throw err;
          result[s] = -1;
          continue;
        }
        result[s] = keyBytes + out.pos;
      }
    },
  };
}
