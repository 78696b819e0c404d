// Closed-form references the MAC simulator is checked against.

/** Slotted ALOHA with Poisson offered load G (Roberts 1972): S = G·e^(−G). */
export function slottedAlohaThroughput(load: number): number {
  return load * Math.exp(-load);
}

/**
 * Asymptotic (frame → ∞) throughput of regular repetition slotted ALOHA with `replicas` copies
 * (CRDSA with ideal SIC) by density evolution over the bipartite graph (Liva, "Graph-Based
 * Analysis and Optimization of Contention Resolution Diversity Slotted ALOHA", IEEE Trans.
 * Commun. 59(2), 2011, eqs. 6–7 with Λ(x) = x^d and Poisson slot degrees):
 *   q_i = 1 − exp(−G·d·p_{i−1}),  p_i = q_i^(d−1),  PLR = q^d at the fixed point, S = G·(1 − PLR).
 */
export function repetitionSlottedAlohaThroughput(load: number, replicas: number, iterations = 10_000): number {
  if (replicas < 2) return slottedAlohaThroughput(load);
  let p = 1;
  let q = 1;
  for (let i = 0; i < iterations; i++) {
    q = 1 - Math.exp(-load * replicas * p);
    const next = q ** (replicas - 1);
    if (Math.abs(next - p) < 1e-13) {
      p = next;
      break;
    }
    p = next;
  }
  return load * (1 - q ** replicas);
}
