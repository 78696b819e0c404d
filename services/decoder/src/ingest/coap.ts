// Ingest over CoAP (RFC 7252, npm `coap`): POST to the same paths as HTTP — /ingest, /ingest/base64
// and every device route. A confirmable request is answered by one piggybacked ACK that carries the
// result: 2.01 Created / 2.04 Changed only after the durable group commit, 4.xx with the reason as
// JSON for bad input (undecodable payloads kept as dead letters), 5.03 when nothing was stored.
// Uri-Query carries what HTTP puts in headers: format, layout, id (message id), device, batch, key.
import { createSocket, type Socket } from "node:dgram";
import { isIPv6 } from "node:net";
import { createServer, type IncomingMessage, type OutgoingMessage } from "coap";
import type { DeviceRoute } from "#contracts/decoder/routes.ts";
import type { AuthGuard } from "../auth/guard.ts";
import { IngestError } from "../errors.ts";
import { binaryMeta, envelopeMeta, HEADER, routeMessage, type IngestMeta } from "../request.ts";
import type { MessageStore } from "./messageStore.ts";

/**
 * How long the server may hold a confirmable request before node-coap sends an empty ACK on its
 * own (default 50 ms). The ACK must not come before the commit, so every request is answered by its
 * handler; this only bounds a commit that hangs, after which a separate response follows.
 */
const PIGGYBACK_MS = 120_000;

export const COAP_KEY_HINT = "Uri-Query key=<device or fleet key>";

export interface CoapIngestDeps {
  store: MessageStore;
  guard: AuthGuard;
  routes: readonly DeviceRoute[];
  bodyLimit: number;
  envelopeLimit: number;
  log: (msg: string) => void;
}

export interface CoapIngest {
  port: number;
  beginStop(): void;
  close(): Promise<void>;
}

/**
 * HTTP status → CoAP response code: 201 → 2.01, 404 → 4.04, 429 → 4.29 (RFC 8516), 503 → 5.03. CoAP has
 * no 2.00: a POST that stored nothing new (a duplicate) or answers a device route is 2.04 Changed.
 */
export const coapCode = (status: number) =>
  status === 200 ? "2.04" : `${Math.floor(status / 100)}.${String(status % 100).padStart(2, "0")}`;

/** the CoAP request as the headers an HTTP sender would have sent, so one parser checks both */
export function coapHeaders(req: IncomingMessage, query: URLSearchParams): Record<string, string> {
  const h: Record<string, string> = {};
  const cf = req.headers["Content-Format"];
  if (typeof cf === "number")
    throw new IngestError(
      "unsupported_format",
      `Content-Format ${cf} is not a payload format (60 cbor, 50 json, or 42 octet-stream with ?format=…)`,
    );
  if (typeof cf === "string") h["content-type"] = cf;
  const map: [string, string][] = [
    ["format", HEADER.format],
    ["layout", HEADER.layout],
    ["id", HEADER.messageId],
    ["device", HEADER.device],
    ["batch", HEADER.batch],
  ];
  for (const [q, header] of map) {
    const v = query.get(q);
    if (v !== null) h[header] = v;
  }
  return h;
}

