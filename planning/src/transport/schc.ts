// SCHC on an IP link: the bytes the compressed CoAP/UDP/IPv6 headers leave per message (RFC 8724 §7,
// RFC 8824), and SCHC fragmentation (RFC 8724 §8) of a compressed packet larger than the link's MTU.
// The rule itself is the wire's (#codecs/plans), so the rule set a device loads is the one priced here.
import { coapUriPath, SCHC_DEFAULTS, schcPacketBytes, schcUplinkRule, type SchcParams } from "#codecs/plans";
import { OverheadError } from "./overhead.ts";
import type { LinkFragmenter } from "./platformStack.ts";

/** The studio's rule for a layout: SCHC_DEFAULTS with the layout's Uri-Path (`/telemetry/<layout>`). */
export function studioSchcParams(layoutStackName: string, over: Partial<SchcParams> = {}): SchcParams {
  return { ...SCHC_DEFAULTS, uriPath: coapUriPath(layoutStackName), ...over };
}

/** Header bytes a SCHC packet adds to `payload` bytes: rule id + residue + padding to a byte (RFC 8724 §9). */
export function schcHeaderBytes(params: SchcParams, payload: number): number {
  if (!Number.isInteger(payload) || payload < 0)
    throw new OverheadError(`payload must be a non-negative integer of bytes, got ${payload}`);
  return schcPacketBytes(schcUplinkRule(params), payload) - payload;
}

export type SchcFragMode = "ack-on-error" | "no-ack";

/**
 * Fragment headers in-band (an IP link has no LoRaWAN FPort to carry the rule id): ACK-on-Error with
 * RFC 9011's uplink parameters (W 2 bits, FCN 6 bits, no DTag, 10-byte tiles, WINDOW_SIZE 63, 32-bit RCS)
 * behind the 8-bit rule id = 2 B per fragment; No-ACK (RFC 8724 §8.4.1) with a 1-bit FCN behind the rule
 * id = 9 bits, padded to 2 B. The All-1 fragment adds the 32-bit RCS (RFC 8724 §8). A SCHC ACK (RFC 8724
 * §8.4.3, C = 1 after a good RCS) is rule id + W + C = 11 bits, 2 B padded.
 */
export const SCHC_FRAG = {
  ruleIdBits: 8,
  ackOnError: { headerBits: 8 + 2 + 6, tileBytes: 10, rcsBits: 32, windowTiles: 63, windows: 4, ackBits: 8 + 2 + 1 },
  noAck: { headerBits: 8 + 1, rcsBits: 32 },
} as const;

/** The largest SCHC packet ACK-on-Error can number: 2^W windows of WINDOW_SIZE tiles (4 × 63 × 10 B = 2520 B). */
export const SCHC_ACK_ON_ERROR_MAX_PACKET =
  SCHC_FRAG.ackOnError.windows * SCHC_FRAG.ackOnError.windowTiles * SCHC_FRAG.ackOnError.tileBytes;

export interface SchcFragmentation {
  mode: SchcFragMode;
  /** messages on the link: 1 when the SCHC packet fits the MTU */
  fragments: number;
  /** bytes of each of them in sending order, the All-1 last */
  sizes: number[];
  /** bytes of all of them, fragment headers and RCS included */
  bytes: number;
  /** bytes fragmentation adds to the SCHC packet (0 without fragmentation) */
  added: number;
  /** downlink bytes the receiver answers with: one SCHC ACK per fragmented packet in ACK-on-Error, else 0 */
  ackBytes: number;
}

