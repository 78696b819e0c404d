// Delivered means verified: what to do with a record once the CSE holds its name. After a
// 409/4105 the instance is read back and counts as delivered only if its content is ours; a name
// held without our content (a crashed Mobius left the name row but not the instance, or another
// content sits there) is repaired under the next name. A stored name from before issue 22 that
// Mobius cannot store is first looked for (an earlier run may have delivered it), then replaced.
// Shared by the HTTP forwarder and the in-process CSE's left-over delivery.
import type { Refusal, StoredRecord } from "../buffer/buffer.ts";
import { fittingName, MAX_REPAIRS, repairName } from "../names.ts";
import { classifyInstance, readBack, refusalOf, type M2mResponse } from "./onem2m.ts";

/** why the record's name is being read: the create answered "taken", or the stored name is too long to send */
export type NameCheck = "taken" | "old-name";

export type Settled =
  /** the instance under the record's current name is ours: delivered (a taken name: verified) */
  | { kind: "delivered" }
  /** send the record under this name from now on */
  | { kind: "rename"; rn: string; repair: boolean; note: string }
  /** no name left to try: refused, with why */
  | { kind: "refuse"; refusal: Refusal }
  /** the read itself failed (the CSE failed or did not answer): try again later */
  | { kind: "failed"; answer: M2mResponse };

type Named = Pick<StoredRecord, "seq" | "messageId" | "rn" | "receivedAt" | "con">;

/** `answer`: the GET of <container>/<the record's current name> */
export function settleName(why: NameCheck, answer: M2mResponse, r: Named, container: string): Settled {
  const rn = r.rn ?? r.messageId;
  const back = readBack(answer, r.con);
  if (back.kind === "ours") return { kind: "delivered" };
  if (back.kind === "failed") {
    // a read the CSE refuses for good (403 no privilege, 405 disableRetrieval …) can only be refused
    // again: the record waits in the refused state with that answer instead of holding up its container
    if (classifyInstance(answer) !== "refused") return { kind: "failed", answer };
    const refusal = refusalOf(answer, container, rn);
    const what =
      why === "taken" ? "is taken and reading it back" : "(too long to send) could not be looked for: the read";
    return { kind: "refuse", refusal: { ...refusal, reason: `the name ${rn} ${what} was refused: ${refusal.reason}` } };
  }
  if (why === "old-name")
    return {
      kind: "rename",
      rn: fittingName(r),
      repair: false,
      note: `${rn} is longer than a CSE may store and not there: sent as ${fittingName(r)}`,
    };
  const what =
    back.kind === "missing"
      ? "has no instance (a name row left without its instance)"
      : `holds other content (${JSON.stringify(back.got)?.slice(0, 120)})`;
  const next = repairName(rn, r);
  if (next === undefined)
    return {
      kind: "refuse",
      refusal: {
        status: 409,
        rsc: 4105,
        reason: `the name ${rn} and the ${MAX_REPAIRS} names after it are taken without this record's content: ${what}`,
        container,
        rn,
        at: Date.now(),
      },
    };
  return {
    kind: "rename",
    rn: next,
    repair: true,
    note: `${container}/${rn} answered 409 (exists) but ${what}: repaired as ${next}`,
  };
}
