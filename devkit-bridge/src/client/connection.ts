// A DevKit connection that survives unplugging: when the port vanishes it is reopened every retryMs until
// the device is back, and the client resynchronises before its next request (the module may have restarted).
import { realClock, type Clock, type TimerHandle } from "../clock.ts";
import { AstronodeClient, type ClientOptions } from "./client.ts";
import type { Link, LinkFactory } from "../link/types.ts";

export type ConnectionState = "ready" | "reconnecting" | "closed";

export interface ConnectionOptions {
  open: LinkFactory;
  clock?: Clock;
  retryMs?: number;
  client?: Omit<ClientOptions, "clock">;
  onState?: (state: ConnectionState, detail: string) => void;
}

export class DevkitConnection {
  readonly client: AstronodeClient;
  private link: Link | null = null;
  private readonly clock: Clock;
  private readonly retryMs: number;
  private retry: TimerHandle | null = null;
  private stateValue: ConnectionState = "reconnecting";
  private unsubscribe: (() => void) | null = null;
  /** how many times the link came back after going away */
  reconnects = 0;

  private constructor(private readonly opts: ConnectionOptions) {
    this.clock = opts.clock ?? realClock;
    this.retryMs = opts.retryMs ?? 1000;
    this.client = new AstronodeClient(null, { ...opts.client, clock: this.clock });
  }

  /** Opens the port (errors propagate: the user picked a port that cannot be opened) and wakes the module. */
  static async open(opts: ConnectionOptions): Promise<DevkitConnection> {
    const c = new DevkitConnection(opts);
    c.use(await opts.open());
    c.setState("ready", c.link!.description);
    return c;
  }

  get state(): ConnectionState {
    return this.stateValue;
  }

  get description(): string {
    return this.link?.description ?? "";
  }

  private setState(s: ConnectionState, detail: string): void {
    this.stateValue = s;
    this.opts.onState?.(s, detail);
  }

  private use(link: Link): void {
    this.unsubscribe?.();
    this.link = link;
    this.client.attach(link);
    this.unsubscribe = link.onClose((reason) => {
      if (this.link !== link || this.stateValue === "closed") return;
      this.link = null;
      if (reason) {
        this.setState("reconnecting", `lost the DevKit (${reason.message}); trying to reopen every ${this.retryMs} ms`);
        this.scheduleRetry();
      } else {
        this.setState("closed", "port closed");
      }
    });
  }

  private scheduleRetry(): void {
    if (this.retry || this.stateValue === "closed") return;
    this.retry = this.clock.setTimeout(() => {
      this.retry = null;
      this.opts.open().then(
        (link) => {
          if (this.stateValue === "closed") {
            void link.close();
            return;
          }
          this.reconnects++;
          this.use(link);
          this.client.markRestarted();
          this.setState("ready", `reconnected to ${link.description}`);
        },
        () => this.scheduleRetry(),
      );
    }, this.retryMs);
  }

  async close(): Promise<void> {
    this.setState("closed", "disconnected by the user");
    this.clock.clearTimeout(this.retry);
    this.retry = null;
    this.unsubscribe?.();
    this.client.close();
    const link = this.link;
    this.link = null;
    if (link?.isOpen) await link.close();
  }
}
