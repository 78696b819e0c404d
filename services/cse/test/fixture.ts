// One embedded CSE per test file, in memory on a free loopback port.
import { M2mClient } from "./client.ts";
import { startCse, type CseOptions, type RunningCse } from "../src/server.ts";

export interface TestCse extends RunningCse {
  client(originator: string): M2mClient;
  /** events the CSE logged (errors, removed subscriptions) */
  logged: Record<string, unknown>[];
}

export async function startTestCse(options: CseOptions = {}): Promise<TestCse> {
  const logged: Record<string, unknown>[] = [];
  const cse = await startCse({ port: 0, log: (e) => logged.push(e), ...options });
  return { ...cse, logged, client: (originator) => new M2mClient(cse.url, originator) };
}

/** oneM2M's "YYYYMMDDTHHMMSS" as Mobius writes it */
export const M2M_TIME = /^\d{8}T\d{6}$/;
/** with the fraction of the second, as ACME (and the standard profile) write ct and lt */
export const M2M_TIME_FRACTION = /^\d{8}T\d{6},\d{6}$/;

/** Polls `probe` until it returns true; bounded so a broken CSE fails the test instead of hanging it. */
export async function eventually(probe: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
