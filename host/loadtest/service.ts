// The host's load tests: at most one run at a time in its own process, its progress as events, and
// the history in the projects database.
import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { parseLayout, presetById } from "#codecs";
import type { Job } from "#contracts/loadtest/job.ts";
import type { LoadTestResult, Progress, TimelinePoint } from "#contracts/loadtest/result.ts";
import type { RunSettings } from "#contracts/loadtest/spec.ts";
import { resultsCsv } from "#contracts/loadtest/table.ts";
import { INGEST_TRANSPORT_LABELS } from "#planning/ingest";
import { LoadTestStore } from "./history.ts";
import { startLoadgen, type LoadgenProcess } from "./process.ts";
import type { Res } from "../api/contract.ts";
import { stackLacksTransport, type LoadTestSummary } from "../api/loadtest.ts";
import type { StackStatus } from "../api/stack.ts";
import type { ProjectStore } from "../db/projects.ts";
import { HostError } from "../errors.ts";
import type { HostEvents } from "../handlers/events.ts";

/** points kept for a page that opens mid-run; a run reports about one a second */
const KEEP_POINTS = 3600;

interface Active {
  run: LoadTestSummary;
  proc: LoadgenProcess;
  progress: Progress | null;
  timeline: TimelinePoint[];
}

export type LayoutChoice = { kind: "preset"; id: string } | { kind: "project"; id: string };

/** The stack the app runs now (Stack page or `satpayload stack up`), as its supervisor reports it. */
export type RunningStackStatus = () => StackStatus | undefined;

/** A "stack" target filled in with where the running stack answers; refused when none runs. */
export function resolveStackTarget(settings: RunSettings, status: StackStatus | undefined): RunSettings {
  if (settings.target.kind !== "stack") return settings;
  const s = status;
  if (!s?.endpoints || (s.state !== "running" && s.state !== "degraded"))
    throw new HostError(
      "bad_request",
      "no stack is running: start it on the Stack page (or with satpayload stack up), or pick a stack for this run only",
    );
  const decoderUrl = new URL(s.endpoints.ingest).origin;
  const t = settings.transport;
  const transportUrl = t === "http" ? undefined : s.endpoints[t];
  if (t !== "http" && !transportUrl) {
    const reason = stackLacksTransport(INGEST_TRANSPORT_LABELS[t], `--${t}-port`);
    throw new HostError("bad_request", reason, [{ path: "transport", message: reason }]);
  }
  return {
    ...settings,
    target: {
      kind: "stack",
      decoderUrl,
      cseBaseUrl: s.endpoints.cse,
      replicas: s.options?.replicas ?? 1,
      ...(s.startedAt ? { startedAt: s.startedAt } : {}),
      ...(t === "mqtt" ? { mqttUrl: transportUrl } : t === "coap" ? { coapUrl: transportUrl } : {}),
    },
  };
}

