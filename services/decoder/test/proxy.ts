// An observing HTTP proxy between the decoder and a real CSE: records the order in which requests
// reach the CSE and can simulate an outage (connections refused), a failing CSE (HTTP 500), or
// answer chosen requests itself (a fault: one container failing, a refusal, a name row without
// its instance) while the rest reach the real CSE.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ProxyMode = "pass" | "refuse" | "error500";

/** what the proxy answers instead of the CSE */
export interface FakeAnswer {
  status: number;
  rsc: number;
  dbg: string;
}

/** a request as the fault hook sees it: the cin's name and labels when it creates one */
export interface Intercepted {
  method: string;
  path: string;
  rn: string | undefined;
  lbl: string[] | undefined;
}

export interface Seen {
  method: string;
  path: string;
  status: number;
  rn: string | undefined;
  /** the cin's labels (a device's message id travels in one) */
  lbl: string[] | undefined;
  /** answered by the fault hook, not by the CSE */
  faked: boolean;
}

export async function observingProxy(target: string) {
  const t = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  let mode: ProxyMode = "pass";
  let fault: ((r: Intercepted) => FakeAnswer | undefined) | undefined;
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
      let cin: { rn?: string; lbl?: string[] } | undefined;
      try {
        cin = JSON.parse(body.toString("utf8"))["m2m:cin"] as typeof cin;
      } catch {
        cin = undefined;
      }
      const fake = fault?.({ method: req.method ?? "", path: req.url ?? "", rn: cin?.rn, lbl: cin?.lbl });
      if (fake) {
        seen.push({
          method: req.method ?? "",
          path: req.url ?? "",
          status: fake.status,
          rn: cin?.rn,
          lbl: cin?.lbl,
          faked: true,
        });
        res.writeHead(fake.status, { "content-type": "application/json", "x-m2m-rsc": String(fake.rsc) });
        return void res.end(JSON.stringify({ "m2m:dbg": fake.dbg }));
      }
      const up = http.request(
        { host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers, agent },
        (r) => {
          const out: Buffer[] = [];
          r.on("data", (c: Buffer) => out.push(c));
          r.on("end", () => {
            seen.push({
              method: req.method ?? "",
              path: req.url ?? "",
              status: r.statusCode ?? 0,
              rn: cin?.rn,
              lbl: cin?.lbl,
              faked: false,
            });
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
    /** answer the requests `f` picks with its answer (undefined: pass to the CSE); undefined: none */
    setFault(f: ((r: Intercepted) => FakeAnswer | undefined) | undefined) {
      fault = f;
    },
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
