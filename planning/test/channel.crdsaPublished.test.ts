// CRDSA on 100-slot frames against what is published for finite frames (issue #29 point 3), not
// only against the infinite-frame density-evolution curve of channel.mac.test.ts. Both references
// and the search that found them are in docs/channel.md ("CRDSA on 100-slot frames").
import { describe, expect, it } from "vitest";
import { Prng } from "#codecs";
import { type MacConfig, macThroughput } from "../src/channel/mac.ts";

/** Casini et al.'s frame: 100 slots, at most 16 cancellation passes, collision channel (mac.ts). */
const frame = (replicas: number): MacConfig => ({ slotsPerBlock: 100, replicas, maxIterations: 16 });

/**
 * Offered load G at which the simulated packet loss ratio crosses `target`, by bisection. Every
 * step reuses the same seed (common random numbers), so the estimate moves smoothly with G.
 */
function loadAtLossRatio(mac: MacConfig, target: number, blocks: number, seed: number): number {
  let lo = 0.01;
  let hi = 1.2;
  for (let i = 0; i < 13; i++) {
    const mid = (lo + hi) / 2;
    if (macThroughput(mac, mid, blocks, new Prng(seed)).packetLossRatio < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Packet loss ratio of CRDSA-3 in its error floor: a packet is lost when it belongs to a stopping
 * set, a group of packets every one of whose slots holds at least two of the group's replicas, so
 * cancellation never starts (Ivanov, Brännström, Graell i Amat, Popovski, "Error Floor Analysis of
 * Coded Slotted ALOHA over Packet Erasure Channels", IEEE Commun. Lett. 19(3), 2015, arXiv:1412.2888).
 * Derived here for 3 replicas in distinct slots of an n-slot frame, each packet's slot set uniform
 * over the N = C(n,3) sets, the other packets Poisson(G·n) (so each given set is drawn by
 * Poisson(x), x = G·n/N, of them). Summed over the three smallest stopping sets that contain a
 * given packet:
 * - another packet on the same 3 slots: x;
 * - two others on 4 slots (the packet's 3 + one more, each packet missing a different one):
 *   (n−3) choices of the 4th slot × 3 pairs of the other 3-subsets × x²;
 * - three others on 6 slots (the four packets are the corners of a tetrahedron, the slots its
 *   edges): C(n−3,3) choices of the new slots × 3! ways to pair them × x³.
 * Larger sets are orders of magnitude rarer at the loads tested; near the waterfall the floor
 * stops being the whole story, which is why the test stays at G ≤ 0.3.
 */
function crdsa3ErrorFloor(load: number, n: number): number {
  const sets = (n * (n - 1) * (n - 2)) / 6;
  const x = (load * n) / sets;
  const newTriples = ((n - 3) * (n - 4) * (n - 5)) / 6;
  return x + 3 * (n - 3) * x ** 2 + 6 * newTriples * x ** 3;
}

describe("CRDSA on 100-slot frames against published finite-frame results", () => {
  it("CRDSA-2 gains Casini et al.'s 17-fold throughput over slotted ALOHA at packet loss 2·10⁻²", () => {
    // Casini, De Gaudenzi, Herrero, IEEE Trans. Wireless Commun. 6(4), 2007: the abstract states a
    // 17-fold throughput improvement over slotted ALOHA at a packet loss ratio of 2·10⁻², naming
    // neither the replica count nor the frame. The paper's frame is 100 slots (the third-party
    // simulator afcuttin/crdsa sets a 100-slot frame in crdsa.m, citing the paper's p. 1413);
    // 2 replicas is the only count that gives 17 here (3 replicas: 30; see docs).
    const target = 0.02;
    // slotted ALOHA with Poisson load: loss 1 − e^(−G), throughput G·e^(−G) = G·(1 − loss)
    const alohaThroughput = -Math.log(1 - target) * (1 - target);
    const ratios = [1, 2].map(
      (seed) => (loadAtLossRatio(frame(2), target, 4000, seed) * (1 - target)) / alohaThroughput,
    );
    const mean = (ratios[0]! + ratios[1]!) / 2;
    // "17-fold" is rounded to a whole number: ±0.5. Monte-Carlo spread of this estimate, one seed
    // at 4000 frames, seeds 1–10: 16.81 … 17.42, mean 17.10, sd 0.195; the mean of two seeds has
    // sd 0.14, so 3 sd = 0.4 on top. What it tells apart (one seed each): 64-slot frames give 14.5,
    // 200-slot frames 20.8, CRDSA-3 30, CRDSA-2 with only 2 cancellation passes 13.8.
    expect(Math.abs(mean - 17), `CRDSA-2 gain over slotted ALOHA ${ratios.join(", ")}`).toBeLessThan(0.9);
  });

  it("CRDSA-3 packet loss at G = 0.3 equals the stopping-set error floor (Ivanov et al. 2015)", () => {
    const load = 0.3;
    const floor = crdsa3ErrorFloor(load, 100);
    let lost = 0;
    let sent = 0;
    for (let seed = 1; seed <= 5; seed++) {
      const p = macThroughput(frame(3), load, 20_000, new Prng(seed));
      lost += p.packetLossRatio * p.packets;
      sent += p.packets;
    }
    // Losses come mostly two at a time (a pair of packets on the same 3 slots), so the count of
    // loss events is ≈ Poisson with mean floor·sent/2 (≈ 300 here): 3 standard errors relative.
    const tolerance = 3 / Math.sqrt((floor * sent) / 2);
    expect(tolerance).toBeLessThan(0.2);
    expect(
      Math.abs(lost / sent / floor - 1),
      `simulated ${(lost / sent).toExponential(3)}, floor ${floor.toExponential(3)}`,
    ).toBeLessThan(tolerance);
  });
});
