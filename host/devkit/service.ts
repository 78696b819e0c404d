// One DevKit bench per host: the connection (serial port or simulator), the frame log, background EVT
// polling with ack/downlink/reset handling, and the transmissions table.
import type Database from "better-sqlite3";
import { bytesToHex } from "#codecs";
import type { AstronodeClient } from "#devkit-bridge/client/client.ts";
import { DevkitConnection } from "#devkit-bridge/client/connection.ts";
import { realClock, type TimerHandle } from "#devkit-bridge/clock.ts";
import { CorruptAnswerError, DevkitError, ModuleError, TimeoutError } from "#devkit-bridge/errors.ts";
import { listPorts } from "#devkit-bridge/link/ports.ts";
import { openSerial } from "#devkit-bridge/link/serial.ts";
import { ERR } from "#devkit-bridge/protocol/codes.ts";
import { PRODUCT_NAMES, type Events, type ModuleConfig } from "#devkit-bridge/protocol/commands.ts";
import type { DevkitStatus, LogEntry, Transmission } from "../api/devkit.ts";
import { HostError } from "../errors.ts";
import { FrameLog } from "./frameLog.ts";
import { SIM_PORTS, startSimulator, type RunningSimulator } from "./simulator.ts";
import { TransmissionStore, type NewTransmission } from "./transmissions.ts";
import type { HostEvents } from "../handlers/events.ts";

const iso = (ms = Date.now()) => new Date(ms).toISOString();

/** DevKit failures as host errors: bad input is the caller's, everything else is the device's state. */
export function toHostError(e: unknown): unknown {
  if (!(e instanceof DevkitError)) return e;
  return new HostError(e.kind === "request" ? "bad_request" : "conflict", e.message);
}

export interface PollResult {
  events: Events;
  acked: number[];
  downlink: { createdAt: string; hex: string; bytes: number } | null;
  reset: boolean;
}

export class DevkitService {
  private conn: DevkitConnection | null = null;
  private sim: RunningSimulator | null = null;
  private port: string | null = null;
  private portLabel: string | null = null;
  private productId: number | null = null;
  private connecting = false;
  private detail = "not connected";
  private storeValue: TransmissionStore | null = null;
  private polling = { enabled: true, intervalMs: 2000 };
  private pollTimer: TimerHandle | null = null;
  private pollBusy = false;
  private lastConfig: ModuleConfig | null = null;
  private lastDownlink: string | null = null;
  private nextId = 1 + Math.floor(Math.random() * 60_000);
  readonly log = new FrameLog();

  constructor(
    private readonly events: HostEvents,
    /** the host's projects database (the host closes it) */
    private readonly db: Database.Database,
  ) {}

  // ---- database ----------------------------------------------------------------------------

  get store(): TransmissionStore {
    return (this.storeValue ??= new TransmissionStore(this.db));
  }

  // ---- connection ----------------------------------------------------------------------------

  status(): DevkitStatus {
    const state = this.connecting
      ? "connecting"
      : !this.conn
        ? "disconnected"
        : this.conn.state === "ready"
          ? "ready"
          : this.conn.state === "reconnecting"
            ? "reconnecting"
            : "disconnected";
    return {
      state,
      port: this.port,
      portLabel: this.portLabel,
      simulated: this.sim !== null,
      simulatorPath: this.sim?.path ?? null,
      productId: this.productId,
      productName: this.productId === null ? null : (PRODUCT_NAMES[this.productId] ?? `product ${this.productId}`),
      polling: { ...this.polling },
      detail: this.detail,
    };
  }

  private announce(detail?: string): DevkitStatus {
    if (detail !== undefined) this.detail = detail;
    const s = this.status();
    this.events.emit("devkit.status", s);
    return s;
  }

  async ports() {
    const listing = await listPorts();
    return {
      ports: [
        ...SIM_PORTS.map((s) => ({
          id: s.id,
          label: s.label,
          kind: "simulator" as const,
          likelyDevkit: true,
          accessible: true,
        })),
        ...listing.ports.map((p) => ({
          id: p.path,
          label: p.label,
          kind: "serial" as const,
          likelyDevkit: p.likelyDevkit,
          accessible: p.accessible,
          ...(p.hint ? { hint: p.hint } : {}),
        })),
      ],
      problems: listing.problems,
    };
  }

