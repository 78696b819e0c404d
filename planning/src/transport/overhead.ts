// Bytes a protocol stack adds around one application message, layer by layer, from the header
// formats of the standards (RFC 791/8200 IP, 768 UDP, 9293 TCP, 7252 CoAP, 6347 DTLS 1.2, 5246/8446
// TLS, MQTT 3.1.1 / 5.0, MQTT-SN 1.2, RFC 9112 HTTP/1.1). Pure: sizes only, no sockets.

export type IpVersion = 4 | 6;
export type TlsMode = "none" | "tls1.2" | "tls1.3";

export interface LayerBytes {
  layer: string;
  bytes: number;
}

export interface StackOverhead {
  /** id of the stack, e.g. "coap-udp-ipv4" */
  stack: string;
  label: string;
  /** header and trailer bytes per message, outermost layer last */
  layers: LayerBytes[];
  /** sum of `layers` for this payload size */
  overhead: number;
  payload: number;
  /** payload + overhead: what the link carries for one message */
  total: number;
}

export class OverheadError extends Error {
  override name = "OverheadError";
}

const IP_HEADER: Record<IpVersion, number> = { 4: 20, 6: 40 };
const UDP_HEADER = 8;
/** TCP header without options; Linux adds 12 B of timestamps (RFC 7323) to every data segment */
const TCP_HEADER = 20;
const TCP_TIMESTAMPS = 12;

/** DTLS 1.2 record (RFC 6347 §4.1: type, version, epoch, sequence_number, length = 13 B) with
 * RFC 7252's mandatory TLS_PSK_WITH_AES_128_CCM_8: 8 B explicit nonce + 8 B tag (RFC 6655). */
export const DTLS12_CCM8_RECORD = 13 + 8 + 8;
/** TLS 1.2 record (5 B) with AES-128-GCM: 8 B explicit nonce + 16 B tag (RFC 5288). */
export const TLS12_GCM_RECORD = 5 + 8 + 16;
/** TLS 1.3 record (5 B) + inner content type (1 B) + 16 B AEAD tag (RFC 8446 §5.2). */
export const TLS13_RECORD = 5 + 1 + 16;

function tlsRecord(mode: TlsMode): number {
  return mode === "tls1.2" ? TLS12_GCM_RECORD : mode === "tls1.3" ? TLS13_RECORD : 0;
}

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

function checkPayload(payload: number): void {
  if (!Number.isInteger(payload) || payload < 0)
    throw new OverheadError(`payload must be a non-negative integer of bytes, got ${payload}`);
}

function build(stack: string, label: string, payload: number, layers: LayerBytes[]): StackOverhead {
  const kept = layers.filter((l) => l.bytes > 0);
  const overhead = kept.reduce((s, l) => s + l.bytes, 0);
  return { stack, label, layers: kept, overhead, payload, total: payload + overhead };
}

// ---- CoAP (RFC 7252 §3) -------------------------------------------------------------------

/** Extended length of an option delta or length nibble: 0, 1 or 2 extra bytes. */
function optionNibbleExtra(v: number): number {
  return v < 13 ? 0 : v < 269 ? 1 : 2;
}

export interface CoapOption {
  number: number;
  /** option value length in bytes */
  length: number;
}

/** Bytes of encoded options in ascending number order (delta encoding, §3.1). */
export function coapOptionsBytes(options: readonly CoapOption[]): number {
  const sorted = [...options].sort((a, b) => a.number - b.number);
  let prev = 0;
  let bytes = 0;
  for (const o of sorted) {
    const delta = o.number - prev;
    bytes += 1 + optionNibbleExtra(delta) + optionNibbleExtra(o.length) + o.length;
    prev = o.number;
  }
  return bytes;
}

/** Minimal unsigned integer option length (RFC 7252 §3.2 "uint": no leading zero bytes). */
export function uintOptionLength(v: number): number {
  return v === 0 ? 0 : v < 0x100 ? 1 : v < 0x10000 ? 2 : v < 0x1000000 ? 3 : 4;
}

export const COAP_OPTION = { observe: 6, uriPort: 7, uriPath: 11, contentFormat: 12, block2: 23, block1: 27 } as const;

