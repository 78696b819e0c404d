// oneM2M timestamps: "YYYYMMDDTHHMMSS" in UTC, the form Mobius writes for ct, lt and et.

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

// every resource created in the same second has the same text: format it once per second
let lastSecond = NaN;
let lastText = "";

export function m2mTime(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastText = format(new Date(ms));
    lastSecond = second;
  }
  return lastText;
}

function format(d: Date): string {
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** ACME's form, with the fraction of the second: "YYYYMMDDTHHMMSS,ffffff" (milliseconds, then 000). */
export function m2mTimeFraction(ms: number): string {
  return `${m2mTime(ms)},${pad(((ms % 1000) + 1000) % 1000, 3)}000`;
}

/**
 * A time in the form that compares as text in time order: with the fraction written out to six
 * digits (a time without one is at .000000). Filter values and stored times both go through it.
 */
export function comparableTime(s: string): string {
  return (s.includes(",") ? s : `${s},`).padEnd(22, "0");
}

let lastExpirySecond = NaN;
let lastExpiry = "";

/** Mobius gives resources without an `et` two years of life. */
export function defaultExpiry(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== lastExpirySecond) {
    const d = new Date(ms);
    d.setUTCFullYear(d.getUTCFullYear() + 2);
    lastExpiry = format(d);
    lastExpirySecond = second;
  }
  return lastExpiry;
}

// ACME and other CSEs add ",ffffff" fractions; clients copying their values must not be refused
const TIME_RE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(,\d{1,6})?$/;

export function isM2mTime(s: string): boolean {
  const m = TIME_RE.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && h < 24 && mi < 60 && se < 60;
}
