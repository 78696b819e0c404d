// Loopback servers that count what real clients put on the socket, for the overhead tests: a UDP
// socket that answers CoAP CONs with an empty ACK, a TCP server speaking just enough MQTT
// (CONNACK, PUBACK) and one speaking just enough HTTP/1.1 (200 after the body).
import dgram from "node:dgram";
import net from "node:net";
import { runOwned } from "./processes/run.ts";

export interface Counted {
  port: number;
  /** application-layer units as received: datagrams, MQTT control packets or HTTP requests, in bytes */
  received: Array<{ kind: string; bytes: number }>;
  close(): Promise<void>;
}

/** Where a counter listens: any free port on 127.0.0.1 unless told (a protocol's default port, on another loopback address). */
export interface BindAt {
  host: string;
  port: number;
}
const ANY: BindAt = { host: "127.0.0.1", port: 0 };

/** A client command's stdout; rejects with its stderr when it fails or runs over 15 s (then it is stopped). */
export async function run(cmd: string, args: string[], input?: string): Promise<string> {
  const r = await runOwned(cmd, args, { input, timeoutMs: 15_000 });
  if (r.code !== 0)
    throw new Error(
      `${cmd} ${args.join(" ")}: ${r.timedOut ? "timed out after 15 s" : `exited ${r.code}`}\n${r.stderr}`,
    );
  return r.stdout;
}

export function coapCounter(at: BindAt = ANY): Promise<Counted> {
  const socket = dgram.createSocket("udp4");
  const received: Counted["received"] = [];
  socket.on("message", (m, from) => {
    const type = (m[0]! >> 4) & 3;
    received.push({ kind: type === 0 ? "CON" : type === 1 ? "NON" : "other", bytes: m.length });
    if (type === 0) {
      // empty-token-echoing ACK 2.04 so the client stops retransmitting
      const tkl = m[0]! & 15;
      socket.send(
        Buffer.concat([Buffer.from([0x60 | tkl, 0x44, m[2]!, m[3]!]), m.subarray(4, 4 + tkl)]),
        from.port,
        from.address,
      );
    }
  });
  return new Promise((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(at.port, at.host, () =>
      resolve({ port: socket.address().port, received, close: () => new Promise((r) => socket.close(() => r())) }),
    );
  });
}

function tcpCounter(
  onData: (conn: net.Socket, buf: Buffer, received: Counted["received"]) => Buffer,
  at: BindAt = ANY,
): Promise<Counted> {
  const received: Counted["received"] = [];
  const conns = new Set<net.Socket>();
  const server = net.createServer((conn) => {
    conns.add(conn);
    let buf: Buffer = Buffer.alloc(0);
    conn.on("data", (d) => {
      buf = onData(conn, Buffer.concat([buf, d]), received);
    });
    conn.on("error", () => {});
    conn.on("close", () => conns.delete(conn));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(at.port, at.host, () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        received,
        close: () =>
          new Promise((r) => {
            for (const c of conns) c.destroy();
            server.close(() => r());
          }),
      }),
    );
  });
}

const MQTT_KINDS: Record<number, string> = { 1: "CONNECT", 3: "PUBLISH", 12: "PINGREQ", 14: "DISCONNECT" };

/** Splits the stream into MQTT control packets (fixed header + remaining length) and answers CONNECT/PUBLISH. */
export function mqttCounter(version: "3.1.1" | "5"): Promise<Counted> {
  return tcpCounter((conn, buf, received) => {
    for (;;) {
      if (buf.length < 2) return buf;
      let len = 0;
      let mult = 1;
      let i = 1;
      for (; i < buf.length; i++) {
        len += (buf[i]! & 127) * mult;
        mult *= 128;
        if ((buf[i]! & 128) === 0) break;
      }
      if (i >= buf.length || buf.length < i + 1 + len) return buf;
      const packet = buf.subarray(0, i + 1 + len);
      buf = buf.subarray(i + 1 + len);
      const type = packet[0]! >> 4;
      received.push({ kind: MQTT_KINDS[type] ?? String(type), bytes: packet.length });
      if (type === 1) conn.write(version === "5" ? Buffer.from([0x20, 3, 0, 0, 0]) : Buffer.from([0x20, 2, 0, 0]));
      if (type === 3 && ((packet[0]! >> 1) & 3) === 1) {
        const topicLen = packet.readUInt16BE(i + 1);
        const id = packet.subarray(i + 3 + topicLen, i + 5 + topicLen);
        conn.write(Buffer.concat([Buffer.from([0x40, 2]), id]));
      }
      if (type === 14) conn.end();
    }
  });
}

/** Counts each request's bytes (head + Content-Length body) and answers 200. */
export function httpCounter(at: BindAt = ANY): Promise<Counted> {
  return tcpCounter((conn, buf, received) => {
    for (;;) {
      const end = buf.indexOf("\r\n\r\n");
      if (end < 0) return buf;
      const head = buf.subarray(0, end).toString("latin1");
      const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      const total = end + 4 + (m ? Number(m[1]) : 0);
      if (buf.length < total) return buf;
      received.push({ kind: "request", bytes: total });
      received.push({ kind: "head", bytes: end + 4 });
      buf = buf.subarray(total);
      conn.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
    }
  }, at);
}

/** A UDP relay in front of `targetPort` that records the sizes of client → server datagrams and their first byte. */
export function udpRelay(
  targetPort: number,
): Promise<{ port: number; toServer: Array<{ first: number; bytes: number }>; close(): Promise<void> }> {
  const front = dgram.createSocket("udp4");
  const back = dgram.createSocket("udp4");
  const toServer: Array<{ first: number; bytes: number }> = [];
  let client: dgram.RemoteInfo | undefined;
  front.on("message", (m, from) => {
    client = from;
    toServer.push({ first: m[0]!, bytes: m.length });
    back.send(m, targetPort, "127.0.0.1");
  });
  back.on("message", (m) => {
    if (client) front.send(m, client.port, client.address);
  });
  return new Promise((resolve) =>
    back.bind(0, "127.0.0.1", () =>
      front.bind(0, "127.0.0.1", () =>
        resolve({
          port: front.address().port,
          toServer,
          close: async () => {
            await new Promise<void>((r) => front.close(() => r()));
            await new Promise<void>((r) => back.close(() => r()));
          },
        }),
      ),
    ),
  );
}

/** Two consecutive free UDP ports on loopback (libcoap's server puts coaps on its port + 1). */
export async function freeUdpPortPair(): Promise<number> {
  for (;;) {
    const a = dgram.createSocket("udp4");
    const port = await new Promise<number>((r) => a.bind(0, "127.0.0.1", () => r(a.address().port)));
    const b = dgram.createSocket("udp4");
    const ok = await new Promise<boolean>((r) => {
      b.once("error", () => r(false));
      b.bind(port + 1, "127.0.0.1", () => r(true));
    });
    await new Promise<void>((r) => a.close(() => r()));
    if (ok) await new Promise<void>((r) => b.close(() => r()));
    if (ok && port + 1 < 65536) return port;
  }
}
