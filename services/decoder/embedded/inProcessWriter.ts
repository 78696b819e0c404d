// The group commit's writer in --embedded-cse mode: each batch is one transaction on the buffer's
// connection that stores the records AND creates their contentInstances (the CSE's tree lives in
// the same file), so an answer goes out only once both are on disk. It runs on the main thread, where
// the CSE's core lives: the fsync briefly holds the event loop, and requests arriving meanwhile
// form the next batch.
import type { BatchItem, BatchResult, RecordBuffer } from "../buffer/buffer.ts";
import { DirectWriter } from "../buffer/writer.ts";
import type { InProcessCse } from "./inProcessCse.ts";

export class InProcessWriter extends DirectWriter {
  constructor(
    private readonly records: RecordBuffer,
    private readonly cse: InProcessCse,
  ) {
    super(records);
  }

  override async write(items: BatchItem[]): Promise<(BatchResult | Error)[]> {
    await this.cse.prepare(items.flatMap((it) => (it.kind === "record" ? [it.record.device] : [])));
    let committed = false;
    try {
      const out = this.records.writeDelivered(items, this.cse);
      committed = true;
      return out;
    } finally {
      this.cse.settle(committed);
    }
  }
}
