// What the data sources offer: exchange sizes and arrivals (seed 003 §IV-B: exponential
// inter-arrivals with rate λ; payload drawn with probability 1/i… from Pareto distributions).
import type { Prng } from "#codecs";
import { ChannelConfigError } from "./mac.ts";

export interface ParetoComponent {
  /** scale x_m, bytes */
  xm: number;
  alpha: number;
  /** mixture weight (normalised over the components) */
  weight: number;
}

/** Sizes drawn from a weighted mixture of Pareto laws. */
export interface ParetoMixture {
  kind: "pareto-mixture";
  components: ParetoComponent[];
  /** sizes above this are cut to it (a finite horizon cannot deliver a 10^9 B burst anyway) */
  capBytes: number;
}

/** Sizes resampled from measured messages (the designer's size distribution of a layout). */
export interface EmpiricalSizes {
  kind: "empirical";
  sizes: number[];
  /** messages per exchange: a device sends one message per exchange */
  messagesPerExchange: number;
}

export type SizeModel = ParetoMixture | EmpiricalSizes;

export function checkSizeModel(m: SizeModel): void {
  if (m.kind === "pareto-mixture") {
    if (m.components.length === 0) throw new ChannelConfigError("the size mixture needs at least one component");
    for (const c of m.components) {
      if (!(c.xm > 0) || !(c.alpha > 0) || !(c.weight > 0))
        throw new ChannelConfigError("Pareto x_m, α and weight must be > 0");
    }
    if (!(m.capBytes >= 1)) throw new ChannelConfigError("the size cap must be ≥ 1 byte");
  } else {
    if (m.sizes.length === 0) throw new ChannelConfigError("no message sizes: measure the layout first");
    if (m.sizes.some((s) => !Number.isInteger(s) || s < 1))
      throw new ChannelConfigError("message sizes must be positive integers");
    if (!Number.isInteger(m.messagesPerExchange) || m.messagesPerExchange < 1)
      throw new ChannelConfigError("messages per exchange must be a positive integer");
  }
}

/** Bytes of application data one exchange carries. */
export function drawExchangeBytes(m: SizeModel, rng: Prng): number {
  if (m.kind === "empirical") {
    let sum = 0;
    for (let i = 0; i < m.messagesPerExchange; i++) sum += m.sizes[Math.floor(rng.next() * m.sizes.length)]!;
    return sum;
  }
  const total = m.components.reduce((s, c) => s + c.weight, 0);
  let u = rng.next() * total;
  let c = m.components[m.components.length - 1]!;
  for (const k of m.components) {
    if (u < k.weight) {
      c = k;
      break;
    }
    u -= k.weight;
  }
  // inverse CDF: x = x_m · U^(−1/α), U in (0, 1]
  const x = c.xm * (1 - rng.next()) ** (-1 / c.alpha);
  return Math.min(m.capBytes, Math.ceil(x));
}

/** Exponential inter-arrival with the given mean (seconds). */
export function drawInterArrival(mean: number, rng: Prng): number {
  return -mean * Math.log(1 - rng.next());
}
