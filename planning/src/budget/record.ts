// The budget of a record larger than the platform's message: it travels in k fragments (the cost model's own split,
// planning/src/cost), so a reading costs k messages of the fragments' mean size.
import { resolveRadio } from "./airtime.ts";
import {
  budgetOf,
  checkBudgetInput,
  singleMessage,
  type BudgetInput,
  type DeviceBudget,
  type RecordOnAir,
} from "./budget.ts";
import { BudgetError } from "./errors.ts";
import { chargeMessage } from "../cost/cost.ts";
import { FRAGMENT_HEADER_BYTES } from "../fragmentation/header.ts";
import type { OverheadFn } from "../transport/platformStack.ts";

export interface RecordBudgetInput extends Omit<BudgetInput, "bytesOnAir"> {
  /** the record's payload bytes, as the format encodes it (a batch of readingsPerMessage readings) */
  recordBytes: number;
  /**
   * every measured record's size: when given, airtime and energy are averaged over them (fragments and Astrocast
   * bursts are steps, so the mean size alone can miss them), as the fleet cost's "exact" does; recordBytes is then
   * only reported
   */
  recordSizes?: ArrayLike<number>;
  /** reassembly header per fragment when the record must be split (the fragmentation module's default) */
  fragmentHeaderBytes?: number;
  /** on an IP link, the headers the transport stack adds to a payload (planning/src/transport `overheadFn`) */
  transportOverhead?: OverheadFn;
}

export interface RecordBudget extends DeviceBudget {
  /** messages one record takes: 1 when it fits (a mean over recordSizes when given) */
  fragmentsPerRecord: number;
  /** bytes a message carries on air (transport headers included): the fragments' mean, rounded up */
  bytesPerMessage: number;
}

function checkSize(n: number, path: string): void {
  if (!Number.isInteger(n) || n < 0)
    throw new BudgetError([{ path, message: "The record must be a whole number of bytes, 0 or more" }]);
}

/**
 * A record that fits is one message; one that does not is split as the fleet cost splits it (header + room per
 * fragment) into k messages of the fragments' mean size (every fragment but the last is full, so the mean is within
 * one byte of each). With recordSizes, every size is costed and the costs averaged.
 */
export function recordBudget(i: RecordBudgetInput): RecordBudget {
  checkSize(i.recordBytes, "recordBytes");
  checkBudgetInput(i);
  const radio = resolveRadio(i.choice, i.radioOverrides);
  const limit = radio.maxPayloadBytes.value;
  const header = i.fragmentHeaderBytes ?? FRAGMENT_HEADER_BYTES;

  const cache = new Map<number, { k: number; sent: number; one: RecordOnAir }>();
  const costOf = (size: number) => {
    let c = cache.get(size);
    if (!c) {
      checkSize(size, "recordSizes");
      const { fragments, sentBytes } = chargeMessage(
        size,
        { kind: "per-message" },
        limit,
        header,
        false,
        i.transportOverhead,
      );
      c = { k: fragments, sent: sentBytes, one: singleMessage(radio, Math.ceil(sentBytes / fragments)) };
      cache.set(size, c);
    }
    return c;
  };

  const sizes = i.recordSizes && i.recordSizes.length > 0 ? Array.from(i.recordSizes) : [i.recordBytes];
  const sum = { k: 0, sent: 0, airtimeS: 0, tx: 0, rx: 0, wait: 0, longest: 0 };
  for (const size of sizes) {
    const { k, sent, one } = costOf(size);
    sum.k += k;
    sum.sent += sent;
    sum.airtimeS += k * one.airtimeS;
    sum.tx += k * one.tx;
    sum.rx += k * one.rx;
    sum.wait += k * one.wait;
    sum.longest = Math.max(sum.longest, one.longestMessageS);
  }
  const n = sizes.length;
  // fragments / bursts / frames of one message are shown only when every message is alike
  const single = cache.size === 1 ? [...cache.values()][0]! : undefined;
  const record: RecordOnAir = {
    messages: sum.k / n,
    airtimeS: sum.airtimeS / n,
    tx: sum.tx / n,
    rx: sum.rx / n,
    wait: sum.wait / n,
    longestMessageS: sum.longest,
    ...(single && {
      ...(single.one.fragments !== undefined && { fragments: single.one.fragments }),
      ...(single.one.bursts !== undefined && { bursts: single.one.bursts }),
      ...(single.one.frames !== undefined && { frames: single.one.frames }),
    }),
  };
  return {
    ...budgetOf(i, radio, record),
    fragmentsPerRecord: sum.k / n,
    bytesPerMessage: Math.ceil(sum.sent / sum.k),
  };
}
