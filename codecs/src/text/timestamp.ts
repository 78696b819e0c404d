// Timestamp text formats such as the paper's "DDMMYY hhmmss.s" (UTC), both directions, as strings or
// bytes in place. Plain calendar arithmetic instead of Date: the paper's record carries one in every
// sample and the designer re-encodes thousands per keystroke; Date.UTC also misreads years 0–99.

type Token =
  | { kind: "YYYY" | "YY" | "MM" | "DD" | "hh" | "mm" | "ss" | "frac"; width: number }
  | { kind: "lit"; text: string; bytes: Uint8Array };

const NAMED = ["YYYY", "YY", "MM", "DD", "hh", "mm", "ss"] as const;
const utf8 = new TextEncoder();

/** Named tokens, ".s…" right after ss as fractional digits, anything else literal. */
function tokenize(format: string): Token[] {
  const out: Token[] = [];
  let lit = "";
  const flush = () => {
    if (lit) out.push({ kind: "lit", text: lit, bytes: utf8.encode(lit) });
    lit = "";
  };
  let i = 0;
  while (i < format.length) {
    const rest = format.slice(i);
    const named = NAMED.find((t) => rest.startsWith(t));
    if (named) {
      flush();
      out.push({ kind: named, width: named.length });
      i += named.length;
      continue;
    }
    const frac = /^\.(s+)/.exec(rest);
    const prev = out[out.length - 1];
    if (frac && !lit && prev?.kind === "ss") {
      lit = ".";
      flush();
      out.push({ kind: "frac", width: frac[1]!.length });
      i += frac[0].length;
      continue;
    }
    lit += format[i]!;
    i++;
  }
  flush();
  return out;
}

/** 0000-01-01T00:00:00Z … 9999-12-31T23:59:59Z: the instants every token prints without sign or overflow */
const FIRST_SECOND = -62167219200;
const LAST_SECOND = 253402300799;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

interface Civil {
  Y: number;
  M: number;
  D: number;
  h: number;
  mi: number;
  s: number;
}

function civilFromSeconds(whole: number, out: Civil): void {
  const days = Math.floor(whole / 86400);
  let sod = whole - days * 86400;
  out.h = Math.floor(sod / 3600);
  sod -= out.h * 3600;
  out.mi = Math.floor(sod / 60);
  out.s = sod - out.mi * 60;
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  out.D = doy - Math.floor((153 * mp + 2) / 5) + 1;
  out.M = mp < 10 ? mp + 3 : mp - 9;
  out.Y = yoe + era * 400 + (out.M <= 2 ? 1 : 0);
}

export interface TextTime {
  /** UTF-8 bytes of every formatted instant (digits are ASCII; literals may not be) */
  readonly length: number;
  /** seconds the format can carry (0.1 for "ss.s") */
  readonly resolution: number;
  /** undefined outside the years 0000–9999 */
  format(epochSeconds: number): string | undefined;
  /** epoch seconds, or undefined when the text does not match or the date does not exist */
  parse(text: string): number | undefined;
  /** writes exactly `length` bytes at `pos`; false outside the years 0000–9999 */
  write(buf: Uint8Array, pos: number, epochSeconds: number): boolean;
  /** parses buf[pos … pos+length) */
  read(buf: Uint8Array, pos: number): number | undefined;
}

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, "0"));
const pad = (n: number, width: number): string =>
  width === 2 && n < 100 ? TWO_DIGITS[n]! : String(n).padStart(width, "0");

