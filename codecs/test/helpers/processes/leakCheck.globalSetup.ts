// vitest globalSetup: at the end of the run, fails it when a process the run started is still
// running, names each one (pid, command line, what it listens on, the test that started it) and
// then ends them, so the machine is left as the run found it.
//
// It runs once for the whole run (vitest.config.ts lists it first in `globalSetup`, so its teardown
// runs last, after every test file of every suite, e2e included). A process that is ending anyway
// gets a grace time: the check looks again for up to GRACE_MS before it counts anything.
// Needs Linux's /proc; elsewhere it says so once and checks nothing.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { orphanAdopter, runLeftovers, startedBy, type RunIdentity } from "./leaks.ts";
import {
  clockTicksPerSecond,
  descendantsOf,
  environOf,
  hasProcfs,
  listeningSockets,
  type Proc,
  readProc,
  stillRunning,
  uptimeSeconds,
} from "./procfs.ts";
import { readRecords, RUN_DIR_VAR, RUN_ID_VAR } from "./runLog.ts";

/** how long a process may take to end after the last test before it counts as left behind */
const GRACE_MS = 5_000;
/** after the report: SIGTERM, this long, then SIGKILL */
const TERM_MS = 3_000;

export default function setup(): (() => Promise<void>) | undefined {
  if (!hasProcfs) {
    console.warn("leak check: this system has no /proc, so processes left running by tests are not checked");
    return undefined;
  }
  const outer = process.env[RUN_ID_VAR];
  const main = readProc(process.pid)!;
  const ancestors = new Set<number>();
  for (let up = readProc(main.ppid); up; up = up.ppid ? readProc(up.ppid) : undefined) ancestors.add(up.pid);
  const run: RunIdentity = {
    id: randomUUID(),
    main,
    ancestors,
    baseline: new Set(descendantsOf(main.pid).map((p) => `${p.pid}:${p.start}`)),
    // a vitest started by another run's test shares that run's session unless it was given its own
    sessionIsOurs: !outer || environOf(main.sid, [RUN_ID_VAR])[RUN_ID_VAR] === outer,
    adopter: orphanAdopter(),
  };
  const dir = mkdtempSync(path.join(os.tmpdir(), "satpayload-test-run-"));
  // set before vitest starts its workers, which take a copy of this environment
  process.env[RUN_ID_VAR] = run.id;
  process.env[RUN_DIR_VAR] = dir;

  return async () => {
    try {
      const hz = clockTicksPerSecond();
      let left = runLeftovers(run, readRecords(dir));
      for (const until = Date.now() + GRACE_MS; left.length && Date.now() < until;) {
        await new Promise((r) => setTimeout(r, 200));
        left = runLeftovers(run, readRecords(dir));
      }
      if (!left.length) return;
      const records = readRecords(dir);
      const now = uptimeSeconds();
      const lines = left.map((p) => describe(p, startedBy(p, records, hz), now, hz));
      const survivors = await end(left);
      process.exitCode = 1;
      process.stderr.write(
        [
          "",
          `LEAK CHECK FAILED: ${left.length} process(es) started by this test run still running ${GRACE_MS / 1000} s after its last test:`,
          ...lines,
          "A test that starts a process must stop it and everything it started, also when it fails or times out",
          "(spawnOwned in codecs/test/helpers/processes/owned.ts does; see docs/design/habits.md, 'Tests leave nothing running').",
          survivors.length
            ? `Could not end: ${survivors.map((p) => p.pid).join(", ")}: stop them by hand.`
            : "They have been ended now (SIGTERM, then SIGKILL).",
          "",
        ].join("\n"),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

function describe(p: Proc, by: string, now: number, hz: number): string {
  const started = new Date(Date.now() - (now - p.start / hz) * 1000).toTimeString().slice(0, 8);
  const listening = listeningSockets(p.pid);
  return [
    `  pid ${p.pid}  ${p.cmd}`,
    `      parent ${p.ppid}, process group ${p.pgid}, started ${started}${listening.length ? `, listening on ${listening.join(", ")}` : ""}`,
    `      ${by}`,
  ].join("\n");
}

/** SIGTERM, up to TERM_MS, then SIGKILL; returns what still runs after that */
async function end(procs: Proc[]): Promise<Proc[]> {
  const send = (p: Proc, sig: NodeJS.Signals) => {
    try {
      if (stillRunning(p)) process.kill(p.pid, sig);
    } catch {
      // gone, or not ours to signal
    }
  };
  procs.forEach((p) => send(p, "SIGTERM"));
  for (const until = Date.now() + TERM_MS; procs.some(stillRunning) && Date.now() < until;)
    await new Promise((r) => setTimeout(r, 100));
  procs.forEach((p) => send(p, "SIGKILL"));
  await new Promise((r) => setTimeout(r, 200));
  return procs.filter(stillRunning);
}
