import { mkdirSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { paperPreset } from "#codecs";
import { CONTENT_SECURITY_POLICY, TOKEN_HEADER } from "../api/contract.ts";
import { startBrowserHost, type BrowserHost } from "../httpHost.ts";
import { tempDir } from "./support.ts";
import { DEFAULT_BODY_LIMIT } from "../transport/http.ts";

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): any;
}

/** node:http rather than fetch: fetch may not set Host, and these tests must send hostile ones. */
function send(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port, method: opts.method ?? "GET", path: opts.path, headers: opts.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

let server: BrowserHost;
let rendererDir: string;

function api(method: string, body: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  return send(server.port, {
    method: "POST",
    path: `/api/call/${method}`,
    headers: {
      host: `127.0.0.1:${server.port}`,
      "content-type": "application/json",
      [TOKEN_HEADER]: server.token,
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

beforeEach(async () => {
  rendererDir = tempDir();
  mkdirSync(path.join(rendererDir, "assets"));
  writeFileSync(path.join(rendererDir, "index.html"), "<!doctype html><title>designer</title>");
  writeFileSync(path.join(rendererDir, "assets", "index-4f2a.js"), "console.log(1)");
  writeFileSync(path.join(rendererDir, "assets", "index-4f2a.css"), "body{}");
  server = await startBrowserHost({ dataDir: tempDir(), rendererDir, port: 0, bodyLimit: 65536 });
});
afterEach(async () => {
  await server.close();
});

describe("browser-mode HTTP transport", () => {
  it("listens on loopback with a 256-bit token and answers API calls", async () => {
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.url).toBe(`${server.origin}/#token=${server.token}`);
    expect(Buffer.from(server.token, "base64url")).toHaveLength(32);
    const info = await api("app.info", {});
    expect(info.status).toBe(200);
    expect(info.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(info.headers["cache-control"]).toBe("no-store");
    expect(info.json()).toMatchObject({ shell: "browser", version: "0.1.0" });
    const created = await api("projects.create", { name: "Paper", layout: paperPreset });
    expect(created.status).toBe(200);
    expect(created.json()).toMatchObject({ name: "Paper", version: 1 });
    // localhost is the same machine, and an empty body is an empty request
    const list = await api("projects.list", "", { host: `localhost:${server.port}` });
    expect(list.json().map((p: { name: string }) => p.name)).toEqual(["Paper"]);
    expect(DEFAULT_BODY_LIMIT).toBe(16 * 1024 * 1024);
  });

  it("refuses a missing or wrong token, a foreign Host and a foreign Origin with 403", async () => {
    const noToken = await send(server.port, {
      method: "POST",
      path: "/api/call/app.info",
      headers: { host: `127.0.0.1:${server.port}`, "content-type": "application/json" },
      body: "{}",
    });
    expect(noToken.status).toBe(403);
    expect(noToken.json()).toEqual({ code: "forbidden", message: `missing ${TOKEN_HEADER} header` });
    const wrong = await api(
      "app.info",
      {},
      { [TOKEN_HEADER]: server.token.slice(0, -1) + (server.token.endsWith("A") ? "B" : "A") },
    );
    expect(wrong.status).toBe(403);
    expect(wrong.json().message).toBe(`wrong ${TOKEN_HEADER} header`);
    expect((await api("app.info", {}, { [TOKEN_HEADER]: "short" })).status).toBe(403);

    const rebound = await api("app.info", {}, { host: `attacker.example:${server.port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.json().message).toMatch(/^Host "attacker.example:\d+" is not accepted/);
    expect((await api("app.info", {}, { host: "127.0.0.1:1" })).status).toBe(403);
    expect((await send(server.port, { path: "/", headers: { host: "attacker.example" } })).status).toBe(403);

    const foreign = await api("app.info", {}, { origin: "http://attacker.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.json().message).toBe("requests from origin http://attacker.example are not accepted");
    expect((await api("app.info", {}, { origin: "null" })).status).toBe(403);
    expect((await api("app.info", {}, { origin: `http://localhost:${server.port}` })).status).toBe(200);
  });

  it("answers malformed requests with a 4xx and a reason", async () => {
    const badJson = await api("projects.list", "{limit: 3");
    expect(badJson.status).toBe(400);
    expect(badJson.json()).toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/^request body: not valid JSON/),
    });
    const tooLarge = await api("files.importLayout", { fileName: "x", content: "x".repeat(70_000) });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.json().message).toBe("body is larger than the limit of 65536 bytes");
    const unknown = await api("projects.explode", {});
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual({ code: "not_found", message: 'unknown method "projects.explode"' });
    expect((await api("app.info", {}, { "content-type": "text/plain" })).status).toBe(415);
    const get = await send(server.port, {
      path: "/api/call/app.info",
      headers: { host: `127.0.0.1:${server.port}`, [TOKEN_HEADER]: server.token },
    });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
    expect(
      (await send(server.port, { path: "/api/nothing", headers: { host: `127.0.0.1:${server.port}` } })).status,
    ).toBe(404);
    const badReq = await api("projects.open", { id: 5 });
    expect(badReq.status).toBe(400);
    expect(badReq.json().issues).toEqual([{ path: "id", message: expect.any(String) }]);
    const deep = await api("projects.create", `{"name":"x","layout":${"[".repeat(100)}${"]".repeat(100)}}`);
    expect(deep.status).toBe(400);
    expect(deep.json().message).toMatch(/nested deeper than 64 levels/);
  });

  it("maps host errors to their statuses: invalid layout 400, missing 404, stale save 409", async () => {
    const invalid = await api("projects.create", {
      name: "x",
      layout: { ...paperPreset, fields: [...paperPreset.fields, paperPreset.fields[0]] },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.json()).toMatchObject({
      code: "invalid_layout",
      issues: expect.arrayContaining([
        {
          path: "fields[20].id",
          where: 'field "SIM MSISDN"',
          related: "fields[0]",
          message:
            'Id "msisdn" is used by both field "SIM MSISDN" (#1) and field "SIM MSISDN" (#21); every field needs its own id.',
        },
      ]),
    });
    expect((await api("projects.open", { id: "nope" })).status).toBe(404);
    const p = (await api("projects.create", { name: "x", layout: paperPreset })).json();
    expect((await api("projects.save", { id: p.id, layout: paperPreset, baseVersion: 1 })).status).toBe(200);
    const stale = await api("projects.save", { id: p.id, layout: paperPreset, baseVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.json().code).toBe("conflict");
  });

  it("serves the built renderer with content types, the CSP and an SPA fallback", async () => {
    const get = (p: string) => send(server.port, { path: p, headers: { host: `127.0.0.1:${server.port}` } });
    const index = await get("/");
    expect(index.status).toBe(200);
    expect(index.text).toBe("<!doctype html><title>designer</title>");
    expect(index.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(index.headers["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY);
    expect(index.headers["x-content-type-options"]).toBe("nosniff");
    expect(index.headers["cache-control"]).toBe("no-cache");
    const js = await get("/assets/index-4f2a.js");
    expect(js.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(js.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(js.text).toBe("console.log(1)");
    expect((await get("/assets/index-4f2a.css")).headers["content-type"]).toBe("text/css; charset=utf-8");
    const route = await get("/projects/abc");
    expect(route.status).toBe(200);
    expect(route.text).toContain("designer");
    expect((await get("/assets/missing.js")).status).toBe(404);
    // URL parsing folds %2e%2e segments away; encoded slashes must not smuggle them back in
    expect((await get("/assets/%2e%2e/%2e%2e/etc/passwd")).text).toContain("designer");
    expect((await get("/assets/..%2f..%2fpackage.json")).status).toBe(400);
    expect((await get("/%2e%2e%2fpackage.json")).status).toBe(400);
    expect((await get("/.env")).status).toBe(400);
    const head = await send(server.port, { method: "HEAD", path: "/", headers: { host: `127.0.0.1:${server.port}` } });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(
      (await send(server.port, { method: "POST", path: "/", headers: { host: `127.0.0.1:${server.port}` } })).status,
    ).toBe(405);
  });

  it("says the UI is not built when dist/renderer is empty", async () => {
    const empty = await startBrowserHost({ dataDir: tempDir(), rendererDir: tempDir(), port: 0 });
    try {
      const r = await send(empty.port, { path: "/", headers: { host: `127.0.0.1:${empty.port}` } });
      expect(r.status).toBe(503);
      expect(r.text).toContain("npm run build:renderer");
    } finally {
      await empty.close();
    }
  });

  it("streams events over the WebSocket to token holders only", async () => {
    const wsUrl = (q: string) => `ws://127.0.0.1:${server.port}/api/events${q}`;
    const refused = (url: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(url, { headers: { origin: server.origin, ...headers } });
        ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
        ws.on("open", () => reject(new Error("connection was accepted")));
        ws.on("error", () => {});
      });
    expect(await refused(wsUrl(""))).toBe(403);
    expect(await refused(wsUrl("?token=wrong"))).toBe(403);
    expect(await refused(wsUrl(`?token=${server.token}`), { origin: "http://attacker.example" })).toBe(403);
    expect(await refused(wsUrl(`?token=${server.token}`), { host: "attacker.example" })).toBe(403);
    expect(server.host.events.size).toBe(0);

    const ws = new WebSocket(wsUrl(`?token=${server.token}`), { headers: { origin: server.origin } });
    const messages: unknown[] = [];
    ws.on("message", (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve, reject) => (ws.on("open", resolve), ws.on("error", reject)));
    const p = (await api("projects.create", { name: "x", layout: paperPreset })).json();
    const saved = (await api("projects.save", { id: p.id, layout: paperPreset, baseVersion: 1 })).json();
    await expect.poll(() => messages.length, { timeout: 30_000 }).toBe(2);
    expect(messages).toEqual([
      { event: "project.changed", payload: { id: p.id } },
      { event: "project.saved", payload: { id: p.id, version: 2, updatedAt: saved.updatedAt } },
    ]);
    ws.close();
    await expect.poll(() => server.host.events.size, { timeout: 30_000 }).toBe(0);
  });
});