  async connect(port: string): Promise<DevkitStatus> {
    if (this.connecting) throw new HostError("conflict", "a connection is already being opened");
    await this.disconnect();
    this.connecting = true;
    this.port = port;
    const sim = SIM_PORTS.find((s) => s.id === port);
    this.portLabel = sim?.label ?? port;
    this.announce(`opening ${this.portLabel}`);
    try {
      if (sim) this.sim = await startSimulator(sim.productId);
      const open = this.sim ? this.sim.open : () => openSerial(port);
      this.conn = await DevkitConnection.open({
        open,
        clock: realClock,
        client: {
          onFrame: (f) => this.frame({ at: iso(f.at), dir: f.dir, text: f.text, decoded: f.decoded, status: f.status }),
        },
        onState: (state, detail) => {
          if (state === "ready" && this.conn) void this.afterReconnect();
          if (state === "reconnecting") this.events.emit("devkit.notice", { kind: "lost", message: detail, at: iso() });
          if (!this.connecting) this.announce(detail);
        },
      });
      const cfg = await this.conn.client.call("CFG_RR", {});
      this.productId = cfg.productId;
      this.connecting = false;
      this.schedulePoll();
      return this.announce(
        `connected to ${PRODUCT_NAMES[cfg.productId] ?? `product ${cfg.productId}`} ${this.sim ? `(simulator ${this.sim.note})` : `on ${port}`}`,
      );
    } catch (e) {
      this.connecting = false;
      await this.teardown();
      this.announce(`could not connect: ${(e as Error).message}`);
      throw toHostError(e);
    }
  }

  private async afterReconnect(): Promise<void> {
    // unplugged and back: the module may have restarted, which the next poll will report as a reset
    this.schedulePoll();
  }

  private async teardown(): Promise<void> {
    this.clearPoll();
    const conn = this.conn;
    const sim = this.sim;
    this.conn = null;
    this.sim = null;
    this.productId = null;
    this.lastDownlink = null;
    if (conn) await conn.close().catch(() => undefined);
    if (sim) await sim.close().catch(() => undefined);
  }

  async disconnect(): Promise<DevkitStatus> {
    const had = this.conn !== null;
    await this.teardown();
    this.port = null;
    this.portLabel = null;
    return had ? this.announce("disconnected") : this.status();
  }

  /** the client of a ready connection, or a clear refusal */
  client(): AstronodeClient {
    if (!this.conn) throw new HostError("conflict", "no DevKit is connected: pick a port and connect first");
    if (this.conn.state !== "ready") throw new HostError("conflict", `the DevKit is not available (${this.detail})`);
    return this.conn.client;
  }

  /** runs module calls, turning DevKit failures into host errors */
  async run<T>(f: (c: AstronodeClient) => Promise<T>): Promise<T> {
    const c = this.client();
    try {
      return await f(c);
    } catch (e) {
      throw toHostError(e);
    }
  }

  simulator(): RunningSimulator {
    if (!this.sim) throw new HostError("conflict", "simulator controls need a connection to a Simulated DevKit");
    return this.sim;
  }

  private frame(e: Omit<LogEntry, "seq">): void {
    this.events.emit("devkit.frame", this.log.add(e));
  }

  rememberConfig(c: ModuleConfig): void {
    this.lastConfig = c;
  }

  // ---- uplink queue ----------------------------------------------------------------------------

  private takeId(): number {
    const id = this.nextId;
    this.nextId = (this.nextId % 0xffff) + 1;
    return id;
  }

  /**
   * Enqueues with an id no queued payload has. After a damaged or missing answer the same id is sent again:
   * DUPLICATE_ID then proves the first attempt was queued.
   */
  async enqueue(
    data: Uint8Array,
    origin: Omit<NewTransmission, "payloadHex" | "bytes" | "queueId" | "port">,
  ): Promise<Transmission> {
    return this.run(async (c) => {
      for (let attempt = 0; attempt < 9; attempt++) {
        const id = this.takeId();
        try {
          await c.call("PLD_ER", { id, data });
        } catch (e) {
          if (e instanceof ModuleError && e.code === ERR.DUPLICATE_ID) continue;
          if (!(e instanceof CorruptAnswerError || e instanceof TimeoutError)) throw e;
          try {
            await c.call("PLD_ER", { id, data });
          } catch (again) {
            if (!(again instanceof ModuleError && again.code === ERR.DUPLICATE_ID)) throw again;
          }
        }
        const t = this.store.add(
          { ...origin, payloadHex: bytesToHex(data), bytes: data.length, queueId: id, port: this.port! },
          iso(),
        );
        this.events.emit("devkit.transmission", t);
        return t;
      }
      throw new HostError("conflict", "could not find a free payload id after 9 tries");
    });
  }

