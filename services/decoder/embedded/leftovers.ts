// Records a forwarding run left in the buffer (acknowledged, not yet in the CSE) go into the
// in-process CSE before new ingests do, so nothing overtakes them in its container.
import type { InProcessCse } from "./inProcessCse.ts";
import type { RecordBuffer } from "../buffer/buffer.ts";

const BATCH = 1000;

export async function deliverLeftovers(
  buffer: RecordBuffer,
  cse: InProcessCse,
  log: (m: string) => void,
): Promise<number> {
  let total = 0;
  for (;;) {
    const pending = buffer.pending(BATCH);
    if (pending.length === 0) break;
    await cse.prepare(pending.map((r) => r.device));
    let committed = false;
    let result;
    try {
      result = buffer.deliverPending(cse, BATCH);
      committed = true;
    } finally {
      cse.settle(committed);
    }
    total += result.delivered;
    if (result.refusal) {
      // they stay pending (the backlog in /api/stats shows them) rather than block every new record
      log(
        `a record left by an earlier run could not be delivered, so it and the ones after it stay pending: ${result.refusal.message}`,
      );
      break;
    }
  }
  if (total > 0) log(`delivered ${total} record(s) an earlier run had left pending into the in-process CSE`);
  return total;
}
