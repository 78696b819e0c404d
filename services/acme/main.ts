#!/usr/bin/env tsx
// A real ACME CSE as one of the stack's services: installs acmecse on first use, writes its
// acme.ini (loopback, in-memory, a free port) into --data-dir, starts it and prints
// {"event":"listening","url","cseBaseUrl",…} once its CSEBase answers, like the embedded CSE's main.
// Ends ACME when told to stop or when stdin closes (--watch-stdin); ends when ACME ends.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { AcmeInstallError, ensureAcme } from "./src/install.ts";
import { ACME_BASE, ACME_CSE_ID, acmeAnswers, acmeIni } from "../shared/acme.ts";
import { writeFileAtomic } from "../shared/atomicWrite.ts";
import { outputEnded } from "../shared/launch.ts";
import { freePort } from "../shared/ports.ts";

export const ACME_HELP = `satpayload-acme --data-dir DIR (--venv DIR | --exe FILE) [--port N] [--verify-subscriptions] [--watch-stdin]
  --data-dir DIR           where acme.ini and ACME's own files go
  --venv DIR               the venv acmecse is installed into on first use (the repo's .venv wins)
  --exe FILE               an acmecse executable to run instead (e.g. another ACME version you installed)
  --port N                 HTTP port on 127.0.0.1 (default 0: a free port)
  --verify-subscriptions   ACME's verification request to new notification URIs (default off)
  --watch-stdin            stop when stdin closes (used by the supervisor)
`;

const log = (m: string) => process.stderr.write(`[acme] ${m}\n`);
/** what ACME's console prints once its start-up has finished (CSE.py, _startUpFinished) */
const ACME_RUNNING = /(^|\n)CSE started\b/;

function parse() {
  try {
    const { values } = parseArgs({
      args: process.argv.slice(2),
      strict: true,
      options: {
        "data-dir": { type: "string" },
        venv: { type: "string" },
        exe: { type: "string" },
        port: { type: "string" },
        "verify-subscriptions": { type: "boolean", default: false },
        "watch-stdin": { type: "boolean", default: false },
        help: { type: "boolean", default: false },
      },
    });
    if (values.help) {
      process.stdout.write(ACME_HELP);
      process.exit(0);
    }
    if (!values["data-dir"] || !(values.venv || values.exe))
      throw new Error("--data-dir and --venv (or --exe) are required");
    if (values.exe && !existsSync(values.exe)) throw new Error(`--exe ${values.exe}: no such file`);
    const port = Number(values.port ?? 0);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new Error(`--port must be 0..65535, not ${values.port}`);
    return {
      dataDir: path.resolve(values["data-dir"]),
      venv: values.venv ? path.resolve(values.venv) : undefined,
      exe: values.exe ? path.resolve(values.exe) : undefined,
      port,
      verify: values["verify-subscriptions"],
      watchStdin: values["watch-stdin"],
    };
  } catch (e) {
    process.stderr.write(`acme: ${(e as Error).message}\n${ACME_HELP}`);
    process.exit(2);
  }
}

function exited(child: ChildProcess): Promise<number | string> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode ?? child.signalCode!);
    else child.once("exit", (code, signal) => resolve(code ?? signal ?? -1));
  });
}

/** exits once what was written to stdout and stderr has gone out: process.exit drops what a pipe has not taken yet */
function exitWhenWritten(code: number): void {
  process.stderr.write("", () => process.stdout.write("", () => process.exit(code)));
}

async function stopAcme(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const t = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited(child);
  clearTimeout(t);
}

/** starts ACME on `port` and resolves once it runs and its CSEBase answers; undefined if it ended first (port taken, start-up too slow) */
async function startOn(
  exe: string,
  dataDir: string,
  port: number,
  verify: boolean,
  deadline: number,
): Promise<ChildProcess | undefined> {
  writeFileAtomic(path.join(dataDir, "acme.ini"), acmeIni({ port, verifySubscriptions: verify }));
  // ACME exits at once, silently and with status 0, when --config is an absolute path
  const child = spawn(exe, ["-dir", dataDir, "--config", "acme.ini", "--headless"], {
    cwd: dataDir,
    stdio: ["ignore", "pipe", "pipe"],
    // its console goes to a pipe: unbuffered, so that "CSE started" arrives when it is printed
    env: { ...process.env, PYTHONUNBUFFERED: "1" },
  });
  child.stdout!.pipe(process.stderr, { end: false });
  child.stderr!.pipe(process.stderr, { end: false });
  // ACME serves its CSEBase before it counts as running, and quits (status 1, "did not start within
  // 6 seconds") when its delayed start-up step does not run in time, as on a loaded machine: ready
  // means both, and a start that quits is retried on another port
  let running = false;
  let printed = "";
  child.stdout!.on("data", (d: Buffer) => {
    printed = (printed + d.toString()).slice(-4096);
    if (ACME_RUNNING.test(printed)) running = true;
  });
  const cseBaseUrl = `http://127.0.0.1:${port}/${ACME_BASE}`;
  while (child.exitCode === null && child.signalCode === null) {
    if (running && (await acmeAnswers(cseBaseUrl))) return child;
    if (Date.now() > deadline) {
      await stopAcme(child);
      throw new Error(`ACME did not answer on ${cseBaseUrl} within the start timeout`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  // its last words (why it quit) before ours
  await outputEnded(child);
  return undefined;
}

async function main(): Promise<void> {
  const o = parse();
  mkdirSync(o.dataDir, { recursive: true });
  const exe = o.exe ?? (await ensureAcme(o.venv!, log));
  const deadline = Date.now() + 120_000;
  let child: ChildProcess | undefined;
  let port = o.port;
  // a free port can be taken between probing and ACME binding it: another one, up to 3 times
  for (let attempt = 1; !child; attempt++) {
    port = o.port || (await freePort());
    child = await startOn(exe, o.dataDir, port, o.verify, deadline);
    if (!child && (o.port || attempt >= 3))
      throw new Error(`ACME exited before answering on port ${port} (see its output above)`);
    if (!child) log(`ACME exited before it was running (attempt ${attempt} of 3, port ${port}): starting it again`);
  }
  const acme = child;
  const url = `http://127.0.0.1:${port}`;
  process.stdout.write(
    `${JSON.stringify({ event: "listening", url, cseBaseUrl: `${url}/${ACME_BASE}`, base: ACME_BASE, cseId: ACME_CSE_ID, pid: process.pid, acmePid: acme.pid })}\n`,
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void stopAcme(acme).then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  if (o.watchStdin) {
    process.stdin.on("end", stop);
    process.stdin.on("close", stop);
    process.stdin.resume();
  }
  const code = await exited(acme);
  if (!stopping) {
    await outputEnded(acme);
    log(`ACME exited (${code})`);
    exitWhenWritten(typeof code === "number" && code !== 0 ? code : 1);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(
    `acme: ${e instanceof AcmeInstallError ? e.message : e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
  exitWhenWritten(1);
});
