// Runs the local stack for the app or the CLI and answers for it: up and down one at a time, its status
// (or that of a stack another process runs, from the state file), its logs, live stats and the
// decoder's read API. The processes themselves are processes.ts's; their output is logs.ts's.
import path from "node:path";
import type { RetryRequest } from "#contracts/decoder/retryRequest.ts";
import { checkRoute, RouteSpecError } from "#contracts/decoder/routes.ts";
import {
  stackOptionsSchema,
  type LogLine,
  type StackOptionsInput,
  type StackRecord,
  type StackRefused,
  type StackStats,
  type StackStatus,
} from "../api/stack.ts";
import { HostError } from "../errors.ts";
import { cseInDecoder } from "./args.ts";
import { STACK_DIR } from "./dirs.ts";
import { stopExternal } from "./externalStack.ts";
import { LiveStats } from "./liveStats.ts";
import { StackLog } from "./logs.ts";
import { StackProcesses, type RunningStack } from "./processes.ts";
import { listRefused, retryRefused } from "./refused.ts";
import { DEFAULT_TIMINGS, type ServiceTimings } from "./service.ts";
import { readLiveState, removeState, writeState, type StackState } from "./stateFile.ts";

export interface SupervisorHooks {
  onStatus?: (s: StackStatus) => void;
  onStats?: (s: StackStats) => void;
  onIngested?: (e: { count: number; records: StackRecord[] }) => void;
  onLog?: (lines: LogLine[]) => void;
}

export interface SupervisorOptions extends SupervisorHooks {
  /** the app's data directory; the stack lives in <dataDir>/stack */
  dataDir: string;
  owner: "app" | "cli";
  timings?: Partial<ServiceTimings>;
}

export class StackSupervisor {
  readonly dir: string;
  private running: RunningStack | undefined;
  private phase: "idle" | "starting" | "stopping" = "idle";
  private error: string | null = null;
  private readonly stackLog: StackLog;
  private readonly live: LiveStats;
  private readonly processes: StackProcesses;
  private statusQueued = false;
  private busy: Promise<unknown> = Promise.resolve();
  private readonly exitHook = () => this.killNow();

  constructor(private readonly o: SupervisorOptions) {
    this.dir = path.join(path.resolve(o.dataDir), STACK_DIR);
    const timings: ServiceTimings = { ...DEFAULT_TIMINGS, ...o.timings };
    this.stackLog = new StackLog(this.dir, o.onLog);
    this.live = new LiveStats(o);
    this.processes = new StackProcesses({
      dir: this.dir,
      dataDir: o.dataDir,
      timings,
      log: (l) => this.stackLog.push(l),
      onChange: () => this.changed(),
    });
  }

  // ---- logs and events ----------------------------------------------------------------------

  private note(text: string): void {
    this.stackLog.note(text);
  }

  private changed(): void {
    if (this.statusQueued || !this.o.onStatus) return;
    this.statusQueued = true;
    queueMicrotask(() => {
      this.statusQueued = false;
      this.o.onStatus!(this.status());
    });
  }

  logs(limit: number, service?: LogLine["service"]): LogLine[] {
    return this.stackLog.tail(limit, service);
  }

  // ---- status ------------------------------------------------------------------------------

  private external(): StackState | undefined {
    const s = readLiveState(this.dir);
    return s && s.pid !== process.pid ? s : undefined;
  }

  status(): StackStatus {
    const services = this.processes.statuses();
    if (!this.running && this.phase === "idle") {
      const ext = this.external();
      if (ext) {
        this.follow(ext.decoderUrl);
        return {
          state: "running",
          owner: ext.owner,
          ownerPid: ext.pid,
          options: ext.options,
          services: [],
          endpoints: ext.endpoints,
          dir: this.dir,
          startedAt: ext.startedAt,
          error: null,
        };
      }
      this.unfollow();
    }
    let state: StackStatus["state"];
    if (this.phase === "starting") state = "starting";
    else if (this.phase === "stopping") state = "stopping";
    else if (!this.running) state = "stopped";
    else state = services.every((s) => s.state === "running" && s.healthy !== false) ? "running" : "degraded";
    return {
      state,
      owner: this.running || this.phase !== "idle" ? this.o.owner : null,
      ownerPid: this.running || this.phase !== "idle" ? process.pid : null,
      options: this.running?.options ?? null,
      services,
      endpoints: this.running?.endpoints ?? null,
      dir: this.dir,
      startedAt: this.running?.startedAt.toISOString() ?? null,
      error: this.error,
    };
  }

  /** the decoder this supervisor (or another process's) runs, for the read API */
  decoderUrl(): string | undefined {
    return this.running?.decoderUrl ?? this.external()?.decoderUrl;
  }

  // ---- live stats ---------------------------------------------------------------------------

  private follow(decoderUrl: string): void {
    this.live.follow(decoderUrl);
  }

  private unfollow(): void {
    this.live.unfollow();
  }

