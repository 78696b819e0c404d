// Group commit: requests that arrive while the previous transaction is being made durable (or
// within a short window when idle) share the next transaction, so many answers cost one fsync.
// Each request is answered only after its transaction is on disk.
import type { BatchItem, BatchResult } from "./buffer.ts";
import type { BufferWriter } from "./writer.ts";

export interface GroupCommitOptions {
  /** how long the first item may wait for company when no commit is running */
  delayMs: number;
  /** most items per transaction */
  maxItems: number;
}

interface Waiting {
  item: BatchItem;
  resolve: (r: BatchResult) => void;
  reject: (e: unknown) => void;
}

export class GroupCommit {
  private queue: Waiting[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing = false;
  private closed = false;
  private idle: (() => void)[] = [];
  /** totals since start, for the log and tests */
  commits = 0;
  items = 0;

  constructor(
    private readonly writer: BufferWriter,
    private readonly opts: GroupCommitOptions,
    private readonly onCommit: (results: BatchResult[], items: BatchItem[]) => void = () => {},
  ) {}

  append(item: BatchItem): Promise<BatchResult> {
    if (this.closed) return Promise.reject(new Error("the buffer is closing"));
    return new Promise((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.writing) return;
      if (this.queue.length >= this.opts.maxItems) this.kick();
      else this.timer ??= setTimeout(() => this.kick(), this.opts.delayMs);
    });
  }

  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing) return;
    if (this.queue.length === 0) {
      for (const f of this.idle.splice(0)) f();
      return;
    }
    this.writing = true;
    const batch = this.queue.splice(0, this.opts.maxItems);
    const items = batch.map((w) => w.item);
    this.writer.write(items).then(
      (results) => {
        this.commits++;
        this.items += batch.length;
        const stored: BatchResult[] = [];
        for (let i = 0; i < batch.length; i++) {
          const r = results[i];
          // refused alone (the in-process CSE would not take it): not stored, its sender hears why
          if (r instanceof Error) batch[i]!.reject(r);
          else batch[i]!.resolve(r);
          stored.push(r instanceof Error ? undefined : r);
        }
        try {
          this.onCommit(stored, items);
        } finally {
          this.next();
        }
      },
      (e: unknown) => {
        // nothing of this batch is stored (one transaction): every sender hears so and may retry
        for (const w of batch) w.reject(e);
        this.next();
      },
    );
  }

  private next(): void {
    this.writing = false;
    // what queued up during the commit goes out at once: it has waited long enough
    this.kick();
  }

  /** Writes what is queued, then refuses new items; resolves when the last commit is done. */
  async close(): Promise<void> {
    this.closed = true;
    if (!this.writing && this.queue.length === 0) return;
    await new Promise<void>((resolve) => {
      this.idle.push(resolve);
      if (!this.writing) this.kick();
    });
  }
}