export class LoadTestService {
  private storeValue: LoadTestStore | null = null;
  private active: Active | null = null;
  private finished: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly events: HostEvents,
    /** the host's projects database (the host opens and closes it) */
    private readonly db: Database.Database,
    private readonly projects: ProjectStore,
    private readonly start: typeof startLoadgen = startLoadgen,
    private readonly runningStack: RunningStackStatus = () => undefined,
  ) {}

  /** prepared on first use; runs left "running" by a host that stopped are marked failed then */
  get store(): LoadTestStore {
    if (!this.storeValue) {
      this.storeValue = new LoadTestStore(this.db);
      this.storeValue.failStale(new Date().toISOString());
    }
    return this.storeValue;
  }

  /** A project's runs carry its current name: the history follows a rename. */
  private named<T extends LoadTestSummary>(runs: T[]): T[] {
    if (!runs.some((r) => r.projectId)) return runs;
    const names = new Map<string, string | undefined>();
    const nameOf = (id: string) => {
      if (!names.has(id)) {
        try {
          names.set(id, this.projects.summary(id).name);
        } catch (e) {
          // a deleted project: its runs keep the name they ran under
          if (!(e instanceof HostError)) throw e;
          names.set(id, undefined);
        }
      }
      return names.get(id);
    };
    return runs.map((r) => {
      const name = r.projectId ? nameOf(r.projectId) : undefined;
      return name === undefined || name === r.layoutName ? r : { ...r, layoutName: name };
    });
  }

  private job(layout: LayoutChoice, settings: RunSettings): { job: Job; layoutName: string } {
    // the running stack's decoder knows projects by their id (it reads the projects database)
    const onStack = settings.target.kind === "stack";
    if (layout.kind === "preset") {
      const p = presetById(layout.id);
      if (!p) throw new HostError("not_found", `no preset "${layout.id}"`);
      return { job: { settings, layout: { kind: "preset", id: p.id } }, layoutName: p.name };
    }
    const project = this.projects.open(layout.id);
    // invalid layouts are refused here with path-precise issues, not by the generator later
    const parsed = parseLayout(project.layout);
    return {
      job: {
        settings,
        layout: { kind: "document", id: onStack ? project.id : `project-${project.id}`, layout: parsed },
      },
      layoutName: parsed.name,
    };
  }

  begin(layout: LayoutChoice, requested: RunSettings): LoadTestSummary {
    if (this.active)
      throw new HostError(
        "conflict",
        `a load test is already running (${this.active.run.id}); cancel it or wait for it to end`,
      );
    const settings = resolveStackTarget(requested, this.runningStack());
    const { job, layoutName } = this.job(layout, settings);
    const id = randomUUID();
    const run = this.named([
      this.store.insertRunning(
        id,
        new Date().toISOString(),
        layoutName,
        settings,
        layout.kind === "project" ? layout.id : null,
      ),
    ])[0]!;
    const proc = this.start(job, (progress) => {
      if (!this.active || this.active.run.id !== id) return;
      this.active.progress = progress;
      if (progress.point) {
        this.active.timeline.push(progress.point);
        if (this.active.timeline.length > KEEP_POINTS) this.active.timeline.shift();
      }
      this.events.emit("loadtest.progress", { id, progress });
    });
    this.active = { run, proc, progress: null, timeline: [] };
    this.finished = proc.done.then(
      (result) => this.end(id, result.status, result, null),
      (e: Error) => this.end(id, "failed", null, e.message),
    );
    return run;
  }

  private end(
    id: string,
    status: Exclude<LoadTestSummary["status"], "running">,
    result: LoadTestResult | null,
    error: string | null,
  ): void {
    if (this.active?.run.id === id) this.active = null;
    try {
      const summary = this.named([this.store.finish(id, status, new Date().toISOString(), result, error)])[0]!;
      this.events.emit("loadtest.finished", summary);
    } catch (e) {
      // the host closed its database while the run ended: nothing left to tell
      if (this.db.open) throw e;
    }
  }

  cancel(id: string): boolean {
    if (this.active?.run.id !== id) return false;
    this.active.proc.cancel();
    return true;
  }

  activeRun(): Res<"loadtest.active"> {
    const a = this.active;
    return a ? { run: a.run, progress: a.progress, timeline: a.timeline } : null;
  }

  history(limit: number) {
    return this.named(this.store.list(limit));
  }

  get(id: string) {
    return this.named([this.store.get(id)])[0]!;
  }

  compare(ids: string[]) {
    return this.named(ids.map((id) => this.store.get(id)));
  }

  export(ids: string[], format: "csv" | "json"): Res<"loadtest.export"> {
    const runs = ids.map((id) => this.store.get(id));
    const done = runs.filter((r) => r.result !== null);
    if (done.length === 0)
      throw new HostError("bad_request", "none of these runs has a result to export (still running or failed)");
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:T]/g, "");
    if (format === "csv")
      return {
        fileName: `loadtests-${stamp}.csv`,
        mediaType: "text/csv",
        content: resultsCsv(
          done.map((r) => r.result!),
          done.map((r) => r.id),
        ),
      };
    return {
      fileName: `loadtests-${stamp}.json`,
      mediaType: "application/json",
      content: `${JSON.stringify(
        done.map((r) => ({ id: r.id, ...r.result })),
        null,
        2,
      )}\n`,
    };
  }

  delete(id: string): boolean {
    if (this.active?.run.id === id) throw new HostError("conflict", "the run is still going: cancel it first");
    return this.store.delete(id);
  }

  /** Cancels a run in progress (killing it if it does not stop in time); call before the host closes its database. */
  async close(graceMs = 10_000): Promise<void> {
    const a = this.active;
    if (!a) return;
    a.proc.cancel();
    const t = setTimeout(() => a.proc.kill(), graceMs);
    await this.finished.catch(() => {});
    clearTimeout(t);
  }
}
