// A real serial port (or a pseudo-terminal) through the serialport package, 9600 8N1 without flow control.
import { existsSync } from "node:fs";
import { SerialPort } from "serialport";
import { DisconnectedError, PortError } from "../errors.ts";
import type { Link } from "./types.ts";
import { MODULE_BAUD } from "../protocol/frame.ts";

export const BAUD_RATE = MODULE_BAUD;

/** Turns the OS's refusal into what the user should do about it. */
export function explainOpenError(path: string, e: unknown): PortError {
  const msg = (e as Error)?.message ?? String(e);
  if (/EACCES|Permission denied/i.test(msg))
    return new PortError(
      `no permission to open ${path}. On Linux add yourself to the group that owns it (usually "dialout"; "uucp" on Arch): sudo usermod -aG dialout $USER, then log out and back in.`,
    );
  if (/EBUSY|Resource busy|Access denied/i.test(msg))
    return new PortError(
      `${path} is in use by another program (a serial monitor, ModemManager, another SatPayload window); close it and retry.`,
    );
  if (/ENOENT|No such file|cannot find/i.test(msg))
    return new PortError(`${path} does not exist: is the DevKit plugged in? Refresh the port list.`);
  return new PortError(`cannot open ${path}: ${msg}`);
}

/** how often an idle port checks that its device node still exists */
const PRESENCE_CHECK_MS = 1000;

class SerialLink implements Link {
  private readonly closed = new Set<(r: Error | null) => void>();
  private closing = false;
  private lost: Error | null = null;
  private notified = false;
  private readonly presence: ReturnType<typeof setInterval> | null;

  constructor(private readonly port: SerialPort) {
    port.on("close", (err: (Error & { disconnected?: boolean }) | null) => this.ended(err));
    // errors after opening come with a close; a listener keeps them from becoming uncaught
    port.on("error", () => undefined);
    // a hang-up is not always reported while the port is idle (seen with ptys); a vanished device node is
    // the unplug itself, so look for it rather than wait for the next write to fail
    this.presence = port.path.startsWith("/")
      ? setInterval(() => {
          if (!existsSync(port.path)) this.lose(new DisconnectedError(`${port.path} disappeared (unplugged)`));
        }, PRESENCE_CHECK_MS)
      : null;
    this.presence?.unref();
  }

  private ended(err: Error | null): void {
    if (this.presence) clearInterval(this.presence);
    if (this.notified) return;
    this.notified = true;
    const reason = this.closing ? null : (this.lost ?? err ?? new DisconnectedError("the port closed"));
    for (const l of [...this.closed]) l(reason);
  }

  /** The device went away under us: close our side so listeners hear about it once, with the reason. */
  private lose(reason: Error): void {
    if (this.closing || this.lost) return;
    this.lost = reason;
    if (this.port.isOpen) this.port.close(() => this.ended(reason));
    else this.ended(reason);
  }

  get description(): string {
    return this.port.path;
  }

  get isOpen(): boolean {
    return this.port.isOpen;
  }

  write(bytes: Uint8Array): Promise<void> {
    if (!this.port.isOpen) return Promise.reject(this.lost ?? new DisconnectedError(`${this.port.path} is closed`));
    return new Promise((resolve, reject) => {
      const failed = (e: Error) => {
        const gone = new DisconnectedError(`the DevKit went away: ${e.message}`);
        this.lose(gone);
        reject(gone);
      };
      this.port.write(Buffer.from(bytes), (err) => {
        if (err) return failed(err);
        this.port.drain((e) => (e ? failed(e) : resolve()));
      });
    });
  }

  onData(l: (c: Uint8Array) => void): () => void {
    const h = (b: Buffer) => l(new Uint8Array(b.buffer, b.byteOffset, b.length));
    this.port.on("data", h);
    return () => this.port.off("data", h);
  }

  onClose(l: (r: Error | null) => void): () => void {
    this.closed.add(l);
    return () => this.closed.delete(l);
  }

  close(): Promise<void> {
    this.closing = true;
    if (this.presence) clearInterval(this.presence);
    if (!this.port.isOpen) return Promise.resolve();
    return new Promise((resolve) => this.port.close(() => resolve()));
  }
}

export function openSerial(path: string): Promise<Link> {
  return new Promise((resolve, reject) => {
    const port = new SerialPort({
      path,
      baudRate: BAUD_RATE,
      dataBits: 8,
      parity: "none",
      stopBits: 1,
      rtscts: false,
      autoOpen: false,
    });
    port.open((err) => (err ? reject(explainOpenError(path, err)) : resolve(new SerialLink(port))));
  });
}
