// Records a forwarding run left in the buffer (acknowledged, not yet in the CSE) go into the
// in-process CSE before new ingests do, so nothing overtakes them in its container. A record the
// CSE refuses for good goes to the refused state (the rest flows); a taken name is read back and
// counts as delivered only if the content is ours, else the record is repaired under the next name.
import type { InProcessCse } from "./inProcessCse.ts";
import type { RecordBuffer } from "../buffer/buffer.ts";
import { containerFor } from "../forward/containers.ts";
import { reason } from "../forward/onem2m.ts";
import { settleName } from "../forward/verify.ts";

const BATCH = 1000;

export async function deliverLeftovers(
  buffer: RecordBuffer,
  cse: InProcessCse,
  log: (m: string) => void,
): Promise<number> {
  let total = 0;
  let refusedTotal = 0;
  // a pass that moves nothing (a read that keeps failing, a container that cannot be made) ends the
  // attempt: what is left stays pending, shown as such, until the next start or retry
  for (let idle = 0; idle < 2;) {
    const pending = buffer.pending(BATCH);
    if (pending.length === 0) break;
    await cse.prepare(pending.map((r) => r.device));
    let committed = false;
    let pass;
    try {
      pass = cse.leftoverPass(() => buffer.deliverPending(cse, BATCH));
      committed = true;
    } finally {
      cse.settle(committed);
    }
    const { delivered, refused, later } = pass.result;
    total += delivered;
    refusedTotal += refused;
    let settled = 0;
    for (const r of later) {
      const why = pass.why.get(r.seq);
      // held behind an earlier record of its container, or the container was gone (made again next pass)
      if (why === undefined || why === "missing") continue;
      const container = containerFor(cse.target, r.device);
      const s = settleName(why, await cse.retrieveInstance(r.device, r.rn ?? r.messageId), r, container);
      if (s.kind === "failed") {
        log(`reading back ${container}/${r.rn ?? r.messageId} failed (${reason(s.answer)}); it stays pending`);
        continue;
      }
      settled++;
      if (s.kind === "delivered") {
        buffer.markForwarded([r.seq]);
        if (why === "taken") buffer.count("conflicts_verified");
        total++;
      } else if (s.kind === "rename") {
        buffer.rename(r.seq, s.rn);
        if (s.repair) buffer.count("repairs");
        log(s.note);
      } else {
        refusedTotal += buffer.refuse([{ seq: r.seq, refusal: s.refusal }]);
        log(`refused ${r.messageId}: ${s.refusal.reason}`);
      }
    }
    idle = delivered + refused + settled > 0 ? 0 : idle + 1;
  }
  if (total > 0) log(`delivered ${total} record(s) an earlier run had left pending into the in-process CSE`);
  if (refusedTotal > 0)
    log(`${refusedTotal} record(s) an earlier run had left were refused by the CSE (see /api/refused)`);
  const left = buffer.pendingCount();
  if (left > 0) log(`${left} record(s) an earlier run had left are still pending`);
  return total;
}
