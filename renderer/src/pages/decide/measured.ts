// The designer's live sizes (from the sizes workers) in the shape the cost model and the report take.
import type { MeasuredFormat } from "#planning";
import type { SizesView } from "../../state/analysis.ts";

const cache = new WeakMap<SizesView, MeasuredFormat[]>();

export function measuredFrom(sizes: SizesView): MeasuredFormat[] {
  let m = cache.get(sizes);
  if (!m) {
    m = sizes.results.map((r) => ({
      format: r.info.id,
      label: r.info.label,
      lossy: r.info.lossy,
      stats: r.stats,
      sizes: r.sizes,
      errors: r.errors,
    }));
    cache.set(sizes, m);
  }
  return m;
}