/** The uplink fragments of a `packet`-byte SCHC packet over a link carrying at most `mtu` bytes a message. */
export function schcFragments(packet: number, mtu: number, mode: SchcFragMode = "ack-on-error"): SchcFragmentation {
  if (!Number.isInteger(packet) || packet < 0)
    throw new OverheadError(`SCHC packet size must be a whole number, got ${packet}`);
  if (packet <= mtu) return { mode, fragments: 1, sizes: [packet], bytes: packet, added: 0, ackBytes: 0 };
  const ackOnError = mode === "ack-on-error";
  const head = Math.ceil((ackOnError ? SCHC_FRAG.ackOnError.headerBits : SCHC_FRAG.noAck.headerBits) / 8);
  const rcs = SCHC_FRAG.ackOnError.rcsBits / 8;
  // a regular fragment carries whole tiles (ACK-on-Error) or as many bytes as fit (No-ACK)
  const tile = ackOnError ? SCHC_FRAG.ackOnError.tileBytes : 1;
  const perFragment = Math.floor((mtu - head) / tile) * tile;
  if (perFragment <= 0 || head + rcs + 1 > mtu)
    throw new OverheadError(
      `an MTU of ${mtu} B cannot carry a SCHC fragment header (${head} B) and its RCS (${rcs} B)`,
    );
  // the All-1 fragment carries the RCS and the last tile; the regular ones carry everything before it
  let last = ackOnError ? packet - Math.floor((packet - 1) / tile) * tile : Math.min(packet, mtu - head - rcs);
  // a last tile that does not fit beside the RCS goes in a regular fragment; the All-1 then carries none
  if (head + rcs + last > mtu) last = 0;
  const sizes: number[] = [];
  for (let left = packet - last; left > 0; left -= perFragment) sizes.push(head + Math.min(perFragment, left));
  sizes.push(head + rcs + last);
  const bytes = sizes.reduce((s, x) => s + x, 0);
  const ackBytes = ackOnError ? Math.ceil(SCHC_FRAG.ackOnError.ackBits / 8) : 0;
  return { mode, fragments: sizes.length, sizes, bytes, added: bytes - packet, ackBytes };
}

/** SCHC fragmentation as the cost model and the fragmentation planner apply it to a SCHC stack. */
export function schcLinkFragmenter(mode: SchcFragMode): LinkFragmenter {
  const ackOnError = mode === "ack-on-error";
  const headerBytes = Math.ceil((ackOnError ? SCHC_FRAG.ackOnError.headerBits : SCHC_FRAG.noAck.headerBits) / 8);
  const tile = ackOnError ? SCHC_FRAG.ackOnError.tileBytes : 1;
  return {
    name: ackOnError ? "SCHC ACK-on-Error" : "SCHC No-ACK",
    headerBytes,
    // a mean size is fractional: the fragments of the nearest whole packet stand for it, the last one
    // carrying the fraction, so the bytes stay the mean's
    split: (onAir, limit) => {
      const whole = Math.max(0, Math.round(onAir));
      const sizes = schcFragments(whole, limit, mode).sizes;
      sizes[sizes.length - 1]! += onAir - whole;
      return sizes;
    },
    ackBytes: ackOnError ? Math.ceil(SCHC_FRAG.ackOnError.ackBits / 8) : 0,
    maxOnAir: ackOnError ? SCHC_ACK_ON_ERROR_MAX_PACKET : undefined,
    room: (limit) => Math.max(0, Math.floor((limit - headerBytes) / tile) * tile),
    reassembly: ackOnError
      ? `SCHC ACK-on-Error (RFC 8724 §8.4.3; RFC 9011's uplink profile, the rule id in-band): every fragment starts with the ${headerBytes}-byte header (8-bit fragmentation rule id, 2-bit window W, 6-bit FCN) and carries whole 10-byte tiles; the All-1 fragment adds the 32-bit RCS (CRC32 of the SCHC packet) and the last tile. The receiver rebuilds the packet, checks the RCS and answers with a ${Math.ceil(SCHC_FRAG.ackOnError.ackBits / 8)}-byte SCHC ACK on the downlink (asks again for missing tiles); up to 4 windows of 63 tiles (${SCHC_ACK_ON_ERROR_MAX_PACKET} B). Packets that fit travel whole under their compression rule.`
      : `SCHC No-ACK (RFC 8724 §8.4.1): every fragment starts with the ${headerBytes}-byte header (8-bit fragmentation rule id, 1-bit FCN, padded); the All-1 fragment adds the 32-bit RCS. Nothing is acknowledged: a lost fragment loses the packet. Packets that fit travel whole under their compression rule.`,
  };
}
