// A free loopback port, for services whose port must be known before they start (and kept across
// their restarts).
import { createSocket } from "node:dgram";
import { createServer } from "node:net";

export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, host, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A free loopback UDP port (CoAP). */
export function freeUdpPort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createSocket("udp4");
    s.once("error", reject);
    s.bind(0, host, () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
