// GET /api/events: Server-Sent Events for live views — "ingested" (new records, newest first),
// "forwarded" (delivery progress) and "stats" (the /api/stats body plus rates) once a second.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { BufferSet, DecoderStats } from "./buffers.ts";

export interface StatsTick extends DecoderStats {
  /** records acknowledged per second over the last tick */
  recordsPerSecond: number;
  forwardedPerSecond: number;
}

const TICK_MS = 1000;
const INGESTED_MS = 250;
const MAX_RECORDS_PER_EVENT = 20;

export class EventStream {
  private readonly clients = new Set<ServerResponse>();
  private ticker: NodeJS.Timeout | undefined;
  private ingestTicker: NodeJS.Timeout | undefined;
  private marks = new Map<number, number>();
  private last: DecoderStats | undefined;

  constructor(
    private readonly buffers: BufferSet,
    private readonly log: (msg: string) => void,
  ) {}

  attach(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store",
      connection: "keep-alive",
      // nginx must pass events through as they come
      "x-accel-buffering": "no",
    });
    res.write("retry: 2000\n\n");
    if (this.clients.size === 0) this.startTicking();
    this.clients.add(res);
    const first = this.last ?? this.safeStats();
    if (first) res.write(frame("stats", { ...first, recordsPerSecond: 0, forwardedPerSecond: 0 }));
    const drop = () => {
      this.clients.delete(res);
      if (this.clients.size === 0) this.stopTicking();
    };
    req.on("close", drop);
    res.on("error", drop);
  }

  private safeStats(): DecoderStats | undefined {
    try {
      return this.buffers.stats();
    } catch (e) {
      this.log(`stats for the event stream failed: ${(e as Error).message}`);
      return undefined;
    }
  }

  private startTicking(): void {
    this.marks = this.buffers.marks();
    this.last = this.safeStats();
    this.ingestTicker = setInterval(() => this.ingested(), INGESTED_MS);
    this.ticker = setInterval(() => this.tick(), TICK_MS);
  }

  private stopTicking(): void {
    clearInterval(this.ticker);
    clearInterval(this.ingestTicker);
    this.ticker = this.ingestTicker = undefined;
  }

  private send(text: string): void {
    for (const c of this.clients) c.write(text);
  }

  private ingested(): void {
    try {
      const { count, records } = this.buffers.since(this.marks, MAX_RECORDS_PER_EVENT);
      if (count > 0) this.send(frame("ingested", { count, records }));
    } catch (e) {
      this.log(`event stream read failed: ${(e as Error).message}`);
    }
  }

  private tick(): void {
    const s = this.safeStats();
    if (!s) return;
    const prev = this.last;
    this.last = s;
    const dt = prev ? (s.at - prev.at) / 1000 : 0;
    const rate = (a: number, b: number) => (dt > 0 ? Math.max(0, (a - b) / dt) : 0);
    if (prev && s.forwarded !== prev.forwarded)
      this.send(
        frame("forwarded", { forwarded: s.forwarded, backlog: s.backlog, delta: s.forwarded - prev.forwarded }),
      );
    this.send(
      frame("stats", {
        ...s,
        recordsPerSecond: rate(s.records, prev?.records ?? s.records),
        forwardedPerSecond: rate(s.forwarded, prev?.forwarded ?? s.forwarded),
      } satisfies StatsTick),
    );
  }

  close(): void {
    this.stopTicking();
    for (const c of this.clients) c.end();
    this.clients.clear();
  }
}

function frame(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
