// Processes a test starts and must not leave behind. Each one gets its own process group (spawn
// `detached`), so stopping it reaches everything it started too: nginx's workers, the node that
// tsx starts under itself, ACME's children. Stopping asks nicely (SIGTERM, or the program's own
// way, e.g. `nginx -s quit`), waits until no process of the group is left, and after a grace time
// sends SIGKILL to the whole group. The helper stops it by itself when the test that started it
// ends, passed, failed or timed out (or, started outside a test, when the test file ends), and
// when the test worker is terminated or interrupted.
import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import path from "node:path";
import type { RunnerTestCase } from "vitest";
import { groupRunning, readProc } from "./procfs.ts";
import { record } from "./runLog.ts";

/**
 * vitest's test hooks, inside a vitest worker only: scripts that run beside the tests (the ACME suite
 * runner, benches) use these helpers too, and importing vitest outside its runner throws.
 */
const runner = process.env.VITEST
  ? { ...(await import("vitest")), ...(await import("vitest/suite")) }
  : { onTestFinished: undefined, getCurrentTest: () => undefined };

export interface OwnOptions {
  /** a name for messages; default the command's file name */
  name?: string;
  /** how to ask it to stop; default SIGTERM to its whole group */
  stop?: (p: OwnedGroup) => void | Promise<void>;
  /** how long the asked-for stop may take before SIGKILL to the group; default 10 s */
  graceMs?: number;
  /**
   * "test": stopped when the running test ends; "file": when the test file ends (a process started
   * in beforeAll and shared by the file's tests). Default: "test" inside a test, else "file".
   */
  scope?: "test" | "file";
}

export interface OwnedGroup {
  readonly name: string;
  /** the leader's pid, which is also the process group's id */
  readonly pid: number;
  /** whether any process of the group is still there */
  running(): boolean;
  /** sends `signal` to every process of the group */
  signal(signal: NodeJS.Signals): void;
  /** asks it to stop, waits for the whole group, SIGKILL after the grace time; rejects if something survives even that */
  stop(): Promise<void>;
}

export interface OwnedProcess extends OwnedGroup {
  readonly child: ChildProcess;
  /** resolves with the leader's exit code, or its signal's name */
  readonly exited: Promise<number | string>;
}

/** what the worker's exit and signal handlers kill, and what the end of a test file stops */
const live = new Map<OwnedGroup, "test" | "file">();

/** `spawn`, in its own process group, owned by the running test (or the test file). */
export function spawnOwned(
  command: string,
  args: readonly string[] = [],
  options: SpawnOptions & OwnOptions = {},
): OwnedProcess {
  const { name, stop, graceMs, scope, ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, detached: true });
  return own(child, { name: name ?? path.basename(command), stop, graceMs, scope });
}

/**
 * Takes ownership of a child started elsewhere with `detached: true` (e.g. by a launcher with an
 * `onSpawn` hook), so it is stopped like one from `spawnOwned`.
 */
export function own(child: ChildProcess, options: OwnOptions = {}): OwnedProcess {
  const exited = new Promise<number | string>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode ?? child.signalCode!);
    else child.once("exit", (code, signal) => resolve(code ?? signal ?? -1));
    // spawn failed (ENOENT…): there is no process to wait for
    child.once("error", () => child.pid === undefined && resolve(-1));
  });
  const p = Object.assign(
    adopt(child.pid ?? 0, {
      ...options,
      name: options.name ?? path.basename(child.spawnfile),
      cmd: [child.spawnfile, ...child.spawnargs.slice(1)].join(" "),
      settled: exited,
    }),
    { child, exited },
  );
  child.once("exit", () => p.running());
  return p;
}

/**
 * Takes ownership of a running process group a test caused but did not spawn itself, e.g. the
 * session `satpayload stack up --detach` starts in the background (pgid = its pid).
 */
export function ownGroup(pgid: number, options: OwnOptions & { name: string }): OwnedGroup {
  return adopt(pgid, { ...options, cmd: readProc(pgid)?.cmd ?? options.name });
}

