// The bench's frame log: every frame with its time, hex and meaning, kept in a bounded ring and exportable.
import type { LogEntry } from "../api/devkit.ts";

export class FrameLog {
  private entries: LogEntry[] = [];
  private seq = 0;

  constructor(private readonly capacity = 5000) {}

  add(e: Omit<LogEntry, "seq">): LogEntry {
    const entry = { ...e, seq: ++this.seq };
    this.entries.push(entry);
    // drop in chunks so a long session does not shift the array on every frame
    if (this.entries.length > this.capacity * 1.1) this.entries = this.entries.slice(-this.capacity);
    return entry;
  }

  recent(limit: number): LogEntry[] {
    return this.entries.slice(-limit);
  }

  clear(): void {
    this.entries = [];
  }

  /** text: one aligned line per frame, as a serial monitor would show it; jsonl: one JSON object per line */
  export(format: "text" | "jsonl"): string {
    if (format === "jsonl")
      return this.entries.map((e) => JSON.stringify(e)).join("\n") + (this.entries.length ? "\n" : "");
    const head = "# SatPayload Studio DevKit log: time, direction, frame text between STX and ETX, meaning\n";
    return (
      head +
      this.entries
        .map((e) => `${e.at}  ${e.dir === "tx" ? "→" : "←"}  ${e.status.padEnd(5)}  ${e.text.padEnd(40)}  ${e.decoded}`)
        .join("\n") +
      (this.entries.length ? "\n" : "")
    );
  }
}
