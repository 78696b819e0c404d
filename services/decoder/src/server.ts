// The decoder's HTTP surface: ingest (binary, base64 envelopes, device routes), the read API, the
// event stream and /health. One instance per worker process; replicas share the port through node:cluster.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { retryRequestSchema, type RetryRequest } from "#contracts/decoder/retryRequest.ts";
import type { DeviceRoute } from "#contracts/decoder/routes.ts";
import { SIGNATURE_HEADER, type AuthGuard, type Writer } from "./auth/guard.ts";
import type { GroupCommit } from "./buffer/groupCommit.ts";
import type { DecoderConfig } from "./config.ts";
import { IngestError } from "./errors.ts";
import type { MessageStore, StoredMessage } from "./ingest/messageStore.ts";
import type { LayoutRegistry } from "./layouts.ts";
import type { BufferSet } from "./read/buffers.ts";
import type { EventStream } from "./read/events.ts";
import { PaperDashboardApi } from "./read/paperDashboard.ts";
import { binaryMeta, envelopeMeta, routeMessage, type IngestMeta } from "./request.ts";
import { readBytes } from "../../shared/readBytes.ts";

export interface ServerDeps {
  cfg: DecoderConfig;
  worker: number;
  layouts: LayoutRegistry;
  commit: GroupCommit;
  buffers: BufferSet;
  events: EventStream;
  /** shared with the MQTT and CoAP ingest of the same worker: one key watcher, one set of refusal counters */
  guard: AuthGuard;
  store: MessageStore;
  /** puts refused records back to pending (POST /api/refused/retry); resolves with how many */
  retry: (filter: RetryRequest) => Promise<number>;
  log: (msg: string) => void;
}

/** the paper author's activity chart looks back at most this far */
const MAX_ACTIVITY_MINUTES = 30 * 24 * 60;

/** an envelope carries the payload as base64 (4/3 larger) plus a few short fields */
export const envelopeLimit = (bodyLimit: number) => Math.ceil(bodyLimit / 3) * 4 + 4096;

export interface DecoderServer {
  server: Server;
  /** new ingests are answered 503 (retry) from now on; reads keep working until close */
  beginStop(): void;
}

