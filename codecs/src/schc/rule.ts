// SCHC header compression (RFC 8724 §7, CoAP in RFC 8824) of the uplink the studio models on IP links:
// one CoAP CON POST over UDP/IPv6 from the device to the server, its Uri-Path the layout's. The rule
// is built from what the studio knows (addresses, ports, path, token length) so that every field but
// the CoAP Message ID and Token is "equal / not-sent" or "ignore / compute": what is left on the air
// is the rule id and a few bits of residue. Pure: the exporters turn the rule into a file a SCHC
// implementation loads, planning prices it, and a test has microschc compress the same packets.

/** Matching operators and compression/decompression actions as RFC 8724 §7.3–7.4 name them. */
export type SchcMo = "equal" | "ignore" | "most-significant-bits";
export type SchcCda = "not-sent" | "compute" | "least-significant-bits";

export interface SchcRuleField {
  /** field id, named as microschc's parser names it ("IPv6:Hop Limit", "CoAP:Option Value") */
  id: string;
  /** field length in bits */
  bits: number;
  /** 0 for a header field, n for the n-th CoAP option (RFC 8824: options are matched in order, by position) */
  position: number;
  mo: SchcMo;
  cda: SchcCda;
  /** the target value: the whole field for "equal", its `msb` high bits for "most-significant-bits" */
  target?: { value: bigint; bits: number };
}

export interface SchcRule {
  /** rule id and its size in bits (RFC 8724: the rule id leads every SCHC packet) */
  ruleId: { value: number; bits: number };
  fields: SchcRuleField[];
}

export interface SchcParams {
  deviceAddress: string;
  serverAddress: string;
  devicePort: number;
  serverPort: number;
  /** the Hop Limit the device's stack sets (uplink: constant, RFC 8724 §10) */
  hopLimit: number;
  /** CoAP Uri-Path segments */
  uriPath: readonly string[];
  /** CoAP token length in bytes, 0..8 */
  tokenLength: number;
  /** low bits of the Message ID and Token sent as residue (the device keeps the rest fixed) */
  lsbBits: number;
  ruleId: { value: number; bits: number };
}

export class SchcError extends Error {
  override name = "SchcError";
}

/**
 * Defaults: documentation addresses (RFC 3849), CoAP's port on both ends (RFC 7252 §6.1), Linux's
 * hop limit, the studio's 2-byte token, 4 low bits of Message ID and Token (16 messages in flight
 * before a value repeats, plenty at satellite rates) and an 8-bit rule id (RFC 9011's FPort size).
 */
export const SCHC_DEFAULTS: Omit<SchcParams, "uriPath"> = {
  deviceAddress: "2001:db8::1",
  serverAddress: "2001:db8::2",
  devicePort: 5683,
  serverPort: 5683,
  hopLimit: 64,
  tokenLength: 2,
  lsbBits: 4,
  ruleId: { value: 5, bits: 8 },
};

/** The 16 bytes of an IPv6 address in text form (RFC 4291 §2.2, "::" once; no embedded IPv4). */
export function parseIpv6(text: string): Uint8Array {
  const bad = () => new SchcError(`"${text}" is not an IPv6 address (e.g. 2001:db8::1)`);
  const halves = text.trim().toLowerCase().split("::");
  if (halves.length > 2) throw bad();
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const fill = 8 - head.length - tail.length;
  if ((halves.length === 1 && fill !== 0) || (halves.length === 2 && fill < 1)) throw bad();
  const all = [...head, ...Array<string>(halves.length === 2 ? fill : 0).fill("0"), ...tail];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    if (!/^[0-9a-f]{1,4}$/.test(g)) throw bad();
    const v = parseInt(g, 16);
    out[2 * i] = v >> 8;
    out[2 * i + 1] = v & 0xff;
  });
  return out;
}

const bytesToBig = (b: Uint8Array) => b.reduce((acc, x) => (acc << 8n) | BigInt(x), 0n);
const utf8 = (s: string) => new TextEncoder().encode(s);

function checkParams(p: SchcParams): void {
  const port = (v: number, what: string) => {
    if (!Number.isInteger(v) || v < 0 || v > 65535) throw new SchcError(`${what} must be 0…65535, got ${v}`);
  };
  port(p.devicePort, "the device's UDP port");
  port(p.serverPort, "the server's UDP port");
  if (!Number.isInteger(p.hopLimit) || p.hopLimit < 0 || p.hopLimit > 255)
    throw new SchcError(`the hop limit must be 0…255, got ${p.hopLimit}`);
  if (!Number.isInteger(p.tokenLength) || p.tokenLength < 0 || p.tokenLength > 8)
    throw new SchcError(`the CoAP token length must be 0…8, got ${p.tokenLength}`);
  if (!Number.isInteger(p.lsbBits) || p.lsbBits < 0 || p.lsbBits > 16)
    throw new SchcError(`the residue bits of Message ID and Token must be 0…16, got ${p.lsbBits}`);
  if (!Number.isInteger(p.ruleId.bits) || p.ruleId.bits < 1 || p.ruleId.bits > 32)
    throw new SchcError(`the rule id size must be 1…32 bits, got ${p.ruleId.bits}`);
  if (!Number.isInteger(p.ruleId.value) || p.ruleId.value < 0 || p.ruleId.value >= 2 ** p.ruleId.bits)
    throw new SchcError(`rule id ${p.ruleId.value} does not fit in ${p.ruleId.bits} bits`);
  for (const s of p.uriPath)
    if (utf8(s).length > 268) throw new SchcError(`a Uri-Path segment of more than 268 bytes is not modelled: "${s}"`);
}

