// A stand-in ingest endpoint with a latency the test chooses: it answers 201 after `latencyMs(n)`
// milliseconds for the n-th request, and counts what it saw.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Stub {
  url: string;
  received: number;
  devices: Set<string>;
  messageIds: Set<string>;
  /** connections opened (keep-alive devices reuse theirs) */
  connections: number;
  close(): Promise<void>;
}

export async function startStub(opts: {
  latencyMs: (n: number) => number;
  status?: (n: number) => number;
}): Promise<Stub> {
  let n = 0;
  const stub = {
    url: "",
    received: 0,
    devices: new Set<string>(),
    messageIds: new Set<string>(),
    connections: 0,
  } as Stub;
  const server: Server = createServer((req, res) => {
    const i = n++;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      stub.received++;
      stub.devices.add(String(req.headers["x-satpayload-device"]));
      stub.messageIds.add(String(req.headers["x-satpayload-message-id"]));
      setTimeout(() => {
        res.writeHead(opts.status?.(i) ?? 201, { "content-type": "application/json", "content-length": 2 });
        res.end("{}");
      }, opts.latencyMs(i));
    });
  });
  server.on("connection", () => stub.connections++);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ingest`;
  stub.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return stub;
}
