// Runs the local stack for the app or the CLI: the embedded CSE (unless an external CSE is given)
// and the decoder with its replicas as child processes — ports chosen or given, health-checked,
// restarted on crash, logs captured, live stats followed — and stops them cleanly.
import { existsSync } from "node:fs";
import path from "node:path";
import type { RetryRequest } from "#contracts/decoder/retryRequest.ts";
import { checkRoute, mergeRoutes, RouteSpecError } from "#contracts/decoder/routes.ts";
import { ACME_ADMIN, ACME_BASE } from "#services/shared/acme.ts";
import { ACME_ENTRY, CSE_ENTRY, DECODER_ENTRY } from "#services/shared/launch.ts";
import { freePort, freeUdpPort } from "#services/shared/ports.ts";
import {
  stackOptionsSchema,
  type LogLine,
  type StackEndpoints,
  type StackOptions,
  type StackOptionsInput,
  type StackRecord,
  type StackRefused,
  type StackStats,
  type StackStatus,
} from "../api/stack.ts";
import { DB_FILE_NAME } from "../db/open.ts";
import { HostError } from "../errors.ts";
import { acmeArgs, AE_NAME, cseInDecoder, decoderArgs, embeddedCseArgs, SHARED_CONTAINER } from "./args.ts";
import { LogFile, LogRing } from "./logs.ts";
import { listRefused, retryRefused } from "./refused.ts";
import { DEFAULT_TIMINGS, ManagedService, type ServiceTimings } from "./service.ts";
import { SseFollower } from "./sse.ts";
import { pidAlive, readLiveState, removeState, writeState, type StackState } from "./stateFile.ts";

export const STACK_DIR = "stack";
/** where the stack's decoder keeps its buffers and its credentials file (keys.json) */
export const decoderDataDir = (stackDir: string) => path.join(stackDir, "decoder");
/** where acmecse is installed on first use when the repository's .venv does not have it */
export const ACME_VENV_DIR = "acme-venv";
const ACME_START_TIMEOUT_MS = 15 * 60_000;

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

type Running = {
  options: StackOptions;
  startedAt: Date;
  endpoints: StackEndpoints;
  decoderUrl: string;
  cseUrl: string | null;
};

function endpointsFor(
  decoderUrl: string,
  cseBase: string,
  opts: StackOptions,
  ingestPorts: { mqtt?: number | undefined; coap?: number | undefined },
): StackEndpoints {
  const host = new URL(decoderUrl).hostname;
  return {
    ...(ingestPorts.mqtt !== undefined ? { mqtt: `mqtt://${host}:${ingestPorts.mqtt}` } : {}),
    ...(ingestPorts.coap !== undefined ? { coap: `coap://${host}:${ingestPorts.coap}` } : {}),
    ingest: `${decoderUrl}/ingest`,
    ingestBase64: `${decoderUrl}/ingest/base64`,
    latest: `${decoderUrl}/api/latest`,
    stats: `${decoderUrl}/api/stats`,
    events: `${decoderUrl}/api/events`,
    health: `${decoderUrl}/health`,
    cse: cseBase,
    container: `${cseBase}/${AE_NAME}/${opts.container === "shared" ? SHARED_CONTAINER : "<device key>"}`,
    routes: mergeRoutes(opts.routes).map((r) => ({
      url: `${decoderUrl}${r.path}`,
      layout: r.layout,
      format: r.format,
      body: r.body,
    })),
  };
}

export class StackSupervisor {
  readonly dir: string;
  private cse: ManagedService | undefined;
  private decoder: ManagedService | undefined;
  private running: Running | undefined;
  private phase: "idle" | "starting" | "stopping" = "idle";
  private error: string | null = null;
  private readonly ring = new LogRing();
  private readonly files = new Map<LogLine["service"], LogFile>();
  private pending: LogLine[] = [];
  private logSeq = 0;
  private logTimer: NodeJS.Timeout | undefined;
  private follower: { url: string; sse: SseFollower } | undefined;
  private lastStats: StackStats | undefined;
  private statusQueued = false;
  private busy: Promise<unknown> = Promise.resolve();
  private readonly timings: ServiceTimings;
  private readonly exitHook = () => this.killNow();

  constructor(private readonly o: SupervisorOptions) {
    this.dir = path.join(path.resolve(o.dataDir), STACK_DIR);
    this.timings = { ...DEFAULT_TIMINGS, ...o.timings };
  }

  // ---- logs and events ----------------------------------------------------------------------

  private log(captured: Omit<LogLine, "seq">): void {
    const line: LogLine = { seq: this.logSeq++, ...captured };
    this.ring.push(line);
    let f = this.files.get(line.service);
    if (!f) this.files.set(line.service, (f = new LogFile(path.join(this.dir, "logs", `${line.service}.log`))));
    f.write(line);
    if (this.o.onLog) {
      this.pending.push(line);
      this.logTimer ??= setTimeout(() => {
        this.logTimer = undefined;
        const lines = this.pending.splice(0);
        if (lines.length) this.o.onLog!(lines);
      }, 250);
    }
  }

  private note(text: string): void {
    this.log({ service: "supervisor", stream: "event", at: new Date().toISOString(), text });
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
    return this.ring.tail(limit, service);
  }

  // ---- status ------------------------------------------------------------------------------

  private external(): StackState | undefined {
    const s = readLiveState(this.dir);
    return s && s.pid !== process.pid ? s : undefined;
  }

  status(): StackStatus {
    const services = [this.cse, this.decoder].filter((s): s is ManagedService => !!s).map((s) => s.status());
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
    if (this.follower?.url === decoderUrl) return;
    this.unfollow();
    const sse = new SseFollower(`${decoderUrl}/api/events`, (f) => {
      if (f.event === "stats") {
        this.lastStats = f.data as StackStats;
        this.o.onStats?.(this.lastStats);
      } else if (f.event === "ingested") this.o.onIngested?.(f.data as { count: number; records: StackRecord[] });
    });
    this.follower = { url: decoderUrl, sse };
  }

