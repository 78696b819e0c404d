// The budget of a record larger than the platform's message: it travels in k fragments (the cost model's own split,
// planning/src/cost), so a reading costs k messages of the fragments' mean size.
import { resolveRadio } from "./airtime.ts";
import { deviceBudget, type BudgetInput, type DeviceBudget } from "./budget.ts";
import { BudgetError } from "./errors.ts";
import { chargeMessage } from "../cost/cost.ts";
import { FRAGMENT_HEADER_BYTES } from "../fragmentation/header.ts";
import type { OverheadFn } from "../transport/platformStack.ts";

export interface RecordBudgetInput extends Omit<BudgetInput, "bytesOnAir"> {
  /** the record's payload bytes, as the format encodes it (a batch of readingsPerMessage readings) */
  recordBytes: number;
  /** reassembly header per fragment when the record must be split (the fragmentation module's default) */
  fragmentHeaderBytes?: number;
  /** on an IP link, the headers the transport stack adds to a payload (planning/src/transport `overheadFn`) */
  transportOverhead?: OverheadFn;
}

export interface RecordBudget extends DeviceBudget {
  /** messages one record takes: 1 when it fits */
  fragmentsPerRecord: number;
  /** bytes each of those messages carries on air (transport headers included): the fragments' mean, rounded up */
  bytesPerMessage: number;
}

/**
 * A record that fits is one message; one that does not is split as the fleet cost splits it (header + room per
 * fragment) and counted as fragmentsPerRecord messages of their mean size. The energy of a fragment is a step function
 * of its size, so the mean is an approximation within one fragment's step (docs/budget.md).
 */
export function recordBudget(i: RecordBudgetInput): RecordBudget {
  if (!Number.isInteger(i.recordBytes) || i.recordBytes < 0)
    throw new BudgetError([{ path: "recordBytes", message: "The record must be a whole number of bytes, 0 or more" }]);
  const limit = resolveRadio(i.choice, i.radioOverrides).maxPayloadBytes.value;
  const { fragments, sentBytes } = chargeMessage(
    i.recordBytes,
    { kind: "per-message" },
    limit,
    i.fragmentHeaderBytes ?? FRAGMENT_HEADER_BYTES,
    false,
    i.transportOverhead,
  );
  const bytesPerMessage = Math.ceil(sentBytes / fragments);
  const budget = deviceBudget({
    ...i,
    bytesOnAir: bytesPerMessage,
    readingsPerMessage: i.readingsPerMessage / fragments,
  });
  return { ...budget, fragmentsPerRecord: fragments, bytesPerMessage };
}
