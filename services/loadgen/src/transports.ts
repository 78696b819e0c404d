// The load generator's ways out: each simulated HTTP device holds its own keep-alive connection (or
// opens one per request); each MQTT device its own connection (MQTT.js, QoS 1: done when the PUBACK
// arrives, which the decoder sends after its durable commit); CoAP devices of one generator thread
// share one UDP endpoint (npm coap, confirmable POST: done on the piggybacked 2.01/2.04). The
// generator (generator.ts) enforces the timeout and gives up what is still open at the end.
import http from "node:http";
import https from "node:https";
import coap from "coap";
import mqtt, { type MqttClient } from "mqtt";
import { ingestTopic } from "#planning/ingest";

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
  send(m: Message): InFlight;
  close(): void;
}

/** the layout and format as the decoder reads them from a topic or a query (headers' forms) */
export interface Naming {
  layout: string;
  format: string;
}

/** `start` sends and may return how to cut the exchange short; `abort` settles with null and cuts it */
function settleOnce(start: (settle: (o: Outcome | null) => void) => (() => void) | void): InFlight {
  let settled = false;
  let settle!: (o: Outcome | null) => void;
  const done = new Promise<Outcome | null>((resolve) => {
    settle = (o) => {
      if (settled) return;
      settled = true;
      resolve(o);
    };
  });
  const cut = start(settle);
  return {
    done,
    abort: () => {
      settle(null);
      cut?.();
    },
  };
}

/** one simulated device over HTTP: POSTs with its identity and the message id in headers */
export function httpDevice(target: URL, headers: Record<string, string>, keepAlive: boolean): Sender {
  const transport = target.protocol === "https:" ? https : http;
  const agent = keepAlive ? new transport.Agent({ keepAlive: true, maxSockets: 1 }) : false;
  return {
    send: (m) =>
      settleOnce((settle) => {
        const h: Record<string, string | number> = {
          ...headers,
          "content-length": m.body.length,
          "x-satpayload-device": m.device,
          "x-satpayload-message-id": m.messageId,
        };
        if (agent === false) h.connection = "close";
        const req = transport.request(target, { method: "POST", agent, headers: h });
        const failed = () => settle({ kind: "connection" });
        req.on("response", (res) => {
          const status = res.statusCode ?? 0;
          res.on("end", () => settle(status >= 200 && status < 300 ? { kind: "ok" } : { kind: "http", status }));
          res.on("error", failed);
          res.on("aborted", failed);
          res.resume();
        });
        req.on("error", failed);
        req.end(m.body);
        return () => req.destroy();
      }),
    close: () => {
      if (agent) agent.destroy();
    },
  };
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
    send: (m) =>
      settleOnce((settle) => {
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
    send: (m) =>
      settleOnce((settle) => {
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
