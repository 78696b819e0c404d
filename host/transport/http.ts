// Transport B: the designer in a normal browser, talking to this host over 127.0.0.1 only.
// Wire protocol: see host/api/contract.ts.
import { createReadStream } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { CONTENT_SECURITY_POLICY, TOKEN_HEADER, type HostErrorBody } from "../api/contract.ts";
import { HTTP_STATUS, toErrorBody } from "../errors.ts";
import { readBody } from "./body.ts";
import { newToken, originChecker, tokenChecker } from "./guard.ts";
import { resolveStatic } from "./staticFiles.ts";
import { type Dispatch, isMethodName } from "../handlers/dispatch.ts";
import type { HostEvents } from "../handlers/events.ts";
import { parseJsonSafely, UnsafeJsonError } from "../json/safeJson.ts";

/** importLayout carries up to 5 M characters of layout text; JSON escaping and UTF-8 can triple it. */
export const DEFAULT_BODY_LIMIT = 16 * 1024 * 1024;

export interface HttpOptions {
  dispatch: Dispatch;
  events: HostEvents;
  /** the built renderer (dist/renderer) */
  rendererDir: string;
  /** 0 picks a free port */
  port?: number;
  token?: string;
  bodyLimit?: number;
}

export interface RunningServer {
  port: number;
  token: string;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** what the user opens: the origin with the token in the fragment, which is never sent to the server */
  url: string;
  close(): Promise<void>;
}

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "cache-control": "no-store", ...headers });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(value), { "content-type": "application/json; charset=utf-8", ...headers });
}

function sendError(res: ServerResponse, status: number, body: HostErrorBody, headers?: Record<string, string>): void {
  sendJson(res, status, body, headers);
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>SatPayload Studio</title>
<p>The designer UI is not built yet. Run <code>npm run build:renderer</code> (or start with <code>npm run web</code>, which builds it) and reload.</p>`;

export async function startHttpServer(opts: HttpOptions): Promise<RunningServer> {
  const token = opts.token ?? newToken();
  const tokenOk = tokenChecker(token);
  const bodyLimit = opts.bodyLimit ?? DEFAULT_BODY_LIMIT;
  let guard = originChecker(-1);

  const forbidden = (res: ServerResponse, message: string) => sendError(res, 403, { code: "forbidden", message });
  const bad = (res: ServerResponse, status: number, message: string, headers?: Record<string, string>) =>
    sendError(res, status, { code: status === 404 ? "not_found" : "bad_request", message }, headers);

  async function api(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (pathname === "/api/events")
      return bad(res, 426, "/api/events is a WebSocket endpoint", { upgrade: "websocket" });
    const m = /^\/api\/call\/([^/]+)$/.exec(pathname);
    if (!m) return bad(res, 404, `no API endpoint ${pathname}`);
    if (!guard.originOk(req.headers.origin))
      return forbidden(res, `requests from origin ${req.headers.origin} are not accepted`);
    const given = req.headers[TOKEN_HEADER];
    if (!tokenOk(Array.isArray(given) ? undefined : given))
      return forbidden(res, given === undefined ? `missing ${TOKEN_HEADER} header` : `wrong ${TOKEN_HEADER} header`);
    const method = m[1]!;
    if (!isMethodName(method)) return bad(res, 404, `unknown method "${method}"`);
    if (req.method !== "POST") return bad(res, 405, `${method} takes POST, not ${req.method}`, { allow: "POST" });
    const type = req.headers["content-type"] ?? "";
    if (!/^application\/json\s*(;|$)/i.test(type))
      return bad(res, 415, `content-type must be application/json, not "${type}"`);
    const body = await readBody(req, bodyLimit);
    if (!body.ok) return bad(res, body.status, body.reason, body.status === 413 ? { connection: "close" } : {});
    let request: unknown;
    try {
      request = body.text.trim() === "" ? {} : parseJsonSafely(body.text);
    } catch (e) {
      if (e instanceof UnsafeJsonError) return bad(res, 400, `request body: ${e.message}`);
      throw e;
    }
    try {
      sendJson(res, 200, (await opts.dispatch(method, request)) ?? null);
    } catch (e) {
      const err = toErrorBody(e);
      sendError(res, HTTP_STATUS[err.code], err);
    }
  }

  function staticFile(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    if (req.method !== "GET" && req.method !== "HEAD")
      return bad(res, 405, `${req.method} is not allowed here`, { allow: "GET, HEAD" });
    const found = resolveStatic(opts.rendererDir, pathname);
    if (found.kind === "bad") return bad(res, 400, found.reason);
    if (found.kind === "missing") {
      if (pathname === "/" || pathname === "/index.html")
        return send(res, 503, NOT_BUILT, { "content-type": "text/html; charset=utf-8" });
      return bad(res, 404, `${pathname} not found`);
    }
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      "content-type": found.contentType,
      "content-length": String(found.size),
      // hashed asset names change with their content; index.html must always be revalidated
      "cache-control": found.immutable ? "public, max-age=31536000, immutable" : "no-cache",
    });
    if (req.method === "HEAD") return void res.end();
    createReadStream(found.file)
      .on("error", () => res.destroy())
      .pipe(res);
  }

  const server = createServer((req, res) => {
    let pathname: string;
    try {
      pathname = new URL(req.url ?? "/", "http://host.invalid").pathname;
    } catch {
      return bad(res, 400, "malformed request URL");
    }
    if (!guard.hostOk(req.headers.host))
      return forbidden(
        res,
        `Host "${req.headers.host ?? ""}" is not accepted (only 127.0.0.1 and localhost on this port)`,
      );
    if (pathname.startsWith("/api/")) {
      api(req, res, pathname).catch((e) => {
        const err = toErrorBody(e);
        if (!res.headersSent) sendError(res, HTTP_STATUS[err.code], err);
        else res.destroy();
      });
    } else staticFile(req, res, pathname);
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  const refuse = (socket: Duplex, status: number, reason: string) => {
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nconnection: close\r\ncontent-type: text/plain\r\ncontent-length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
    );
  };
  server.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "/", "http://host.invalid");
    } catch {
      return refuse(socket, 400, "Bad Request");
    }
    if (url.pathname !== "/api/events") return refuse(socket, 404, "Not Found");
    if (
      !guard.hostOk(req.headers.host) ||
      !guard.originOk(req.headers.origin) ||
      !tokenOk(url.searchParams.get("token"))
    )
      return refuse(socket, 403, "Forbidden");
    wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const unsubscribe = opts.events.subscribe((event, payload) => {
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event, payload }));
      });
      ws.on("close", unsubscribe);
      ws.on("error", unsubscribe);
      // the channel is server → client only
      ws.on("message", () => ws.close(1003, "this endpoint only sends"));
    });
  });
  server.on("clientError", (_err, socket) => (socket.writable ? refuse(socket, 400, "Bad Request") : socket.destroy()));

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the HTTP server has no TCP address");
  const port = address.port;
  guard = originChecker(port);
  const origin = `http://127.0.0.1:${port}`;

  return {
    port,
    token,
    origin,
    url: `${origin}/#token=${token}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
