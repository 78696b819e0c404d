// Number formatting shared by tables and tooltips: bytes, percentages, milliseconds.

export function bytes(x: number, decimals = 0): string {
  return `${x.toFixed(decimals)} B`;
}

export function fixed1(x: number): string {
  return Number.isFinite(x) ? x.toFixed(1) : "–";
}

export function percent(x: number, decimals = 1): string {
  return `${(x * 100).toFixed(decimals)} %`;
}

const COUNTS = new Intl.NumberFormat("en");

/** A count with thousands separators ("10,000"): one formatter for all (toLocaleString builds one per call). */
export function count(n: number): string {
  return COUNTS.format(n);
}

export function ms(x: number): string {
  return x < 10 ? `${x.toFixed(1)} ms` : `${Math.round(x)} ms`;
}

/** Short type label for badges: u8, i16, f32, fix, ts, str, bin, arr, grp, enum, bool. */
export function typeBadge(t: { kind: string; bits?: number; signed?: boolean; of?: { kind: string } }): string {
  switch (t.kind) {
    case "int":
      return `${t.signed ? "i" : "u"}${t.bits}`;
    case "float":
      return `f${t.bits}`;
    case "fixed":
      return "fix";
    case "timestamp":
      return "time";
    case "string":
      return "str";
    case "bytes":
      return "bin";
    case "array":
      return `${t.of ? typeBadge(t.of) : ""}[]`;
    case "group":
      return "grp";
    default:
      return t.kind;
  }
}
