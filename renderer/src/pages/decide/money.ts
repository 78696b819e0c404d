// Money and counts as the decide pages print them.
import { formatMoney, type Currency } from "#planning";

/** The report's formatter (planning/src/report/money.ts): the pages and the executive summary print money alike. */
export { formatMoney as money } from "#planning";

/** Short money for chart axes: €1.2k, €35k, €1.1M. */
export function moneyShort(x: number, currency: Currency): string {
  const sym = formatMoney(0, currency, 0).replace(/[\d.,\s]/g, "");
  const a = Math.abs(x);
  if (a >= 1e6) return `${sym}${(x / 1e6).toFixed(a >= 1e7 ? 0 : 1)}M`;
  if (a >= 1e3) return `${sym}${(x / 1e3).toFixed(a >= 1e4 ? 0 : 1)}k`;
  return `${sym}${a >= 10 ? x.toFixed(0) : x.toFixed(2)}`;
}

export function count(x: number, digits = 0): string {
  return x.toLocaleString("en-US", { minimumFractionDigits: 0, maximumFractionDigits: digits });
}
