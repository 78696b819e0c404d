// Follows the decoder's Server-Sent Events (/api/events) for the host, reconnecting while the stack
// runs; the host re-emits them as HostApi events (the renderer's CSP only lets it talk to the host).
import http from "node:http";

export interface SseFrame {
  event: string;
  data: unknown;
}

export class SseFollower {
  private req: http.ClientRequest | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private retry = 0;

  constructor(
    private readonly url: string,
    private readonly onFrame: (f: SseFrame) => void,
  ) {
    this.connect();
  }

  private connect(): void {
    if (this.closed) return;
    const req = http.get(this.url, { headers: { accept: "text/event-stream" } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return this.again();
      }
      this.retry = 0;
      res.setEncoding("utf8");
      let buf = "";
      res.on("data", (chunk: string) => {
        buf += chunk;
        let i: number;
        while ((i = buf.indexOf("\n\n")) >= 0) {
          const frame = buf.slice(0, i);
          buf = buf.slice(i + 2);
          let event = "message";
          let data = "";
          for (const line of frame.split("\n")) {
            if (line.startsWith("event: ")) event = line.slice(7);
            else if (line.startsWith("data: ")) data += line.slice(6);
          }
          if (!data) continue;
          try {
            this.onFrame({ event, data: JSON.parse(data) });
          } catch {
            // a frame we cannot read is skipped; the next stats tick repairs the view
          }
        }
      });
      res.on("end", () => this.again());
      res.on("error", () => this.again());
    });
    req.on("error", () => this.again());
    this.req = req;
  }

  private again(): void {
    if (this.closed || this.timer) return;
    const delay = Math.min(5000, 250 * 2 ** this.retry++);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.connect();
    }, delay);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.req?.destroy();
  }
}
