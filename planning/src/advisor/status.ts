// The rarer status message: values that do not change between readings, and the constant prefixes split off.
import { type Field, type FieldValue, type Layout, parseLayout, type TypedRecord } from "#codecs";
import { requireField } from "./tree.ts";
import type { Transform } from "./types.ts";

export interface StatusParts {
  layout: Layout;
  /** the one record it carries (its values never change) */
  record: TypedRecord;
}

function uniqueKey(used: Set<string>, key: string): string {
  let k = key;
  for (let i = 2; used.has(k); i++) k = `${key}_${i}`;
  used.add(k);
  return k;
}

/** undefined when no transform moves anything. `constants` holds each moved field's value by field id. */
export function statusMessage(
  base: Layout,
  transforms: readonly Transform[],
  constants: ReadonlyMap<string, FieldValue>,
): StatusParts | undefined {
  const fields: Field[] = [];
  const record: TypedRecord = {};
  const used = new Set<string>();
  for (const t of transforms) {
    if (t.kind !== "move-to-status" && t.kind !== "split-prefix") continue;
    const f = requireField(base, t.fieldId).field;
    if (t.kind === "move-to-status") {
      const value = constants.get(f.id);
      if (value === undefined) continue;
      const key = uniqueKey(used, f.key);
      const { protobuf: _pb, ...options } = f.options ?? {};
      fields.push({
        ...f,
        key,
        sample: { kind: "constant", value },
        ...(Object.keys(options).length ? { options } : { options: undefined }),
      });
      record[key] = value;
    } else if (f.type.kind === "string") {
      const key = uniqueKey(used, `${f.key}_prefix`);
      fields.push({
        id: `${f.id}-prefix`,
        key,
        name: `${f.name} prefix`,
        description: `The constant start of ${f.key}; the message carries the rest.`,
        presence: "required",
        type: { kind: "string", maxLength: t.prefix.length, fixed: false, charset: f.type.charset },
        sample: { kind: "constant", value: t.prefix },
      });
      record[key] = t.prefix;
    }
  }
  if (!fields.length) return undefined;
  const layout = parseLayout({
    ...base,
    name: `${base.name} — status`.slice(0, 128),
    description: "Values that do not change from one reading to the next, sent in a separate, rarer message.",
    message: `${base.message}Status`.slice(0, 64),
    protobufReserved: [],
    fields,
  });
  return { layout, record };
}