const eq = (id: string, bits: number, value: bigint, position = 0): SchcRuleField => ({
  id,
  bits,
  position,
  mo: "equal",
  cda: "not-sent",
  target: { value, bits },
});
const computed = (id: string, bits: number): SchcRuleField => ({ id, bits, position: 0, mo: "ignore", cda: "compute" });

/** A field whose low `lsb` bits change per message: MSB match on the rest, LSB residue (RFC 8724 §7.4). */
function lsb(id: string, bits: number, value: bigint, lsbBits: number): SchcRuleField {
  if (lsbBits >= bits) return { id, bits, position: 0, mo: "ignore", cda: "least-significant-bits" };
  const msb = bits - lsbBits;
  return {
    id,
    bits,
    position: 0,
    mo: "most-significant-bits",
    cda: "least-significant-bits",
    target: { value: value >> BigInt(lsbBits), bits: msb },
  };
}

/** CoAP option nibble and its extended bytes (RFC 7252 §3.1), as microschc lists them. */
function optionFields(delta: number, value: Uint8Array, position: number): SchcRuleField[] {
  const nib = (v: number) => (v < 13 ? v : v < 269 ? 13 : 14);
  const ext = (v: number) => (v < 13 ? 0 : v < 269 ? 8 : 16);
  const extValue = (v: number) => BigInt(v < 269 ? v - 13 : v - 269);
  const out = [
    eq("CoAP:Option Delta", 4, BigInt(nib(delta)), position),
    eq("CoAP:Option Length", 4, BigInt(nib(value.length)), position),
  ];
  if (ext(delta)) out.push(eq("CoAP:Option Delta Extended", ext(delta), extValue(delta), position));
  if (ext(value.length))
    out.push(eq("CoAP:Option Length Extended", ext(value.length), extValue(value.length), position));
  if (value.length) out.push(eq("CoAP:Option Value", value.length * 8, bytesToBig(value), position));
  return out;
}

/** The Message ID and Token a device keeps under this rule: fixed high bits, a counter in the low ones. */
export function schcMessageIds(p: Pick<SchcParams, "tokenLength" | "lsbBits">, counter: number) {
  const low = BigInt(counter) & ((1n << BigInt(p.lsbBits)) - 1n);
  const midBase = 0x1230n & ~((1n << BigInt(p.lsbBits)) - 1n);
  const tokenBits = BigInt(p.tokenLength * 8);
  const tokenBase =
    tokenBits === 0n ? 0n : (0xabcdef0123456780n >> (64n - tokenBits)) & ~((1n << BigInt(p.lsbBits)) - 1n);
  return { mid: Number(midBase | low), token: tokenBits === 0n ? 0n : tokenBase | (low & ((1n << tokenBits) - 1n)) };
}

/**
 * The uplink rule: IPv6 and UDP per RFC 8724 §10 (lengths and checksum computed, the rest equal /
 * not-sent), CoAP per RFC 8824 (version, type CON, TKL, code POST, Uri-Path and the payload marker
 * equal / not-sent; Message ID and Token MSB / LSB). It matches packets with a payload only.
 */
export function schcUplinkRule(p: SchcParams): SchcRule {
  checkParams(p);
  const ids = schcMessageIds(p, 0);
  const fields: SchcRuleField[] = [
    eq("IPv6:Version", 4, 6n),
    eq("IPv6:Traffic Class", 8, 0n),
    eq("IPv6:Flow Label", 20, 0n),
    computed("IPv6:Payload Length", 16),
    eq("IPv6:Next Header", 8, 17n),
    eq("IPv6:Hop Limit", 8, BigInt(p.hopLimit)),
    eq("IPv6:Source Address", 128, bytesToBig(parseIpv6(p.deviceAddress))),
    eq("IPv6:Destination Address", 128, bytesToBig(parseIpv6(p.serverAddress))),
    eq("UDP:Source Port", 16, BigInt(p.devicePort)),
    eq("UDP:Destination Port", 16, BigInt(p.serverPort)),
    computed("UDP:Length", 16),
    computed("UDP:Checksum", 16),
    eq("CoAP:Version", 2, 1n),
    eq("CoAP:Type", 2, 0n),
    eq("CoAP:Token Length", 4, BigInt(p.tokenLength)),
    eq("CoAP:Code", 8, 0x02n),
    lsb("CoAP:Message ID", 16, BigInt(ids.mid), p.lsbBits),
  ];
  if (p.tokenLength > 0) fields.push(lsb("CoAP:Token", p.tokenLength * 8, ids.token, p.lsbBits));
  p.uriPath.forEach((seg, i) => fields.push(...optionFields(i === 0 ? 11 : 0, utf8(seg), i + 1)));
  fields.push(eq("CoAP:Payload Marker", 8, 0xffn));
  return { ruleId: p.ruleId, fields };
}

