// The return-link simulator: data exchanges arrive at random terminals (RCSTs behind a CoAP proxy
// or an MQTT publisher), their transport sends packets into the terminal's FIFO, each terminal
// sends at most one packet per RA block (seed 003 §IV-B), the block is resolved by the MAC, and
// decoded packets reach the receiver half an RTT later; acknowledgements come back error-free.
import { Prng } from "#codecs";
import { EventQueue } from "./events.ts";
import {
  CoapFlow,
  TcpNewRenoFlow,
  type CoapTiming,
  type Flow,
  type FlowHost,
  type MqttSession,
  type Packet,
  type TcpTiming,
} from "./flows.ts";
import { BlockResolver, ChannelConfigError, checkMac, type MacConfig } from "./mac.ts";
import { checkSizeModel, drawExchangeBytes, drawInterArrival, type SizeModel } from "./workload.ts";

export interface ChannelConfig {
  mac: MacConfig;
  /** RA block duration (one block per superframe), s */
  blockDuration: number;
  /** bytes one slot carries after the burst's own framing */
  netSlotBytes: number;
  /** nominal round-trip time of the GEO hop, s */
  rtt: number;
  /** terminals (RCSTs) sharing the RA channel */
  terminals: number;
}

export type TransportConfig =
  | {
      kind: "coap";
      nstart: number;
      /** bytes of IP+UDP+CoAP headers per packet, Block option included */ headerBytes: number;
      /** RFC 7959 block size: payload bytes per packet */ blockSize: number;
      /** a message up to this size goes whole in one datagram (no Block option) */ singlePacketBytes: number;
      timing: CoapTiming;
    }
  | { kind: "mqtt-tcp"; /** IP+TCP headers per segment */ headerBytes: number; mqtt: MqttSession; timing: TcpTiming };

export interface ScenarioConfig {
  channel: ChannelConfig;
  transport: TransportConfig;
  sizes: SizeModel;
  /** λ⁻¹: mean time between exchanges over the whole network, s */
  meanInterArrival: number;
  /** explicit arrival times (s, within the horizon) instead of the Poisson process, e.g. a replayed device log */
  arrivals?: readonly number[];
  /** exchanges arrive during [0, horizon); goodput and load are measured over it, s */
  horizon: number;
  /** time after the horizon given to running exchanges to finish (completion statistics), s */
  drain: number;
  seed: number;
}

export interface LoadStats {
  mean: number;
  p25: number;
  p75: number;
}

export interface CompletionStats {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
}

export interface ScenarioResult {
  exchanges: number;
  completed: number;
  /** exchanges the sender gave up on (CoAP MAX_RETRANSMIT) */
  failed: number;
  /** application bytes delivered in order during the horizon, per second */
  goodputBytesPerSecond: number;
  /** packets (not replicas) sent per slot, over 1 s windows of the horizon */
  offeredLoad: LoadStats;
  packetsSent: number;
  packetsLost: number;
  /** packets lost to collisions after interference cancellation / packets sent */
  collisionProbability: number;
  completion: CompletionStats;
  /** completed exchanges: packets needed and completion time (Fig. 4) */
  exchangesDone: Array<{ packets: number; bytes: number; seconds: number }>;
}

export type Progress = (fraction: number) => void;

export function checkScenario(c: ScenarioConfig): void {
  checkMac(c.channel.mac);
  const ch = c.channel;
  if (!(ch.blockDuration > 0)) throw new ChannelConfigError("block duration must be > 0");
  if (!(ch.rtt >= 0)) throw new ChannelConfigError("RTT must be ≥ 0");
  if (!Number.isInteger(ch.terminals) || ch.terminals < 1)
    throw new ChannelConfigError("terminals must be a positive integer");
  if (!Number.isInteger(ch.netSlotBytes) || ch.netSlotBytes < 1)
    throw new ChannelConfigError("net slot size must be a positive integer");
  if (c.transport.headerBytes >= ch.netSlotBytes)
    throw new ChannelConfigError(
      `the stack's ${c.transport.headerBytes} B of headers leave nothing of a ${ch.netSlotBytes} B slot`,
    );
  if (c.transport.kind === "coap") {
    if (!Number.isInteger(c.transport.nstart) || c.transport.nstart < 1)
      throw new ChannelConfigError("NSTART must be a positive integer");
    if (c.transport.headerBytes + c.transport.blockSize > ch.netSlotBytes)
      throw new ChannelConfigError(
        `a ${c.transport.blockSize} B block with ${c.transport.headerBytes} B of headers does not fit a ${ch.netSlotBytes} B slot`,
      );
  }
  if (!(c.meanInterArrival > 0)) throw new ChannelConfigError("mean inter-arrival must be > 0");
  if (!(c.horizon > 0) || !(c.drain >= 0)) throw new ChannelConfigError("horizon must be > 0 and drain ≥ 0");
  checkSizeModel(c.sizes);
}

