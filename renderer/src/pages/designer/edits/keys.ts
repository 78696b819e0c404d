// A new field's wire key follows its name until the user gives the key a value of their own. Only
// fields added in this editing session follow (a saved field's key is a wire contract that a rename
// must not break), and only while the key still equals what the previous name produced, so a key
// typed by hand is never overwritten and no flag has to be stored in the layout.
import type { Field } from "#codecs";
import { uniqueKey } from "../../../state/tree.ts";

const MAX_KEY = 64;

/** "Battery level (%)" → "battery_level"; a leading digit gets "_" (keys must not start with one). */
export function keyFromName(name: string, fallback = "value"): string {
  const words = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  const key = (/^[0-9]/.test(words) ? `_${words}` : words).slice(0, MAX_KEY).replace(/_+$/, "");
  return key || fallback;
}

/** The field renamed; its key re-derived when it still followed the old name. `siblings` excludes the field. */
export function renameWithKey(field: Field, name: string, siblings: readonly Field[], isNew = true): Field {
  if (!isNew) return { ...field, name };
  const old = keyFromName(field.name, field.key);
  const following = field.key === old || field.key === uniqueKey(siblings, old);
  if (!following) return { ...field, name };
  return { ...field, name, key: uniqueKey(siblings, keyFromName(name, field.key)) };
}
