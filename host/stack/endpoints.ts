// The addresses a running stack shows: where devices send (HTTP, MQTT, CoAP, device routes), where the
// read API and the health check answer, and the CSE's base and container.
import { mergeRoutes } from "#contracts/decoder/routes.ts";
import { AE_NAME, SHARED_CONTAINER } from "./args.ts";
import type { StackEndpoints, StackOptions } from "../api/stack.ts";

export function endpointsFor(
  decoderUrl: string,
  cseBase: string,
  opts: StackOptions,
  ingestPorts: { mqtt?: number | undefined; coap?: number | undefined },
): StackEndpoints {
  const host = new URL(decoderUrl).hostname;
  return {
    ...(ingestPorts.mqtt !== undefined ? { mqtt: `mqtt://${host}:${ingestPorts.mqtt}` } : {}),
    ...(ingestPorts.coap !== undefined ? { coap: `coap://${host}:${ingestPorts.coap}` } : {}),
    ingest: `${decoderUrl}/ingest`,
    ingestBase64: `${decoderUrl}/ingest/base64`,
    latest: `${decoderUrl}/api/latest`,
    stats: `${decoderUrl}/api/stats`,
    events: `${decoderUrl}/api/events`,
    health: `${decoderUrl}/health`,
    cse: cseBase,
    container: `${cseBase}/${AE_NAME}/${opts.container === "shared" ? SHARED_CONTAINER : "<device key>"}`,
    routes: mergeRoutes(opts.routes).map((r) => ({
      url: `${decoderUrl}${r.path}`,
      layout: r.layout,
      format: r.format,
      body: r.body,
      ...(r.batch ? { batch: r.batch } : {}),
    })),
  };
}