class Fifo {
  private items: Packet[] = [];
  private head = 0;
  get length(): number {
    return this.items.length - this.head;
  }
  push(p: Packet): void {
    this.items.push(p);
  }
  shift(): Packet {
    const p = this.items[this.head++]!;
    if (this.head > 4096 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return p;
  }
}

function quantile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

export function simulateScenario(config: ScenarioConfig, onProgress?: Progress): ScenarioResult {
  checkScenario(config);
  const { channel: ch, transport: tr } = config;
  const rng = new Prng(config.seed);
  // separate streams so the MAC's draws do not shift the workload between transports
  const arrivalsRng = new Prng(config.seed * 7919 + 1);
  const macRng = new Prng(config.seed * 104_729 + 2);
  const events = new EventQueue();
  let now = 0;
  // one FIFO per terminal, created on first use; only terminals holding packets are visited per block
  const queues = new Map<number, Fifo>();
  let busy: number[] = [];
  const isBusy = new Set<number>();
  const terminalOf = new Map<Flow, number>();
  const host: FlowHost = {
    now: () => now,
    enqueue: (p) => {
      const t = terminalOf.get(p.flow)!;
      let q = queues.get(t);
      if (!q) queues.set(t, (q = new Fifo()));
      q.push(p);
      if (!isBusy.has(t)) {
        isBusy.add(t);
        busy.push(t);
      }
    },
    at: (time, run) => events.push(time, run),
    back: (run) => {
      const backAt = now + ch.rtt / 2;
      events.push(backAt, () => {
        now = backAt;
        run();
      });
    },
    rng,
  };
  const flows: Flow[] = [];
  const active = new Set<Flow>();
  const payloadPerPacket = tr.kind === "coap" ? tr.blockSize : ch.netSlotBytes - tr.headerBytes;
  const arrive = (t: number) => {
    now = t;
    const bytes = drawExchangeBytes(config.sizes, arrivalsRng);
    const id = flows.length;
    const flow: Flow =
      tr.kind === "coap"
        ? new CoapFlow(id, t, bytes, payloadPerPacket, tr.singlePacketBytes, tr.nstart, tr.timing, host)
        : new TcpNewRenoFlow(id, t, bytes, tr.mqtt, payloadPerPacket, tr.timing, host);
    const terminal = Math.floor(arrivalsRng.next() * ch.terminals);
    terminalOf.set(flow, terminal);
    flows.push(flow);
    active.add(flow);
    flow.start();
    if (config.arrivals) return;
    const next = t + drawInterArrival(config.meanInterArrival, arrivalsRng);
    if (next < config.horizon) events.push(next, () => arrive(next));
  };
  if (config.arrivals) {
    for (const at of config.arrivals) if (at >= 0 && at < config.horizon) events.push(at, () => arrive(at));
  } else {
    const firstAt = drawInterArrival(config.meanInterArrival, arrivalsRng);
    events.push(firstAt, () => arrive(firstAt));
  }

  const resolver = new BlockResolver(ch.mac);
  const oneWay = ch.rtt / 2;
  const blocksPerWindow = Math.max(1, Math.round(1 / ch.blockDuration));
  const windowLoads: number[] = [];
  let windowPackets = 0;
  let windowBlocks = 0;
  let sent = 0;
  let lost = 0;
  let delivered = 0;
  const horizonBlocks = Math.ceil(config.horizon / ch.blockDuration);
  const totalBlocks = Math.ceil((config.horizon + config.drain) / ch.blockDuration);
  const senders: Packet[] = [];
  const progressEvery = Math.max(1, Math.floor(totalBlocks / 100));

  for (let b = 0; b < totalBlocks; b++) {
    now = b * ch.blockDuration;
    events.runUntil(now);
    if (b >= horizonBlocks) {
      for (const f of active) if (f.failed) active.delete(f);
      if (active.size === 0) break;
    }
    senders.length = 0;
    const stillBusy: number[] = [];
    for (const t of busy) {
      const q = queues.get(t)!;
      senders.push(q.shift());
      if (q.length > 0) stillBusy.push(t);
      else isBusy.delete(t);
    }
    busy = stillBusy;
    const decoded = senders.length > 0 ? resolver.resolve(senders.length, macRng) : undefined;
    for (let i = 0; i < senders.length; i++) {
      const p = senders[i]!;
      p.flow.onAir(p.seq);
      if (!decoded![i]) {
        lost++;
        continue;
      }
      const arriveAt = now + ch.blockDuration + oneWay;
      events.push(arriveAt, () => {
        now = arriveAt;
        const bytes = p.flow.receive(p.seq);
        if (arriveAt <= config.horizon) delivered += bytes;
        if (p.flow.completedAt !== undefined) active.delete(p.flow);
      });
    }
    sent += senders.length;
    if (b < horizonBlocks) {
      windowPackets += senders.length;
      if (++windowBlocks === blocksPerWindow) {
        windowLoads.push(windowPackets / (blocksPerWindow * ch.mac.slotsPerBlock));
        windowPackets = 0;
        windowBlocks = 0;
      }
    }
    if (onProgress && b % progressEvery === 0) onProgress(b / totalBlocks);
  }
  onProgress?.(1);

  const done = flows.filter((f) => f.completedAt !== undefined);
  const times = Float64Array.from(done.map((f) => f.completedAt! - f.arrival)).sort();
  const loads = Float64Array.from(windowLoads).sort();
  const loadMean = loads.reduce((s, v) => s + v, 0) / Math.max(1, loads.length);
  return {
    exchanges: flows.length,
    completed: done.length,
    failed: flows.filter((f) => f.failed).length,
    goodputBytesPerSecond: delivered / config.horizon,
    offeredLoad: { mean: loadMean, p25: quantile(loads, 0.25), p75: quantile(loads, 0.75) },
    packetsSent: sent,
    packetsLost: lost,
    collisionProbability: sent === 0 ? 0 : lost / sent,
    completion: {
      count: times.length,
      mean: times.reduce((s, v) => s + v, 0) / Math.max(1, times.length),
      p50: quantile(times, 0.5),
      p95: quantile(times, 0.95),
      p99: quantile(times, 0.99),
    },
    exchangesDone: done.map((f) => ({ packets: f.packets, bytes: f.appBytes, seconds: f.completedAt! - f.arrival })),
  };
}
