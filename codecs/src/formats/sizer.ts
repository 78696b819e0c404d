// Size-only view of a compiled codec: a message's size as framing plus one contribution per top-level field, so the
// designer can keep one cached column per field and re-measure only the field that changed.
import type { FieldValue, TypedRecord } from "../layout/values.ts";

/**
 * Built by each codec from its own compiled plan (the same field writers, key bytes and sinks its
 * encode() uses), so the two cannot drift. For every record r the codec encodes:
 *   encode(r).length === total(Σᵢ field(r, i), number of top-level fields present in r)
 * and field(r, i) throws EncodeError for some i exactly when encode(r) throws.
 */
export interface FieldSizer {
  /** top-level field keys, in layout order; `field` takes their index */
  readonly keys: readonly string[];
  /** contribution of top-level field i of `rec` (the unit is the sizer's own: bytes, or bits for bit-packed) */
  field(rec: TypedRecord, i: number): number;
  /** message bytes from the summed contributions and the count of top-level fields present */
  total(sum: number, present: number): number;
  /**
   * Optional, same results as `field` for one field over many samples at once: out[s] = its
   * contribution for values[s], or −1 where encode() would refuse it, for s in [from, to).
   */
  column?(values: readonly (FieldValue | undefined)[], i: number, from: number, to: number, out: Int32Array): void;
}

/** Size-only encode of one whole record, through the per-field path. */
export function sizeOf(sizer: FieldSizer, rec: TypedRecord): number {
  let sum = 0;
  let present = 0;
  for (let i = 0; i < sizer.keys.length; i++) {
    if (rec[sizer.keys[i]!] !== undefined) present++;
    sum += sizer.field(rec, i);
  }
  return sizer.total(sum, present);
}
