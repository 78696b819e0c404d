// Decimal text for a float32 field as a device prints its float: the fewest significant digits that
// read back (through float32) to the same value, laid out the way Python's repr lays out a float.

/** Python repr's layout of ±d1.d2…dn × 10^exp: positional for -4 ≤ exp < 16, else d.ddde±XX. */
function pyLayoutDigits(negative: boolean, digits: string, exp: number): string {
  let body: string;
  if (exp < -4 || exp >= 16) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    body = `${mant}e${exp < 0 ? "-" : "+"}${Math.abs(exp) < 10 ? "0" : ""}${Math.abs(exp)}`;
  } else if (exp < 0) {
    body = `0.${"0".repeat(-exp - 1)}${digits}`;
  } else if (digits.length > exp + 1) {
    body = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  } else {
    body = `${digits}${"0".repeat(exp + 1 - digits.length)}.0`;
  }
  return negative ? `-${body}` : body;
}

const F32 = new Float32Array(1);
function roundsToSameFloat32(text: string, x: number): boolean {
  F32[0] = Number(text);
  return F32[0] === x;
}

/**
 * `x` must already be a float32 value. Finite values only; NaN and ±Infinity are the caller's
 * (JSON writes Python's tokens for them).
 */
export function pyFloat32Repr(x: number): string {
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  // 9 significant digits always round-trip a float32; the first shorter one that does is the
  // nearest such decimal because toExponential rounds the exact binary value correctly
  for (let p = 1; p <= 9; p++) {
    const s = x.toExponential(p - 1);
    if (p < 9 && !roundsToSameFloat32(s, x)) continue;
    const e = s.indexOf("e");
    const negative = s.charCodeAt(0) === 45;
    const mant = s.slice(negative ? 1 : 0, e);
    const digits = mant.length > 1 ? mant[0]! + mant.slice(2) : mant;
    return pyLayoutDigits(negative, digits, Number(s.slice(e + 1)));
  }
  return String(x);
}
