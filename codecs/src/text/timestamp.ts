// Timestamp text formats such as the paper's "DDMMYY hhmmss.s" (UTC), both directions.

type Token = { kind: "YYYY" | "YY" | "MM" | "DD" | "hh" | "mm" | "ss"; width: number } | { kind: "frac"; width: number } | { kind: "lit"; text: string };

const cache = new Map<string, Token[]>();

function tokenize(format: string): Token[] {
  const hit = cache.get(format);
  if (hit) return hit;
  const out: Token[] = [];
  let i = 0;
  while (i < format.length) {
    const rest = format.slice(i);
    const named = (["YYYY", "YY", "MM", "DD", "hh", "mm", "ss"] as const).find((t) => rest.startsWith(t));
    if (named) {
      out.push({ kind: named, width: named.length });
      i += named.length;
      continue;
    }
    const frac = /^\.(s+)/.exec(rest);
    if (frac && out.length && out[out.length - 1]!.kind === "ss") {
      out.push({ kind: "lit", text: "." });
      out.push({ kind: "frac", width: frac[1]!.length });
      i += frac[0].length;
      continue;
    }
    out.push({ kind: "lit", text: format[i]! });
    i++;
  }
  cache.set(format, out);
  return out;
}

/** Resolution the format can carry, in seconds (0.1 for "ss.s"). */
export function formatResolution(format: string): number {
  const frac = tokenize(format).find((t) => t.kind === "frac");
  return frac ? 10 ** -frac.width : 1;
}

export function formatTimestamp(epochSeconds: number, format: string): string {
  const tokens = tokenize(format);
  const res = formatResolution(format);
  const ticks = Math.round(epochSeconds / res);
  const whole = Math.floor((ticks * res) + 1e-9);
  const d = new Date(whole * 1000);
  let out = "";
  for (const t of tokens) {
    switch (t.kind) {
      case "YYYY": out += String(d.getUTCFullYear()).padStart(4, "0"); break;
      case "YY": out += String(d.getUTCFullYear() % 100).padStart(2, "0"); break;
      case "MM": out += String(d.getUTCMonth() + 1).padStart(2, "0"); break;
      case "DD": out += String(d.getUTCDate()).padStart(2, "0"); break;
      case "hh": out += String(d.getUTCHours()).padStart(2, "0"); break;
      case "mm": out += String(d.getUTCMinutes()).padStart(2, "0"); break;
      case "ss": out += String(d.getUTCSeconds()).padStart(2, "0"); break;
      case "frac": {
        const perSecond = 10 ** t.width;
        const frac = ((ticks % perSecond) + perSecond) % perSecond;
        out += String(frac).padStart(t.width, "0");
        break;
      }
      case "lit": out += t.text; break;
    }
  }
  return out;
}

/** Parses a timestamp text; returns undefined when it does not match the format or the date is impossible. */
export function parseTimestamp(text: string, format: string): number | undefined {
  const tokens = tokenize(format);
  let i = 0;
  const parts: Record<string, number> = { YYYY: 1970, MM: 1, DD: 1, hh: 0, mm: 0, ss: 0, frac: 0, fracWidth: 0 };
  for (const t of tokens) {
    if (t.kind === "lit") {
      if (text.slice(i, i + t.text.length) !== t.text) return undefined;
      i += t.text.length;
      continue;
    }
    const digits = text.slice(i, i + t.width);
    if (digits.length !== t.width || !/^\d+$/.test(digits)) return undefined;
    i += t.width;
    const n = Number(digits);
    if (t.kind === "YY") parts.YYYY = 2000 + n;
    else if (t.kind === "frac") {
      parts.frac = n;
      parts.fracWidth = t.width;
    } else parts[t.kind] = n;
  }
  if (i !== text.length) return undefined;
  const { YYYY, MM, DD, hh, mm, ss } = parts as Record<string, number>;
  if (MM! < 1 || MM! > 12 || DD! < 1 || DD! > 31 || hh! > 23 || mm! > 59 || ss! > 59) return undefined;
  const ms = Date.UTC(YYYY!, MM! - 1, DD!, hh!, mm!, ss!);
  const check = new Date(ms);
  if (check.getUTCDate() !== DD) return undefined;
  const fw = parts.fracWidth!;
  return fw ? (Math.round(ms / 1000) * 10 ** fw + parts.frac!) / 10 ** fw : ms / 1000;
}
