// A local HTTP endpoint for m2m:sgn notifications: records every request and answers 200 with
// X-M2M-RSC 2000 (what ACME's verification request needs), or whatever the test says.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface ReceivedNotification {
  /** request path, e.g. "/n" */
  path: string;
  headers: IncomingHttpHeaders;
  /** the parsed JSON body, or the raw text when it is not JSON */
  body: any;
  at: number;
  /** true while the receiver has not answered and the sender has not given up */
  pending: boolean;
}

/**
 * "hang" never answers (the sender's timeout must fire); "drop" closes the connection without an
 * answer (a failure the sender sees at once, whatever its timeout); otherwise the status and
 * X-M2M-RSC to send
 */
export type Answer = { status: number; rsc?: number } | "hang" | "drop";

export interface ReceiverOptions {
  answer?: (n: ReceivedNotification) => Answer;
}

export interface NotifyReceiver {
  /** http://127.0.0.1:port */
  url: string;
  received: ReceivedNotification[];
  /** resolves with the first notification (already received or future) matching `pred` */
  waitFor(pred: (n: ReceivedNotification) => boolean, timeoutMs?: number): Promise<ReceivedNotification>;
  /** resolves once `count` notifications matching `pred` have arrived */
  waitForCount(
    count: number,
    pred?: (n: ReceivedNotification) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedNotification[]>;
  close(): Promise<void>;
}

export async function startNotifyReceiver(opts: ReceiverOptions = {}): Promise<NotifyReceiver> {
  const received: ReceivedNotification[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text: the test decides whether that is wrong
      }
      const n: ReceivedNotification = {
        path: req.url ?? "/",
        headers: req.headers,
        body,
        at: Date.now(),
        pending: true,
      };
      received.push(n);
      res.on("close", () => {
        n.pending = false;
        for (const w of [...waiters]) w();
      });
      for (const w of [...waiters]) w();
      const a = opts.answer?.(n) ?? { status: 200, rsc: 2000 };
      if (a === "hang") return;
      if (a === "drop") {
        req.socket.destroy();
        return;
      }
      const headers: Record<string, string> = { "Content-Length": "0" };
      if (a.rsc !== undefined) headers["X-M2M-RSC"] = String(a.rsc);
      const ri = req.headers["x-m2m-ri"];
      if (typeof ri === "string") headers["X-M2M-RI"] = ri;
      res.writeHead(a.status, headers);
      res.end();
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const waitForCount = (count: number, pred: (n: ReceivedNotification) => boolean = () => true, timeoutMs = 10_000) =>
    new Promise<ReceivedNotification[]>((resolve, reject) => {
      const check = () => {
        const hits = received.filter(pred);
        if (hits.length < count) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(hits);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(
            `expected ${count} matching notification(s) within ${timeoutMs} ms, got ${received.filter(pred).length} (of ${received.length} received)`,
          ),
        );
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  return {
    url,
    received,
    waitForCount,
    waitFor: async (pred, timeoutMs) => (await waitForCount(1, pred, timeoutMs))[0]!,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // hanging answers would otherwise keep close() waiting for the client's timeout
        for (const s of sockets) s.destroy();
      }),
  };
}
