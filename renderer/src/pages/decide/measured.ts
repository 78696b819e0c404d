// The designer's live sizes (from the sizes workers) in the shape the cost model and the report take.
// A layout with a batch (issue 27) is priced by its messages instead: each format's seeded messages
// of its readings per message, so cost, fragmentation and the report count readings ÷ messages.
import type { Layout } from "#codecs";
import { measureBatches, type MeasuredFormat } from "#planning";
import type { SizesView } from "../../state/analysis.ts";

const cache = new WeakMap<SizesView, MeasuredFormat[]>();
const batched = new WeakMap<SizesView, WeakMap<Layout, MeasuredFormat[]>>();

export function measuredFrom(sizes: SizesView, layout?: Layout | null): MeasuredFormat[] {
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
  if (!layout?.batch) return m;
  let byLayout = batched.get(sizes);
  if (!byLayout) batched.set(sizes, (byLayout = new WeakMap()));
  let b = byLayout.get(layout);
  if (!b) {
    const single = m;
    // the delta form: the one the designer and the exports lead with. 100 messages a format keep
    // it under a second on the main thread; a format the batch cannot be carried in is left out,
    // and the fleet names it as having no measured sizes
    const { measured } = measureBatches(
      layout,
      single.map((x) => x.format),
      "delta",
      100,
    );
    b = measured.map((x) => ({ ...x, lossy: single.find((s) => s.format === x.format)?.lossy ?? false, errors: 0 }));
    byLayout.set(layout, b);
  }
  return b;
}
