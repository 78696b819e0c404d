// The load generator's MQTT and CoAP devices: each simulated MQTT device holds its own connection
// (MQTT.js, QoS 1: done when the PUBACK arrives, which the decoder sends after its durable commit);
// CoAP devices of one generator thread share one UDP endpoint (npm coap, confirmable POST: done on
// the piggybacked 2.01/2.04). Outcomes are reported as the HTTP path reports them.
import coap from "coap";
import mqtt, { type MqttClient } from "mqtt";
import { ingestTopic } from "#codecs/transport/ingest.ts";

export type Outcome = { kind: "ok" } | { kind: "http"; status: number } | { kind: "timeout" } | { kind: "connection" };

export interface Message {
  device: string;
  messageId: string;
  body: Uint8Array;
}

/** one message on its way: `done` settles with the outcome, or null once `abort` gave it up */
export interface InFlight {
  done: Promise<Outcome | null>;
  abort(): void;
}

export interface Sender {
  send(m: Message, timeoutMs: number): InFlight;
  close(): void;
}

/** the layout and format as the decoder reads them from a topic or a query (headers' forms) */
export interface Naming {
  layout: string;
  format: string;
}

function settleOnce(timeoutMs: number, start: (settle: (o: Outcome | null) => void) => void): InFlight {
  let settle!: (o: Outcome | null) => void;
  const done = new Promise<Outcome | null>((resolve) => {
    let settled = false;
    const timer = setTimeout(() => settle({ kind: "timeout" }), timeoutMs);
    settle = (o) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(o);
    };
  });
  start(settle);
  return { done, abort: () => settle(null) };
}

/** one simulated device's MQTT connection; QoS 1 messages published while it reconnects are sent once it is back */
export function mqttDevice(url: string, clientId: string, naming: Naming): Sender {
  const client: MqttClient = mqtt.connect(url, {
    clientId,
    reconnectPeriod: 1000,
    connectTimeout: 10_000,
    clean: true,
  });
  // connection trouble shows as the messages' outcomes; the client itself retries
  client.on("error", () => {});
  return {
    send: (m, timeoutMs) =>
      settleOnce(timeoutMs, (settle) => {
        const topic = ingestTopic({
          device: m.device,
          layout: naming.layout,
          format: naming.format,
          messageId: m.messageId,
        });
        client.publish(topic, Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength), { qos: 1 }, (err) =>
          settle(err ? { kind: "connection" } : { kind: "ok" }),
        );
      }),
    close: () => void client.end(true),
  };
}

/** a generator thread's CoAP endpoint: confirmable POSTs to /ingest with the names as Uri-Query */
export function coapEndpoint(url: string, naming: Naming): Sender {
  const u = new URL(url);
  const agent = new coap.Agent({ type: "udp4" });
  return {
    send: (m, timeoutMs) =>
      settleOnce(timeoutMs, (settle) => {
        const query = new URLSearchParams({
          layout: naming.layout,
          format: naming.format,
          device: m.device,
          id: m.messageId,
        }).toString();
        const req = agent.request({
          hostname: u.hostname,
          port: Number(u.port),
          method: "POST",
          pathname: "/ingest",
          query,
          confirmable: true,
        });
        req.on("response", (res: coap.IncomingMessage) => {
          const [major, minor] = res.code.split(".").map(Number);
          settle(major === 2 ? { kind: "ok" } : { kind: "http", status: major! * 100 + minor! });
        });
        req.on("timeout", () => settle({ kind: "timeout" }));
        req.on("error", () => settle({ kind: "connection" }));
        req.end(Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength));
      }),
    close: () => agent.close(),
  };
}
