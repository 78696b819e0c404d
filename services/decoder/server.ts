// The decoder's HTTP surface: ingest (binary and base64 envelopes), the read API, the event stream
// and /health. One instance per worker process; replicas share the port through node:cluster.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { DecodeError } from "../../codecs/src/errors.ts";
import { readBytes } from "../shared/readBytes.ts";
import { AuthGuard } from "./auth/guard.ts";
import type { GroupCommit } from "./buffer/groupCommit.ts";
import type { DecoderConfig } from "./config.ts";
import { decodeMessage } from "./decode.ts";
import { IngestError } from "./errors.ts";
import type { LayoutRegistry } from "./layouts.ts";
import type { BufferSet } from "./read/buffers.ts";
import type { EventStream } from "./read/events.ts";
import { binaryMeta, envelopeMeta, type IngestMeta } from "./request.ts";

export interface ServerDeps {
  cfg: DecoderConfig;
  worker: number;
  layouts: LayoutRegistry;
  commit: GroupCommit;
  buffers: BufferSet;
  events: EventStream;
  log: (msg: string) => void;
}

export const UNKNOWN_DEVICE = "unknown";

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
  const guard = new AuthGuard(d.cfg.auth);

  const json = (res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text), "cache-control": "no-store", "x-satpayload-instance": instance, ...extra });
    res.end(text);
  };
  const refuse = (res: ServerResponse, e: IngestError, extra: Record<string, string> = {}) => {
    const challenge: Record<string, string> = e.status === 401 ? { "www-authenticate": 'Bearer realm="satpayload"' } : e.status === 429 ? { "retry-after": "60" } : {};
    json(res, e.status, { error: e.code, reason: e.message }, { ...challenge, ...extra });
  };

  /** every refusal counts against the success rate; only undecodable payloads are kept as dead letters */
  const countRejected = () => {
    d.commit.append({ kind: "rejected" }).catch(() => {});
  };

  async function ingest(req: IncomingMessage, res: ServerResponse, envelope: boolean): Promise<void> {
    const receivedAt = Date.now();
    // refused before the body is read or anything is stored: only the guard's counters move
    const writer = guard.device(req);
    const body = await readBytes(req, envelope ? envelopeLimit(d.cfg.bodyLimit) : d.cfg.bodyLimit);
    if (!body.ok) {
      countRejected();
      return refuse(res, new IngestError(body.status === 413 ? "too_large" : "bad_request", body.reason), body.status === 413 ? { connection: "close" } : {});
    }
    let meta: IngestMeta;
    let bytes: Uint8Array | undefined;
    try {
      if (envelope) {
        const e = envelopeMeta(req.headers, body.bytes);
        meta = e;
        bytes = e.bytes;
        if (bytes && bytes.length > d.cfg.bodyLimit) throw new IngestError("too_large", `the decoded payload is ${bytes.length} bytes, larger than the limit of ${d.cfg.bodyLimit}`);
      } else {
        meta = binaryMeta(req.headers);
        bytes = new Uint8Array(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength);
      }
    } catch (e) {
      if (!(e instanceof IngestError)) throw e;
      countRejected();
      return refuse(res, e);
    }
    let known;
    try {
      known = d.layouts.resolve(meta.layoutRef);
    } catch (e) {
      if (!(e instanceof IngestError)) throw e;
      countRejected();
      return refuse(res, e);
    }
    let decoded;
    let problem: string | undefined;
    if (!bytes) problem = "envelope data is not base64";
    else {
      try {
        decoded = decodeMessage(known, meta.format, bytes);
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        problem = e.message;
      }
    }
    if (!decoded || !bytes) {
      const reason = problem ?? "undecodable";
      await d.commit.append({
        kind: "dead",
        dead: { receivedAt, layout: known.id, format: meta.format, messageId: meta.messageId, reason, body: bytes ?? body.bytes },
      });
      return refuse(res, new IngestError("undecodable", reason));
    }
    const messageId = meta.messageId ?? randomUUID();
    const device = guard.bindDevice(req, writer, decoded.device ?? meta.device) ?? UNKNOWN_DEVICE;
    const result = await d.commit.append({
      kind: "record",
      record: { messageId, receivedAt, layout: known.id, format: meta.format, device, size: decoded.size, jsonSize: decoded.jsonSize, con: decoded.con },
    });
    const stored = result!;
    json(res, stored.duplicate ? 200 : 201, { messageId, seq: stored.seq, buffer: d.worker, layout: known.id, format: meta.format, device, duplicate: stored.duplicate });
  }

  function intParam(url: URL, name: string, fallback: number, max: number): number {
    const v = url.searchParams.get(name);
    if (v === null) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > max) throw new IngestError("bad_request", `${name} must be a whole number within 1..${max}`);
    return Number(v);
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://decoder.invalid");
    } catch {
      return refuse(res, new IngestError("bad_request", "malformed request URL"));
    }
    const p = url.pathname;
    const only = (method: string): boolean => {
      if (req.method === method || (method === "GET" && req.method === "HEAD")) return true;
      refuse(res, new IngestError("method_not_allowed", `${p} takes ${method}, not ${req.method}`), { allow: method });
      req.resume();
      return false;
    };
    if (p === "/ingest" || p === "/ingest/base64") {
      if (!only("POST")) return;
      if (stopping) return refuse(res, new IngestError("unavailable", "the decoder is shutting down; retry"), { "retry-after": "1", connection: "close" });
      return ingest(req, res, p === "/ingest/base64");
    }
    if (p === "/health") {
      if (!only("GET")) return;
      return json(res, stopping ? 503 : 200, { status: stopping ? "stopping" : "ok", instance, worker: d.worker, pid: process.pid, uptime: Math.round(process.uptime()), forwardingTo: d.cfg.cse?.url ?? null, auth: guard.mode });
    }
    if (p.startsWith("/api/")) guard.reader(req);
    if (p === "/api/stats") {
      if (!only("GET")) return;
      // refusals are this worker's own count: they are never stored
      return json(res, 200, { ...d.buffers.stats(), auth: { instance, ...guard.counters } });
    }
    if (p === "/api/latest") {
      if (!only("GET")) return;
      const device = url.searchParams.get("device") ?? undefined;
      return json(res, 200, { records: d.buffers.latest(intParam(url, "limit", 50, 1000), device) });
    }
    if (p === "/api/dead-letters") {
      if (!only("GET")) return;
      const limit = intParam(url, "limit", 50, 1000);
      const all = d.buffers.buffers().flatMap(([index, b]) => b.deadLetters(limit).map((x) => ({ buffer: index, ...x })));
      all.sort((a, b) => b.receivedAt - a.receivedAt);
      return json(res, 200, { deadLetters: all.slice(0, limit) });
    }
    if (p === "/api/layouts") {
      if (!only("GET")) return;
      return json(res, 200, { layouts: d.layouts.list().map((l) => ({ id: l.id, name: l.name, source: l.source, deviceKey: l.deviceKey?.join("/") ?? null, fields: l.layout.fields.length })) });
    }
    if (p === "/api/events") {
      if (!only("GET")) return;
      return d.events.attach(req, res);
    }
    refuse(res, new IngestError("not_found", `no endpoint ${p} (POST /ingest, POST /ingest/base64, GET /api/latest, /api/stats, /api/events, /api/dead-letters, /api/layouts, /health)`));
  }

  const server = createServer((req, res) => {
    route(req, res).catch((e: unknown) => {
      const storage = !(e instanceof IngestError);
      if (storage) d.log(`request ${req.method} ${req.url} failed: ${(e as Error).stack ?? String(e)}`);
      if (res.headersSent) return void res.destroy();
      // not stored: the sender must retry, so this is a 503 and never a 2xx
      refuse(res, e instanceof IngestError ? e : new IngestError("unavailable", `the record was not stored (${(e as Error).message}); retry`), { "retry-after": "1" });
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
