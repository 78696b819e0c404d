// Random-access MAC on one RA block: slotted ALOHA (1 replica) or CRDSA (N replicas per packet in
// distinct slots, receiver cancels the replicas of every decoded packet and iterates; Casini,
// De Gaudenzi, Herrero, IEEE Trans. Wireless Commun. 6(4), 2007). Collision model: a slot decodes
// iff exactly one not-yet-cancelled replica is in it (no capture, ideal cancellation).
import type { Prng } from "#codecs";

export interface MacConfig {
  slotsPerBlock: number;
  /** 1 = slotted ALOHA; 2, 3… = CRDSA with that many replicas */
  replicas: number;
  /** SIC iterations at most (Casini et al. use up to 16; CRDSA converges in a few) */
  maxIterations: number;
}

export class ChannelConfigError extends Error {
  override name = "ChannelConfigError";
}

export function checkMac(m: MacConfig): void {
  if (!Number.isInteger(m.slotsPerBlock) || m.slotsPerBlock < 1)
    throw new ChannelConfigError(`slots per block must be a positive integer, got ${m.slotsPerBlock}`);
  if (!Number.isInteger(m.replicas) || m.replicas < 1 || m.replicas > m.slotsPerBlock)
    throw new ChannelConfigError(`replicas must be 1..slots per block, got ${m.replicas}`);
  if (!Number.isInteger(m.maxIterations) || m.maxIterations < 1)
    throw new ChannelConfigError(`SIC iterations must be a positive integer, got ${m.maxIterations}`);
}

/** Reusable buffers for resolving blocks of up to `capacity` packets. */
export class BlockResolver {
  private readonly count: Int32Array;
  /** slot → xor of the indices + 1 of its live replicas: the single survivor's id when count is 1 */
  private readonly xor: Int32Array;
  private placed = new Int32Array(0);
  private decoded = new Uint8Array(0);

  constructor(private readonly mac: MacConfig) {
    checkMac(mac);
    this.count = new Int32Array(mac.slotsPerBlock);
    this.xor = new Int32Array(mac.slotsPerBlock);
  }

  /** Places `n` packets' replicas at random and returns which decoded (1) after SIC. */
  resolve(n: number, rng: Prng): Uint8Array {
    const { slotsPerBlock: m, replicas: r } = this.mac;
    if (this.placed.length < n * r) this.placed = new Int32Array(n * r * 2);
    if (this.decoded.length < n) this.decoded = new Uint8Array(n * 2);
    const placed = this.placed;
    const decoded = this.decoded;
    this.count.fill(0);
    this.xor.fill(0);
    decoded.fill(0, 0, n);
    for (let p = 0; p < n; p++) {
      for (let k = 0; k < r; k++) {
        // distinct slots per packet: redraw on a repeat (r ≪ m)
        let s: number;
        do s = Math.floor(rng.next() * m);
        while (repeats(placed, p * r, k, s));
        placed[p * r + k] = s;
        this.count[s]!++;
        this.xor[s]! ^= p + 1;
      }
    }
    const iterations = r === 1 ? 1 : this.mac.maxIterations;
    for (let it = 0; it < iterations; it++) {
      let progress = false;
      for (let s = 0; s < m; s++) {
        if (this.count[s] !== 1) continue;
        const p = this.xor[s]! - 1;
        decoded[p] = 1;
        progress = true;
        // cancel every replica of p (its clean one included)
        for (let k = 0; k < r; k++) {
          const t = placed[p * r + k]!;
          this.count[t]!--;
          this.xor[t]! ^= p + 1;
        }
      }
      if (!progress) break;
    }
    return decoded.subarray(0, n);
  }
}

function repeats(placed: Int32Array, base: number, k: number, s: number): boolean {
  for (let j = 0; j < k; j++) if (placed[base + j] === s) return true;
  return false;
}

/** Poisson(mean) by inversion (Knuth for small means, normal approximation never needed here). */
export function poisson(mean: number, rng: Prng): number {
  if (mean <= 0) return 0;
  if (mean > 500) return Math.max(0, Math.round(rng.normal(mean, Math.sqrt(mean))));
  // log-space product so large means do not underflow
  let k = 0;
  let sum = -Math.log(1 - rng.next());
  while (sum < mean) {
    k++;
    sum += -Math.log(1 - rng.next());
  }
  return k;
}

export interface MacPoint {
  /** offered load: packets (not replicas) per slot */
  load: number;
  /** decoded packets per slot */
  throughput: number;
  packetLossRatio: number;
  packets: number;
}

/** Throughput at offered load G: Poisson(G·slots) packets per block, `blocks` blocks. */
export function macThroughput(mac: MacConfig, load: number, blocks: number, rng: Prng): MacPoint {
  const resolver = new BlockResolver(mac);
  let sent = 0;
  let ok = 0;
  for (let b = 0; b < blocks; b++) {
    const n = poisson(load * mac.slotsPerBlock, rng);
    if (n === 0) continue;
    const d = resolver.resolve(n, rng);
    sent += n;
    for (let i = 0; i < n; i++) ok += d[i]!;
  }
  const slots = blocks * mac.slotsPerBlock;
  return { load, throughput: ok / slots, packetLossRatio: sent === 0 ? 0 : 1 - ok / sent, packets: sent };
}
