// Seed 003's parameters as the text gives them, and what its own tables allow a packet to carry.
// Bounded: one 120-s run (well under a second of simulation); no wall-clock assertions.
import { describe, expect, it } from "vitest";
import {
  coapTransport,
  SEED003_CHANNEL,
  SEED003_COAP_BLOCK,
  SEED003_COAP_HEADER_BYTES,
  SEED003_SIZES,
  seed003Scenario,
} from "../src/channel/presets.ts";
import { KB, seed003Row } from "../src/channel/reproduce.ts";
import { simulateScenario } from "../src/channel/scenario.ts";
import {
  feasibleBytesPerPacket,
  paperBytesPerPacket,
  rowsOutside,
  SEED003_BDP_PACKETS,
  SEED003_SLOTS_PER_SECOND,
} from "../src/channel/seed003Bounds.ts";

describe("seed 003 parameters derived from Table I and §IV-B", () => {
  it("uses Table I's channel: 3-CRDSA, one 13 ms block of 64 slots, 182 B net slot, RTT 0.52 s", () => {
    expect(SEED003_CHANNEL.mac.replicas).toBe(3);
    expect(SEED003_CHANNEL.mac.slotsPerBlock).toBe(64);
    expect(SEED003_CHANNEL.blockDuration).toBe(0.013);
    expect(SEED003_CHANNEL.netSlotBytes).toBe(182);
    expect(SEED003_CHANNEL.rtt).toBe(0.52);
    expect(SEED003_SIZES.components.map((c) => [c.xm, c.alpha, c.weight])).toEqual([
      [931, 1.1, 1],
      [9532, 1.1, 1],
      [47663, 1.1, 1],
    ]);
  });

  it("one packet per RA block and terminal gives §V's bandwidth-delay product of ≈ 40 CoAP packets", () => {
    expect(SEED003_BDP_PACKETS).toBeCloseTo(40, 6);
  });

  it("the CoAP block is the largest power of two that fits the net slot beside its headers", () => {
    expect(SEED003_COAP_HEADER_BYTES + SEED003_COAP_BLOCK).toBeLessThanOrEqual(SEED003_CHANNEL.netSlotBytes);
    expect(SEED003_COAP_HEADER_BYTES + 2 * SEED003_COAP_BLOCK).toBeGreaterThan(SEED003_CHANNEL.netSlotBytes);
    expect(Math.log2(SEED003_COAP_BLOCK) % 1).toBe(0);
  });
});

describe("what Tables II and III imply per packet (no simulator involved)", () => {
  it("the paper delivered ≈ 100 B per packet sent at NSTART 1–10 and ≈ 137 B at NSTART 100", () => {
    const rows = paperBytesPerPacket(KB);
    for (const r of rows.filter((x) => x.nstart <= 10)) expect(r.bytesPerPacket).toBeGreaterThan(99);
    for (const r of rows.filter((x) => x.nstart <= 10)) expect(r.bytesPerPacket).toBeLessThan(103);
    expect(rows.find((r) => r.nstart === 100)!.bytesPerPacket).toBeCloseTo(137.5, 1);
    expect(SEED003_SLOTS_PER_SECOND).toBeCloseTo(4923.08, 2);
  });

  it("only 112.5–121.8 B per packet can put every CoAP row of both tables within ±10 %", () => {
    const w = feasibleBytesPerPacket(0.1, KB);
    expect(w.low).toBeCloseTo(112.53, 1);
    expect(w.high).toBeCloseTo(121.77, 1);
    // with KB = 1000 B the window moves down by 2.3 %, it does not widen
    const w1000 = feasibleBytesPerPacket(0.1, 1000);
    expect(w1000.high - w1000.low).toBeCloseTo((w.high - w.low) * (1000 / 1024), 6);
    expect(() => feasibleBytesPerPacket(0, KB)).toThrow(RangeError);
  });

  it("the simulator delivers its whole block per packet sent, 5 % above that window", () => {
    // seed 003's loads lose almost nothing to collisions, so goodput / (load × slots/s) is the block
    const r = simulateScenario(seed003Scenario(coapTransport(10), 120, 1));
    const perPacket = r.goodputBytesPerSecond / (r.offeredLoad.mean * SEED003_SLOTS_PER_SECOND);
    expect(r.collisionProbability).toBeLessThan(0.005);
    expect(perPacket / SEED003_COAP_BLOCK).toBeGreaterThan(0.95);
    expect(perPacket).toBeLessThanOrEqual(SEED003_COAP_BLOCK * 1.01);
    expect(SEED003_COAP_BLOCK).toBeGreaterThan(feasibleBytesPerPacket(0.1, KB).high);
  });
});

describe("rowsOutside: the rows the CLI names as missing ±10 %", () => {
  // a 20-s run only for a row's shape; its numbers are replaced below
  const base = seed003Row(10, 20, 1);
  const paperLoad = base.paperLoad!.mean;
  const at = (g: number, l: number) => ({
    ...base,
    goodputKBps: base.paperGoodputKBps * g,
    load: { ...base.load, mean: paperLoad * l },
  });

  it("names a row whose goodput or load is more than 10 % off, and only those", () => {
    expect(rowsOutside([at(1.05, 0.95)])).toEqual([]);
    expect(rowsOutside([at(1.11, 1)]).map((o) => o.label)).toEqual([base.label]);
    const low = rowsOutside([at(1, 0.89)]);
    expect(low).toHaveLength(1);
    expect(low[0]!.loadError).toBeCloseTo(-0.11, 9);
    // MQTT has no Table III load: judged on goodput alone
    expect(rowsOutside([{ ...at(1.02, 5), paperLoad: null }])).toEqual([]);
  });
});