/** Residue bits one packet carries under the rule (RFC 8724 §7.4: only LSB and value-sent leave bits). */
export function schcResidueBits(rule: SchcRule): number {
  return rule.fields.reduce((s, f) => s + (f.cda === "least-significant-bits" ? f.bits - (f.target?.bits ?? 0) : 0), 0);
}

/**
 * Bytes of a SCHC packet for `payload` bytes: rule id + residue + payload, padded with zero bits to
 * the next byte (RFC 8724 §9: the layer-2 word here is a byte). What the headers cost is this less
 * the payload.
 */
export function schcPacketBytes(rule: SchcRule, payload: number): number {
  return Math.ceil((rule.ruleId.bits + schcResidueBits(rule) + 8 * payload) / 8);
}

// ---- packets: the uncompressed datagram and its SCHC form, for the proof against a library ----------

/** RFC 8200 / 768 / 7252 bytes of the CoAP CON POST the rule describes, UDP checksum included. */
export function coapIpv6Packet(p: SchcParams, counter: number, payload: Uint8Array): Uint8Array {
  checkParams(p);
  const { mid, token } = schcMessageIds(p, counter);
  const coap: number[] = [0x40 | p.tokenLength, 0x02, mid >> 8, mid & 0xff];
  for (let i = p.tokenLength - 1; i >= 0; i--) coap.push(Number((token >> BigInt(8 * i)) & 0xffn));
  p.uriPath.forEach((seg, i) => {
    const v = utf8(seg);
    // Uri-Path is option 11: the first segment's delta is 11, the next ones repeat it (delta 0)
    const delta = i === 0 ? 11 : 0;
    const nib = (x: number) => (x < 13 ? x : x < 269 ? 13 : 14);
    coap.push((nib(delta) << 4) | nib(v.length));
    for (const x of [delta, v.length])
      if (x >= 269) coap.push((x - 269) >> 8, (x - 269) & 0xff);
      else if (x >= 13) coap.push(x - 13);
    coap.push(...v);
  });
  if (payload.length) coap.push(0xff, ...payload);
  const udpLength = 8 + coap.length;
  const src = parseIpv6(p.deviceAddress);
  const dst = parseIpv6(p.serverAddress);
  const out = new Uint8Array(40 + udpLength);
  out.set([0x60, 0, 0, 0, udpLength >> 8, udpLength & 0xff, 17, p.hopLimit], 0);
  out.set(src, 8);
  out.set(dst, 24);
  out.set(
    [
      p.devicePort >> 8,
      p.devicePort & 0xff,
      p.serverPort >> 8,
      p.serverPort & 0xff,
      udpLength >> 8,
      udpLength & 0xff,
      0,
      0,
    ],
    40,
  );
  out.set(coap, 48);
  // UDP checksum over the IPv6 pseudo-header (RFC 8200 §8.1): addresses, length, next header
  const pseudo = new Uint8Array(40 + udpLength + (udpLength % 2));
  pseudo.set(src, 0);
  pseudo.set(dst, 16);
  pseudo.set([0, 0, udpLength >> 8, udpLength & 0xff, 0, 0, 0, 17], 32);
  pseudo.set(out.subarray(40), 40);
  let sum = 0;
  for (let i = 0; i < pseudo.length; i += 2) sum += (pseudo[i]! << 8) | pseudo[i + 1]!;
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  const check = ~sum & 0xffff || 0xffff;
  out.set([check >> 8, check & 0xff], 46);
  return out;
}

/** The SCHC packet of that datagram: rule id, the residues in rule order, the payload, zero padding. */
export function schcCompress(p: SchcParams, counter: number, payload: Uint8Array): Uint8Array {
  const rule = schcUplinkRule(p);
  const { mid, token } = schcMessageIds(p, counter);
  const bits: Array<[bigint, number]> = [[BigInt(rule.ruleId.value), rule.ruleId.bits]];
  for (const f of rule.fields) {
    if (f.cda !== "least-significant-bits") continue;
    const n = f.bits - (f.target?.bits ?? 0);
    const v = f.id === "CoAP:Message ID" ? BigInt(mid) : token;
    bits.push([v & ((1n << BigInt(n)) - 1n), n]);
  }
  for (const b of payload) bits.push([BigInt(b), 8]);
  const total = bits.reduce((s, [, n]) => s + n, 0);
  const out = new Uint8Array(Math.ceil(total / 8));
  let pos = 0;
  for (const [v, n] of bits)
    for (let i = n - 1; i >= 0; i--, pos++) if ((v >> BigInt(i)) & 1n) out[pos >> 3]! |= 0x80 >> (pos & 7);
  return out;
}
