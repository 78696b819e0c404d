// Serves the paper author's dashboard (his public static files, unchanged but for two things a machine
// without his CDN needs: Chart.js from a local file, and the `#` comment lines his thesis copy of
// script.js starts with, which break it) beside a proxy to our decoder for /api/* and /health, the
// paths his dashboards call on their own origin. Optional: a reader key the proxy adds, as nginx
// would in front of an authenticated decoder. Binds 127.0.0.1.
//
// node scripts/peers/dashboard_server.mjs --dashboard <his public/ dir> --chartjs <chart.umd.js>
//      --decoder http://127.0.0.1:<port> [--port N] [--reader-key TOKEN]
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";

const { values: o } = parseArgs({
  options: {
    dashboard: { type: "string" },
    chartjs: { type: "string" },
    decoder: { type: "string" },
    port: { type: "string", default: "0" },
    "reader-key": { type: "string" },
  },
});
if (!o.dashboard || !o.chartjs || !o.decoder) {
  process.stderr.write("needs --dashboard DIR --chartjs FILE --decoder URL\n");
  process.exit(2);
}
const decoder = new URL(o.decoder);
const CDN = /https:\/\/cdn\.jsdelivr\.net\/npm\/chart\.js[^"']*/g;
const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

function file(name) {
  const p = path.resolve(o.dashboard, `.${name}`);
  if (!p.startsWith(path.resolve(o.dashboard))) return undefined;
  let body;
  try {
    body = readFileSync(p);
  } catch {
    return undefined;
  }
  if (name.endsWith(".html")) body = Buffer.from(body.toString("utf8").replace(CDN, "/vendor/chart.js"));
  // his thesis copy starts with a `#` comment block, which is no JavaScript
  if (name.endsWith(".js")) body = Buffer.from(body.toString("utf8").replace(/^(#[^\n]*\n)+/, ""));
  return { body, type: TYPES[path.extname(p)] ?? "application/octet-stream" };
}

function proxy(req, res) {
  const headers = { ...req.headers, host: decoder.host };
  if (o["reader-key"]) headers.authorization = `Bearer ${o["reader-key"]}`;
  const up = http.request(
    { host: decoder.hostname, port: decoder.port, method: req.method, path: req.url, headers },
    (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    },
  );
  up.on("error", (e) => {
    res.writeHead(502, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "bad_gateway", reason: e.message }));
  });
  req.pipe(up);
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://dashboard.invalid");
  if (url.pathname.startsWith("/api/") || url.pathname === "/health") return proxy(req, res);
  const name =
    url.pathname === "/" || url.pathname === "/dashboard" || url.pathname === "/dashboard/"
      ? "/index.html"
      : url.pathname.replace(/^\/dashboard\//, "/");
  const f = name === "/vendor/chart.js" ? { body: readFileSync(o.chartjs), type: "text/javascript" } : file(name);
  if (!f) {
    res.writeHead(404, { "content-type": "text/plain" });
    return res.end(`no ${url.pathname}`);
  }
  res.writeHead(200, { "content-type": f.type, "cache-control": "no-store" });
  res.end(f.body);
});
server.listen(Number(o.port), "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ event: "listening", url: `http://127.0.0.1:${server.address().port}` })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
