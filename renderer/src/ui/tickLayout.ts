// Category labels under a bar chart ("JSON", "Struct+Zlib", …) that never run into each other: straight while the
// longest fits its share of the width, else turned just enough that neighbours clear each other. At 324 px wide
// (the report's half-width charts) six formats get 44 px each, and "Struct" ran into "Struct+Zlib".

/** Average glyph width of the UI's sans-serif, as a share of the font size (measured: 0.55–0.6 for these labels). */
const GLYPH = 0.6;

export interface TickLayout {
  /** degrees, 0 or negative (counter-clockwise, read bottom-left to top-right, anchored at the tick's end) */
  angle: number;
  /** the axis height the labels need, in px */
  height: number;
}

export function categoryTicks(labels: readonly string[], plotWidth: number, fontSize = 11): TickLayout {
  const longest = Math.max(0, ...labels.map((l) => l.length)) * fontSize * GLYPH;
  const line = Math.ceil(fontSize * 1.3);
  const band = labels.length ? plotWidth / labels.length : plotWidth;
  // 4 px between neighbours
  if (longest <= band - 4) return { angle: 0, height: line + 10 };
  // turned labels are parallel lines band px apart horizontally: band · sin θ apart across, which must hold a line
  const degrees = Math.min(
    90,
    Math.max(30, Math.ceil((Math.asin(Math.min(1, line / Math.max(1, band))) * 180) / Math.PI)),
  );
  const rad = (degrees * Math.PI) / 180;
  return { angle: -degrees, height: Math.ceil(longest * Math.sin(rad) + line * Math.cos(rad)) + 8 };
}

/** Whether two neighbouring labels of this layout overlap (the check the layout is built to pass). */
export function ticksCollide(labels: readonly string[], plotWidth: number, t: TickLayout, fontSize = 11): boolean {
  const band = labels.length ? plotWidth / labels.length : plotWidth;
  const line = fontSize * 1.3;
  if (t.angle === 0) {
    // neighbours' half-widths must fit in the distance between their centres
    for (let i = 1; i < labels.length; i++)
      if (((labels[i - 1]!.length + labels[i]!.length) / 2) * fontSize * GLYPH > band - 2) return true;
    return false;
  }
  return band * Math.sin((-t.angle * Math.PI) / 180) < line - 0.01;
}
