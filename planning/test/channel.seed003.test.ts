// Seed 003 (Bacco, Colucci, Gotta, arXiv:1706.09787) reproduced by the channel simulator: one seed,
// the paper's 1000 exchanges; `npm run bench:channel` repeats it over several seeds.
import { beforeAll, describe, expect, it } from "vitest";
import { SEED003_TABLE2, SEED003_TABLE3 } from "../src/channel/presets.ts";
import { seed003Row, SEED003_STACKS, type Seed003Row } from "../src/channel/reproduce.ts";

let rows: Seed003Row[] = [];
const coap = (n: number): Seed003Row => rows.find((r) => r.nstart === n)!;
const mqtt = (): Seed003Row => rows.find((r) => r.nstart === null)!;

beforeAll(() => {
  rows = SEED003_STACKS.map((n) => seed003Row(n, 1000, 1));
});

describe("seed 003 Table II: aggregated goodput", () => {
  it("orders CoAP NSTART 1 < 2 < 3 < 4 < 5 < 10 < 100, MQTT between NSTART 5 and 10", () => {
    const order = [1, 2, 3, 4, 5, 10, 100].map((n) => coap(n).goodputKBps);
    for (let i = 1; i < order.length; i++) expect(order[i], `NSTART row ${i}`).toBeGreaterThan(order[i - 1]!);
    expect(mqtt().goodputKBps).toBeGreaterThan(coap(5).goodputKBps);
    expect(mqtt().goodputKBps).toBeLessThan(coap(10).goodputKBps);
  });

  it("each goodput is within ±25 % of the paper's", () => {
    for (const t of SEED003_TABLE2) {
      const r = t.nstart === undefined ? mqtt() : coap(t.nstart);
      expect(
        Math.abs(r.goodputKBps / t.goodputKBps - 1),
        `${r.label}: ${r.goodputKBps.toFixed(2)} vs ${t.goodputKBps} KB/s`,
      ).toBeLessThan(0.25);
    }
  });
});

describe("seed 003 Table III: normalized MAC offered load at λ⁻¹ = 1 s", () => {
  it("each NSTART's mean load is within ±25 % of the paper's, and grows with NSTART", () => {
    for (const t of SEED003_TABLE3) {
      const r = coap(t.nstart);
      expect(
        Math.abs(r.load.mean / t.mean - 1),
        `NSTART ${t.nstart}: ${r.load.mean.toFixed(4)} vs ${t.mean}`,
      ).toBeLessThan(0.25);
    }
    const means = SEED003_TABLE3.map((t) => coap(t.nstart).load.mean);
    for (let i = 1; i < means.length; i++) expect(means[i]).toBeGreaterThan(means[i - 1]!);
  });

  it("collisions stay negligible at these loads, as the paper says", () => {
    for (const r of rows) expect(r.collisionProbability).toBeLessThan(0.005);
  });
});

describe("seed 003 Fig. 4: completion time against packets per exchange", () => {
  const median = (r: Seed003Row, from: number): number => r.fig4.find((b) => b.from === from)!.p50;

  it("a larger NSTART completes every size band sooner (NSTART 1 … 10)", () => {
    for (const from of [10, 30, 100, 300]) {
      const t = [1, 2, 3, 4, 5, 10].map((n) => median(coap(n), from));
      for (let i = 1; i < t.length; i++) expect(t[i], `band from ${from} packets`).toBeLessThan(t[i - 1]!);
    }
  });

  it("stop-and-wait grows with the exchange at about one RTT per packet", () => {
    const r = coap(1);
    // the smallest exchanges (≥ 8 packets of 128 B for x_m = 931 B) already take several RTTs
    expect(median(r, 1)).toBeGreaterThan(4 * 0.52);
    expect(median(r, 300) / median(r, 10)).toBeGreaterThan(10);
  });

  it("MQTT starts slower than NSTART 10 (handshake, slow start) and ends comparable to it, below NSTART 5", () => {
    expect(median(mqtt(), 10)).toBeGreaterThan(median(coap(10), 10));
    const big = 1000;
    expect(median(mqtt(), big)).toBeLessThan(median(coap(5), big));
    expect(Math.abs(median(mqtt(), big) / median(coap(10), big) - 1)).toBeLessThan(0.25);
  });

  it("NSTART 100 beats MQTT on bursts longer than the bandwidth-delay product", () => {
    for (const from of [100, 300, 1000]) expect(median(coap(100), from)).toBeLessThan(median(mqtt(), from));
  });
});
