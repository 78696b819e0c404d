import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: [
      "codecs/**/*.test.ts",
      "bin/**/*.test.ts",
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
    // builds dist/renderer once per run, under a lock, for the e2e suites
    globalSetup: ["e2e/support/globalSetup.ts"],
    // lets each worker read vitest's own messages between tests (see the file)
    setupFiles: ["vitest.setup.ts"],
  },
});