  private unfollow(): void {
    this.follower?.sse.close();
    this.follower = undefined;
  }

  async stats(): Promise<StackStats | null> {
    const url = this.decoderUrl();
    if (!url) return null;
    const r = await fetch(`${url}/api/stats`, { signal: AbortSignal.timeout(5000) }).catch(() => undefined);
    if (!r?.ok) return this.lastStats ?? null;
    return (await r.json()) as StackStats;
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
        this.running = await this.startServices(opts);
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
        await this.stopServices();
        process.off("exit", this.exitHook);
        throw e instanceof HostError ? e : new HostError("internal", `the stack did not start: ${this.error}`);
      } finally {
        this.phase = "idle";
        this.changed();
      }
      return this.status();
    });
  }

  private async startServices(opts: StackOptions): Promise<Running> {
    const onChange = () => this.changed();
    const logTo = (l: Omit<LogLine, "seq">) => this.log(l);
    let cseBase = opts.cseUrl?.replace(/\/+$/, "");
    let cseUrl: string | null = null;
    const inDecoder = cseInDecoder(opts);
    // the CSE port is fixed across decoder restarts: readers and subscriptions keep their address
    const inProcessPort = inDecoder ? opts.csePort || (await freePort()) : 0;
    if (!cseBase && !inDecoder) {
      const port = opts.csePort || (await freePort());
      const acme = opts.cseKind === "acme";
      const health = acme ? { base: ACME_BASE, origin: ACME_ADMIN } : { base: "Mobius", origin: "Sponde" };
      this.cse = new ManagedService(
        {
          name: "cse",
          entry: acme ? ACME_ENTRY : CSE_ENTRY,
          port,
          args: acme
            ? (p) =>
                acmeArgs(opts, p, path.join(this.dir, "acme"), path.join(path.resolve(this.o.dataDir), ACME_VENV_DIR))
            : (p) => embeddedCseArgs(opts, p, path.join(this.dir, "cse")),
          healthPath: (url) => ({
            url: `${url}/${health.base}`,
            headers: {
              "X-M2M-RI": "health",
              "X-M2M-Origin": health.origin,
              "X-M2M-RVI": "3",
              Accept: "application/json",
            },
          }),
          tieToParent: acme,
        },
        // ACME is a Python program that may first be installed from PyPI
        acme
          ? { ...this.timings, startTimeoutMs: Math.max(this.timings.startTimeoutMs, ACME_START_TIMEOUT_MS) }
          : this.timings,
        logTo,
        onChange,
      );
      await this.cse.start();
      cseUrl = this.cse.status().url!;
      cseBase = String(this.cse.listening.cseBaseUrl ?? `${cseUrl}/${health.base}`);
    }
    const projects = path.join(path.resolve(this.o.dataDir), DB_FILE_NAME);
    const decoderPort = opts.decoderPort || (await freePort());
    // chosen once, like the HTTP port, so devices keep their address across decoder restarts
    const mqttPort = opts.mqttPort === undefined ? undefined : opts.mqttPort || (await freePort());
    const coapPort = opts.coapPort === undefined ? undefined : opts.coapPort || (await freeUdpPort());
    const base = cseBase;
    this.decoder = new ManagedService(
      {
        name: "decoder",
        entry: DECODER_ENTRY,
        port: decoderPort,
        args: (p) =>
          decoderArgs(opts, p, {
            dataDir: decoderDataDir(this.dir),
            cse: base ? { base } : { inProcessPort },
            projectsDb: existsSync(projects) ? projects : undefined,
            mqttPort,
            coapPort,
          }),
        healthPath: (url) => ({ url: `${url}/health` }),
        tieToParent: true,
      },
      this.timings,
      logTo,
      onChange,
    );
    await this.decoder.start();
    const decoderUrl = this.decoder.status().url!;
    if (inDecoder) {
      cseBase = String(this.decoder.listening.cseBaseUrl);
      cseUrl = new URL(cseBase).origin;
    }
    return {
      options: opts,
      startedAt: new Date(),
      endpoints: endpointsFor(decoderUrl, cseBase!, opts, { mqtt: mqttPort, coap: coapPort }),
      decoderUrl,
      cseUrl,
    };
  }

  private async stopServices(): Promise<void> {
    // the decoder first: it flushes its commits and stops forwarding before the CSE goes away
    if (this.decoder) await this.decoder.stop();
    if (this.cse) await this.cse.stop(10_000);
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
        await this.stopServices();
      } finally {
        removeState(this.dir, process.pid);
        process.off("exit", this.exitHook);
        this.running = undefined;
        this.lastStats = undefined;
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
    clearTimeout(this.logTimer);
    await Promise.all([...this.files.values()].map((f) => f.close()));
  }

  /** synchronous, from process "exit": children get SIGTERM and shut down cleanly on their own */
  private killNow(): void {
    this.decoder?.signalStop();
    this.cse?.signalStop();
    removeState(this.dir, process.pid);
  }
}

/** `satpayload stack down` or the app stopping a stack that `stack up --detach` runs. */
export async function stopExternal(ext: StackState, timeoutMs = 30_000): Promise<void> {
  if (ext.owner !== "cli")
    throw new HostError("conflict", `the stack runs inside SatPayload Studio (pid ${ext.pid}); stop it there`);
  process.kill(ext.pid, "SIGTERM");
  const until = Date.now() + timeoutMs;
  while (pidAlive(ext.pid)) {
    if (Date.now() > until)
      throw new HostError("internal", `the stack process ${ext.pid} did not stop within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
