// Splits the formats over the sizes workers so each has about the same work (longest job first). The split is made
// once: each worker keeps its formats' size columns cached, which moving a format to another worker would throw away.
import { FORMAT_MODULES, type FormatId } from "#codecs";

/** Relative encode cost per format. */
export type Costs = Partial<Record<FormatId, number>>;

export function costOf(costs: Costs, f: FormatId): number {
  // until a worker reports its formats' own times: each format's declared cost (FormatModule.workerCost)
  return costs[f] ?? FORMAT_MODULES[f].workerCost;
}

export function partition(formats: readonly FormatId[], workers: number, costs: Costs): FormatId[][] {
  const shares: FormatId[][] = Array.from({ length: Math.max(1, workers) }, () => []);
  const loads = shares.map(() => 0);
  const byCost = [...formats].sort((a, b) => costOf(costs, b) - costOf(costs, a));
  for (const f of byCost) {
    let i = 0;
    for (let j = 1; j < loads.length; j++) if (loads[j]! < loads[i]!) i = j;
    shares[i]!.push(f);
    loads[i]! += costOf(costs, f);
  }
  // keep the table order inside each share: results are merged back by format anyway
  for (const s of shares) s.sort((a, b) => formats.indexOf(a) - formats.indexOf(b));
  return shares;
}
