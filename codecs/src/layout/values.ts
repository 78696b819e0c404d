// The typed record: what binary formats carry and what every decoder returns.
//   bool → boolean · enum → the value's name · int 8–32 → number · int 64 → bigint
//   float / fixed → number · timestamp → epoch seconds (number) · string → string
//   bytes → Uint8Array · array → element values · group → nested TypedRecord
// Optional fields that are absent are simply missing from the object.

export type ScalarValue = boolean | number | bigint | string | Uint8Array;
export type FieldValue = ScalarValue | ScalarValue[] | TypedRecord;
export interface TypedRecord {
  [key: string]: FieldValue;
}

/** What the self-describing formats carry: JSON-like values after the text representation. */
export type PlainValue = null | boolean | number | bigint | string | Uint8Array | PlainValue[] | PlainRecord;
export interface PlainRecord {
  [key: string]: PlainValue;
}
