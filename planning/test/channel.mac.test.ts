// The MAC against theory: slotted ALOHA's S = G·e^(−G) and CRDSA's density-evolution curve (Liva 2011).
import { describe, expect, it } from "vitest";
import { Prng } from "#codecs";
import { macThroughput } from "../src/channel/mac.ts";
import { repetitionSlottedAlohaThroughput, slottedAlohaThroughput } from "../src/channel/theory.ts";

describe("slotted ALOHA", () => {
  it("throughput is G·e^(−G) within 2 % over G ∈ [0.05, 2]", () => {
    for (const G of [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 2]) {
      // enough slots that the binomial error of S is well under 1 % even at G = 0.05
      const blocks = G < 0.2 ? 20_000 : 4_000;
      const sim = macThroughput({ slotsPerBlock: 64, replicas: 1, maxIterations: 1 }, G, blocks, new Prng(17));
      const theory = slottedAlohaThroughput(G);
      expect(
        Math.abs(sim.throughput / theory - 1),
        `G=${G}: simulated ${sim.throughput}, theory ${theory}`,
      ).toBeLessThan(0.02);
    }
  });

  it("is deterministic per seed", () => {
    const mac = { slotsPerBlock: 64, replicas: 3, maxIterations: 16 };
    expect(macThroughput(mac, 0.6, 300, new Prng(5))).toEqual(macThroughput(mac, 0.6, 300, new Prng(5)));
    expect(macThroughput(mac, 0.6, 300, new Prng(5)).throughput).not.toBe(
      macThroughput(mac, 0.6, 300, new Prng(6)).throughput,
    );
  });
});

describe("CRDSA with iterative interference cancellation", () => {
  it("density evolution reproduces the published asymptotic thresholds (Liva 2011, Table I: d=2 0.5, d=3 0.818)", () => {
    const threshold = (d: number): number => {
      let lo = 0.1;
      let hi = 1.5;
      for (let i = 0; i < 40; i++) {
        const mid = (lo + hi) / 2;
        if (1 - repetitionSlottedAlohaThroughput(mid, d) / mid < 1e-6) lo = mid;
        else hi = mid;
      }
      return lo;
    };
    expect(threshold(2)).toBeCloseTo(0.5, 2);
    expect(threshold(3)).toBeCloseTo(0.818, 2);
  });

  it("CRDSA-2 and CRDSA-3 on large frames follow the density-evolution curve within 5 %", () => {
    const cases: Array<[number, number[]]> = [
      [2, [0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 1.0]],
      // the waterfall at 0.818 is where a finite frame necessarily departs from the asymptote
      [3, [0.2, 0.4, 0.6, 0.7, 0.95, 1.1]],
    ];
    for (const [replicas, loads] of cases) {
      for (const G of loads) {
        const sim = macThroughput({ slotsPerBlock: 2000, replicas, maxIterations: 200 }, G, 60, new Prng(3));
        const theory = repetitionSlottedAlohaThroughput(G, replicas);
        expect(
          Math.abs(sim.throughput / theory - 1),
          `CRDSA-${replicas} G=${G}: simulated ${sim.throughput}, density evolution ${theory}`,
        ).toBeLessThan(0.05);
      }
    }
  });

  it("CRDSA-3 on seed 003's 64-slot block beats slotted ALOHA and loses almost nothing at Table III's loads", () => {
    const crdsa = macThroughput({ slotsPerBlock: 64, replicas: 3, maxIterations: 16 }, 0.12, 5000, new Prng(9));
    expect(crdsa.packetLossRatio).toBeLessThan(0.002);
    const sa = macThroughput({ slotsPerBlock: 64, replicas: 1, maxIterations: 1 }, 0.12, 5000, new Prng(9));
    expect(sa.packetLossRatio).toBeGreaterThan(0.1);
  });
});
