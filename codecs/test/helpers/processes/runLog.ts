// What a test run writes down about itself so that its leak check can tell, at the end, which
// processes it started and which test started them: the run's id (inherited by every process the
// run starts, through the environment), each test's start and end, the process groups the helpers
// own, and the processes seen under a worker when a test ended. One JSON line a record, one file
// per worker process, in a directory the leak check's global setup makes and removes.
import { openSync, readdirSync, readFileSync, writeSync } from "node:fs";
import path from "node:path";

/** the run's id, in the environment of every process the run starts (unless one clears its environment) */
export const RUN_ID_VAR = "SATPAYLOAD_TEST_RUN";
/** where the run's records go */
export const RUN_DIR_VAR = "SATPAYLOAD_TEST_RUN_DIR";
/** "file > suite > test" of the test running when a process was started, inherited the same way */
export const TEST_VAR = "SATPAYLOAD_TEST";

/** `at` is seconds since boot (/proc/uptime), the clock process start times count on */
export type RunRecord =
  | { kind: "file-start" | "file-end"; file: string; worker: number; at: number }
  | { kind: "test-start" | "test-end"; test: string; worker: number; at: number }
  /** a process found under a worker when a test ended (`start` in clock ticks, as /proc has it) */
  | { kind: "seen"; pid: number; start: number; cmd: string; test: string }
  /** a process group the test helpers started and own (its leader's pid is the group's id) */
  | { kind: "group"; pgid: number; start: number; cmd: string; test: string };

/** this process's record file, opened once (a record is written at every test's start and end) */
let fd: number | undefined;
export function record(r: RunRecord): void {
  const dir = process.env[RUN_DIR_VAR];
  if (!dir) return;
  try {
    fd ??= openSync(path.join(dir, `${process.pid}.jsonl`), "a");
    writeSync(fd, JSON.stringify(r) + "\n");
  } catch {
    // the directory is gone: the run is over (a test outliving its run writes nowhere)
  }
}

export function readRecords(dir: string): RunRecord[] {
  const out: RunRecord[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith(".jsonl")))
    for (const line of readFileSync(path.join(dir, f), "utf8").split("\n"))
      if (line) {
        try {
          out.push(JSON.parse(line) as RunRecord);
        } catch {
          // a line cut short by a worker killed mid-write
        }
      }
  return out;
}