export async function startCoapIngest(d: CoapIngestDeps, port: number, host: string): Promise<CoapIngest> {
  let stopping = false;
  const routes = new Map(d.routes.map((r) => [r.path, r]));
  const parse = (
    p: string,
    h: Record<string, string>,
    body: Buffer,
  ): { meta: IngestMeta; bytes: Uint8Array | undefined } => {
    if (p === "/ingest")
      return { meta: binaryMeta(h), bytes: new Uint8Array(body.buffer, body.byteOffset, body.byteLength) };
    if (p === "/ingest/base64") {
      const e = envelopeMeta(h, body);
      return { meta: e, bytes: e.bytes };
    }
    const r = routes.get(p);
    if (!r)
      throw new IngestError(
        "not_found",
        `no resource ${p} (POST /ingest, /ingest/base64, ${[...routes.keys()].join(", ")})`,
      );
    return routeMessage(h, body, r);
  };

  const answer = (res: OutgoingMessage, status: number, body: unknown) => {
    res.code = coapCode(status);
    res.setOption("Content-Format", "application/json");
    res.end(JSON.stringify(body));
  };
  const refusal = (e: IngestError) => ({ status: e.status, body: { error: e.code, reason: e.message } });

  async function handle(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const receivedAt = Date.now();
    const url = new URL(req.url, "coap://decoder.invalid");
    const p = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname;
    if (req.method !== "POST")
      return refusal(new IngestError("method_not_allowed", `${p} takes POST, not ${req.method}`));
    if (stopping) return refusal(new IngestError("unavailable", "the decoder is shutting down; retry"));
    const source = req.rsinfo.address;
    let writer;
    let parsed;
    const body = req.payload;
    try {
      writer = d.guard.writer({ token: url.searchParams.get("key") ?? undefined, source }, COAP_KEY_HINT);
      if (body.length > d.envelopeLimit)
        throw new IngestError("too_large", `the payload is ${body.length} bytes, larger than the limit`);
      parsed = parse(p, coapHeaders(req, url.searchParams), body);
      if (parsed.bytes && parsed.bytes.length > d.bodyLimit)
        throw new IngestError(
          "too_large",
          `the payload is ${parsed.bytes.length} bytes, larger than the limit of ${d.bodyLimit}`,
        );
    } catch (e) {
      if (!(e instanceof IngestError)) throw e;
      if (e.code !== "unauthenticated" && e.code !== "forbidden" && e.code !== "rate_limited") d.store.countRejected();
      return refusal(e);
    }
    try {
      const stored = await d.store.store({
        meta: parsed.meta,
        bytes: parsed.bytes,
        body,
        receivedAt,
        bindDevice: (named) => d.guard.bindDevice(source, writer, named),
      });
      return { status: stored.duplicate || routes.has(p) ? 200 : 201, body: stored };
    } catch (e) {
      if (e instanceof IngestError) return refusal(e);
      d.log(`coap: ${p} not stored: ${(e as Error).stack ?? String(e)}`);
      return refusal(new IngestError("unavailable", `the record was not stored (${(e as Error).message}); retry`));
    }
  }

  // a retransmission that arrives while its original is still being committed gets the same answer
  // when the commit is done (node-coap replays answers it has sent, not ones still being made)
  const inFlight = new Map<string, OutgoingMessage[]>();
  const server = createServer({ piggybackReplyMs: PIGGYBACK_MS }, (req, res) => {
    const key = `${req.rsinfo.address}:${req.rsinfo.port}:${req._packet.messageId}`;
    const waiting = inFlight.get(key);
    if (waiting) return void waiting.push(res);
    const all = [res];
    inFlight.set(key, all);
    handle(req).then(
      (a) => {
        inFlight.delete(key);
        for (const r of all) answer(r, a.status, a.body);
      },
      (e: unknown) => {
        inFlight.delete(key);
        // the path only: the query may carry a key, and keys never reach the logs
        d.log(`coap: ${req.url.split("?")[0]} failed: ${(e as Error).stack ?? String(e)}`);
        for (const r of all) answer(r, 500, { error: "internal", reason: "the request could not be handled; retry" });
      },
    );
  });

  // our own socket: exclusive (never shared through node:cluster) and no SO_REUSEADDR, so a port in use is an error
  const socket: Socket = createSocket({ type: isIPv6(host) ? "udp6" : "udp4", reuseAddr: false });
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind({ port, address: host, exclusive: true }, () => {
      socket.off("error", reject);
      resolve();
    });
  });
  server.listen(socket);
  return {
    port: socket.address().port,
    beginStop: () => {
      stopping = true;
    },
    close: async () => {
      stopping = true;
      server.close();
      await new Promise<void>((resolve) => socket.close(() => resolve()));
    },
  };
}