  async dequeue(): Promise<{ id: number }> {
    const { id } = await this.run((c) => c.call("PLD_DR", {}));
    const t = this.store.openByQueueId(this.port!, id);
    if (t) this.events.emit("devkit.transmission", this.store.setStatus(t.id, "dequeued"));
    return { id };
  }

  async free(): Promise<void> {
    await this.run((c) => c.call("PLD_FR", {}));
    for (const t of this.store.openOnPort(this.port!))
      this.events.emit("devkit.transmission", this.store.setStatus(t.id, "freed"));
  }

  openTransmissions(): Transmission[] {
    return this.port ? this.store.openOnPort(this.port) : [];
  }

  // ---- events ----------------------------------------------------------------------------------

  /**
   * One EVT_RR and what it calls for: acks are read, recorded and cleared; a new downlink is read and
   * announced (the user clears it); after a reset the last configuration is written again (the module
   * fell back to the saved one) and the reset event cleared.
   */
  async poll(): Promise<PollResult> {
    return this.run(async (c) => {
      const events = await c.call("EVT_RR", {});
      const out: PollResult = { events, acked: [], downlink: null, reset: false };
      // one ack at a time: read, clear, and ask again, so the loop ends on the event bit rather than on a NO_ACK error
      for (let more = events.satAck, i = 0; more && i < 8; i++) {
        const { id } = await c.call("SAK_RR", {});
        await c.call("SAK_CR", {});
        out.acked.push(id);
        const t = this.port ? this.store.openByQueueId(this.port, id) : null;
        const at = iso();
        if (t) this.events.emit("devkit.transmission", this.store.setStatus(t.id, "acked", at));
        this.events.emit("devkit.notice", {
          kind: "ack",
          id,
          at,
          message: `satellite acknowledged payload ${id}${t ? ` (${t.bytes} B${t.format ? `, ${t.format}` : ""})` : ""}`,
        });
        more = (await c.call("EVT_RR", {})).satAck;
      }
      if (events.command) {
        const cmd = await c.call("CMD_RR", {});
        const hex = bytesToHex(cmd.data);
        const key = `${cmd.createdAt}:${hex}`;
        out.downlink = { createdAt: iso((1514764800 + cmd.createdAt) * 1000), hex, bytes: cmd.data.length };
        if (key !== this.lastDownlink) {
          this.lastDownlink = key;
          this.events.emit("devkit.notice", {
            kind: "downlink",
            at: iso(),
            message: `downlink command (${cmd.data.length} B): ${hex.toUpperCase()}`,
          });
        }
      }
      if (events.reset) {
        out.reset = true;
        if (this.lastConfig) await c.call("CFG_WR", this.lastConfig);
        await c.call("RES_CR", {});
        this.events.emit("devkit.notice", {
          kind: "reset",
          at: iso(),
          message: this.lastConfig
            ? "the module restarted: configuration written again, reset event cleared"
            : "the module restarted (reset event cleared)",
        });
      }
      this.events.emit("devkit.notice", { kind: "events", at: iso(), message: "events polled", events });
      return out;
    });
  }

  setPolling(enabled: boolean, intervalMs: number): DevkitStatus {
    this.polling = { enabled, intervalMs };
    this.schedulePoll();
    return this.announce();
  }

  private clearPoll(): void {
    realClock.clearTimeout(this.pollTimer);
    this.pollTimer = null;
  }

  private schedulePoll(): void {
    this.clearPoll();
    if (!this.polling.enabled || !this.conn) return;
    this.pollTimer = realClock.setTimeout(async () => {
      this.pollTimer = null;
      if (this.conn?.state === "ready" && !this.pollBusy) {
        this.pollBusy = true;
        // a failed poll is in the frame log already; the next one tries again
        await this.poll().catch(() => undefined);
        this.pollBusy = false;
      }
      this.schedulePoll();
    }, this.polling.intervalMs);
  }

  async dispose(): Promise<void> {
    await this.teardown();
  }
}
