import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "codecs/**/*.test.ts",
      "planning/**/*.test.ts",
      "exporters/**/*.test.ts",
      "bin/**/*.test.ts",
      "bench/**/*.test.ts",
      "host/**/*.test.ts",
      "services/**/*.test.ts",
      "devkit-bridge/**/*.test.ts",
      "app/**/*.test.ts",
      "renderer/**/*.test.ts",
      "renderer/**/*.test.tsx",
      "e2e/**/*.test.ts",
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // two test files at once even on 2 cores (vitest's default leaves one core to itself: one file at a time):
    // most files wait on the servers and browsers they start, and the suite took 22 minutes one file at a time,
    // 14 two at a time. Every test holds on a machine busier than this (docs/design/habits.md).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // one set for the whole run (no projects): the leak check comes first so that its teardown runs
    // last, after every suite's; the e2e setup builds dist/renderer once per run, under a lock
    globalSetup: ["codecs/test/helpers/processes/leakCheck.globalSetup.ts", "e2e/support/globalSetup.ts"],
    // in every test file: notes which test runs when, for the leak check, and stops what the file
    // still owns; lets each worker read vitest's own messages between tests (vitest.setup.ts)
    setupFiles: ["codecs/test/helpers/processes/testGuard.setup.ts", "vitest.setup.ts"],
  },
});
