// C identifiers from layout names. The generated headers are also included from C++ (the Arduino
// sketch), so C++ keywords are avoided too; every name is checked per scope so a layout whose keys
// collapse to the same identifier is refused instead of producing C that does not compile.
import { protoFieldName } from "#codecs/plans";

const KEYWORDS = new Set(
  (
    "auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short " +
    "signed sizeof static struct switch typedef union unsigned void volatile while _Bool _Complex _Imaginary " +
    // C++ (the sketch includes the headers) and the macros stdbool.h defines
    "bool true false class delete new operator private protected public template this throw try catch using namespace virtual friend " +
    "typename explicit mutable export asm and or not xor compl bitand bitor nullptr constexpr decltype noexcept static_assert thread_local alignas alignof " +
    // object-like macros of the C library
    "errno"
  ).split(" "),
);

/** True for words C or C++ reserve (and errno, which libc defines as an object-like macro). */
export function isCKeyword(name: string): boolean {
  return KEYWORDS.has(name);
}

/** A layout key as a C member name: the protobuf field name (same sanitising) away from keywords. */
export function cMember(key: string): string {
  const s = protoFieldName(key);
  return KEYWORDS.has(s) ? `${s}_` : s;
}

/** "ContainerData" → "container_data", "my-msg" → "my_msg": prefix of every global name of a message. */
export function cSnake(name: string): string {
  const s = name
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/_+/g, "_")
    .replace(/^_|_$/g, "")
    .toLowerCase();
  const safe = s === "" ? "msg" : /^[0-9]/.test(s) ? `m_${s}` : s;
  return KEYWORDS.has(safe) ? `${safe}_` : safe;
}

/** Upper-case macro / enum-constant part of a name ("ble-m" → "BLE_M"). */
export function cUpper(name: string): string {
  const s = name
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_|_$/g, "")
    .toUpperCase();
  return s === "" ? "V" : /^[0-9]/.test(s) ? `V${s}` : s;
}

/** One C namespace (a struct's members, or the file-scope names of an export). */
export class CScope {
  private readonly used = new Map<string, string>();

  /** Claims `name` for `owner`; returns the owner that already holds it, if any. */
  claim(name: string, owner: string): string | undefined {
    const prev = this.used.get(name);
    if (prev !== undefined) return prev;
    this.used.set(name, owner);
    return undefined;
  }

  /** `name`, or `name_2`, `name_3` … when taken (generated names that may yield). */
  unique(name: string, owner: string): string {
    let candidate = name;
    for (let i = 2; this.used.has(candidate); i++) candidate = `${name}_${i}`;
    this.used.set(candidate, owner);
    return candidate;
  }
}

/** A C string literal of arbitrary text: octal escapes for everything outside printable ASCII. */
export function cString(text: string): string {
  let out = '"';
  for (const b of new TextEncoder().encode(text)) {
    if (b === 0x22 || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    // "??" starts a trigraph in C99; escaping every '?' keeps the literal literal
    else if (b === 0x3f) out += "\\?";
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\${b.toString(8).padStart(3, "0")}`;
  }
  return `${out}"`;
}

/** Text for a C comment: no comment terminators, no line breaks, nothing outside printable ASCII+UTF-8 letters. */
export function cComment(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, " ")
    .replace(/\*\//g, "* /")
    .replace(/\/\*/g, "/ *")
    .replace(/\?\?/g, "? ?")
    .trim();
}

/** A double constant C parses back to the same double (JavaScript's shortest round-trip form). */
export function cDouble(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "NAN" : x > 0 ? "INFINITY" : "(-INFINITY)";
  if (Object.is(x, -0)) return "(-0.0)";
  const s = String(x);
  return /[.e]/.test(s) ? (x < 0 ? `(${s})` : s) : x < 0 ? `(${s}.0)` : `${s}.0`;
}

/** An integer constant of any size with the suffix its C type needs. */
export function cInt(x: number | bigint, unsigned = false): string {
  const b = BigInt(x);
  if (unsigned) return `${b}u${b > 0xffffffffn ? "ll" : ""}`;
  // the most negative 64-bit value has no literal form: write it as an expression
  if (b === -(1n << 63n)) return "(-9223372036854775807ll - 1)";
  if (b < -2147483647n || b > 2147483647n) return b < 0n ? `(${b}ll)` : `${b}ll`;
  return b < 0n ? `(${b})` : `${b}`;
}

/** A C99 hexadecimal floating constant holding exactly the bits of `x` (finite x only). */
export function cHexDouble(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "(-0.0)" : "0.0";
  const dv = new DataView(new ArrayBuffer(8));
  dv.setFloat64(0, x);
  const bits = dv.getBigUint64(0);
  const sign = bits >> 63n ? "-" : "";
  const exp = Number((bits >> 52n) & 0x7ffn);
  const mant = (bits & ((1n << 52n) - 1n)).toString(16).padStart(13, "0");
  const body = exp === 0 ? `0x0.${mant}p-1022` : `0x1.${mant}p${exp - 1023}`;
  return sign ? `(${sign}${body})` : body;
}