export interface CoapParams {
  ip: IpVersion;
  confirmable: boolean;
  /** 0..8 */
  tokenLength: number;
  /** Uri-Path segments, e.g. ["telemetry", "paper"] */
  uriPath: readonly string[];
  /** Uri-Port, which clients send when the port is not the default 5683 */
  uriPort?: number;
  /** Content-Format number when sent (e.g. 60 = application/cbor); undefined leaves it out */
  contentFormat?: number;
  /** Observe sequence number when the message is a notification */
  observe?: number;
  /** RFC 7959 block-wise transfer: the block number and size (16…1024, a power of two) */
  block?: { option: "block1" | "block2"; num: number; size: number };
  dtls: boolean;
}

/** Block option value: NUM << 4 | M << 3 | SZX, as a minimal uint (RFC 7959 §2.2). */
export function blockOptionLength(num: number, size: number): number {
  const szx = Math.log2(size) - 4;
  if (!Number.isInteger(szx) || szx < 0 || szx > 6)
    throw new OverheadError(`CoAP block size must be 16…1024 and a power of two, got ${size}`);
  if (!Number.isInteger(num) || num < 0 || num >= 2 ** 20)
    throw new OverheadError(`CoAP block number must be 0…2^20−1, got ${num}`);
  return uintOptionLength(num * 16 + 8 + szx);
}

export function coapMessageHeaderBytes(p: Omit<CoapParams, "ip" | "dtls" | "confirmable">, payload: number): number {
  if (!Number.isInteger(p.tokenLength) || p.tokenLength < 0 || p.tokenLength > 8)
    throw new OverheadError(`CoAP token length must be 0..8, got ${p.tokenLength}`);
  const options: CoapOption[] = p.uriPath.map((seg) => ({ number: COAP_OPTION.uriPath, length: utf8Length(seg) }));
  for (const o of options) if (o.length > 255) throw new OverheadError("a CoAP Uri-Path segment is at most 255 bytes");
  if (p.uriPort !== undefined) options.push({ number: COAP_OPTION.uriPort, length: uintOptionLength(p.uriPort) });
  if (p.contentFormat !== undefined)
    options.push({ number: COAP_OPTION.contentFormat, length: uintOptionLength(p.contentFormat) });
  if (p.observe !== undefined) options.push({ number: COAP_OPTION.observe, length: uintOptionLength(p.observe) });
  if (p.block !== undefined)
    options.push({ number: COAP_OPTION[p.block.option], length: blockOptionLength(p.block.num, p.block.size) });
  // 4 B fixed header + token + options + 0xFF payload marker when there is a payload
  return 4 + p.tokenLength + coapOptionsBytes(options) + (payload > 0 ? 1 : 0);
}

export function coapOverhead(p: CoapParams, payload: number): StackOverhead {
  checkPayload(payload);
  const id = `coap${p.dtls ? "-dtls" : ""}-udp-ipv${p.ip}`;
  const label = `CoAP ${p.confirmable ? "CON" : "NON"}${p.dtls ? "/DTLS 1.2" : ""}/UDP/IPv${p.ip}`;
  return build(id, label, payload, [
    { layer: "CoAP", bytes: coapMessageHeaderBytes(p, payload) },
    { layer: "DTLS 1.2 record", bytes: p.dtls ? DTLS12_CCM8_RECORD : 0 },
    { layer: "UDP", bytes: UDP_HEADER },
    { layer: `IPv${p.ip}`, bytes: IP_HEADER[p.ip] },
  ]);
}

// ---- MQTT (3.1.1 §2–3.3, 5.0 §2–3.3) ------------------------------------------------------

/** MQTT "Remaining Length" / Variable Byte Integer: 1–4 bytes (max 268 435 455). */
export function varintLength(v: number): number {
  if (v < 0 || v > 268_435_455) throw new OverheadError(`MQTT remaining length out of range: ${v}`);
  return v < 128 ? 1 : v < 16_384 ? 2 : v < 2_097_152 ? 3 : 4;
}

export interface MqttParams {
  version: "3.1.1" | "5";
  qos: 0 | 1;
  topic: string;
  ip: IpVersion;
  tls: TlsMode;
  /** count Linux's TCP timestamp option (12 B per segment) */
  tcpTimestamps: boolean;
}

/** PUBLISH bytes around the payload: fixed header, topic, packet id (QoS > 0), v5 property length. */
export function mqttPublishHeaderBytes(p: Pick<MqttParams, "version" | "qos" | "topic">, payload: number): number {
  const topic = utf8Length(p.topic);
  if (topic === 0 || topic > 65_535) throw new OverheadError("an MQTT topic is 1..65535 bytes");
  const variable = 2 + topic + (p.qos > 0 ? 2 : 0) + (p.version === "5" ? 1 : 0);
  const remaining = variable + payload;
  return 1 + varintLength(remaining) + variable;
}

