// services/acme/main.ts, the stack's ACME service, against an ACME that serves its CSEBase before it
// runs and then quits (what the real ACME does when its start-up step is late, as on CI's loaded
// machine, where `stack up --cse acme` once reported ACME ready and lost it a moment later): the
// service reports listening only for an ACME that runs, starting it again when it quits.
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { own } from "#codecs-test/helpers/processes/owned.ts";
import { acmeAnswers } from "../../shared/acme.ts";
import { ACME_ENTRY, launch } from "../../shared/launch.ts";

const SLOW_START = path.join(import.meta.dirname, "fixtures/slow-start-acme.py");

describe("the stack's ACME service", () => {
  it(
    "reports listening only once ACME runs: an ACME that answers and then quits during start-up is started again",
    {
      timeout: 120_000,
    },
    async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), "acme-service-"));
      const lines: string[] = [];
      const started = await launch(ACME_ENTRY, ["--data-dir", dir, "--exe", SLOW_START], {
        detached: true,
        onSpawn: (c) => own(c, { name: "acme service" }),
        onLine: (_, line) => lines.push(line),
        timeoutMs: 90_000,
      });
      const firstPid = Number(readFileSync(path.join(dir, "first-start.pid"), "utf8"));
      expect(started.listening.acmePid).not.toBe(firstPid);
      expect(lines.join("\n")).toMatch(
        /ACME exited before it was running \(attempt 1 of 3, port \d+\): starting it again/,
      );
      expect(await acmeAnswers(String(started.listening.cseBaseUrl))).toBe(true);
      expect(started.child.exitCode).toBeNull();
    },
  );
});
