// Field colours for the byte map and attribution: distinct hues that are never red, since red means "over the limit".
import type { Field } from "#codecs";
import type { Theme } from "../../state/settings.ts";

// hue steps chosen far apart; 345°–25° (red) is left out on purpose
const HUES = [212, 150, 40, 272, 188, 95, 310, 28, 240, 170, 60, 290, 200, 125, 255, 330];

export function fieldColor(index: number, theme: Theme): string {
  // the colours repeat every three rounds of hues: written once each (the tree asks for every row's on each edit)
  const cycle = index % (HUES.length * 3);
  const known = COLORS[theme];
  return (known[cycle] ??= colorAt(cycle, theme));
}

const COLORS: Record<Theme, string[]> = { light: [], dark: [] };

function colorAt(index: number, theme: Theme): string {
  const hue = HUES[index % HUES.length]!;
  const round = Math.floor(index / HUES.length) % 3;
  const light = theme === "dark" ? [62, 72, 52][round]! : [52, 40, 64][round]!;
  const sat = hue >= 30 && hue <= 70 ? 80 : 58;
  return `hsl(${hue} ${sat}% ${light}%)`;
}

/** Background tint for the hex view: the same hue, light enough to read the digits on. */
export function fieldTint(index: number, theme: Theme): string {
  const hue = HUES[index % HUES.length]!;
  return theme === "dark" ? `hsl(${hue} 45% 28%)` : `hsl(${hue} 70% 88%)`;
}

export function framingColor(theme: Theme): string {
  return theme === "dark" ? "hsl(215 8% 42%)" : "hsl(215 10% 70%)";
}

export function framingTint(theme: Theme): string {
  return theme === "dark" ? "hsl(215 8% 20%)" : "hsl(215 12% 93%)";
}

/** Top-level field id → colour index, in layout order (nested fields take their top-level field's colour). */
export function colorIndex(fields: readonly Field[]): Map<string, number> {
  return new Map(fields.map((f, i) => [f.id, i]));
}
