// How devices hand a record to the decoder: the transports its ingest serves, named once for the
// load generator, the host and the renderer.

/** HTTP POST /ingest, MQTT QoS 1 publish, CoAP confirmable POST */
export const INGEST_TRANSPORTS = ["http", "mqtt", "coap"] as const;
export type IngestTransport = (typeof INGEST_TRANSPORTS)[number];

export const INGEST_TRANSPORT_LABELS: Record<IngestTransport, string> = { http: "HTTP", mqtt: "MQTT", coap: "CoAP" };

/** the first level of every ingest topic: satpayload/[<device>/]<layout>/<format>[/<message id>] */
export const INGEST_TOPIC_ROOT = "satpayload";

/** The MQTT topic a device publishes a record to; a message id needs a device level ("-" names none). */
export function ingestTopic(t: { layout: string; format: string; device?: string; messageId?: string }): string {
  const device = t.device ?? (t.messageId === undefined ? undefined : "-");
  return [INGEST_TOPIC_ROOT, device, t.layout, t.format, t.messageId].filter((l) => l !== undefined).join("/");
}
