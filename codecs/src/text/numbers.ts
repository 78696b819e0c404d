// Number ⇄ text exactly as the paper's Python device writes it, so sizes match byte for byte.

/** Python's f"{x:.{d}f}": correctly rounded, ties to even (JS toFixed rounds ties up). */
export function pyFixed(x: number, decimals: number): string {
  if (!Number.isFinite(x)) return pyNonFinite(x);
  // toFixed switches to exponent notation from 1e21 on; doubles that large are whole numbers
  if (Math.abs(x) >= 1e21) return `${BigInt(x)}${decimals > 0 ? `.${"0".repeat(decimals)}` : ""}`;
  const s = Object.is(x, -0) ? `-${x.toFixed(decimals)}` : x.toFixed(decimals);
  // an exact tie needs x·2^(decimals+1) to be an integer (10^d = 2^d·5^d with 5^d odd); without
  // one toFixed is already correctly rounded, and the long toFixed below costs ~10× as much
  if (!Number.isInteger(x * 2 ** (decimals + 1))) return s;
  // a tie is m + ½ units of the last place; below 2^51 that product is exact in a double, so a
  // fraction other than ½ rules the tie out (most quantised values: 21.5 at one decimal)
  const scaled = Math.abs(x * 10 ** decimals);
  if (scaled < 2 ** 51 && scaled % 1 !== 0.5) return s;
  // toFixed(100) is the exact binary value whenever a tie at `decimals` is possible
  const extra = Math.min(100, decimals + 60);
  const exact = x.toFixed(extra);
  const tail = exact.slice(exact.length - (extra - decimals));
  if (!/^50*$/.test(tail)) return s;
  // exact tie: toFixed rounded away from zero; Python keeps the even neighbour
  const truncated = exact.slice(0, exact.length - tail.length).replace(/\.$/, "");
  const lastDigit = Number(truncated[truncated.length - 1]);
  return lastDigit % 2 === 0 ? truncated : s;
}

/** Python's repr(float): shortest round-trip digits, Python's exponent style, always a float look. */
export function pyFloatRepr(x: number): string {
  if (!Number.isFinite(x)) return pyNonFinite(x);
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const abs = Math.abs(x);
  const exp = Math.floor(Math.log10(abs));
  // Python uses scientific notation when the decimal exponent is < -4 or >= 16
  const e = Number(abs.toExponential().split("e")[1]);
  const sciNeeded = (Number.isFinite(exp) ? e : exp) < -4 || e >= 16;
  if (!sciNeeded) {
    const s = String(x);
    if (s.includes("e")) return toPlainDecimal(x);
    return s.includes(".") ? s : `${s}.0`;
  }
  const [mant, ex] = x.toExponential().split("e") as [string, string];
  const n = Number(ex);
  return `${mant}e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;
}

function toPlainDecimal(x: number): string {
  // String(x) uses exponent form below 1e-6; Python keeps plain form down to 1e-4
  const [mant, ex] = x.toExponential().split("e") as [string, string];
  const n = Number(ex);
  const neg = mant.startsWith("-");
  const digits = mant.replace("-", "").replace(".", "");
  let out: string;
  if (n < 0) out = `0.${"0".repeat(-n - 1)}${digits}`;
  else {
    const intLen = n + 1;
    out =
      digits.length > intLen
        ? `${digits.slice(0, intLen)}.${digits.slice(intLen)}`
        : `${digits}${"0".repeat(intLen - digits.length)}.0`;
  }
  return neg ? `-${out}` : out;
}

function pyNonFinite(x: number): string {
  return Number.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
}

/** Zero-pads the integer part to `width` digits, keeping the sign in front ("-05.2"). */
export function padInteger(text: string, width: number): string {
  const neg = text.startsWith("-");
  const body = neg ? text.slice(1) : text;
  const dot = body.indexOf(".");
  const intPart = dot < 0 ? body : body.slice(0, dot);
  const padded = intPart.padStart(width, "0") + (dot < 0 ? "" : body.slice(dot));
  return neg ? `-${padded}` : padded;
}

const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Strict number parse: the whole text must be a number (no "12abc", no empty string). */
export function parseNumberText(text: string): number | undefined {
  const t = text.trim();
  if (NUMBER_TEXT.test(t)) return Number(t);
  if (t === "NaN" || t === "nan") return Number.NaN;
  if (t === "Infinity" || t === "inf" || t === "+inf") return Number.POSITIVE_INFINITY;
  if (t === "-Infinity" || t === "-inf") return Number.NEGATIVE_INFINITY;
  return undefined;
}

/** Rounds to `decimals` places the way the sample generator and quantisers agree on. */
export function roundTo(x: number, decimals: number): number {
  return Number(pyFixed(x, decimals));
}

const F32 = new Float32Array(1);
/** The nearest float32, as a float32 field stores it. */
export function toFloat32(x: number): number {
  F32[0] = x;
  return F32[0]!;
}

/** Decimal places of x when it is a short decimal (0.01 → 2, 0.25 → 2, 60 → 0), else undefined. */
export function decimalPlaces(x: number): number | undefined {
  for (let d = 0; d <= 15; d++) {
    const s = x * 10 ** d;
    if (Math.abs(s - Math.round(s)) <= 1e-9 * Math.max(1, Math.abs(s))) return d;
  }
  return undefined;
}
