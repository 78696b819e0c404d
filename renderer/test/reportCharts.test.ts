// The report's charts say what they draw: the size chart's legend holds exactly the colours of its bars, and the
// cost charts' format labels never run into each other at the report's half width.
import { describe, expect, it } from "vitest";
import { barStyle, legendSwatches, reachLegendText, SIZE_STATS, type SizeDatum } from "../src/ui/sizes/SizeBars.tsx";
import { categoryTicks, ticksCollide } from "../src/ui/tickLayout.ts";

const datum = (format: string, p50: number, p95: number, max: number): SizeDatum => ({
  format,
  label: format,
  short: format,
  p50,
  p95,
  max,
  mean: p50,
  failed: false,
  stale: false,
});
// the paper's record: JSON 411–414 B, Protobuf 136–140 B, Bit-packed 62 B
const paper = [datum("json", 413, 414, 414), datum("protobuf", 138, 140, 140), datum("bitpacked", 62, 62, 62)];
const limit = (bytes: number) => ({ id: `l${bytes}`, name: `L${bytes}`, bytes });

/** Every colour the bars are painted with, as "fill|opacity". */
function drawn(data: SizeDatum[], limits: ReturnType<typeof limit>[]): Set<string> {
  const out = new Set<string>();
  for (const d of data)
    for (const s of SIZE_STATS) {
      const st = barStyle(d[s.key], s.key, limits);
      out.add(`${st.fill}|${st.opacity}`);
    }
  return out;
}
const shown = (data: SizeDatum[], limits: ReturnType<typeof limit>[]) =>
  new Set(legendSwatches(data, limits).map((s) => `${s.fill}|${s.opacity}`));

describe("the size chart's legend", () => {
  it("shows no blue when every bar is over the strictest limit (Kinéis 30 B), and each shade it draws", () => {
    const limits = [limit(30), limit(160)];
    const swatches = legendSwatches(paper, limits);
    // Protobuf and Bit-packed are over 30 B but fit 160 B (orange); JSON is over both (red)
    expect(swatches.map((s) => s.label)).toEqual([
      "p50 over 30 B, fits a looser limit",
      "p95 over 30 B, fits a looser limit",
      "max over 30 B, fits a looser limit",
      "p50 over every limit",
      "p95 over every limit",
      "max over every limit",
    ]);
    expect(shown(paper, limits)).toEqual(drawn(paper, limits));
    // one limit everything exceeds: red only, worded with the limit
    expect(legendSwatches(paper, [limit(30)]).map((s) => s.label)).toEqual([
      "p50 over 30 B",
      "p95 over 30 B",
      "max over 30 B",
    ]);
    expect(shown(paper, [limit(30)])).toEqual(drawn(paper, [limit(30)]));
  });

  it("holds exactly the colours of the bars, over a limit some formats fit", () => {
    const limits = [limit(160)];
    expect(shown(paper, limits)).toEqual(drawn(paper, limits));
    expect(legendSwatches(paper, limits).map((s) => s.label)).toEqual([
      "p50",
      "p95",
      "max",
      "p50 over 160 B",
      "p95 over 160 B",
      "max over 160 B",
    ]);
    // no limit chosen: the three statistics' colours only
    expect(shown(paper, [])).toEqual(drawn(paper, []));
    expect(legendSwatches(paper, []).map((s) => s.label)).toEqual(["p50", "p95", "max"]);
  });
});

describe("the legend's words, one per verdict after its three shades", () => {
  it("says the strictest limit and whether a looser one is met", () => {
    const limits = [limit(12), limit(30), limit(160)];
    expect(reachLegendText("all", limits)).toBe("p50 · p95 · max, within every limit");
    expect(reachLegendText("some", limits)).toBe("over 12 B, fits a looser limit");
    expect(reachLegendText("none", limits)).toBe("over every limit");
    expect(reachLegendText("none", [limit(30)])).toBe("over 30 B");
    expect(reachLegendText("all", [])).toBe("p50 · p95 · max");
    // every swatch carries the verdict it is grouped under
    expect(legendSwatches(paper, limits).map((s) => s.reach)).toEqual(["some", "some", "some", "none", "none", "none"]);
  });
});

describe("format labels under the cost charts", () => {
  const labels = ["JSON", "Protobuf", "Struct", "Struct+Zlib", "SBE", "Bit-packed"];
  // the report's half-width chart: 324 px less the money axis (52) and the margins (12)
  const plot = 324 - 52 - 12;

  it("turn when they would collide at the report's width (they ran together as StructStruct+Zlib)", () => {
    expect(ticksCollide(labels, plot, { angle: 0, height: 24 })).toBe(true);
    const t = categoryTicks(labels, plot);
    expect(t.angle).toBeLessThan(0);
    expect(ticksCollide(labels, plot, t)).toBe(false);
    // the turned labels get the height they need: "Struct+Zlib" at 30° or more
    expect(t.height).toBeGreaterThanOrEqual(Math.ceil(11 * 0.6 * 11 * Math.sin(Math.PI / 6)));
  });

  it("stay straight where there is room", () => {
    const t = categoryTicks(labels, 900);
    expect(t.angle).toBe(0);
    expect(ticksCollide(labels, 900, t)).toBe(false);
  });

  it("turn steeper the narrower the band, up to upright", () => {
    expect(categoryTicks(labels, 120).angle).toBeLessThan(categoryTicks(labels, plot).angle);
    expect(categoryTicks(labels, 40).angle).toBe(-90);
    expect(ticksCollide(labels, 120, categoryTicks(labels, 120))).toBe(false);
  });
});
