// Debian's nginx for the tests of the exported bundle, run the way the bundle runs it (a master and
// its workers) but held by the test: in the foreground (`daemon off`, so it never detaches into a
// session of its own), in a process group of its own (spawnOwned), and stopped with nginx's own
// `-s quit`, waiting until the master *and its workers* are gone; SIGKILL to the whole group after
// the grace time. Killing only the master (as these tests once did) leaves its workers running,
// listening on their ports, long after the test.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type OwnedProcess, spawnOwned } from "#codecs-test/helpers/processes/owned.ts";

export const NGINX = "/usr/sbin/nginx";

export interface NginxOptions {
  /** nginx's prefix directory: nginx.conf, the pid file and the temp directories go here */
  prefix: string;
  /** lines before everything else (`load_module …;`) */
  modules?: string[];
  /** the `http { … }` and/or `stream { … }` blocks */
  blocks: string[];
}

export interface RunningNginx extends OwnedProcess {
  /** what nginx wrote to stderr so far (error_log goes there) */
  stderr(): string;
}

/**
 * The http context's temp directories, inside the prefix (Debian's built-in ones under /var/lib/nginx
 * are root's): created, and the directives that name them.
 */
export function httpTempPaths(prefix: string): string[] {
  return ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((d) => {
    mkdirSync(path.join(prefix, d), { recursive: true });
    return `${d}_temp_path ${path.join(prefix, d)};`;
  });
}

/** Writes `<prefix>/nginx.conf` for a foreground master with one worker; returns its path. */
export function writeNginxConf(opts: NginxOptions): string {
  if (!existsSync(NGINX)) throw new Error(`${NGINX} is missing: install Debian's nginx (.ci/system-packages.txt)`);
  const conf = path.join(opts.prefix, "nginx.conf");
  writeFileSync(
    conf,
    [
      ...(opts.modules ?? []),
      // the test's child, not a daemon: nginx stays in the process group the test owns
      "daemon off;",
      // as deployed: a master with workers (the workers are what must not outlive the test)
      "master_process on;",
      "worker_processes 1;",
      // `-s quit` lets workers finish open connections: at most this long (MQTT clients stay connected)
      "worker_shutdown_timeout 5s;",
      `pid ${opts.prefix}/nginx.pid;`,
      "error_log stderr warn;",
      "events { worker_connections 512; }",
      ...opts.blocks,
      "",
    ].join("\n"),
  );
  return conf;
}

export function startNginx(opts: NginxOptions): RunningNginx {
  const conf = writeNginxConf(opts);
  const args = ["-p", opts.prefix, "-c", conf, "-e", "stderr"];
  let err = "";
  const p = spawnOwned(NGINX, args, {
    stdio: ["ignore", "ignore", "pipe"],
    name: "nginx",
    // nginx's graceful stop: the master tells its workers to finish and exits after them
    stop: (me) =>
      new Promise<void>((resolve) =>
        execFile(NGINX, [...args, "-s", "quit"], { timeout: 10_000 }, (e) => {
          // no pid file yet (stopped while starting): the same request as a signal to the master
          try {
            if (e) process.kill(me.pid, "SIGQUIT");
          } catch {
            // the master is gone already
          }
          resolve();
        }),
      ),
    graceMs: 15_000,
  });
  p.child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  return Object.assign(p, { stderr: () => err });
}
