// Runs one load test in its own process (services/loadgen/main.ts): the generator's threads and the
// stack it starts never share an event loop with the host's UI transport.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Job } from "#contracts/loadtest/job.ts";
import {
  loadTestResultSchema,
  progressSchema,
  type LoadTestResult,
  type Progress,
} from "#contracts/loadtest/result.ts";
import { nodeCommand, repoRoot } from "#services/shared/launch.ts";

export const LOADGEN_ENTRY = path.join(repoRoot, "services/loadgen/main.ts");

export interface LoadgenProcess {
  /** resolves with the result (also for a cancelled run) or rejects with the reason it failed */
  done: Promise<LoadTestResult>;
  cancel(): void;
  kill(): void;
}

export function startLoadgen(
  job: Job,
  onProgress: (p: Progress) => void,
  onLog: (line: string) => void = () => {},
): LoadgenProcess {
  const cmd = nodeCommand(LOADGEN_ENTRY, []);
  const child: ChildProcess = spawn(cmd.command, cmd.args, {
    env: cmd.env,
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
  const tail: string[] = [];
  let result: LoadTestResult | undefined;
  let error: string | undefined;
  createInterface({ input: child.stdout! }).on("line", (line) => {
    let msg: { event?: string; progress?: unknown; result?: unknown; message?: unknown };
    try {
      msg = JSON.parse(line);
    } catch {
      return onLog(line);
    }
    if (msg.event === "progress") {
      const p = progressSchema.safeParse(msg.progress);
      if (p.success) onProgress(p.data);
    } else if (msg.event === "result") {
      const r = loadTestResultSchema.safeParse(msg.result);
      if (r.success) result = r.data;
      else error = `the load generator reported a malformed result: ${r.error.issues[0]?.message ?? ""}`;
    } else if (msg.event === "error") error = String(msg.message);
  });
  createInterface({ input: child.stderr! }).on("line", (line) => {
    tail.push(line);
    if (tail.length > 30) tail.shift();
    onLog(line);
  });
  // stdin stays open: its end tells the generator we are gone
  child.stdin!.on("error", () => {});
  child.stdin!.write(`${JSON.stringify(job)}\n`);
  const done = new Promise<LoadTestResult>((resolve, reject) => {
    child.once("error", (e) => reject(new Error(`could not start the load generator: ${e.message}`)));
    child.once("exit", (code, signal) => {
      if (result) return resolve(result);
      reject(
        new Error(
          error ??
            `the load generator exited (${code ?? signal}) without a result${tail.length ? `: ${tail.slice(-5).join(" | ")}` : ""}`,
        ),
      );
    });
  });
  return {
    done,
    cancel: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    },
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}
