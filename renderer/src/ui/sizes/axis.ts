// The size axis of the bar chart.

/** Round ticks (1, 2, 2.5, 5 × 10^k bytes) with a little headroom, so the tallest bar or limit line is never clipped. */
export function niceAxis(top: number): { max: number; ticks: number[] } {
  const raw = (top * 1.04) / 5;
  const base = 10 ** Math.floor(Math.log10(raw));
  // bytes are whole numbers: never a step below 1
  const step = [1, 2, 2.5, 5, 10].map((m) => m * base).find((c) => c >= raw && Number.isInteger(c)) ?? 1;
  const max = Math.ceil((top * 1.04) / step) * step;
  return { max, ticks: Array.from({ length: Math.round(max / step) + 1 }, (_, i) => i * step) };
}

export const tickLabel = (t: number): string => `${t} B`;

/**
 * Room left of the plot for the longest tick label (11 px text, about 7 px a character in the UI font, 6 px gap), at
 * least 48 px: a layout of 2 000 fields has ticks of 40000 B, which a fixed margin cut at the window's edge.
 */
export function axisLabelRoom(ticks: readonly number[]): number {
  const longest = Math.max(0, ...ticks.map((t) => tickLabel(t).length));
  return Math.max(48, 6 + 4 + 7 * longest);
}

/** About how wide a label is in the chart's 11 px UI font (its widest glyphs, so the estimate errs on the wide side). */
export const labelWidth = (text: string, fontSize = 11): number => text.length * fontSize * 0.62;

export type LabelRows = 1 | 2 | 3;

/**
 * Rows the format names need under the bars: 1 when each fits its column, else 2 (every other name one row
 * lower) when each name and the next on its row fit the two columns between their centres, else 3 — so
 * "Struct" and "Struct+Zlib" never run into each other ("StructStruct+Zlib"), nor do "CBOR-int" and
 * "MsgPack-int" two columns apart at 1024 px with eleven formats.
 */
export function labelRows(labels: readonly string[], band: number): LabelRows {
  if (labels.every((l) => labelWidth(l) + 4 <= band)) return 1;
  const fits = (rows: number) =>
    labels.every(
      (l, i) => i + rows >= labels.length || (labelWidth(l) + labelWidth(labels[i + rows]!)) / 2 + 4 <= rows * band,
    );
  return fits(2) ? 2 : 3;
}

/** Which row a format's name sits on: 0 the first, names cycling through the rows. */
export const labelRow = (index: number, rows: LabelRows): number => index % rows;
