// Starts a real ACME CSE (PyPI `acmecse`, from the project's .venv) headless with an in-memory
// database on a free loopback port, in a temp dir with the acme.ini of services/shared/acme.ts, and
// waits until its CSEBase answers. One start costs about two seconds: start one per test file.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { spawnOwned } from "#codecs-test/helpers/processes/owned.ts";
import { referencePython } from "#codecs-test/helpers/python.ts";
import { acmeAnswers, acmeIni } from "../shared/acme.ts";

export interface AcmeOptions {
  /** ACME's verification request to new notification URIs (its default: on) */
  verifySubscriptions?: boolean;
  /** default 60 s: a loaded 2-core CI machine imports ACME slowly */
  startTimeoutMs?: number;
}

export interface RunningAcme {
  /** http://127.0.0.1:port */
  url: string;
  /** http://127.0.0.1:port/cse-in */
  cseBaseUrl: string;
  base: "cse-in";
  cseId: "/id-in";
  admin: "CAdmin";
  port: number;
  /** what ACME printed so far (for failure messages) */
  output(): string;
  /** SIGTERM, SIGKILL after 10 s; removes the temp dir */
  stop(): Promise<void>;
}

export function acmeExecutable(): string {
  const exe = path.join(path.dirname(referencePython()), "acmecse");
  if (!existsSync(exe))
    throw new Error(
      `ACME not found at ${exe}: run 'bash .ci/setup-python.sh' (installs services/requirements.txt; CI does this)`,
    );
  return exe;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startAcme(opts: AcmeOptions = {}): Promise<RunningAcme> {
  const exe = acmeExecutable();
  const deadline = Date.now() + (opts.startTimeoutMs ?? 60_000);
  // the free port can be taken between probing and ACME binding it: try again with another
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const dir = mkdtempSync(path.join(tmpdir(), "acme-"));
    writeFileSync(path.join(dir, "acme.ini"), acmeIni({ port, verifySubscriptions: opts.verifySubscriptions ?? true }));
    // ACME exits at once, silently and with status 0, when --config is given as an absolute path
    // its own process group, owned by the test (or test file) that starts it: stopped with anything
    // it started when that ends, also on failure or timeout, and when the worker is terminated
    const acme = spawnOwned(exe, ["-dir", dir, "--config", "acme.ini", "--headless"], {
      cwd: dir,
      stdio: ["ignore", "pipe", "pipe"],
      name: "acmecse",
    });
    const child = acme.child;
    let out = "";
    const keep = (b: Buffer) => {
      out = (out + b.toString("utf8")).slice(-20_000);
    };
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    const url = `http://127.0.0.1:${port}`;
    const cseBaseUrl = `${url}/cse-in`;

    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        try {
          await acme.stop();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      })());

    while (child.exitCode === null && child.signalCode === null && Date.now() < deadline) {
      if (await acmeAnswers(cseBaseUrl))
        return { url, cseBaseUrl, base: "cse-in", cseId: "/id-in", admin: "CAdmin", port, output: () => out, stop };
      await new Promise((r) => setTimeout(r, 150));
    }
    const died = child.exitCode !== null || child.signalCode !== null;
    await stop();
    if (died && attempt < 3 && Date.now() < deadline) continue;
    throw new Error(
      `ACME did not answer on ${cseBaseUrl} ${died ? `(it exited: ${child.exitCode ?? child.signalCode})` : "in time"}; its output:\n${out}`,
    );
  }
}
