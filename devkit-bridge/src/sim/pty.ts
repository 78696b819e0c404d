// The simulator on a pseudo-terminal: socat creates the pty and relays it to our stdin/stdout pipes, so any
// serial program (this app's serialport binding included) talks to it exactly as to a DevKit's USB port.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PortError } from "../errors.ts";
import { SimulatedDevice, type DeviceOptions } from "./device.ts";
import type { Link } from "../link/types.ts";
import { MODULE_BAUD } from "../protocol/frame.ts";

export interface PtySimulator {
  /** the device path to open (a symlink to /dev/pts/N that stays the same across unplug/replug) */
  path: string;
  device: SimulatedDevice;
  /** the "USB cable" is pulled: the pty disappears and open ports see a disconnect */
  unplug(): Promise<void>;
  replug(): Promise<void>;
  readonly plugged: boolean;
  close(): Promise<void>;
}

export interface PtyOptions extends DeviceOptions {
  /** default 9600, the module's UART: a pty alone would answer in microseconds (null turns pacing off) */
  baud?: number | null;
  /** directory for the device symlink; default a fresh temp directory removed on close */
  dir?: string;
  name?: string;
  socat?: string;
}

const children = new Set<ChildProcess>();
let exitHook = false;

function killOnExit(child: ChildProcess): void {
  children.add(child);
  child.once("exit", () => children.delete(child));
  if (!exitHook) {
    exitHook = true;
    // a pty left behind would keep a stale device path; socat must die with us
    process.once("exit", () => {
      for (const c of children) c.kill("SIGTERM");
    });
  }
}

class PipeLink implements Link {
  private readonly closed = new Set<(r: Error | null) => void>();
  private open = true;

  constructor(private readonly child: ChildProcess) {
    child.once("exit", () => {
      this.open = false;
      for (const l of [...this.closed]) l(null);
    });
    child.stdin!.on("error", () => undefined);
  }

  readonly description = "socat pty relay";

  get isOpen(): boolean {
    return this.open;
  }

  write(bytes: Uint8Array): Promise<void> {
    if (!this.open) return Promise.resolve();
    return new Promise((resolve) => this.child.stdin!.write(Buffer.from(bytes), () => resolve()));
  }

  onData(l: (c: Uint8Array) => void): () => void {
    const h = (b: Buffer) => l(new Uint8Array(b.buffer, b.byteOffset, b.length));
    this.child.stdout!.on("data", h);
    return () => this.child.stdout!.off("data", h);
  }

  onClose(l: (r: Error | null) => void): () => void {
    this.closed.add(l);
    return () => this.closed.delete(l);
  }

  async close(): Promise<void> {
    this.child.kill("SIGTERM");
  }
}

async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new PortError(what);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export async function startPtySimulator(opts: PtyOptions): Promise<PtySimulator> {
  const ownDir = !opts.dir;
  const dir = opts.dir ?? mkdtempSync(path.join(os.tmpdir(), "satpayload-devkit-"));
  const devicePath = path.join(dir, opts.name ?? "ttyDEVKIT0");
  const sim = new SimulatedDevice({ ...opts, baud: opts.baud === undefined ? MODULE_BAUD : opts.baud });
  let child: ChildProcess | null = null;

  const plug = async () => {
    const c = spawn(opts.socat ?? "socat", [`pty,link=${devicePath},raw,echo=0`, "STDIO"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let failed: Error | null = null;
    let stderr = "";
    c.on("error", (e) => (failed = e));
    c.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    killOnExit(c);
    child = c;
    try {
      await waitFor(
        () => failed !== null || c.exitCode !== null || existsSync(devicePath),
        5000,
        `socat did not create ${devicePath} within 5 s`,
      );
    } catch (e) {
      c.kill("SIGKILL");
      throw e;
    }
    if (failed || c.exitCode !== null) {
      const why =
        (failed as NodeJS.ErrnoException | null)?.code === "ENOENT"
          ? "socat is not installed (apt install socat)"
          : `socat failed: ${stderr.trim() || String(failed)}`;
      throw new PortError(`cannot start the simulated DevKit on a pseudo-terminal: ${why}`);
    }
    sim.attach(new PipeLink(c));
  };

  const unplug = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const gone = new Promise((r) => c.once("exit", r));
    c.kill("SIGTERM");
    await gone;
    sim.detach();
  };

  await plug();
  // a "disconnect" fault pulls the cable like the user would; the simulator stays unplugged until replug()
  sim.onUnplug = () => void unplug();

  return {
    path: devicePath,
    device: sim,
    unplug,
    replug: async () => {
      if (!child) await plug();
    },
    get plugged() {
      return child !== null;
    },
    async close() {
      await unplug();
      sim.stop();
      if (ownDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
