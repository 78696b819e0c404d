// SBE schema identifiers from layout keys: names every SBE generator (Java, C++, C#, Go, Rust) accepts.

// an identifier generated code would reject in one of the SBE tool's target languages
const KEYWORDS = new Set(
  (
    "abstract assert boolean break byte case catch char class const continue default do double else enum extends final finally float for goto if implements import instanceof int interface long native new package private protected public return short static strictfp super switch synchronized this throw throws transient try void volatile while true false null var record yield " +
    "alignas alignof and auto bool constexpr decltype delete explicit export extern friend inline mutable namespace noexcept not nullptr operator or register signed sizeof struct template typedef typeid typename union unsigned using virtual wchar_t xor " +
    "base checked decimal delegate event fixed foreach implicit in internal is lock object out override params readonly ref sbyte sealed stackalloc string uint ulong unchecked unsafe ushort " +
    "chan defer fallthrough func go map range select type as crate dyn fn impl let loop match mod move mut pub self trait where async await"
  ).split(" "),
);

/** Field, group and data names: the key with characters outside [A-Za-z0-9_] as "_", made a legal identifier. */
export function sbeName(key: string): string {
  let s = key.replace(/[^A-Za-z0-9_]/g, "_");
  if (/^[0-9]/.test(s)) s = `_${s}`;
  return KEYWORDS.has(s) || KEYWORDS.has(s.toLowerCase()) ? `${s}_` : s;
}

/** "ble_m" → "BleM": named types take the field name in UpperCamel case plus a suffix. */
export function sbeUpperCamel(name: string): string {
  const s = name
    .split("_")
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join("");
  return s === "" || /^[0-9]/.test(s) ? `F${s}` : s;
}

/** Enum constants: valid identifiers, unique within their enum. */
export function sbeEnumValueNames(names: string[]): string[] {
  const used = new Set<string>();
  return names.map((n) => {
    let s = n.replace(/[^A-Za-z0-9_]/g, "_");
    if (s === "" || /^[0-9]/.test(s)) s = `_${s}`;
    if (KEYWORDS.has(s) || s === "NULL_VAL" || s === "SBE_UNKNOWN") s = `${s}_`;
    let candidate = s;
    for (let i = 2; used.has(candidate); i++) candidate = `${s}_${i}`;
    used.add(candidate);
    return candidate;
  });
}
