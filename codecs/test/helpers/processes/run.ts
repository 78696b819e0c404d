// A command run to its end, as `execFile` would, but owned (owned.ts): in a group of its own and
// stopped with everything it started when the test ends first (failed, timed out) or when
// `timeoutMs` passes. Never rejects for a failing command: the caller reads the code.
import type { SpawnOptions } from "node:child_process";
import { type OwnOptions, spawnOwned } from "./owned.ts";

export interface RunOptions extends Omit<SpawnOptions, "stdio">, OwnOptions {
  /** written to stdin, then stdin is closed (without it, stdin is closed at once) */
  input?: string | Uint8Array;
  /** stops it (SIGTERM to the group, SIGKILL after `graceMs`) when it runs longer */
  timeoutMs?: number;
}

export interface RunResult {
  /** the exit code, or the name of the signal that ended it */
  code: number | string;
  stdout: string;
  stderr: string;
  /** stdout as bytes, for binary output */
  stdoutBytes: Buffer;
  /** true when `timeoutMs` ran out and the run was stopped */
  timedOut: boolean;
}

export async function runOwned(command: string, args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  const { input, timeoutMs, ...rest } = opts;
  const p = spawnOwned(command, args, { ...rest, stdio: ["pipe", "pipe", "pipe"] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  p.child.stdout!.on("data", (c: Buffer) => out.push(c));
  p.child.stderr!.on("data", (c: Buffer) => err.push(c));
  // a command may exit before reading its input (a usage error): nothing to deliver then
  p.child.stdin!.on("error", () => undefined);
  p.child.stdin!.end(input ?? "");
  const spawnError = new Promise<Error>((resolve) => p.child.once("error", resolve));
  let timedOut = false;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          void p.stop();
        }, timeoutMs);
  // "close", not "exit": the output is complete once the pipes are
  const closed = new Promise<number | string>((resolve) =>
    p.child.once("close", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  try {
    const ended = await Promise.race([closed, spawnError]);
    if (ended instanceof Error) throw new Error(`${command}: could not start (${ended.message})`);
    const stdoutBytes = Buffer.concat(out);
    return {
      code: ended,
      stdout: stdoutBytes.toString("utf8"),
      stderr: Buffer.concat(err).toString("utf8"),
      stdoutBytes,
      timedOut,
    };
  } finally {
    clearTimeout(timer);
  }
}
