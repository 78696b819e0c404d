// How devices hand a record to the decoder: the transports its ingest serves, named once for the
// load generator, the host and the renderer.

/** HTTP POST /ingest, MQTT QoS 1 publish, CoAP confirmable POST */
export const INGEST_TRANSPORTS = ["http", "mqtt", "coap"] as const;
export type IngestTransport = (typeof INGEST_TRANSPORTS)[number];

export const INGEST_TRANSPORT_LABELS: Record<IngestTransport, string> = { http: "HTTP", mqtt: "MQTT", coap: "CoAP" };
