// Which protocol stack carries a payload on a platform, and the bytes on air that follow from it: the one rule
// the designer, the cost model, the fragmentation planner and the report apply.
//
// A modem link (Astronode, Kinéis, Iridium SBD, Sigfox, ORBCOMM, LoRaWAN) takes the payload itself: the
// operator frames it and counts payload bytes, so the only stack is "raw". An IP link (NB-IoT / LTE-M, TN or
// NTN) carries datagrams: every message pays its stack's headers, and the operator's volume counter sees them.
import { summarize, type SizeStats } from "#codecs/analysis";
import { OverheadError, type LayerBytes } from "./overhead.ts";
import { schcLinkFragmenter, type SchcFragMode } from "./schc.ts";
import { STACK_IDS, stackOverhead, type StackContext, type StackId } from "./stacks.ts";
import type { Platform } from "../platforms/catalog.ts";

/**
 * The IP default: CoAP confirmable over UDP/IPv4 without DTLS. It is what constrained NB-IoT devices speak
 * (LwM2M runs on it), the lightest stack that still acknowledges each message, and the one seed 003 models;
 * DTLS is left to the user's choice because NB-IoT traffic usually stays inside the operator's private APN.
 */
export const DEFAULT_IP_STACK: StackId = "coap-con";

/** Short names for selects and table headers (the long labels of `stackOverhead` carry the layer list). */
export const STACK_NAMES: Record<StackId, string> = {
  raw: "Raw modem payload",
  "coap-non": "CoAP NON / UDP / IPv4",
  "coap-con": "CoAP CON / UDP / IPv4",
  "coap-dtls": "CoAP CON / DTLS 1.2 / UDP / IPv4",
  "coap-ipv6": "CoAP CON / UDP / IPv6",
  "coap-schc": "CoAP CON / UDP / IPv6, SCHC-compressed",
  "coap-schc-noack": "CoAP CON / UDP / IPv6, SCHC-compressed, No-ACK fragments",
  "mqtt311-q0": "MQTT 3.1.1 QoS 0 / TCP / IPv4",
  "mqtt311-q1": "MQTT 3.1.1 QoS 1 / TCP / IPv4",
  "mqtt5-q1": "MQTT 5 QoS 1 / TCP / IPv4",
  "mqtt311-tls": "MQTT 3.1.1 QoS 1 / TLS 1.3 / TCP / IPv4",
  mqttsn: "MQTT-SN / UDP / IPv4",
  "http-paper": "HTTP/1.1 POST (python-requests) / TCP / IPv4",
};

/** A stack's name on a platform: raw on an IP link is Non-IP Data Delivery, not a modem's payload. */
export function stackName(platform: Pick<Platform, "link">, stack: StackId): string {
  return stack === "raw" && platform.link === "ip" ? "Raw payload (Non-IP data delivery)" : STACK_NAMES[stack];
}

export function isStackId(v: string): v is StackId {
  return (STACK_IDS as readonly string[]).includes(v);
}

/** The stacks a platform can carry: only "raw" on a modem link; every stack on an IP link ("raw" there is Non-IP Data Delivery). */
export function stacksFor(platform: Pick<Platform, "link">): readonly StackId[] {
  return platform.link === "ip" ? STACK_IDS : ["raw"];
}

export function defaultStack(platform: Pick<Platform, "link">): StackId {
  return platform.link === "ip" ? DEFAULT_IP_STACK : "raw";
}

/** The chosen stack when the platform can carry it, the platform's default when none was chosen. */
export function resolveStack(platform: Pick<Platform, "link" | "name">, chosen: string | undefined): StackId {
  if (chosen === undefined) return defaultStack(platform);
  if (!isStackId(chosen))
    throw new OverheadError(`unknown transport stack "${chosen}" (stacks: ${STACK_IDS.join(", ")})`);
  if (!stacksFor(platform).includes(chosen))
    throw new OverheadError(`${platform.name} is a modem link: it carries the raw payload, not ${STACK_NAMES[chosen]}`);
  return chosen;
}

/** The layout's name in CoAP paths, MQTT topics and HTTP headers: the wire's rule (the SCHC rule set uses it too). */
export { layoutStackId } from "#codecs/plans";

/**
 * How a stack splits a message over the platform's limit when it brings its own fragmentation (SCHC, RFC 8724
 * §8): the cost model bills these link messages instead of the studio's 2-byte reassembly header.
 */
