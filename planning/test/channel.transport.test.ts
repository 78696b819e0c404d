// The transports on an empty channel, against what their protocols make them take: stop-and-wait
// needs one round trip per message, a window of 10 sends ten back to back, TCP pays a handshake
// and slow start; and CoAP devices give up after MAX_RETRANSMIT when the channel collapses.
import { describe, expect, it } from "vitest";
import { fleetScenario, fleetTransport } from "../src/channel/fleet.ts";
import { coapTransport, mqttTransport, SEED003_CHANNEL } from "../src/channel/presets.ts";
import { simulateScenario, type ScenarioConfig, type TransportConfig } from "../src/channel/scenario.ts";

const BLOCK = SEED003_CHANNEL.blockDuration;
const RTT = SEED003_CHANNEL.rtt;
/** one message per round: sent at a block start, acknowledged RTT + one block later, next sent at the following block start */
const ROUND = Math.ceil((RTT + BLOCK) / BLOCK - 1e-9) * BLOCK;

/** One exchange of `bytes` on an otherwise idle seed 003 channel. */
function alone(transport: TransportConfig, bytes: number): number {
  const config: ScenarioConfig = {
    channel: { ...SEED003_CHANNEL, terminals: 1 },
    transport,
    sizes: { kind: "empirical", sizes: [bytes], messagesPerExchange: 1 },
    meanInterArrival: 1,
    arrivals: [0],
    horizon: 1,
    drain: 120,
    seed: 4,
  };
  const r = simulateScenario(config);
  expect(r.exchanges).toBe(1);
  expect(r.completed).toBe(1);
  expect(r.collisionProbability).toBe(0);
  return r.completion.p50;
}

describe("transports alone on the channel", () => {
  it("CoAP stop-and-wait delivers n blocks in n − 1 rounds plus one transmission", () => {
    const t = alone(coapTransport(1), 10 * 128);
    const lastHop = BLOCK + RTT / 2;
    expect(t).toBeGreaterThanOrEqual(9 * ROUND + lastHop - 1e-9);
    expect(t).toBeLessThanOrEqual(9 * ROUND + lastHop + BLOCK + 1e-9);
  });

  it("CoAP NSTART 10 sends ten blocks in ten consecutive RA blocks", () => {
    const t = alone(coapTransport(10), 10 * 128);
    expect(t).toBeGreaterThanOrEqual(10 * BLOCK + RTT / 2 - 1e-9);
    expect(t).toBeLessThanOrEqual(11 * BLOCK + RTT / 2 + 1e-9);
  });

  it("MQTT over TCP: handshake, then slow start from one segment (delayed ACKs every 2nd)", () => {
    // 1 message of 1 byte: SYN round, then CONNECT + PUBLISH in segments sent with cwnd 1, 2…
    const small = alone(mqttTransport(), 1);
    expect(small).toBeGreaterThanOrEqual(ROUND + BLOCK + RTT / 2 - 1e-9);
    // 30 slot-sized messages need several slow-start rounds: far more than 30 back-to-back blocks
    const big = alone(mqttTransport(), 30 * 110);
    expect(big).toBeGreaterThan(ROUND + 4 * ROUND);
    expect(big).toBeLessThan(ROUND + 12 * ROUND);
  });
});

describe("fleet transport", () => {
  const base = { channel: SEED003_CHANNEL, layout: "paper", format: "protobuf" };

  it("a CoAP message that fits the slot beside its headers goes whole, a larger one in the largest power-of-two block that fits", () => {
    const t = fleetTransport({ ...base, stack: { kind: "coap", nstart: 1 } });
    if (t.kind !== "coap") throw new Error("expected CoAP");
    expect(t.singlePacketBytes).toBeGreaterThan(100);
    // the largest power of two beside the Block1 headers: 2 × block no longer fits
    expect(Number.isInteger(Math.log2(t.blockSize))).toBe(true);
    expect(t.headerBytes + t.blockSize).toBeLessThanOrEqual(SEED003_CHANNEL.netSlotBytes);
    expect(t.headerBytes + 2 * t.blockSize).toBeGreaterThan(SEED003_CHANNEL.netSlotBytes);
  });

  it("CoAP devices give up after MAX_RETRANSMIT when slotted ALOHA on one slot is flooded", () => {
    const config = fleetScenario({
      ...base,
      devices: 200,
      messagesPerDay: 86_400 * 4,
      sizes: [20],
      stack: { kind: "coap", nstart: 1 },
      channel: { ...SEED003_CHANNEL, mac: { slotsPerBlock: 1, replicas: 1, maxIterations: 1 } },
      horizon: 5,
      seed: 2,
    });
    const r = simulateScenario(config);
    expect(r.collisionProbability).toBeGreaterThan(0.5);
    expect(r.failed).toBeGreaterThan(0);
    expect(r.completed + r.failed).toBeLessThanOrEqual(r.exchanges);
  });
});
