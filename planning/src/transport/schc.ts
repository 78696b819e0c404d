// SCHC on an IP link: the bytes the compressed CoAP/UDP/IPv6 headers leave per message (RFC 8724 §7,
// RFC 8824), and SCHC fragmentation (RFC 8724 §8) of a compressed packet larger than the link's MTU.
// The rule itself is the wire's (#codecs/plans), so the rule set a device loads is the one priced here.
import { coapUriPath, SCHC_DEFAULTS, schcPacketBytes, schcUplinkRule, type SchcParams } from "#codecs/plans";
import { OverheadError } from "./overhead.ts";

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
 * RFC 9011's uplink parameters (W 2 bits, FCN 6 bits, no DTag, 10-byte tiles, 32-bit RCS) behind the
 * 8-bit rule id = 2 B per fragment; No-ACK (RFC 8724 §8.4.1) with a 1-bit FCN behind the rule id = 9 bits,
 * padded to 2 B. The All-1 fragment adds the 32-bit RCS (RFC 8724 §8).
 */
export const SCHC_FRAG = {
  ruleIdBits: 8,
  ackOnError: { headerBits: 8 + 2 + 6, tileBytes: 10, rcsBits: 32, windowTiles: 63 },
  noAck: { headerBits: 8 + 1, rcsBits: 32 },
} as const;

export interface SchcFragmentation {
  mode: SchcFragMode;
  /** messages on the link: 1 when the SCHC packet fits the MTU */
  fragments: number;
  /** bytes of all of them, fragment headers and RCS included */
  bytes: number;
  /** bytes fragmentation adds to the SCHC packet (0 without fragmentation) */
  added: number;
}

/** The uplink fragments of a `packet`-byte SCHC packet over a link carrying at most `mtu` bytes a message. */
export function schcFragments(packet: number, mtu: number, mode: SchcFragMode = "ack-on-error"): SchcFragmentation {
  if (!Number.isInteger(packet) || packet < 0)
    throw new OverheadError(`SCHC packet size must be a whole number, got ${packet}`);
  if (packet <= mtu) return { mode, fragments: 1, bytes: packet, added: 0 };
  const head = Math.ceil((mode === "ack-on-error" ? SCHC_FRAG.ackOnError.headerBits : SCHC_FRAG.noAck.headerBits) / 8);
  const rcs = SCHC_FRAG.ackOnError.rcsBits / 8;
  // a regular fragment carries whole tiles (ACK-on-Error) or as many bytes as fit (No-ACK)
  const tile = mode === "ack-on-error" ? SCHC_FRAG.ackOnError.tileBytes : 1;
  const perFragment = Math.floor((mtu - head) / tile) * tile;
  if (perFragment <= 0 || head + rcs + 1 > mtu)
    throw new OverheadError(
      `an MTU of ${mtu} B cannot carry a SCHC fragment header (${head} B) and its RCS (${rcs} B)`,
    );
  // the All-1 fragment carries the RCS and the last tile; the regular ones carry everything before it
  let last =
    mode === "ack-on-error" ? packet - Math.floor((packet - 1) / tile) * tile : Math.min(packet, mtu - head - rcs);
  // a last tile that does not fit beside the RCS goes in a regular fragment; the All-1 then carries none
  if (head + rcs + last > mtu) last = 0;
  const regular = Math.ceil((packet - last) / perFragment);
  const fragments = regular + 1;
  const bytes = packet + fragments * head + rcs;
  return { mode, fragments, bytes, added: bytes - packet };
}
