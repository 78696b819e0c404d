// An observing HTTP proxy between the decoder and a real CSE: records the order in which requests
// reach the CSE and can simulate an outage (connections refused) or a failing CSE (HTTP 500).
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ProxyMode = "pass" | "refuse" | "error500";

export interface Seen {
  method: string;
  path: string;
  status: number;
  rn: string | undefined;
}

export async function observingProxy(target: string) {
  const t = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  let mode: ProxyMode = "pass";
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    if (mode === "refuse") return void req.socket.destroy();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (mode === "error500") {
        res.writeHead(500, { "content-type": "application/json", "x-m2m-rsc": "5000" });
        return void res.end(JSON.stringify({ "m2m:dbg": "simulated database error" }));
      }
      const up = http.request(
        { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers, agent },
        (r) => {
          const out: Buffer[] = [];
          r.on("data", (c: Buffer) => out.push(c));
          r.on("end", () => {
            let rn: string | undefined;
            try {
              rn = (JSON.parse(body.toString("utf8"))["m2m:cin"] as { rn?: string } | undefined)?.rn;
            } catch {
              rn = undefined;
            }
            seen.push({ method: req.method ?? "", path: req.url ?? "", status: r.statusCode ?? 0, rn });
            res.writeHead(r.statusCode ?? 502, r.headers);
            res.end(Buffer.concat(out));
          });
        },
      );
      up.on("error", () => {
        res.writeHead(502);
        res.end();
      });
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    setMode(m: ProxyMode) {
      mode = m;
      if (m === "refuse") server.closeAllConnections();
    },
    close: () =>
      new Promise<void>((r) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
