// oneM2M timestamps: "YYYYMMDDTHHMMSS" in UTC, the form Mobius writes for ct, lt and et.

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

export function m2mTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** Mobius gives resources without an `et` two years of life. */
export function defaultExpiry(ms: number): string {
  const d = new Date(ms);
  d.setUTCFullYear(d.getUTCFullYear() + 2);
  return m2mTime(d.getTime());
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
