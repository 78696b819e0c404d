// One build at a time across processes: a lock file created with O_EXCL holds the builder's pid;
// others wait until it is gone (or its owner died), then find the output current and return.
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

export interface LockedBuild {
  lockFile: string;
  /** true when the output exists and is newer than its sources */
  isCurrent(): boolean;
  /** must leave the output complete or absent (build elsewhere, then rename) */
  build(): void | Promise<void>;
  /** how long to wait for another process's build */
  waitMs?: number;
}

/** a lock this old with no readable pid is left over from a crash between create and write */
const EMPTY_LOCK_GRACE_MS = 30_000;

function lockIsStale(lockFile: string): boolean {
  let text: string;
  try {
    text = readFileSync(lockFile, "utf8").trim();
  } catch {
    return false;
  }
  const pid = Number(text);
  if (!Number.isInteger(pid) || pid <= 0) {
    try {
      return Date.now() - statSync(lockFile).mtimeMs > EMPTY_LOCK_GRACE_MS;
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

export async function buildOnce(o: LockedBuild): Promise<"built" | "current"> {
  const deadline = Date.now() + (o.waitMs ?? 10 * 60_000);
  for (;;) {
    if (o.isCurrent()) return "current";
    let fd: number;
    try {
      fd = openSync(o.lockFile, "wx");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      if (lockIsStale(o.lockFile)) {
        rmSync(o.lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(
          `waited ${o.waitMs ?? 600_000} ms for the build holding ${o.lockFile}; remove it if no build is running`,
        );
      await sleep(200);
      continue;
    }
    try {
      writeSync(fd, String(process.pid));
      closeSync(fd);
      // the previous holder may have finished the same build while we waited
      if (o.isCurrent()) return "current";
      await o.build();
      return "built";
    } finally {
      rmSync(o.lockFile, { force: true });
    }
  }
}
