// The machine's processes as Linux's /proc shows them: parent, process group, session, start time,
// command line, two variables of the environment and the sockets each one listens on. The leak
// check and the process helpers of the tests read it; nothing here changes a process.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface Proc {
  pid: number;
  /** R, S, D, T…; Z is a zombie: ended, waiting for its parent (often init) to collect it */
  state: string;
  ppid: number;
  pgid: number;
  sid: number;
  /** clock ticks after boot (field 22 of /proc/<pid>/stat): with pid, names one process across pid reuse */
  start: number;
  /** the command line as `ps -f` shows it (a process may rewrite it, as nginx does: "nginx: worker process") */
  cmd: string;
}

export const hasProcfs = (() => {
  try {
    readFileSync("/proc/self/stat");
    return true;
  } catch {
    return false;
  }
})();

/** One process, or undefined when it is gone (or was never there). */
export function readProc(pid: number): Proc | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp session …": comm may hold spaces and parentheses, so split after the last ")"
  const close = stat.lastIndexOf(")");
  const f = stat.slice(close + 2).split(" ");
  let cmd = "";
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0+$/, "").replaceAll("\0", " ").trim();
  } catch {
    // gone between the two reads
  }
  // kernel threads and zombies have no command line: fall back to the name in parentheses
  if (!cmd) cmd = `[${stat.slice(stat.indexOf("(") + 1, close)}]`;
  return { pid, state: f[0]!, ppid: Number(f[1]), pgid: Number(f[2]), sid: Number(f[3]), start: Number(f[19]), cmd };
}

export function processTable(): Proc[] {
  const all: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const p = readProc(Number(name));
    if (p) all.push(p);
  }
  return all;
}

/** A zombie has ended: it holds no memory, ports or files any more. */
export const ended = (p: Pick<Proc, "state">) => p.state === "Z" || p.state === "X";

/** Whether `p` (same pid, same start) is still running (a zombie is not). */
export function stillRunning(p: Pick<Proc, "pid" | "start">): boolean {
  const now = readProc(p.pid);
  return now?.start === p.start && !ended(now);
}

/** Whether a process of group `pgid` runs (zombies left for init to collect do not count). */
export function groupRunning(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return processTable().some((p) => p.pgid === pgid && !ended(p));
}

/** The variables named in `names` from the environment `pid` was started with ({} when unreadable). */
export function environOf(pid: number, names: readonly string[]): Record<string, string> {
  const found: Record<string, string> = {};
  let raw: string;
  try {
    raw = readFileSync(`/proc/${pid}/environ`, "utf8");
  } catch {
    return found;
  }
  for (const entry of raw.split("\0")) {
    const eq = entry.indexOf("=");
    const name = entry.slice(0, eq);
    if (eq > 0 && names.includes(name)) found[name] = entry.slice(eq + 1);
  }
  return found;
}

/** Every live descendant of `pid` (children, their children, …), walked by parent pid. */
export function descendantsOf(pid: number, table: readonly Proc[] = processTable()): Proc[] {
  const byParent = new Map<number, Proc[]>();
  for (const p of table) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const out: Proc[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const child of byParent.get(queue.shift()!) ?? []) {
      out.push(child);
      queue.push(child.pid);
    }
  }
  return out;
}

/**
 * Whether this process's main thread has a child right now: one read, no walk of the table. (The
 * kernel lists children under the thread that forked them; child_process spawns from the main thread.)
 */
export function hasChildren(pid = process.pid): boolean {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim() !== "";
  } catch {
    return false;
  }
}

let ticksPerSecond: number | undefined;
/** USER_HZ, the unit of `Proc.start` (100 on every Linux Node runs on; asked, not assumed). */
export function clockTicksPerSecond(): number {
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  return ticksPerSecond;
}

/** Seconds since boot: the clock `Proc.start` counts on (CLOCK_BOOTTIME), so the two compare. */
export function uptimeSeconds(): number {
  return Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]);
}

/** "127.0.0.1:8080 (tcp)" for each socket `pid` listens on (TCP LISTEN, or a bound UDP socket). */
export function listeningSockets(pid: number): string[] {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]!);
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    return [];
  }
  if (!inodes.size) return [];
  const out: string[] = [];
  for (const proto of ["tcp", "tcp6", "udp", "udp6"]) {
    let table: string;
    try {
      table = readFileSync(`/proc/${pid}/net/${proto}`, "utf8");
    } catch {
      continue;
    }
    for (const line of table.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      // sl local_address rem_address st … inode: 0A is LISTEN; 07 (CLOSE) is how a bound UDP socket shows
      if (f.length < 10 || !inodes.has(f[9]!) || f[3] !== (proto.startsWith("tcp") ? "0A" : "07")) continue;
      out.push(`${socketAddress(f[1]!)} (${proto.replace("6", "")})`);
    }
  }
  return out;
}

/** /proc/net's "0100007F:1F90" → "127.0.0.1:8080"; an IPv6 address is four little-endian 32-bit words. */
function socketAddress(hex: string): string {
  const [addr, port] = hex.split(":") as [string, string];
  const bytes: number[] = [];
  for (let w = 0; w < addr.length; w += 8)
    bytes.push(...(addr.slice(w, w + 8).match(/../g) ?? []).map((b) => parseInt(b, 16)).reverse());
  if (bytes.length === 4) return `${bytes.join(".")}:${parseInt(port, 16)}`;
  const words = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16));
  // the URL parser writes IPv6 in its short form ([::1])
  return `${new URL(`http://[${words.join(":")}]`).hostname}:${parseInt(port, 16)}`;
}
