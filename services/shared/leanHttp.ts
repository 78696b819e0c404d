// A small keep-alive HTTP/1.1 client for load: one request in flight per connection, responses
// framed by Content-Length. Several times cheaper per request than http.request, so a load
// generator on the same machine leaves the CPU to the service it measures. Loopback use only.
import net from "node:net";

export interface LeanResponse {
  status: number;
  body: string;
}

interface Pending {
  resolve: (r: LeanResponse) => void;
  reject: (e: Error) => void;
}

class Connection {
  /** connected and usable */
  private socket: net.Socket | undefined;
  /** the socket whose events count (the latest one created) */
  private current: net.Socket | undefined;
  private buf: Buffer = Buffer.alloc(0);
  private pending: Pending | undefined;
  private connecting: Promise<void> | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly timeoutMs: number,
  ) {}

  private connect(): Promise<void> {
    return (this.connecting ??= new Promise<void>((resolve, reject) => {
      const s = net.connect({ host: this.host, port: this.port, noDelay: true });
      this.current = s;
      s.once("connect", () => {
        this.socket = s;
        resolve();
      });
      s.on("data", (d: Buffer) => {
        if (this.current === s) this.onData(d);
      });
      const gone = (e?: Error) => {
        // a socket already dropped (Connection: close) must not fail the request on its successor
        if (this.current !== s) return;
        this.current = undefined;
        this.socket = undefined;
        this.connecting = undefined;
        this.buf = Buffer.alloc(0);
        const p = this.pending;
        this.pending = undefined;
        const err = e ?? new Error("connection closed");
        p?.reject(err);
        reject(err);
      };
      s.once("error", gone);
      s.once("close", () => gone());
    }));
  }

  private onData(d: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    const end = this.buf.indexOf("\r\n\r\n");
    if (end < 0 || !this.pending) return;
    const head = this.buf.subarray(0, end).toString("latin1");
    const status = Number(head.slice(9, 12));
    if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const p = this.pending;
      this.pending = undefined;
      this.drop();
      return p.reject(new Error("the lean client needs Content-Length framed responses"));
    }
    const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    const len = m ? Number(m[1]) : 0;
    if (this.buf.length < end + 4 + len) return;
    const body = this.buf.subarray(end + 4, end + 4 + len).toString("utf8");
    this.buf = this.buf.subarray(end + 4 + len);
    const p = this.pending;
    this.pending = undefined;
    if (/\r\nconnection:\s*close/i.test(head)) this.drop();
    p.resolve({ status, body });
  }

  private drop(): void {
    const s = this.current;
    this.socket = undefined;
    this.current = undefined;
    this.connecting = undefined;
    this.buf = Buffer.alloc(0);
    s?.destroy();
  }

  async request(head: string, body: Uint8Array): Promise<LeanResponse> {
    if (!this.socket) await this.connect();
    return new Promise<LeanResponse>((resolve, reject) => {
      // a server that never answers must not hang the caller: the connection is dropped
      const timer = setTimeout(() => {
        if (this.pending?.reject !== fail) return;
        this.pending = undefined;
        this.drop();
        reject(new Error(`no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      const fail = (e: Error) => {
        clearTimeout(timer);
        reject(e);
      };
      this.pending = {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: fail,
      };
      this.socket!.write(head);
      this.socket!.write(body);
    });
  }

  close(): void {
    this.socket?.destroy();
  }
}

/** `connections` sockets to one server; post() uses a free one (callers bound their own concurrency). */
export function leanClient(base: string, connections: number, timeoutMs = 30_000) {
  const u = new URL(base);
  const host = u.hostname;
  const port = Number(u.port || 80);
  const idle: Connection[] = Array.from({ length: connections }, () => new Connection(host, port, timeoutMs));
  const waiters: ((c: Connection) => void)[] = [];
  const take = (): Promise<Connection> =>
    idle.length ? Promise.resolve(idle.pop()!) : new Promise((r) => waiters.push(r));
  const give = (c: Connection) => {
    const w = waiters.shift();
    if (w) w(c);
    else idle.push(c);
  };
  const all = [...idle];
  return {
    async post(path: string, body: Uint8Array, headers: Record<string, string>): Promise<LeanResponse> {
      let head = `POST ${path} HTTP/1.1\r\nhost: ${host}:${port}\r\ncontent-length: ${body.length}\r\n`;
      for (const k in headers) head += `${k}: ${headers[k]}\r\n`;
      head += "\r\n";
      const c = await take();
      try {
        return await c.request(head, body);
      } finally {
        give(c);
      }
    },
    close(): void {
      for (const c of all) c.close();
    },
  };
}
