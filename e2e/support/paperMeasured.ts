// The paper preset as the designer measures it by default (1 000 samples, seed 1), in the shape the
// cost model takes: the Decide pages price these sizes, so a test computes the figures it expects from
// planning with the same input.
import { CODECS, generateSamples, measureSizes, parseLayout, presetById } from "#codecs";

export const paper = parseLayout(presetById("paper")!.layout);

export const paperMeasured = measureSizes(paper, generateSamples(paper, 1000, 1)).map((m) => ({
  format: m.format,
  label: CODECS[m.format].info.label,
  stats: m.stats,
  sizes: m.sizes,
}));
