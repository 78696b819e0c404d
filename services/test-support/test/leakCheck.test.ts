// The run's leak check (codecs/test/helpers/processes/) and the process helpers, each proven on a
// real vitest run of fixture files: processes left behind fail the run and are named with the test
// that left them; tests timing out while holding nginx or a shell leave nothing. Whether a process
// is gone is read here from /proc directly, not through the helpers under test.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { orphanAdopter, runLeftovers, type RunIdentity } from "#codecs-test/helpers/processes/leaks.ts";
import { spawnOwned } from "#codecs-test/helpers/processes/owned.ts";
import { type Proc, readProc } from "#codecs-test/helpers/processes/procfs.ts";
import { RUN_ID_VAR } from "#codecs-test/helpers/processes/runLog.ts";
import { NOTES_VAR, readNotes } from "./fixtures/notes.ts";
import { repoRoot } from "../../shared/launch.ts";

const VITEST = path.join(repoRoot, "node_modules/vitest/vitest.mjs");
const CONFIG = "services/test-support/test/fixtures/leaks.vitest.config.ts";

/** running = present in /proc and not a zombie */
function running(pid: number): boolean {
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, "utf8"));
  } catch {
    return false;
  }
}

async function runFixture(file: string): Promise<{ code: number | string; out: string; notes: Map<string, number> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "leak-fixture-notes-"));
  const notes = path.join(dir, "notes");
  const env: NodeJS.ProcessEnv = { ...process.env, [NOTES_VAR]: notes, NO_COLOR: "1" };
  // a fresh vitest, not a worker of this one
  for (const k of Object.keys(env)) if (k.startsWith("VITEST") || k === "TEST" || k === "FORCE_TTY") delete env[k];
  const run = spawnOwned(
    process.execPath,
    [VITEST, "run", "--config", CONFIG, `services/test-support/test/fixtures/${file}`],
    {
      cwd: repoRoot,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  run.child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  run.child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const code = await run.exited;
  try {
    return { code, out, notes: readNotes(notes) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the leak check at the end of a test run", () => {
  it(
    "fails the run on an orphaned process and on nginx's worker left by a killed master, names them with their test and ports, and ends them",
    { timeout: 120_000 },
    async () => {
      const r = await runFixture("leaky.fixture.ts");
      const sleep = r.notes.get("sleep")!;
      const worker = r.notes.get("nginx worker")!;
      const port = r.notes.get("nginx port")!;
      // both tests passed: the run fails on the leak check alone
      expect(r.out).toMatch(/Tests\s+2 passed \(2\)/);
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain("LEAK CHECK FAILED: 2 process(es) started by this test run still running");
      const entry = (pid: number) =>
        r.out
          .slice(r.out.indexOf(`  pid ${pid}  `))
          .split("\n")
          .slice(0, 3)
          .join("\n");
      expect(entry(sleep)).toMatch(
        /^ {2}pid \d+ {2}sleep 300\n.*\n\s+started during services\/test-support\/test\/fixtures\/leaky\.fixture\.ts > leaves an orphaned sleep behind$/,
      );
      expect(entry(worker)).toMatch(
        /^ {2}pid \d+ {2}nginx: worker process\n\s+parent \d+, .*listening on 127\.0\.0\.1:(\d+) \(tcp\)\n/,
      );
      expect(entry(worker)).toContain(`listening on 127.0.0.1:${port} (tcp)`);
      expect(entry(worker)).toContain("leaky.fixture.ts > kills nginx's master and not its worker");
      expect(r.out).toContain("They have been ended now");
      expect([running(sleep), running(worker)]).toEqual([false, false]);
    },
  );

  it(
    "finds nothing after tests that time out holding nginx and a shell with its child, and a process their file never stopped: the helpers stopped them all",
    { timeout: 120_000 },
    async () => {
      const r = await runFixture("timeouts.fixture.ts");
      expect(r.out).toMatch(/Tests\s+2 failed \(2\)/);
      expect(new Set(r.out.match(/Test timed out in \d+ms/g))).toEqual(
        new Set(["Test timed out in 3000ms", "Test timed out in 2000ms"]),
      );
      expect(r.out).not.toContain("LEAK CHECK");
      expect([...r.notes.keys()].sort()).toEqual([
        "file-scoped sleep",
        "nginx master",
        "nginx worker",
        "sh",
        "sh's sleep",
      ]);
      for (const [what, pid] of r.notes) expect(running(pid), `${what} (pid ${pid})`).toBe(false);
    },
  );

  it("counts an orphan of its session and group carrying its own run id or none, never another run's or another job's (a second npm test in the same terminal)", async () => {
    const main = readProc(process.pid)!;
    const ancestors = new Set<number>();
    for (let up = readProc(main.ppid); up; up = up.ppid ? readProc(up.ppid) : undefined) ancestors.add(up.pid);
    const run: RunIdentity = {
      id: "this-run",
      main,
      ancestors,
      baseline: new Set(),
      sessionIsOurs: true,
      adopter: orphanAdopter(),
    };
    // each sleep is orphaned at once (its shell exits), in this worker's session, as the other
    // run's pool worker was when its own parents had gone
    const orphan = (runId: string | undefined, jobControl = false): number => {
      const env: NodeJS.ProcessEnv = { ...process.env };
      delete env[RUN_ID_VAR];
      if (runId) env[RUN_ID_VAR] = runId;
      // as job control does for a shell's background job: a process group of its own, in the same session
      const sleep = jobControl
        ? `python3 -c 'import os; os.setpgid(0, 0); os.execvp("sleep", ["sleep", "60"])'`
        : "sleep 60";
      const script = `${sleep} >/dev/null 2>&1 & echo $!`;
      const r = spawnSync("sh", ["-c", script], { env, encoding: "utf8" });
      return Number(r.stdout.trim());
    };
    const ownGroup = (pid: number) => readProc(pid)?.pgid === pid && readProc(pid)?.cmd.startsWith("sleep");
    const pids = {
      ours: orphan("this-run"),
      other: orphan("another-run"),
      unmarked: orphan(undefined),
      otherJob: orphan(undefined, true),
    };
    try {
      // the job's own group is set by the process itself, after its shell has answered
      await expect.poll(() => ownGroup(pids.otherJob), { timeout: 30_000 }).toBe(true);
      const left = new Set(runLeftovers(run, []).map((p) => p.pid));
      expect({
        ours: left.has(pids.ours),
        other: left.has(pids.other),
        unmarked: left.has(pids.unmarked),
        otherJob: left.has(pids.otherJob),
      }).toEqual({ ours: true, other: false, unmarked: true, otherJob: false });
    } finally {
      for (const pid of Object.values(pids)) process.kill(pid, "SIGKILL");
    }
  });

  it("counts an orphan handed to init when CI starts the run in init's own session (no setsid above it), not init's or the shell's other children", () => {
    // the CI machine's process tree as /proc showed it: init (pid 1, session 0) starts the CI agent,
    // which gives itself a process group and no session, so the whole run is in session 0 with init
    // among its parents; an orphan of the run is reparented to init. Pids above pid_max: /proc has
    // no environment for them, as for an nginx worker, which rewrites its own.
    const at = (pid: number, ppid: number, pgid: number, start: number, cmd: string): Proc => ({
      pid,
      ppid,
      pgid,
      sid: 0,
      start,
      state: "S",
      cmd,
    });
    const init = at(1, 0, 0, 1, "/sbin/init");
    const agent = at(9_000_001, 1, 9_000_001, 100, "ci-agent");
    const bash = at(9_000_002, 9_000_001, 9_000_001, 200, "bash .ci/run");
    const vitest = at(9_000_003, 9_000_002, 9_000_001, 300, "node vitest run");
    const table = [
      init,
      agent,
      bash,
      vitest,
      at(9_000_010, 1, 9_000_001, 400, "nginx: worker process"),
      at(9_000_011, 9_000_002, 9_000_001, 400, "sleep 1"),
      at(9_000_012, 1, 9_000_012, 400, "another agent's job"),
    ];
    const run: RunIdentity = {
      id: "this-run",
      main: vitest,
      ancestors: new Set([bash.pid, agent.pid, init.pid]),
      baseline: new Set(),
      sessionIsOurs: true,
      adopter: 1,
    };
    expect(runLeftovers(run, [], table).map((p) => p.cmd)).toEqual(["nginx: worker process"]);
  });
});
