// Compiling and running generated C from tests: one temp dir per suite (removed afterwards), gcc in
// strict C99 with every warning an error, AddressSanitizer + UndefinedBehaviorSanitizer on, and
// batches of lines through one process run.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runOwned } from "#codecs-test/helpers/processes/run.ts";
import type { ExportFile } from "../../../src/types.ts";

export const STRICT = [
  "-std=c99",
  "-Wall",
  "-Wextra",
  "-Werror",
  "-pedantic",
  "-Wshadow",
  "-Wconversion",
  "-Wno-sign-conversion",
];
export const SANITIZE = [
  "-g",
  "-O1",
  "-fsanitize=address,undefined",
  "-fno-sanitize-recover=all",
  "-fno-omit-frame-pointer",
];

/** Sanitizer reports abort the process with a message on stderr; leaks count as errors too. */
const SAN_ENV = {
  ...process.env,
  ASAN_OPTIONS: "abort_on_error=0:halt_on_error=1:detect_leaks=1",
  UBSAN_OPTIONS: "halt_on_error=1:print_stacktrace=1",
};

export class Workdir {
  readonly dir: string;
  constructor(name: string) {
    this.dir = mkdtempSync(path.join(tmpdir(), `satpayload-${name}-`));
  }
  write(files: readonly ExportFile[], sub = ""): void {
    for (const f of files) {
      const p = path.join(this.dir, sub, f.path);
      mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, f.content);
    }
  }
  writeText(rel: string, content: string): void {
    const p = path.join(this.dir, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  path(rel: string): string {
    return path.join(this.dir, rel);
  }
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** gcc; throws with the compiler's output when it fails (warnings included, since they are errors). */
export function gcc(w: Workdir, args: string[]): void {
  try {
    execFileSync("gcc", args, { cwd: w.dir, stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
  } catch (e) {
    const err = e as { stderr?: Buffer; stdout?: Buffer };
    throw new Error(`gcc ${args.join(" ")} failed:\n${err.stderr?.toString() ?? ""}${err.stdout?.toString() ?? ""}`);
  }
}

/** gcc without blocking the test process, so builds of independent programs overlap. */
export async function gccAsync(w: Workdir, args: string[]): Promise<void> {
  const r = await runOwned("gcc", args, { cwd: w.dir, timeoutMs: 180_000 });
  if (r.code !== 0) throw new Error(`gcc ${args.join(" ")} failed:\n${r.stderr}${r.stdout}`);
}

/** Runs the jobs with at most `limit` at a time (the CI machine has two cores). */
export async function inParallel(jobs: (() => Promise<void>)[], limit = 2): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
}

export interface RunResult {
  lines: string[];
  stderr: string;
  code: number | null;
}

/** Runs `exe` with `input` lines on stdin; resolves with its output lines. */
export async function run(
  exe: string,
  input: string[],
  opts: { cwd?: string; wrapper?: string[]; timeoutMs?: number } = {},
): Promise<RunResult> {
  const [cmd, ...pre] = opts.wrapper ? [...opts.wrapper, exe] : [exe];
  const r = await runOwned(cmd!, pre, {
    cwd: opts.cwd,
    env: SAN_ENV,
    input: input.length ? `${input.join("\n")}\n` : "",
    timeoutMs: opts.timeoutMs ?? 120_000,
  });
  return {
    lines: r.stdout.split("\n").filter((l) => l.length > 0),
    stderr: r.stderr,
    code: typeof r.code === "number" ? r.code : null,
  };
}
