// Shorter keys for the formats that write them in every message (JSON, CBOR, MessagePack, PSON). Integer keys
// (CBOR and MessagePack maps allow them) would be shorter still, but the codecs write text keys only: not offered.
import type { Field } from "#codecs";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** Shortest keys first: the key's first letter, its first two, then any letter, then a letter and a digit. */
function* candidates(key: string): Generator<string> {
  const k = key.toLowerCase().replace(/[^a-z0-9_]/g, "");
  if (/^[a-z]/.test(k)) yield k[0]!;
  for (const c of LETTERS) yield c;
  if (/^[a-z]/.test(k) && k.length > 1) yield k.slice(0, 2);
  for (const c of LETTERS) for (let i = 0; i < 10; i++) yield `${c}${i}`;
}

/**
 * field id → a shorter key, for every value-holding field whose key can be shortened, inside each group. A new key
 * never equals any key of the group before or after the change, so any subset of them can be applied.
 */
export function shortKeys(fields: readonly Field[], out = new Map<string, string>()): Map<string, string> {
  const used = new Set(fields.map((f) => f.key));
  for (const f of fields) {
    if (f.type.kind === "group") {
      shortKeys(f.type.fields, out);
      continue;
    }
    for (const c of candidates(f.key)) {
      if (c.length >= f.key.length) break;
      if (used.has(c)) continue;
      used.add(c);
      out.set(f.id, c);
      break;
    }
  }
  return out;
}
