// Captured service output: the newest lines in memory for the UI, everything in a file per service
// (rotated once it passes a size, so a chatty service cannot fill the disk).
import { createWriteStream, mkdirSync, renameSync, statSync, type WriteStream } from "node:fs";
import path from "node:path";
import type { LogLine } from "../api/stack.ts";

export const LOG_RING_SIZE = 2000;
const ROTATE_BYTES = 10 * 1024 * 1024;

export class LogRing {
  private readonly lines: LogLine[] = [];
  constructor(private readonly capacity = LOG_RING_SIZE) {}

  push(line: LogLine): void {
    this.lines.push(line);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }

  tail(limit: number, service?: LogLine["service"]): LogLine[] {
    const from = service ? this.lines.filter((l) => l.service === service) : this.lines;
    return from.slice(-limit);
  }
}

export class LogFile {
  private stream: WriteStream | undefined;
  private bytes = 0;

  constructor(private readonly file: string) {}

  write(line: LogLine): void {
    if (!this.stream) this.open();
    const text = `${line.at} ${line.stream === "stderr" ? "!" : " "} ${line.text}\n`;
    this.bytes += Buffer.byteLength(text);
    this.stream!.write(text);
    if (this.bytes > ROTATE_BYTES) {
      this.stream!.end();
      this.stream = undefined;
      renameSync(this.file, `${this.file}.1`);
    }
  }

  private open(): void {
    mkdirSync(path.dirname(this.file), { recursive: true });
    try {
      this.bytes = statSync(this.file).size;
    } catch {
      this.bytes = 0;
    }
    this.stream = createWriteStream(this.file, { flags: "a" });
    // a full disk must not take the supervisor down; the ring still has the lines
    this.stream.on("error", () => {
      this.stream = undefined;
    });
  }

  close(): Promise<void> {
    const s = this.stream;
    this.stream = undefined;
    return new Promise((resolve) => (s ? s.end(() => resolve()) : resolve()));
  }
}

/**
 * Every line a stack's services and its supervisor write: numbered, kept in the ring for the UI,
 * appended to its service's file below `<stack dir>/logs`, and handed to `onLog` in batches (every 250 ms).
 */
export class StackLog {
  private readonly ring = new LogRing();
  private readonly files = new Map<LogLine["service"], LogFile>();
  private pending: LogLine[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stackDir: string,
    private readonly onLog: ((lines: LogLine[]) => void) | undefined,
  ) {}

  push(captured: Omit<LogLine, "seq">): void {
    const line: LogLine = { seq: this.seq++, ...captured };
    this.ring.push(line);
    let f = this.files.get(line.service);
    if (!f) this.files.set(line.service, (f = new LogFile(path.join(this.stackDir, "logs", `${line.service}.log`))));
    f.write(line);
    if (this.onLog) {
      this.pending.push(line);
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        const lines = this.pending.splice(0);
        if (lines.length) this.onLog!(lines);
      }, 250);
    }
  }

  /** a line of the supervisor's own: what it is doing */
  note(text: string): void {
    this.push({ service: "supervisor", stream: "event", at: new Date().toISOString(), text });
  }

  tail(limit: number, service?: LogLine["service"]): LogLine[] {
    return this.ring.tail(limit, service);
  }

  /** stops the batch timer and closes the files */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    await Promise.all([...this.files.values()].map((f) => f.close()));
  }
}
