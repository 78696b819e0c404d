// The stacks the designer, the Channel page and the CLI compare, with the defaults each one is
// sized with: the paper's devices (python-requests POST to the decoder), an MQTT device publishing
// to …/<layout>/<format>, a CoAP device posting to /telemetry/<layout>.
import { ingestTopic } from "./ingest.ts";
import {
  coapOverhead,
  httpOverhead,
  mqttOverhead,
  mqttSnOverhead,
  rawOverhead,
  type StackOverhead,
} from "./overhead.ts";
import { schcHeaderBytes, studioSchcParams } from "./schc.ts";

/**
 * Headers python-requests 2.x sends by default (Locust's HttpSession is a requests.Session), plus the
 * two the paper's devices add to name the format and layout; Host and Content-Length are counted apart.
 * Accept-Encoding gains ", br" when brotli is installed, as it is beside Locust.
 */
export function pythonRequestsHeaders(
  version: string,
  contentType: string,
  layout: string,
  acceptEncoding = "gzip, deflate, br",
): Array<[string, string]> {
  return [
    ["User-Agent", `python-requests/${version}`],
    ["Accept-Encoding", acceptEncoding],
    ["Accept", "*/*"],
    ["Connection", "keep-alive"],
    ["Content-Type", contentType],
    ["X-Satpayload-Layout", layout],
  ];
}

export const STACK_IDS = [
  "raw",
  "coap-non",
  "coap-con",
  "coap-dtls",
  "coap-ipv6",
  "coap-schc",
  "coap-schc-noack",
  "mqtt311-q0",
  "mqtt311-q1",
  "mqtt5-q1",
  "mqtt311-tls",
  "mqttsn",
  "http-paper",
] as const;
export type StackId = (typeof STACK_IDS)[number];

export interface StackContext {
  /** layout id, used in topics and paths */
  layout: string;
  /** format id, used in topics and content types */
  format: string;
}

const TOKEN = 2;

/** Bytes on air for one message of `payload` bytes over each stack. */
export function stackOverhead(id: StackId, payload: number, ctx: StackContext): StackOverhead {
  const uriPath = ["telemetry", ctx.layout];
  const topic = ingestTopic({ layout: ctx.layout, format: ctx.format });
  switch (id) {
    case "raw":
      return rawOverhead(payload);
    case "coap-non":
      return coapOverhead({ ip: 4, confirmable: false, tokenLength: TOKEN, uriPath, dtls: false }, payload);
    case "coap-con":
      return coapOverhead({ ip: 4, confirmable: true, tokenLength: TOKEN, uriPath, dtls: false }, payload);
    case "coap-dtls":
      return coapOverhead({ ip: 4, confirmable: true, tokenLength: TOKEN, uriPath, dtls: true }, payload);
    case "coap-ipv6":
      return coapOverhead({ ip: 6, confirmable: true, tokenLength: TOKEN, uriPath, dtls: false }, payload);
    case "coap-schc":
    case "coap-schc-noack": {
      // the CoAP CON/UDP/IPv6 message of "coap-ipv6", its headers replaced by the SCHC rule id and residue;
      // the two differ only in how a packet over the link's limit is fragmented (platformStack.ts)
      const bytes = schcHeaderBytes(studioSchcParams(ctx.layout), payload);
      const noAck = id === "coap-schc-noack";
      return {
        stack: noAck ? "coap-schc-noack-udp-ipv6" : "coap-schc-udp-ipv6",
        label: `SCHC (RFC 8724/8824) of CoAP CON/UDP/IPv6${noAck ? ", No-ACK fragments" : ""}`,
        layers: [{ layer: "SCHC rule id + residue", bytes }],
        overhead: bytes,
        payload,
        total: payload + bytes,
      };
    }
    case "mqtt311-q0":
      return mqttOverhead({ version: "3.1.1", qos: 0, topic, ip: 4, tls: "none", tcpTimestamps: true }, payload);
    case "mqtt311-q1":
      return mqttOverhead({ version: "3.1.1", qos: 1, topic, ip: 4, tls: "none", tcpTimestamps: true }, payload);
    case "mqtt5-q1":
      return mqttOverhead({ version: "5", qos: 1, topic, ip: 4, tls: "none", tcpTimestamps: true }, payload);
    case "mqtt311-tls":
      return mqttOverhead({ version: "3.1.1", qos: 1, topic, ip: 4, tls: "tls1.3", tcpTimestamps: true }, payload);
    case "mqttsn":
      return mqttSnOverhead(4, payload);
    case "http-paper":
      return httpOverhead(
        {
          host: "127.0.0.1:8080",
          path: "/ingest",
          headers: pythonRequestsHeaders("2.34.2", `application/x-${ctx.format}`, ctx.layout),
          ip: 4,
          tls: "none",
          tcpTimestamps: true,
        },
        payload,
      );
  }
}

export function allStackOverheads(payload: number, ctx: StackContext): StackOverhead[] {
  return STACK_IDS.map((id) => stackOverhead(id, payload, ctx));
}

/** CSV of per-stack bytes on air for the given payload sizes (one row per stack and size). */
export function stackOverheadCsv(payloads: readonly number[], ctx: StackContext): string {
  const lines = ["stack,label,payload_bytes,overhead_bytes,total_bytes,layers"];
  for (const p of payloads) {
    for (const s of allStackOverheads(p, ctx)) {
      const layers = s.layers.map((l) => `${l.layer}=${l.bytes}`).join("; ");
      lines.push([s.stack, `"${s.label}"`, s.payload, s.overhead, s.total, `"${layers}"`].join(","));
    }
  }
  return `${lines.join("\n")}\n`;
}
