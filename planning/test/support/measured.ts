// The sizes the report and the Cost page take, measured the designer's way: `count` generated samples of a
// layout at a seed, every format, in the MeasuredFormat shape (labels and lossiness from the registry).
import { CODECS, generateSamples, measureSizes, type Layout } from "#codecs";
import type { MeasuredFormat } from "../../src/report/model.ts";

export function measuredFormats(layout: Layout, count: number, seed = 1): MeasuredFormat[] {
  return measureSizes(layout, generateSamples(layout, count, seed)).map((m) => ({
    format: m.format,
    label: CODECS[m.format].info.label,
    lossy: CODECS[m.format].info.lossy,
    stats: m.stats,
    sizes: m.sizes,
    errors: m.errors,
  }));
}
