// Which running processes a test run started and left behind, and which test started each.
//
// A process belongs to the run when it started after the run's vitest process and
//  - carries the run's id in the environment it was started with (every child inherits it unless
//    it clears its environment), or
//  - is in a process group the test helpers started (owned.ts records each), or
//  - is in vitest's own session and process group and hangs under vitest or under nothing of that
//    session any more (an orphan, reparented to init or a subreaper): nginx rewrites its workers'
//    environment, so an orphaned worker is only recognisable this way. A process of the session hanging under
//    vitest's parents (the shell, `tee` in .ci/run) is a sibling of the run, not part of it, except under
//    the process the run's orphans are handed to (init, or a subreaper): where CI starts the run
//    without a session of its own, init is in the run's session and among its parents.
// A process carrying another run's id is that run's, wherever it hangs.
// vitest itself, its parents, vite's esbuild service, vitest's pool workers (but not what they
// started) and zombies (ended, waiting for init to collect them) are not leaks.
import { spawnSync } from "node:child_process";
import { ended, environOf, type Proc, processTable, readProc } from "./procfs.ts";
import { RUN_ID_VAR, type RunRecord, TEST_VAR } from "./runLog.ts";

export interface RunIdentity {
  id: string;
  /** the vitest process (global setup and teardown run in it) */
  main: Proc;
  /** pids above vitest when the run began */
  ancestors: ReadonlySet<number>;
  /** "pid:start" of vitest's children when the run began (vite's esbuild service) */
  baseline: ReadonlySet<string>;
  /** false when vitest runs inside another test run's session without a session of its own */
  sessionIsOurs: boolean;
  /** the pid the run's orphans are reparented to (orphanAdopter()): init, or a subreaper above the run */
  adopter: number;
}

/**
 * Which process takes the orphans of this process's children: the parent an orphaned sleep gets.
 * Init (1) unless a subreaper sits above us (systemd --user, a container's init, a CI agent).
 */
export function orphanAdopter(): number {
  // the shell exits at once: its background sleep is an orphan by the time spawnSync returns
  const r = spawnSync("sh", ["-c", "sleep 30 >/dev/null 2>&1 & echo $!"], { encoding: "utf8" });
  const pid = Number(r.stdout.trim());
  if (!Number.isInteger(pid) || pid <= 0) return 1;
  try {
    return readProc(pid)?.ppid ?? 1;
  } finally {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

const key = (p: Pick<Proc, "pid" | "start">) => `${p.pid}:${p.start}`;
/**
 * vitest's test workers, which its pool ends only after the teardown: tinypool's entry script (an idle
 * worker), or the title a worker gives itself once it runs tests ("node (vitest 1)"). Only the worker
 * itself is spared: what it started is checked like everything else.
 */
const POOL_WORKER = /[/\\]tinypool[/\\]dist[/\\]entry[/\\]process\.js|^node \(vitest \d+\)$/;

export function runLeftovers(
  run: RunIdentity,
  records: readonly RunRecord[],
  table: readonly Proc[] = processTable(),
): Proc[] {
  const byPid = new Map(table.map((p) => [p.pid, p]));
  const groups = records.flatMap((r) => (r.kind === "group" ? [r] : []));
  // pids are reused (pid_max can be 32768): a group id names our group only while its leader is ours
  // or gone, and only for processes started after it
  const inOwnedGroup = (p: Proc) =>
    groups.some((g) => {
      if ((g.pgid !== p.pgid && g.pgid !== p.sid) || p.start < g.start) return false;
      const leader = byPid.get(g.pgid);
      return !leader || leader.start === g.start;
    });
  const hangsUnderRun = (p: Proc): boolean => {
    for (let up = byPid.get(p.ppid), hops = 0; up && hops < 1000; up = byPid.get(up.ppid), hops++) {
      if (up.pid === run.main.pid) return true;
      // both before the parents: where orphans go is one of them (init, or a subreaper), and when CI
      // starts the run in init's own session 0 it is also in the run's session
      if (up.pid === run.adopter) return true;
      if (up.sid !== run.main.sid) return true;
      if (run.ancestors.has(up.pid)) return false;
    }
    return true;
  };
  return table.filter((p) => {
    if (p.pid === run.main.pid || run.ancestors.has(p.pid) || p.start < run.main.start || ended(p)) return false;
    if (run.baseline.has(key(p))) return false;
    if (p.ppid === run.main.pid && POOL_WORKER.test(p.cmd)) return false;
    if (inOwnedGroup(p)) return true;
    const itsRun = environOf(p.pid, [RUN_ID_VAR])[RUN_ID_VAR];
    if (itsRun === run.id) return true;
    // another test run's (a second `npm test` started from the same terminal session, whose chain
    // of parents may be gone): that run's own check answers for it, and ending it would break that run
    if (itsRun !== undefined) return false;
    // an orphan is the run's only in the run's own process group: a shell's other jobs (job control gives each
    // its group) share the terminal's session without being started by the run
    return run.sessionIsOurs && p.sid === run.main.sid && p.pgid === run.main.pgid && hangsUnderRun(p);
  });
}

/** Which test started `p`: from its environment, a note made while it ran under a worker, its group, or the time it started. */
export function startedBy(p: Proc, records: readonly RunRecord[], ticksPerSecond: number): string {
  const test = environOf(p.pid, [TEST_VAR])[TEST_VAR];
  if (test) return `started during ${test}`;
  const seen = records.find((r) => r.kind === "seen" && r.pid === p.pid && r.start === p.start);
  if (seen?.kind === "seen") return `started during ${seen.test} (seen under its worker when it ended)`;
  const group = records.find((r) => r.kind === "group" && (r.pgid === p.pgid || r.pgid === p.sid));
  if (group?.kind === "group") return `started during ${group.test} (in the process group of: ${group.cmd})`;

  // nothing names it: the tests (or test files) that were running when it started
  const at = p.start / ticksPerSecond;
  const during = (startKind: RunRecord["kind"], endKind: RunRecord["kind"], name: (r: RunRecord) => string) => {
    const open = new Map<string, number>();
    const hits = new Set<string>();
    for (const r of records) {
      if (r.kind === startKind && "at" in r) open.set(`${name(r)}@${"worker" in r ? r.worker : 0}`, r.at);
      if (r.kind === endKind && "at" in r) {
        const k = `${name(r)}@${"worker" in r ? r.worker : 0}`;
        const from = open.get(k);
        if (from !== undefined && from - 0.01 <= at && at <= r.at + 0.01) hits.add(name(r));
        open.delete(k);
      }
    }
    // still open: the worker was killed before the end was written
    for (const [k, from] of open) if (from - 0.01 <= at) hits.add(k.slice(0, k.lastIndexOf("@")));
    return [...hits];
  };
  const tests = during("test-start", "test-end", (r) => ("test" in r ? r.test : ""));
  if (tests.length)
    return `started while ${tests.length > 1 ? "these tests were" : "this test was"} running: ${tests.join("; ")}`;
  const files = during("file-start", "file-end", (r) => ("file" in r ? r.file : ""));
  if (files.length) return `started while ${files.join("; ")} ran, outside its tests (a beforeAll/afterAll hook)`;
  return "started outside any test file (a global setup, or after the last test file ended)";
}