function build(format: string): TextTime {
  const tokens = tokenize(format);
  const firstFrac = tokens.find((t) => t.kind === "frac");
  const fracWidth = firstFrac && firstFrac.kind === "frac" ? firstFrac.width : 0;
  const resolution = fracWidth ? 10 ** -fracWidth : 1;
  const length = tokens.reduce((n, t) => n + (t.kind === "lit" ? t.bytes.length : t.width), 0);
  const textLength = tokens.reduce((n, t) => n + (t.kind === "lit" ? t.text.length : t.width), 0);
  // scratch state: compiled formats are used synchronously
  const c: Civil = { Y: 0, M: 0, D: 0, h: 0, mi: 0, s: 0 };
  let ticks = 0;

  /** fills `c` and `ticks`; false when outside the printable years */
  const split = (epoch: number): boolean => {
    ticks = Math.round(epoch / resolution);
    const whole = Math.floor(ticks * resolution + 1e-9);
    if (!(whole >= FIRST_SECOND && whole <= LAST_SECOND)) return false;
    civilFromSeconds(whole, c);
    return true;
  };

  const value = (t: Exclude<Token, { kind: "lit" }>): number => {
    switch (t.kind) {
      case "YYYY":
        return c.Y;
      case "YY":
        return c.Y % 100;
      case "MM":
        return c.M;
      case "DD":
        return c.D;
      case "hh":
        return c.h;
      case "mm":
        return c.mi;
      case "ss":
        return c.s;
      case "frac": {
        const per = 10 ** fracWidth;
        const sub = ((ticks % per) + per) % per;
        return t.width === fracWidth ? sub : Math.floor((sub / per) * 10 ** t.width);
      }
    }
  };

  const fields = { y: 1970, mo: 1, d: 1, hh: 0, mm: 0, ss: 0, frac: 0, fw: 0 };
  const assign = (t: Exclude<Token, { kind: "lit" }>, n: number) => {
    switch (t.kind) {
      case "YYYY":
        fields.y = n;
        break;
      case "YY":
        fields.y = 2000 + n;
        break;
      case "MM":
        fields.mo = n;
        break;
      case "DD":
        fields.d = n;
        break;
      case "hh":
        fields.hh = n;
        break;
      case "mm":
        fields.mm = n;
        break;
      case "ss":
        fields.ss = n;
        break;
      case "frac":
        fields.frac = n;
        fields.fw = t.width;
        break;
    }
  };
  const resetFields = () => {
    fields.y = 1970;
    fields.mo = 1;
    fields.d = 1;
    fields.hh = 0;
    fields.mm = 0;
    fields.ss = 0;
    fields.frac = 0;
    fields.fw = 0;
  };
  const finish = (): number | undefined => {
    const { y, mo, d, hh, mm, ss, frac, fw } = fields;
    if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || hh > 23 || mm > 59 || ss > 59) return undefined;
    const secs = daysFromCivil(y, mo, d) * 86400 + hh * 3600 + mm * 60 + ss;
    // dividing by an exact power of ten gives the double nearest the decimal (1748778312.3)
    return fw ? (secs * 10 ** fw + frac) / 10 ** fw : secs;
  };

  return {
    length,
    resolution,
    format(epoch) {
      if (!split(epoch)) return undefined;
      let out = "";
      for (const t of tokens) out += t.kind === "lit" ? t.text : pad(value(t), t.width);
      return out;
    },
    parse(text) {
      if (text.length !== textLength) return undefined;
      resetFields();
      let i = 0;
      for (const t of tokens) {
        if (t.kind === "lit") {
          if (!text.startsWith(t.text, i)) return undefined;
          i += t.text.length;
          continue;
        }
        let n = 0;
        for (const stop = i + t.width; i < stop; i++) {
          const d = text.charCodeAt(i) - 48;
          if (!(d >= 0 && d <= 9)) return undefined;
          n = n * 10 + d;
        }
        assign(t, n);
      }
      return finish();
    },
    write(buf, pos, epoch) {
      if (!split(epoch)) return false;
      let p = pos;
      for (const t of tokens) {
        if (t.kind === "lit") {
          buf.set(t.bytes, p);
          p += t.bytes.length;
          continue;
        }
        let n = value(t);
        for (let k = t.width - 1; k >= 0; k--) {
          buf[p + k] = 48 + (n % 10);
          n = Math.floor(n / 10);
        }
        p += t.width;
      }
      return true;
    },
    read(buf, pos) {
      resetFields();
      let p = pos;
      for (const t of tokens) {
        if (t.kind === "lit") {
          for (let k = 0; k < t.bytes.length; k++) if (buf[p + k] !== t.bytes[k]) return undefined;
          p += t.bytes.length;
          continue;
        }
        let n = 0;
        for (let k = 0; k < t.width; k++) {
          const d = buf[p + k]! - 48;
          if (!(d >= 0 && d <= 9)) return undefined;
          n = n * 10 + d;
        }
        p += t.width;
        assign(t, n);
      }
      return finish();
    },
  };
}

const compiled = new Map<string, TextTime>();

/** The compiled form of a format, shared by every codec (compile once, call per sample). */
export function compileTextTime(format: string): TextTime {
  let t = compiled.get(format);
  if (!t) compiled.set(format, (t = build(format)));
  return t;
}

/** Resolution the format can carry, in seconds (0.1 for "ss.s"). */
export function formatResolution(format: string): number {
  return compileTextTime(format).resolution;
}

/** Throws RangeError outside the years 0000–9999 (no text of the format can show such an instant). */
export function formatTimestamp(epochSeconds: number, format: string): string {
  const s = compileTextTime(format).format(epochSeconds);
  if (s === undefined)
    throw new RangeError(`${epochSeconds} s is outside the years 0000–9999 that "${format}" can show`);
  return s;
}

/** Parses a timestamp text; undefined when it does not match the format or the date is impossible. */
export function parseTimestamp(text: string, format: string): number | undefined {
  return compileTextTime(format).parse(text);
}
