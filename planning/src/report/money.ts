// Money as the report and the decide pages print it: "€1,234" above a thousand, "€12.34" below.
import type { Currency } from "./scenario.ts";

const formatters = new Map<string, Intl.NumberFormat>();

export function formatMoney(x: number | undefined | null, currency: Currency, digits?: number): string {
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
