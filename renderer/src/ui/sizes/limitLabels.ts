// Where the chart writes its limit lines' labels. Limits close in bytes (Sigfox 12 B, Astrocast 19 B on a 400 B
// axis) drew their labels on top of each other; equal limits drew the same text twice.
import type { Limit } from "./PlatformPicker.tsx";

export interface LimitMark {
  bytes: number;
  /** the platforms with this limit, in the order given */
  names: string[];
  /** the line's height on the chart */
  lineY: number;
  /** the label's height: the line's, or moved just enough not to overlap a neighbour */
  labelY: number;
}

/**
 * One mark per distinct limit, labels at least `gap` px apart and inside [top, bottom] (y grows downwards, as in
 * SVG). Labels keep the order of their lines; a label moves only as far as it must, and a short leader line
 * joins it to its line when it moved.
 */
export function limitMarks(
  limits: readonly Limit[],
  y: (bytes: number) => number,
  gap: number,
  top: number,
  bottom: number,
): LimitMark[] {
  const byBytes = new Map<number, string[]>();
  for (const l of limits) byBytes.set(l.bytes, [...(byBytes.get(l.bytes) ?? []), l.name]);
  // highest line first (smallest y)
  const marks = [...byBytes]
    .map(([bytes, names]) => ({ bytes, names, lineY: y(bytes), labelY: y(bytes) }))
    .sort((a, b) => a.lineY - b.lineY);
  // push down whatever sits too close under its upper neighbour...
  for (let i = 0; i < marks.length; i++) {
    const min = i === 0 ? top : marks[i - 1]!.labelY + gap;
    marks[i]!.labelY = Math.max(marks[i]!.labelY, min);
  }
  // ...then, if that ran off the bottom, push back up from there (a too-small chart keeps the minimum order)
  for (let i = marks.length - 1; i >= 0; i--) {
    const max = i === marks.length - 1 ? bottom : marks[i + 1]!.labelY - gap;
    marks[i]!.labelY = Math.min(marks[i]!.labelY, max);
  }
  return marks;
}
