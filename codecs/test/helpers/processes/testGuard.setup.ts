// Runs in every test file (vitest `setupFiles`), for the leak check at the end of the run: it
// writes down when each test starts and ends, puts the running test's name in the environment the
// test's processes inherit, notes the processes found under the worker when a test ends, and at the
// end of the file stops what the file still owns (owned.ts, scope "file").
// Its afterAll runs after the test file's own (vitest runs after-hooks in reverse order).
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { setCurrentFile, stopFileScoped, testLabel } from "./owned.ts";
import { clockTicksPerSecond, descendantsOf, hasChildren, hasProcfs, uptimeSeconds } from "./procfs.ts";
import { record, RUN_DIR_VAR, TEST_VAR } from "./runLog.ts";

const recording = hasProcfs && !!process.env[RUN_DIR_VAR];
const at = () => (recording ? uptimeSeconds() : 0);
const worker = process.pid;
/** "pid:start" of the processes already noted, so each is written once */
const noted = new Set<string>();
let file = "";
let testStartedAt = 0;

beforeAll((suite) => {
  file = suite.file?.name ?? suite.name;
  setCurrentFile(file);
  process.env[TEST_VAR] = `${file} (outside a test)`;
  if (recording) record({ kind: "file-start", file, worker, at: at() });
});

beforeEach(({ task }) => {
  const test = testLabel(task);
  process.env[TEST_VAR] = test;
  testStartedAt = at();
  if (recording) record({ kind: "test-start", test, worker, at: testStartedAt });
});

afterEach(({ task }) => {
  const test = testLabel(task);
  process.env[TEST_VAR] = `${file} (outside a test)`;
  if (!recording) return;
  record({ kind: "test-end", test, worker, at: at() });
  // nginx's workers clear their environment: note who was running under us while the test still is
  if (!hasChildren()) return;
  for (const p of descendantsOf(worker)) {
    const key = `${p.pid}:${p.start}`;
    if (noted.has(key)) continue;
    noted.add(key);
    // one started before this test (in beforeAll) belongs to the file, not to this test
    const duringTest = p.start / clockTicksPerSecond() >= testStartedAt - 0.01;
    record({
      kind: "seen",
      pid: p.pid,
      start: p.start,
      cmd: p.cmd,
      test: duringTest ? test : `${file} (outside a test)`,
    });
  }
});

afterAll(async () => {
  try {
    await stopFileScoped();
  } finally {
    if (recording) record({ kind: "file-end", file, worker, at: at() });
    setCurrentFile(undefined);
    delete process.env[TEST_VAR];
  }
});
