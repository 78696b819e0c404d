// Size-only walk of the self-describing formats: key bytes from the compiled plan, each value measured through the
// format's own sink (the very calls encode() makes) without assembling the message, and the map head and separators
// from the present-field count.
import { EncodeError } from "../../errors.ts";
import type { TypedRecord } from "../../layout/values.ts";
import { fieldValueToPlain, type PlainMode } from "../../text/plain.ts";
import type { FieldSizer } from "../sizer.ts";
import { encodeRecord, type PlanEntry, type Sink } from "./plan.ts";

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
        if (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof Uint8Array) throw new EncodeError("expected a group record", sink.format, e.path);
        return e.keyBytes.length + encodeRecord(e.children, v as TypedRecord, sink, mode).length;
      }
      out.reset();
      try {
        sink.value(fieldValueToPlain(e.field, v, mode), e.hint, e.path);
      } catch (err) {
        if (err instanceof EncodeError) throw err;
        throw new EncodeError(err instanceof Error ? err.message : String(err), sink.format, e.path);
      }
      return e.keyBytes.length + out.pos;
    },
    total: (sum, present) => head(present) + close + (present > 1 ? (present - 1) * separator : 0) + sum,
  };
}
