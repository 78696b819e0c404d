// Kaitai Struct identifiers: lower snake case ([a-z][a-z0-9_]*), derived from layout keys.

/** A field's id from its key path (group members are flattened as group_member). */
export function ksyId(keys: readonly string[]): string {
  const s = keys
    .join("_")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_|_$/g, "");
  return /^[a-z]/.test(s) ? s : `f_${s}`;
}

/** Enum value ids, unique within their enum. */
export function ksyEnumIds(names: string[]): string[] {
  const used = new Set<string>();
  return names.map((n) => {
    const base = ksyId([n]);
    let id = base;
    for (let i = 2; used.has(id); i++) id = `${base}_${i}`;
    used.add(id);
    return id;
  });
}

/** Meta ids: the message name plus the format ("ContainerData" → "container_data_struct"). */
export function ksyMetaId(message: string, suffix: string): string {
  return ksyId([message, suffix]);
}
