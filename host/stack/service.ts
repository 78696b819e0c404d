// One supervised child process: started from our TypeScript entry, health-checked, restarted with
// backoff when it crashes or stops answering, its output captured line by line.
import type { ChildProcess } from "node:child_process";
import { launch, stopChild, type Launched } from "#services/shared/launch.ts";
import type { LogLine, ServiceStatus } from "../api/stack.ts";

export interface ServiceSpec {
  name: ServiceStatus["name"];
  entry: string;
  /** arguments for a start; the port is fixed after the first start so restarts keep the URL */
  args(port: number): string[];
  port: number;
  /** GET that answers 200 while the service is healthy */
  healthPath(url: string): { url: string; headers?: Record<string, string> };
  env?: NodeJS.ProcessEnv;
  /** stdin piped and watched by the child: it exits when we die, however we die */
  tieToParent: boolean;
}

export interface ServiceTimings {
  healthEveryMs: number;
  /** consecutive failed checks before a live but unresponsive process is killed and restarted */
  unhealthyKillAfter: number;
  restartBaseMs: number;
  restartMaxMs: number;
  /** a process that ran this long restarts without accumulated backoff */
  stableMs: number;
  startTimeoutMs: number;
}

export const DEFAULT_TIMINGS: ServiceTimings = {
  healthEveryMs: 2000,
  unhealthyKillAfter: 5,
  restartBaseMs: 500,
  restartMaxMs: 30_000,
  stableMs: 60_000,
  startTimeoutMs: 90_000,
};

export class ManagedService {
  private launched: Launched | undefined;
  private state: ServiceStatus["state"] = "stopped";
  private url: string | null = null;
  private port: number;
  private healthy: boolean | null = null;
  private failedChecks = 0;
  private restarts = 0;
  private streak = 0;
  private lastExit: string | null = null;
  private startedAt: Date | null = null;
  private healthTimer: NodeJS.Timeout | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  /** the listening message of the latest start (the CSE reports its base URL there) */
  listening: Record<string, unknown> = {};

  constructor(
    private readonly spec: ServiceSpec,
    private readonly timings: ServiceTimings,
    private readonly onLog: (line: Omit<LogLine, "seq">) => void,
    private readonly onChange: () => void,
  ) {
    this.port = spec.port;
  }

  status(): ServiceStatus {
    return {
      name: this.spec.name,
      state: this.state,
      pid: this.launched?.child.pid ?? null,
      url: this.url,
      healthy: this.healthy,
      restarts: this.restarts,
      lastExit: this.lastExit,
      startedAt: this.startedAt?.toISOString() ?? null,
    };
  }

  get child(): ChildProcess | undefined {
    return this.launched?.child;
  }

  private set(state: ServiceStatus["state"]): void {
    if (this.state === state) return;
    this.state = state;
    this.onChange();
  }

  private event(text: string): void {
    this.onLog({ service: this.spec.name, stream: "event", at: new Date().toISOString(), text });
  }

  /** First start: resolves when the service reports listening, rejects (and stays stopped) otherwise. */
  async start(): Promise<void> {
    this.stopping = false;
    this.set("starting");
    try {
      await this.spawn();
    } catch (e) {
      this.set("failed");
      throw e;
    }
  }

  private async spawn(): Promise<void> {
    const l = await launch(this.spec.entry, this.spec.args(this.port), {
      env: this.spec.env,
      tieToParent: this.spec.tieToParent,
      timeoutMs: this.timings.startTimeoutMs,
      onLine: (stream, text) => this.onLog({ service: this.spec.name, stream, at: new Date().toISOString(), text }),
    });
    this.launched = l;
    this.listening = l.listening;
    this.url = l.listening.url;
    this.port = Number(new URL(l.listening.url).port);
    this.startedAt = new Date();
    this.healthy = null;
    this.failedChecks = 0;
    this.event(`started (pid ${l.child.pid}) on ${l.listening.url}`);
    void l.exited.then((code) => this.exited(l, code));
    this.scheduleHealth();
    this.set("running");
  }

  private exited(l: Launched, code: number | string): void {
    if (this.launched !== l) return;
    clearTimeout(this.healthTimer);
    this.lastExit = `${typeof code === "number" ? `exit code ${code}` : code} at ${new Date().toISOString()}`;
    this.launched = undefined;
    if (this.stopping) return;
    this.event(`exited unexpectedly (${code})`);
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const ranFor = this.startedAt ? Date.now() - this.startedAt.getTime() : 0;
    this.streak = ranFor > this.timings.stableMs ? 0 : this.streak + 1;
    const delay = Math.min(this.timings.restartMaxMs, this.timings.restartBaseMs * 2 ** Math.max(0, this.streak - 1));
    this.set("restarting");
    this.event(`restarting in ${delay} ms`);
    this.restartTimer = setTimeout(() => {
      if (this.stopping) return;
      this.restarts++;
      this.spawn().catch((e: unknown) => {
        this.event(`restart failed: ${(e as Error).message.split("\n")[0]}`);
        if (!this.stopping) this.scheduleRestart();
      });
    }, delay);
  }

  private scheduleHealth(): void {
    clearTimeout(this.healthTimer);
    this.healthTimer = setTimeout(() => void this.check(), this.timings.healthEveryMs);
  }

  private async check(): Promise<void> {
    const l = this.launched;
    if (!l || this.stopping || !this.url) return;
    const probe = this.spec.healthPath(this.url);
    let ok = false;
    try {
      const r = await fetch(probe.url, {
        headers: probe.headers,
        signal: AbortSignal.timeout(Math.max(1000, this.timings.healthEveryMs)),
      });
      await r.arrayBuffer();
      ok = r.status === 200;
    } catch {
      ok = false;
    }
    if (this.launched !== l || this.stopping) return;
    this.failedChecks = ok ? 0 : this.failedChecks + 1;
    const healthy = ok;
    if (healthy !== this.healthy) {
      this.healthy = healthy;
      this.event(healthy ? "health check passed" : "health check failed");
      this.onChange();
    }
    if (this.failedChecks >= this.timings.unhealthyKillAfter) {
      this.event(`no healthy answer in ${this.failedChecks} checks: killing it for a restart`);
      l.child.kill("SIGKILL");
      return;
    }
    this.scheduleHealth();
  }

  async stop(graceMs = 15_000): Promise<void> {
    this.stopping = true;
    clearTimeout(this.healthTimer);
    clearTimeout(this.restartTimer);
    const l = this.launched;
    if (l) {
      this.set("stopping");
      await stopChild(l.child, l.exited, graceMs);
      this.event("stopped");
    }
    this.launched = undefined;
    this.healthy = null;
    this.url = null;
    this.set("stopped");
  }

  /** synchronous, for process exit: the child finishes its own clean shutdown on SIGTERM */
  signalStop(): void {
    this.stopping = true;
    clearTimeout(this.healthTimer);
    clearTimeout(this.restartTimer);
    this.launched?.child.kill("SIGTERM");
  }
}