export interface LinkFragmenter {
  name: string;
  /** fragment header bytes (the All-1 adds more: see `split`) */
  headerBytes: number;
  /** the link messages of one `onAir`-byte message over `limit`, in bytes */
  split(onAir: number, limit: number): number[];
  /** downlink bytes the receiver answers each fragmented message with (0: none) */
  ackBytes: number;
  /** the largest message on air it can number; undefined: no bound */
  maxOnAir: number | undefined;
  /** message bytes a regular fragment carries */
  room(limit: number): number;
  /** how the receiver puts a message back together, in plain words, for the page and the report */
  reassembly: string;
}

/**
 * Overhead bytes per message of a payload size, memoized per size (a fleet prices the same sizes thousands of
 * times). A stack with its own fragmentation carries it here, so every caller that prices the stack's headers
 * (Cost page, CLI, budget, fragmentation plan) fragments the way the stack does without a second parameter.
 */
export type OverheadFn = ((payload: number) => number) & { readonly fragmenter?: LinkFragmenter };

/** The stacks that fragment with SCHC, and in which mode. */
const SCHC_FRAGMENTATION: Partial<Record<StackId, SchcFragMode>> = {
  "coap-schc": "ack-on-error",
  "coap-schc-noack": "no-ack",
};

export function overheadFn(stack: StackId, ctx: StackContext): OverheadFn {
  if (stack === "raw") return () => 0;
  const cache = new Map<number, number>();
  const mode = SCHC_FRAGMENTATION[stack];
  const fn = (payload: number) => {
    // a mean size is fractional: the headers of the nearest whole message stand for it
    const whole = Math.max(0, Math.round(payload));
    let v = cache.get(whole);
    if (v === undefined) {
      v = stackOverhead(stack, whole, ctx).overhead;
      cache.set(whole, v);
    }
    return v;
  };
  return mode ? Object.assign(fn, { fragmenter: schcLinkFragmenter(mode) }) : fn;
}

/**
 * The size statistics of the same messages on air. A message's size on air grows with its payload (headers
 * never shrink as the payload grows), so every nearest-rank percentile of the payloads maps to the one on air
 * and only the mean needs a pass over the sizes: no second sort on every live edit.
 */
export function onAirStats(payload: SizeStats, sizes: ArrayLike<number>, overhead: OverheadFn): SizeStats {
  if (payload.count === 0 || sizes.length === 0) return payload;
  let sum = 0;
  for (let i = 0; i < sizes.length; i++) sum += sizes[i]! + overhead(sizes[i]!);
  const f = (x: number) => x + overhead(x);
  return {
    count: payload.count,
    min: f(payload.min),
    mean: sum / sizes.length,
    p50: f(payload.p50),
    p95: f(payload.p95),
    p99: f(payload.p99),
    max: f(payload.max),
  };
}

export interface OnAirSummary {
  stack: StackId;
  stackName: string;
  /** whole messages with their stack's headers (before any fragmentation) */
  onAir: SizeStats;
  /** the headers the median message carries, layer by layer (empty for a raw payload) */
  layers: LayerBytes[];
  /** the platform's per-message limit, judged on air; null without one */
  limit: number | null;
  fitsMax: boolean;
  fitsP95: boolean;
  /** share of messages over the limit on air */
  shareOver: number;
}

/** One format's payload sizes on one platform as the link carries them, against its limit; `stats` when already summarized. */
export function onAirSummary(
  sizes: ArrayLike<number>,
  platform: Pick<Platform, "link" | "name" | "uplinkBytes">,
  chosen: string | undefined,
  ctx: StackContext,
  stats: SizeStats = summarize(sizes),
): OnAirSummary {
  const stack = resolveStack(platform, chosen);
  const overhead = overheadFn(stack, ctx);
  const onAir = onAirStats(stats, sizes, overhead);
  const limit = platform.uplinkBytes ?? null;
  let over = 0;
  if (limit !== null) for (let i = 0; i < sizes.length; i++) if (sizes[i]! + overhead(sizes[i]!) > limit) over++;
  return {
    stack,
    stackName: stackName(platform, stack),
    onAir,
    layers: stackOverhead(stack, stats.p50, ctx).layers,
    limit,
    fitsMax: limit === null || onAir.max <= limit,
    fitsP95: limit === null || onAir.p95 <= limit,
    shareOver: sizes.length ? over / sizes.length : 0,
  };
}