export function createDecoderServer(d: ServerDeps): DecoderServer {
  const instance = `${d.cfg.instance}/w${d.worker}`;
  let stopping = false;
  const { guard, store } = d;

  const json = (res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(text),
      "cache-control": "no-store",
      "x-satpayload-instance": instance,
      ...extra,
    });
    res.end(text);
  };
  const refuse = (res: ServerResponse, e: IngestError, extra: Record<string, string> = {}) => {
    const challenge: Record<string, string> =
      e.status === 401
        ? { "www-authenticate": 'Bearer realm="satpayload"' }
        : e.status === 429
          ? { "retry-after": "60" }
          : {};
    json(res, e.status, { error: e.code, reason: e.message }, { ...challenge, ...extra });
  };

  const countRejected = () => store.countRejected();
  const paper = new PaperDashboardApi(d.buffers);
  const asBytes = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

  /** how one ingest path reads its body: the payload's bytes (undefined: not base64) and what names it */
  type BodyReader = {
    limit: number;
    read: (req: IncomingMessage, body: Buffer) => { meta: IngestMeta; bytes: Uint8Array | undefined };
  };
  const rawBody: BodyReader = {
    limit: d.cfg.bodyLimit,
    read: (req, body) => ({ meta: binaryMeta(req.headers), bytes: asBytes(body) }),
  };
  const envelopeBody: BodyReader = {
    limit: envelopeLimit(d.cfg.bodyLimit),
    read: (req, body) => {
      const e = envelopeMeta(req.headers, body);
      return { meta: e, bytes: e.bytes };
    },
  };
  const deviceBody = (r: DeviceRoute): BodyReader => ({
    limit: r.body === "raw" ? d.cfg.bodyLimit : envelopeLimit(d.cfg.bodyLimit),
    read: (req, body) => routeMessage(req.headers, body, r),
  });

  /**
   * Stores one message: answered only after its group commit is fsync'd. /ingest answers 201 (new)
   * or 200 (a known message id); device routes answer 200 for both, as the paper's clients and
   * Astrocast's portal count only 200 as delivered.
   */
  async function ingest(
    req: IncomingMessage,
    res: ServerResponse,
    source: BodyReader,
    routePath: string | undefined,
  ): Promise<void> {
    const deviceRoute = routePath !== undefined;
    const receivedAt = Date.now();
    // refused before the body is read or anything is stored: only the guard's counters move. A
    // portal's signed callback to a device route is checked against the route's webhook secrets
    // once its body is read; everything else needs a device or fleet key (when auth asks for one).
    const signed = routePath !== undefined && guard.signs(routePath) && req.headers[SIGNATURE_HEADER] !== undefined;
    const writer: Writer = signed ? "open" : guard.device(req);
    const body = await readBytes(req, source.limit);
    if (body.ok && signed) guard.webhook(req, routePath, body.bytes);
    if (!body.ok) {
      countRejected();
      return refuse(
        res,
        new IngestError(body.status === 413 ? "too_large" : "bad_request", body.reason),
        body.status === 413 ? { connection: "close" } : {},
      );
    }
    let meta: IngestMeta;
    let bytes: Uint8Array | undefined;
    try {
      ({ meta, bytes } = source.read(req, body.bytes));
      if (bytes && bytes.length > d.cfg.bodyLimit)
        throw new IngestError(
          "too_large",
          `the decoded payload is ${bytes.length} bytes, larger than the limit of ${d.cfg.bodyLimit}`,
        );
    } catch (e) {
      if (!(e instanceof IngestError)) throw e;
      countRejected();
      return refuse(res, e);
    }
    let stored: StoredMessage;
    try {
      stored = await store.store({
        meta,
        bytes,
        body: body.bytes,
        receivedAt,
        bindDevice: (named) => guard.bindDevice(guard.source(req), writer, named),
      });
    } catch (e) {
      if (!(e instanceof IngestError)) throw e;
      return refuse(res, e);
    }
    json(res, stored.duplicate || deviceRoute ? 200 : 201, stored);
  }

  function intParam(url: URL, name: string, fallback: number, max: number): number {
    const v = url.searchParams.get(name);
    if (v === null) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > max)
      throw new IngestError("bad_request", `${name} must be a whole number within 1..${max}`);
    return Number(v);
  }

  /**
   * Every path the decoder answers, with who calls it: `device` (ingest: devices, portals, load
   * generators), `reader` (dashboards, the studio), `operator` (retrying refused records: a fleet
   * key, or this machine under auth auto) or `public` (health checks). Authentication hooks
   * in by audience: readers before the handler runs, writers in `ingest` (a signed callback's
   * signature covers its body).
   */
  type Audience = "device" | "reader" | "operator" | "public";
  type Endpoint = {
    method: "GET" | "POST";
    audience: Audience;
    handle: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> | void;
  };
  const ingestEndpoint = (source: BodyReader, routePath?: string): Endpoint => ({
    method: "POST",
    audience: "device",
    handle: (req, res) => {
      if (stopping)
        return refuse(res, new IngestError("unavailable", "the decoder is shutting down; retry"), {
          "retry-after": "1",
          connection: "close",
        });
      return ingest(req, res, source, routePath);
    },
  });
  const endpoints = new Map<string, Endpoint>([
    ["/ingest", ingestEndpoint(rawBody)],
    ["/ingest/base64", ingestEndpoint(envelopeBody)],
    ...d.cfg.routes.map((r): [string, Endpoint] => [r.path, ingestEndpoint(deviceBody(r), r.path)]),
    [
      "/health",
      {
        method: "GET",
        audience: "public",
        handle: (_req, res) =>
          json(res, stopping ? 503 : 200, {
            status: stopping ? "stopping" : "ok",
            instance,
            worker: d.worker,
            pid: process.pid,
            uptime: Math.round(process.uptime()),
            forwardingTo: d.cfg.cse?.url ?? null,
            auth: guard.mode,
            timestamp: new Date().toISOString(),
          }),
      },
    ],
    // refusals are this worker's own count: they are never stored. The paper author's dashboards
    // read their own names from the same body (database, inbound, totalRequests …: none collide)
    [
      "/api/stats",
      {
        method: "GET",
        audience: "reader",
        handle: (_req, res) => {
          const stats = d.buffers.stats();
          json(res, 200, {
            ...stats,
            auth: { instance, ...guard.counters },
            ...paper.stats(stats, d.cfg.cse?.url ?? null),
          });
        },
      },
    ],
    // the paper author's receiver API (docs/stack.md, "The paper author's dashboards")
    [
      "/api/containers",
      {
        method: "GET",
        audience: "reader",
        handle: (_req, res, url) => json(res, 200, paper.containers(intParam(url, "limit", 100, 1000))),
      },
    ],
    [
      "/api/activity",
      {
        method: "GET",
        audience: "reader",
        handle: (_req, res, url) => {
          // his receiver also takes hours=N when minutes is absent
          const minutes = url.searchParams.has("minutes")
            ? intParam(url, "minutes", 120, MAX_ACTIVITY_MINUTES)
            : url.searchParams.has("hours")
              ? intParam(url, "hours", 2, MAX_ACTIVITY_MINUTES / 60) * 60
              : 120;
          json(res, 200, paper.activity(minutes));
        },
      },
    ],
    [
      "/api/search",
      {
        method: "GET",
        audience: "reader",
        handle: (_req, res, url) =>
          json(res, 200, paper.search((url.searchParams.get("q") ?? "").trim().slice(0, 128))),
      },
    ],
    [
      "/api/latest",
      {
        method: "GET",
        audience: "reader",
        handle: (_req, res, url) =>
          json(res, 200, {
            records: d.buffers.latest(intParam(url, "limit", 50, 1000), url.searchParams.get("device") ?? undefined),
          }),
      },
    ],
    [
      "/api/dead-letters",
      {
        method: "GET",
        audience: "reader",
        handle: (_req, res, url) => {
          const limit = intParam(url, "limit", 50, 1000);
          const all = d.buffers
            .buffers()
            .flatMap(([index, b]) => b.deadLetters(limit).map((x) => ({ buffer: index, ...x })));
          all.sort((a, b) => b.receivedAt - a.receivedAt);
          json(res, 200, { deadLetters: all.slice(0, limit) });
        },
      },
    ],
    [
      "/api/record",
      {
        method: "GET",
        audience: "reader",
        handle: (_req, res, url) => {
          const id = url.searchParams.get("messageId");
          if (!id) return refuse(res, new IngestError("bad_request", "name the record: ?messageId=<id>"));
          const record = d.buffers.byMessageId(id);
          if (!record) return refuse(res, new IngestError("not_found", `no record with message id ${id}`));
          json(res, 200, { record });
        },
      },
    ],
    [
      "/api/refused",
      {
        method: "GET",
        audience: "reader",
        handle: (_req, res, url) =>
          json(res, 200, {
            refused: d.buffers.refused(
              intParam(url, "limit", 50, 1000),
              url.searchParams.get("container") ?? undefined,
            ),
          }),
      },
    ],
    [
      "/api/refused/retry",
      {
        method: "POST",
        audience: "operator",
        handle: async (req, res) => {
          const body = await readBytes(req, 4096);
          if (!body.ok) return refuse(res, new IngestError("bad_request", body.reason));
          let parsed;
          try {
            parsed = retryRequestSchema.safeParse(body.bytes.length ? JSON.parse(body.bytes.toString("utf8")) : {});
          } catch (e) {
            return refuse(res, new IngestError("bad_request", `the body is not JSON: ${(e as Error).message}`));
          }
          if (!parsed.success)
            return refuse(
              res,
              new IngestError(
                "bad_request",
                `${parsed.error.issues[0]!.message} (expected {"container"?} or {"buffer", "seq"})`,
              ),
            );
          json(res, 200, { retried: await d.retry(parsed.data) });
        },
      },
    ],
    [
      "/api/layouts",
      {
        method: "GET",
        audience: "reader",
        handle: (_req, res) =>
          json(res, 200, {
            layouts: d.layouts.list().map((l) => ({
              id: l.id,
              name: l.name,
              source: l.source,
              deviceKey: l.deviceKey?.join("/") ?? null,
              fields: l.layout.fields.length,
            })),
          }),
      },
    ],
    [
      "/api/routes",
      { method: "GET", audience: "reader", handle: (_req, res) => json(res, 200, { routes: d.cfg.routes }) },
    ],
    ["/api/events", { method: "GET", audience: "reader", handle: (req, res) => d.events.attach(req, res) }],
  ]);

  /**
   * GET /api/containers/<id> (his `container`, plus its `history` as dashboard-maritime reads it)
   * and /api/containers/<id>/history: one container (device key) of the paper author's API.
   */
  function containerEndpoint(p: string): Endpoint | undefined {
    const m = /^\/api\/containers\/([^/]+)(\/history)?$/.exec(p);
    if (!m) return undefined;
    return {
      method: "GET",
      audience: "reader",
      handle: (_req, res, url) => {
        let id: string;
        try {
          id = decodeURIComponent(m[1]!);
        } catch {
          throw new IngestError("bad_request", "the container id is not valid percent-encoding");
        }
        if (m[2]) return json(res, 200, { history: paper.history(id, intParam(url, "limit", 50, 1000)) });
        const history = paper.history(id, intParam(url, "limit", 500, 1000));
        if (!history.length) throw new IngestError("not_found", `no record of container ${id}`);
        json(res, 200, { container: history[0], history });
      },
    };
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://decoder.invalid");
    } catch {
      return refuse(res, new IngestError("bad_request", "malformed request URL"));
    }
    const p = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, "") : url.pathname;
    const e = endpoints.get(p) ?? containerEndpoint(p);
    if (!e) {
      req.resume();
      return refuse(
        res,
        new IngestError(
          "not_found",
          `no endpoint ${p} (${[...endpoints].map(([path, x]) => `${x.method} ${path}`).join(", ")})`,
        ),
      );
    }
    if (req.method !== e.method && !(e.method === "GET" && req.method === "HEAD")) {
      req.resume();
      return refuse(res, new IngestError("method_not_allowed", `${p} takes ${e.method}, not ${req.method}`), {
        allow: e.method,
      });
    }
    if (e.audience === "reader") guard.reader(req);
    if (e.audience === "operator") guard.operator(req);
    return e.handle(req, res, url);
  }

  const server = createServer((req, res) => {
    route(req, res).catch((e: unknown) => {
      const storage = !(e instanceof IngestError);
      if (storage) d.log(`request ${req.method} ${req.url} failed: ${(e as Error).stack ?? String(e)}`);
      if (res.headersSent) return void res.destroy();
      // not stored: the sender must retry, so this is a 503 and never a 2xx
      refuse(
        res,
        e instanceof IngestError
          ? e
          : new IngestError("unavailable", `the record was not stored (${(e as Error).message}); retry`),
        { "retry-after": "1" },
      );
    });
  });
  // loopback peers and nginx keep connections open between messages
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 70_000;
  server.requestTimeout = 60_000;
  return {
    server,
    beginStop: () => {
      stopping = true;
    },
  };
}
