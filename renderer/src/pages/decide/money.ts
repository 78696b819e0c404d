// Money and counts as the decide pages print them.
import type { Currency } from "#planning";

const formatters = new Map<string, Intl.NumberFormat>();

export function money(x: number | undefined | null, currency: Currency, digits?: number): string {
  if (x === undefined || x === null || !Number.isFinite(x)) return "–";
  const d = digits ?? (Math.abs(x) >= 1000 ? 0 : 2);
  const key = `${currency}|${d}`;
  let f = formatters.get(key);
  if (!f)
    formatters.set(
      key,
      (f = new Intl.NumberFormat("en-US", {
        style: "currency",
        currency,
        minimumFractionDigits: d,
        maximumFractionDigits: d,
      })),
    );
  return f.format(x);
}

/** Short money for chart axes: €1.2k, €35k, €1.1M. */
export function moneyShort(x: number, currency: Currency): string {
  const sym = money(0, currency, 0).replace(/[\d.,\s]/g, "");
  const a = Math.abs(x);
  if (a >= 1e6) return `${sym}${(x / 1e6).toFixed(a >= 1e7 ? 0 : 1)}M`;
  if (a >= 1e3) return `${sym}${(x / 1e3).toFixed(a >= 1e4 ? 0 : 1)}k`;
  return `${sym}${a >= 10 ? x.toFixed(0) : x.toFixed(2)}`;
}

export function count(x: number, digits = 0): string {
  return x.toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: digits });
}