function adopt(
  pid: number,
  options: OwnOptions & { name: string; cmd: string; settled?: Promise<unknown> },
): OwnedGroup {
  const { name } = options;
  const leader = pid ? readProc(pid) : undefined;
  // setsid() happens in the child before exec, and spawn() returns after exec: a group of its own by now
  if (leader && leader.pgid !== pid)
    throw new Error(`${name} (pid ${pid}) shares process group ${leader.pgid}: start it with detached: true`);

  // an emptied group is over for good: latched, so that a later process given the same pid (and
  // so the same group id) is never taken for it
  let over = pid === 0;
  const running = () => {
    if (!over && !groupRunning(pid)) over = true;
    return !over;
  };
  const signal = (sig: NodeJS.Signals) => {
    if (!running()) return;
    try {
      process.kill(-pid, sig);
    } catch {
      // the group is gone
    }
  };
  let stopping: Promise<void> | undefined;
  const g: OwnedGroup = {
    name,
    pid,
    running,
    signal,
    stop: () =>
      (stopping ??= (async () => {
        try {
          if (!running()) return;
          try {
            await (options.stop ? options.stop(g) : signal("SIGTERM"));
          } catch {
            // the polite way failed (its command is missing, the pid file is gone): SIGKILL below still ends it
          }
          if (await groupGone(running, options.graceMs ?? 10_000)) return;
          signal("SIGKILL");
          if (!(await groupGone(running, 5_000)))
            throw new Error(`${name} (process group ${pid}) is still running after SIGKILL`);
        } finally {
          live.delete(g);
        }
        await options.settled;
      })()),
  };
  if (over) return g;

  const test = runner.getCurrentTest();
  const scope = options.scope ?? (test ? "test" : "file");
  if (scope === "test") {
    if (!test || !runner.onTestFinished) throw new Error(`${name}: scope "test" outside a running test`);
    runner.onTestFinished(() => g.stop());
  }
  live.set(g, scope);
  watchWorkerEnd();
  record({
    kind: "group",
    pgid: pid,
    start: leader?.start ?? 0,
    cmd: options.cmd,
    test: test ? testLabel(test) : `${currentFile ?? "?"} (outside a test)`,
  });
  return g;
}

/** Stops what is still owned with scope "file" (the per-file setup calls it when a test file ends). */
export async function stopFileScoped(): Promise<void> {
  const left = [...live].filter(([, s]) => s === "file").map(([p]) => p);
  const results = await Promise.allSettled(left.map((p) => p.stop()));
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed.length)
    throw new AggregateError(
      failed.map((f) => f.reason as unknown),
      "owned processes survived",
    );
}

let currentFile: string | undefined;
/** The test file now running (set by the per-file setup), for records made outside a test. */
export function setCurrentFile(file: string | undefined): void {
  currentFile = file;
}

/** "services/decoder/test/nginx.test.ts > nginx from the exported bundle > serves TLS …" */
export function testLabel(test: Pick<RunnerTestCase, "name" | "suite" | "file">): string {
  const names: string[] = [];
  for (let s = test.suite; s && s !== test.file; s = s.suite) names.unshift(s.name);
  return [test.file.name, ...names, test.name].join(" > ");
}

async function groupGone(running: () => boolean, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (running()) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

let watching = false;
/**
 * A worker that exits or is terminated (tinypool's SIGTERM, Ctrl-C's SIGINT at the terminal) runs no
 * more hooks: kill the owned groups on the way out, synchronously, then die of the same signal.
 * Installed on first ownership only, so workers that own nothing keep their default signal handling.
 */
function watchWorkerEnd(): void {
  if (watching) return;
  watching = true;
  const killAll = () => {
    for (const p of live.keys()) p.signal("SIGKILL");
  };
  process.on("exit", killAll);
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
    process.once(sig, () => {
      killAll();
      process.kill(process.pid, sig);
    });
}
