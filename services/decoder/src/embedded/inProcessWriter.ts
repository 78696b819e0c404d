// The group commit's writer in --embedded-cse mode: each batch is one transaction on the buffer's
// connection that stores the records AND creates their contentInstances (the CSE's tree lives in
// the same file), so an answer goes out only once both are on disk. The transaction runs on the
// writer thread where the CSE's core lives (cseWriterThread.ts); its fsync does not: SQLite commits
// with synchronous=NORMAL (the WAL written, not synced) and the WAL file is then fsync'd on libuv's
// thread pool before the batch is answered, so the thread keeps serving the CSE's readers meanwhile.
// Acknowledged records are as durable as with synchronous=FULL.
import { open, type FileHandle } from "node:fs/promises";
import type { InProcessCse } from "./inProcessCse.ts";
import type { BatchItem, BatchResult, RecordBuffer } from "../buffer/buffer.ts";

export class InProcessWriter {
  constructor(
    private readonly records: RecordBuffer,
    private readonly cse: InProcessCse,
    /** fsync the WAL before answering (--synchronous full); the connection itself runs NORMAL */
    private readonly durable: boolean,
  ) {}

  /** one transaction for the batch, answered once it is durable (the group commit's writer step) */
  async write(items: BatchItem[]): Promise<(BatchResult | Error)[]> {
    await this.cse.prepare(
      items.flatMap((it) =>
        it.kind === "record" ? [it.record.device] : it.kind === "readings" ? it.records.map((r) => r.device) : [],
      ),
    );
    let committed = false;
    let out: (BatchResult | Error)[];
    try {
      out = this.records.writeDelivered(items, this.cse);
      committed = true;
    } finally {
      this.cse.settle(committed);
    }
    if (this.durable) await this.syncWal();
    return out;
  }

  /**
   * The committed frames are in the WAL file (or, after a checkpoint, in the database file, which
   * SQLite syncs as part of every checkpoint): syncing the WAL's inode makes them durable. The file
   * lives as long as the buffer's connection (SQLite removes it only when the last connection
   * closes; a checkpoint rewinds it in place), so one handle serves every commit.
   */
  private async syncWal(): Promise<void> {
    if (!this.wal) {
      const opening = open(`${this.records.file}-wal`, "r");
      // a failed open is tried again at the next commit (whose sender hears of this one's failure)
      opening.catch(() => {
        if (this.wal === opening) this.wal = undefined;
      });
      this.wal = opening;
    }
    await (await this.wal).sync();
  }

  private wal: Promise<FileHandle> | undefined;

  async close(): Promise<void> {
    const wal = this.wal;
    this.wal = undefined;
    if (wal) await (await wal).close();
  }
}
