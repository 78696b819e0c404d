// Shared by the stack tests that run `satpayload stack up --detach`.
import { type OwnedGroup, ownGroup } from "#codecs-test/helpers/processes/owned.ts";

/**
 * The background stack `stack up --detach` starts is a session (and process group) of its own, with
 * the decoder and the CSE in it: owned by the running test, so that a test failing or timing out
 * before its `stack down` still stops it the way `stack down` does (SIGTERM to the stack process,
 * which stops its services), with SIGKILL to the whole group after the grace time.
 */
export function ownStack(ownerPid: number): OwnedGroup {
  return ownGroup(ownerPid, {
    name: "satpayload stack up --detach",
    stop: (g) => void process.kill(g.pid, "SIGTERM"),
    graceMs: 30_000,
  });
}
