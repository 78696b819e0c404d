// Starts one of our TypeScript services as a child process and waits for the JSON line it prints
// when it takes requests ({"event":"listening","url":…}). The supervisor, the CLI and tests use it.
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DECODER_ENTRY = path.join(repoRoot, "services/decoder/main.ts");
export const CSE_ENTRY = path.join(repoRoot, "services/cse/main.ts");
export const ACME_ENTRY = path.join(repoRoot, "services/acme/main.ts");

/** node (or Electron acting as node) with the tsx loader, so services run from their sources. */
export function nodeCommand(
  entry: string,
  args: readonly string[],
  nodeArgs: readonly string[] = [],
): { command: string; args: string[]; env: NodeJS.ProcessEnv } {
  const loader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = "1";
  return { command: process.execPath, args: [...nodeArgs, "--import", loader, entry, ...args], env };
}

export interface Listening {
  url: string;
  [k: string]: unknown;
}

export interface LaunchOptions {
  env?: NodeJS.ProcessEnv;
  /** every output line, stdout and stderr, as it arrives */
  onLine?: (stream: "stdout" | "stderr", line: string) => void;
  timeoutMs?: number;
  /** keep stdin as a pipe the child watches (--watch-stdin): it ends with us */
  tieToParent?: boolean;
  /** flags for node itself, before the entry (e.g. --cpu-prof, which NODE_OPTIONS refuses) */
  nodeArgs?: readonly string[];
  /** a process group (and session) of its own, so that the caller can signal it with all it starts */
  detached?: boolean;
  /** the child as soon as it is spawned, before it reports listening (a test takes ownership here) */
  onSpawn?: (child: ChildProcess) => void;
}

/**
 * Resolves once `child` has ended and everything it printed has been read ("close"), or after
 * `boundMs`: "exit" can come before its last lines (often the reason it ended), and a process it
 * started may hold the pipes open.
 */
export function outputEnded(child: ChildProcess, boundMs = 2_000): Promise<void> {
  return new Promise((resolve) => {
    if (child.stdout?.readableEnded !== false && child.stderr?.readableEnded !== false) resolve();
    child.once("close", () => resolve());
    setTimeout(resolve, boundMs).unref();
  });
}

export class LaunchError extends Error {
  override readonly name = "LaunchError";
}

export interface Launched {
  child: ChildProcess;
  listening: Listening;
  /** resolves with the exit code (or the signal name) */
  exited: Promise<number | string>;
}

export function launch(entry: string, args: readonly string[], opts: LaunchOptions = {}): Promise<Launched> {
  const cmd = nodeCommand(entry, args, opts.nodeArgs);
  const child = spawn(cmd.command, cmd.args, {
    env: { ...cmd.env, ...opts.env },
    stdio: [opts.tieToParent ? "pipe" : "ignore", "pipe", "pipe"],
    windowsHide: true,
    detached: opts.detached ?? false,
  });
  opts.onSpawn?.(child);
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const tail: string[] = [];
  // services/<service>/main.ts
  const service = path.basename(path.dirname(entry));
  return new Promise((resolve, reject) => {
    let done = false;
    const timer = setTimeout(
      () => fail(`${service} did not report listening within ${opts.timeoutMs ?? 30_000} ms`),
      opts.timeoutMs ?? 30_000,
    );
    function fail(msg: string) {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(new LaunchError(`${msg}${tail.length ? `:\n${tail.join("\n")}` : ""}`));
    }
    const watch = (stream: "stdout" | "stderr") => {
      const rl = createInterface({ input: child[stream]! });
      rl.on("line", (line) => {
        opts.onLine?.(stream, line);
        if (!done) {
          tail.push(line);
          if (tail.length > 20) tail.shift();
        }
        if (done || stream !== "stdout" || !line.startsWith("{")) return;
        try {
          const msg = JSON.parse(line) as { event?: unknown; url?: unknown };
          if (msg.event === "listening" && typeof msg.url === "string") {
            done = true;
            clearTimeout(timer);
            resolve({ child, listening: msg as Listening, exited });
          }
        } catch {
          // a log line that happens to start with "{"
        }
      });
    };
    watch("stdout");
    watch("stderr");
    child.once("error", (e) => fail(`could not start: ${e.message}`));
    // its reason is often among the last lines it printed
    void exited
      .then(() => outputEnded(child))
      .then(() => fail(`${service} exited (${child.exitCode ?? child.signalCode}) before listening`));
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
export async function stopChild(child: ChildProcess, exited: Promise<unknown>, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const t = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(t);
}
