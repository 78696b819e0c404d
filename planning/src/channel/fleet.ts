// A user's fleet on a channel: every device is a terminal, every message an exchange; the stack's
// headers come from the overhead model, the sizes from the layout's measured distribution.
import { ChannelConfigError } from "./mac.ts";
import { COAP_DEVICE_TIMING, SEED003_CHANNEL, TCP_DEFAULT_TIMING } from "./presets.ts";
import {
  simulateScenario,
  type ChannelConfig,
  type CompletionStats,
  type LoadStats,
  type Progress,
  type ScenarioConfig,
  type TransportConfig,
} from "./scenario.ts";
import { ingestTopic } from "../transport/ingest.ts";
import { coapOverhead, mqttConnectBytes, mqttOverhead, mqttPublishHeaderBytes } from "../transport/overhead.ts";

export type FleetStack = { kind: "coap"; nstart: number } | { kind: "mqtt" };

export interface FleetInput {
  devices: number;
  messagesPerDay: number;
  /** measured message sizes of the chosen format, bytes */
  sizes: number[];
  stack: FleetStack;
  channel: ChannelConfig;
  /** simulated seconds of arrivals */
  horizon: number;
  seed: number;
  /** names the CoAP resource and the MQTT topic */
  layout: string;
  format: string;
}

export function stackLabel(s: FleetStack): string {
  return s.kind === "coap" ? `CoAP/UDP NSTART ${s.nstart}` : "MQTT/TCP";
}

/** The largest power-of-two block (RFC 7959: 16…1024) that fits the slot beside `headers` bytes. */
function largestBlock(slot: number, headers: number): number {
  let b = 1024;
  while (b >= 16 && b + headers > slot) b /= 2;
  if (b < 16)
    throw new ChannelConfigError(`a ${slot} B slot has no room for a CoAP block beside ${headers} B of headers`);
  return b;
}

export function fleetTransport(input: Pick<FleetInput, "stack" | "channel" | "layout" | "format">): TransportConfig {
  const slot = input.channel.netSlotBytes;
  if (input.stack.kind === "coap") {
    const base = {
      ip: 4 as const,
      confirmable: true,
      tokenLength: 2,
      uriPath: ["telemetry", input.layout],
      dtls: false,
    };
    const whole = coapOverhead(base, 1).overhead;
    const blockHeaders = coapOverhead({ ...base, block: { option: "block1", num: 0xffff, size: 16 } }, 1).overhead;
    const blockSize = largestBlock(slot, blockHeaders);
    return {
      kind: "coap",
      nstart: input.stack.nstart,
      headerBytes: blockHeaders,
      blockSize,
      singlePacketBytes: Math.max(0, slot - whole),
      timing: COAP_DEVICE_TIMING,
    };
  }
  const topic = ingestTopic({ layout: input.layout, format: input.format });
  const publishHeaderBytes = mqttPublishHeaderBytes({ version: "3.1.1", qos: 1, topic }, 100);
  const tcpIp =
    mqttOverhead({ version: "3.1.1", qos: 1, topic, ip: 4, tls: "none", tcpTimestamps: true }, 100).overhead -
    publishHeaderBytes;
  if (tcpIp >= slot) throw new ChannelConfigError(`a ${slot} B slot has no room beside ${tcpIp} B of TCP/IP headers`);
  // one PUBLISH per device message: the device sends what it measured, not slot-sized pieces
  return {
    kind: "mqtt-tcp",
    headerBytes: tcpIp,
    mqtt: {
      connectBytes: mqttConnectBytes("3.1.1", "satpayload-device-0001"),
      publishHeaderBytes,
      messageBytes: Number.MAX_SAFE_INTEGER,
      inflight: 20,
    },
    timing: TCP_DEFAULT_TIMING,
  };
}