  async stats(): Promise<StackStats | null> {
    const url = this.decoderUrl();
    return url ? this.live.read(url) : null;
  }

  async latest(limit: number): Promise<StackRecord[]> {
    const url = this.decoderUrl();
    if (!url) return [];
    const r = await fetch(`${url}/api/latest?limit=${limit}`, { signal: AbortSignal.timeout(5000) }).catch(
      () => undefined,
    );
    if (!r?.ok)
      throw new HostError("internal", `the decoder did not answer /api/latest${r ? ` (HTTP ${r.status})` : ""}`);
    return ((await r.json()) as { records: StackRecord[] }).records;
  }

  /** records the CSE refused for good; none when no stack runs */
  async refused(limit: number, container?: string): Promise<StackRefused[]> {
    const url = this.decoderUrl();
    return url ? listRefused(url, limit, container) : [];
  }

  /** puts refused records back to pending (the user fixed the cause) */
  async retry(filter: RetryRequest): Promise<number> {
    const url = this.decoderUrl();
    if (!url) throw new HostError("conflict", "no stack is running");
    return retryRefused(url, filter);
  }

  // ---- up / down ----------------------------------------------------------------------------

  /** one up or down at a time: a double click must not start two stacks */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.busy.then(fn, fn);
    this.busy = next.catch(() => {});
    return next;
  }

  up(input: StackOptionsInput = {}): Promise<StackStatus> {
    return this.serial(async () => {
      const opts = stackOptionsSchema.parse(input);
      // the decoder would refuse these at start; say which one and why before starting anything
      opts.routes.forEach((r, i) => {
        try {
          checkRoute(r, `route ${r.path}`);
        } catch (e) {
          if (e instanceof RouteSpecError)
            throw new HostError("bad_request", e.message, [{ path: `routes.${i}.path`, message: e.message }]);
          throw e;
        }
      });
      if (opts.coapPort !== undefined && opts.replicas > 1)
        throw new HostError(
          "bad_request",
          "CoAP ingest needs one decoder replica (a retransmission must reach the worker that holds the exchange)",
          [{ path: "coapPort", message: "needs replicas 1" }],
        );
      if (this.running) {
        if (JSON.stringify(this.running.options) === JSON.stringify(opts)) return this.status();
        throw new HostError("conflict", "the stack is already running with other settings: stop it first");
      }
      const ext = this.external();
      if (ext)
        throw new HostError(
          "conflict",
          ext.owner === "cli"
            ? `a stack started by "satpayload stack up" (pid ${ext.pid}) is running on ${ext.decoderUrl}: stop it first`
            : `another SatPayload Studio window (pid ${ext.pid}) runs the stack on ${ext.decoderUrl}`,
        );
      this.phase = "starting";
      this.error = null;
      this.changed();
      this.note(
        `starting: ${opts.replicas} decoder replica(s), ${opts.cseUrl ? `forwarding to ${opts.cseUrl}` : opts.cseKind === "acme" ? "ACME CSE" : cseInDecoder(opts) ? "embedded CSE in the decoder's process" : "embedded CSE"}`,
      );
      process.once("exit", this.exitHook);
      try {
        this.running = await this.processes.start(opts);
        writeState(this.dir, {
          pid: process.pid,
          owner: this.o.owner,
          startedAt: this.running.startedAt.toISOString(),
          options: opts,
          endpoints: this.running.endpoints,
          decoderUrl: this.running.decoderUrl,
          cseUrl: this.running.cseUrl,
        });
        this.note(`running: ingest at ${this.running.endpoints.ingest}`);
        this.follow(this.running.decoderUrl);
      } catch (e) {
        this.error = e instanceof Error ? e.message.split("\n")[0]! : String(e);
        this.note(`start failed: ${(e as Error).message}`);
        await this.processes.stop();
        process.off("exit", this.exitHook);
        throw e instanceof HostError ? e : new HostError("internal", `the stack did not start: ${this.error}`);
      } finally {
        this.phase = "idle";
        this.changed();
      }
      return this.status();
    });
  }

  down(): Promise<StackStatus> {
    return this.serial(async () => {
      if (!this.running) {
        const ext = this.external();
        if (ext) await stopExternal(ext);
        this.unfollow();
        return this.status();
      }
      this.phase = "stopping";
      this.changed();
      this.note("stopping");
      this.unfollow();
      try {
        await this.processes.stop();
      } finally {
        removeState(this.dir, process.pid);
        process.off("exit", this.exitHook);
        this.running = undefined;
        this.live.forget();
        this.phase = "idle";
        this.note("stopped");
        this.changed();
      }
      return this.status();
    });
  }

  /** The host is going away: stop the stack and release everything (files, timers, followers). */
  async close(): Promise<void> {
    await this.down().catch(() => {});
    this.unfollow();
    await this.stackLog.close();
  }

  /** synchronous, from process "exit": children get SIGTERM and shut down cleanly on their own */
  private killNow(): void {
    this.processes.signalStop();
    removeState(this.dir, process.pid);
  }
}
