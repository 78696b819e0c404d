// The e2e session of a file that starts the local stack: one session for the file's tests, and on the
// way out the stack (decoder, CSE) is stopped before the session closes, so a failed test never leaves
// them running on the machine.
import { afterAll, beforeAll } from "vitest";
import { stackSupervisorOf } from "#host/handlers/stack.ts";
import { startSession, type E2eSession } from "./session.ts";

/** Registers the file's session hooks; call at the top level. The getter throws if the session did not start. */
export function useStackSession(): () => E2eSession {
  let s: E2eSession | undefined;
  beforeAll(async () => {
    s = await startSession();
  }, 300_000);
  afterAll(async () => {
    if (!s) return;
    await stackSupervisorOf(s.server.host.events)?.close();
    await s.close();
  });
  return () => {
    if (!s) throw new Error("the e2e session did not start (see the beforeAll error above)");
    return s;
  };
}
