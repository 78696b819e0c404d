// Proto identifiers derived from layout keys: the same names in the .proto, the reflected types and Python.

/** Field name on the wire and in the .proto: every character outside [A-Za-z0-9_] becomes "_". */
export function protoFieldName(key: string): string {
  const s = key.replace(/[^A-Za-z0-9_]/g, "_");
  // protoc rejects identifiers that start with a digit
  return /^[0-9]/.test(s) ? `_${s}` : s;
}

/** protoc's default JSON name (underscores dropped, next letter upper-cased); proto3 forbids two equal ones. */
export function protoJsonName(name: string): string {
  let out = "";
  let upper = false;
  for (const c of name) {
    if (c === "_") upper = true;
    else {
      out += upper ? c.toUpperCase() : c;
      upper = false;
    }
  }
  return out;
}

/** "ble_m" → "BleM": the name of the enum or nested message generated for a field. */
export function protoTypeName(fieldName: string): string {
  const s = fieldName
    .split("_")
    .filter((p) => p.length > 0)
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join("");
  return s === "" || /^[0-9]/.test(s) ? `F${s}` : s;
}

/** Enum value prefix: the field name in upper case, as the protobuf style guide asks. */
export function protoEnumPrefix(fieldName: string): string {
  return fieldName.replace(/^_+/, "").toUpperCase() || "VALUE";
}

export function protoEnumValueName(prefix: string, layoutName: string): string {
  const s = layoutName.replace(/[^A-Za-z0-9_]/g, "_").toUpperCase();
  return s.startsWith(`${prefix}_`) ? s : `${prefix}_${s}`;
}

/**
 * One message scope: protoc puts fields, nested types, enums and (C++-style) enum values into the
 * same namespace, so generated names that clash get a numeric suffix instead of breaking protoc.
 */
export class ProtoScope {
  private readonly used = new Set<string>();

  /** Claims an exact name (field names must stay exactly the sanitised key); false if taken. */
  claim(name: string): boolean {
    if (this.used.has(name)) return false;
    this.used.add(name);
    return true;
  }

  /** Claims `name`, or `name2`, `name3` … when it is taken. */
  unique(name: string): string {
    let candidate = name;
    for (let i = 2; this.used.has(candidate); i++) candidate = `${name}${i}`;
    this.used.add(candidate);
    return candidate;
  }
}