export function fleetScenario(input: FleetInput, loadFactor = 1): ScenarioConfig {
  if (!Number.isInteger(input.devices) || input.devices < 1)
    throw new ChannelConfigError("devices must be a positive integer");
  if (!(input.messagesPerDay > 0)) throw new ChannelConfigError("messages per day must be > 0");
  if (!(loadFactor > 0)) throw new ChannelConfigError("load factor must be > 0");
  const perSecond = (input.devices * input.messagesPerDay * loadFactor) / 86_400;
  return {
    channel: { ...input.channel, terminals: input.devices },
    transport: fleetTransport(input),
    sizes: { kind: "empirical", sizes: input.sizes, messagesPerExchange: 1 },
    meanInterArrival: 1 / perSecond,
    horizon: Math.min(input.horizon, Math.max(10 * input.channel.rtt, MAX_EXCHANGES_PER_POINT / perSecond)),
    drain: 120,
    seed: input.seed,
  };
}

/** Packets one message of `bytes` needs on this transport, handshakes included. */
export function packetsPerMessage(t: TransportConfig, slot: number, bytes: number): number {
  if (t.kind === "coap") return bytes <= t.singlePacketBytes ? 1 : Math.ceil(bytes / t.blockSize);
  const mss = slot - t.headerBytes;
  return 1 + Math.ceil(t.mqtt.connectBytes / mss) + Math.ceil((t.mqtt.publishHeaderBytes + bytes) / mss);
}

/**
 * Load factors that put the channel near each normalized load (packets per slot) in `targets`,
 * from the fleet's mean message size; the fleet itself (factor 1) always comes first.
 */
export function loadFactorsFor(input: FleetInput, targets: readonly number[]): number[] {
  const t = fleetTransport(input);
  const mean = input.sizes.reduce((s, v) => s + v, 0) / input.sizes.length;
  const packets = packetsPerMessage(t, input.channel.netSlotBytes, Math.round(mean));
  const slotsPerSecond = input.channel.mac.slotsPerBlock / input.channel.blockDuration;
  const ownRate = (input.devices * input.messagesPerDay) / 86_400;
  const ownLoad = (ownRate * packets) / slotsPerSecond;
  const factors = [1];
  for (const g of targets) if (g > ownLoad * 1.5) factors.push(g / ownLoad);
  return factors;
}

/** Arrivals stop after this many exchanges per point, so a sweep stays a few seconds of work. */
export const MAX_EXCHANGES_PER_POINT = 20_000;

export interface FleetPoint {
  /** multiple of the fleet's own traffic */
  loadFactor: number;
  messagesPerSecond: number;
  offeredLoad: LoadStats;
  collisionProbability: number;
  completion: CompletionStats;
  goodputBytesPerSecond: number;
  exchanges: number;
  completed: number;
  failed: number;
  /** simulated seconds of arrivals at this point */
  horizon: number;
}

export interface FleetResult {
  stack: string;
  points: FleetPoint[];
}

/** The fleet at each load factor (1 = as configured), for the completion-vs-load chart. */
export function simulateFleet(input: FleetInput, loadFactors: readonly number[], onProgress?: Progress): FleetResult {
  const points: FleetPoint[] = [];
  loadFactors.forEach((f, i) => {
    const config = fleetScenario(input, f);
    const r = simulateScenario(config, onProgress ? (x) => onProgress((i + x) / loadFactors.length) : undefined);
    points.push({
      loadFactor: f,
      messagesPerSecond: 1 / config.meanInterArrival,
      offeredLoad: r.offeredLoad,
      collisionProbability: r.collisionProbability,
      completion: r.completion,
      goodputBytesPerSecond: r.goodputBytesPerSecond,
      exchanges: r.exchanges,
      completed: r.completed,
      failed: r.failed,
      horizon: config.horizon,
    });
  });
  return { stack: stackLabel(input.stack), points };
}

export const DEFAULT_FLEET_CHANNEL: ChannelConfig = SEED003_CHANNEL;
