// A stack another process runs (`satpayload stack up --detach`, or another window of the app), known from
// its state file: stopping it is asking its process to stop, and waiting until it has.
import { HostError } from "../errors.ts";
import { pidAlive, type StackState } from "./stateFile.ts";

/** `satpayload stack down` or the app stopping a stack that `stack up --detach` runs. */
export async function stopExternal(ext: StackState, timeoutMs = 30_000): Promise<void> {
  if (ext.owner !== "cli")
    throw new HostError("conflict", `the stack runs inside SatPayload Studio (pid ${ext.pid}); stop it there`);
  process.kill(ext.pid, "SIGTERM");
  const until = Date.now() + timeoutMs;
  while (pidAlive(ext.pid)) {
    if (Date.now() > until)
      throw new HostError("internal", `the stack process ${ext.pid} did not stop within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