export function mqttOverhead(p: MqttParams, payload: number): StackOverhead {
  checkPayload(payload);
  const tls = p.tls !== "none";
  return build(
    `mqtt${p.version === "5" ? "5" : "311"}${tls ? "-tls" : ""}-tcp-ipv${p.ip}`,
    `MQTT ${p.version} QoS ${p.qos}${tls ? `/${p.tls.toUpperCase().replace("TLS", "TLS ")}` : ""}/TCP/IPv${p.ip}`,
    payload,
    [
      { layer: "MQTT PUBLISH", bytes: mqttPublishHeaderBytes(p, payload) },
      { layer: "TLS record", bytes: tlsRecord(p.tls) },
      { layer: "TCP", bytes: TCP_HEADER + (p.tcpTimestamps ? TCP_TIMESTAMPS : 0) },
      { layer: `IPv${p.ip}`, bytes: IP_HEADER[p.ip] },
    ],
  );
}

// ---- MQTT-SN 1.2 PUBLISH (§5.2, §5.4.12) --------------------------------------------------

export function mqttSnPublishHeaderBytes(payload: number): number {
  // Length (1 B, or 0x01 + 2 B when the message exceeds 255 B), MsgType, Flags, TopicId (2), MsgId (2)
  const body = 1 + 1 + 2 + 2 + payload;
  return (body + 1 <= 255 ? 1 : 3) + 1 + 1 + 2 + 2;
}

export function mqttSnOverhead(ip: IpVersion, payload: number): StackOverhead {
  checkPayload(payload);
  return build(`mqttsn-udp-ipv${ip}`, `MQTT-SN/UDP/IPv${ip}`, payload, [
    { layer: "MQTT-SN PUBLISH", bytes: mqttSnPublishHeaderBytes(payload) },
    { layer: "UDP", bytes: UDP_HEADER },
    { layer: `IPv${ip}`, bytes: IP_HEADER[ip] },
  ]);
}

// ---- HTTP/1.1 POST (RFC 9112) -------------------------------------------------------------

export interface HttpPostParams {
  host: string;
  path: string;
  /** header lines other than Host and Content-Length, in the order the client sends them */
  headers: ReadonlyArray<readonly [string, string]>;
  ip: IpVersion;
  tls: TlsMode;
  tcpTimestamps: boolean;
}

/** Request line + headers + CRLFs of a POST carrying `payload` bytes. */
export function httpPostHeaderBytes(p: Pick<HttpPostParams, "host" | "path" | "headers">, payload: number): number {
  const lines = [
    `POST ${p.path} HTTP/1.1`,
    `Host: ${p.host}`,
    ...p.headers.map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${payload}`,
  ];
  return lines.reduce((s, l) => s + utf8Length(l) + 2, 0) + 2;
}

export function httpOverhead(p: HttpPostParams, payload: number): StackOverhead {
  checkPayload(payload);
  const tls = p.tls !== "none";
  return build(`http${tls ? "s" : ""}-tcp-ipv${p.ip}`, `HTTP/1.1 POST${tls ? "/TLS" : ""}/TCP/IPv${p.ip}`, payload, [
    { layer: "HTTP/1.1 request head", bytes: httpPostHeaderBytes(p, payload) },
    { layer: "TLS record", bytes: tlsRecord(p.tls) },
    { layer: "TCP", bytes: TCP_HEADER + (p.tcpTimestamps ? TCP_TIMESTAMPS : 0) },
    { layer: `IPv${p.ip}`, bytes: IP_HEADER[p.ip] },
  ]);
}

/** A modem that takes the payload itself (Astronode, Kinéis): the platform frames it, the user pays for the payload. */
export function rawOverhead(payload: number): StackOverhead {
  checkPayload(payload);
  return build("raw", "Raw modem payload", payload, []);
}

/**
 * CONNECT with a client id and no will, user name or password (3.1.1 §3.1; 5.0 adds a property
 * length byte and `propertyBytes` of properties, e.g. 3 for Receive Maximum, which mosquitto sends).
 */
export function mqttConnectBytes(version: MqttParams["version"], clientId: string, propertyBytes = 0): number {
  const variable = 10 + (version === "5" ? varintLength(propertyBytes) + propertyBytes : 0);
  const remaining = variable + 2 + utf8Length(clientId);
  return 1 + varintLength(remaining) + remaining;
}
