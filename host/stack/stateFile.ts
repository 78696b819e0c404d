// <stack dir>/state.json: which process runs the stack and where it answers, so `satpayload stack
// status|down` (and the app) find a stack that another process started.
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "#services/shared/atomicWrite.ts";
import { stackEndpointsSchema, stackOptionsSchema } from "../api/stack.ts";

export const STATE_FILE = "state.json";

const stateSchema = z.object({
  pid: z.number().int(),
  owner: z.enum(["app", "cli"]),
  startedAt: z.string(),
  options: stackOptionsSchema,
  endpoints: stackEndpointsSchema,
  decoderUrl: z.string(),
  cseUrl: z.string().nullable(),
});
export type StackState = z.infer<typeof stateSchema>;

export function stateFile(dir: string): string {
  return path.join(dir, STATE_FILE);
}

export function writeState(dir: string, state: StackState): void {
  writeFileAtomic(stateFile(dir), `${JSON.stringify(state, null, 2)}\n`);
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: alive but someone else's
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The recorded stack if its process still lives; a stale file (crash, reboot) is removed. */
export function readLiveState(dir: string): StackState | undefined {
  let text: string;
  try {
    text = readFileSync(stateFile(dir), "utf8");
  } catch {
    return undefined;
  }
  let state: StackState;
  try {
    state = stateSchema.parse(JSON.parse(text));
  } catch {
    removeState(dir);
    return undefined;
  }
  if (!pidAlive(state.pid)) {
    removeState(dir);
    return undefined;
  }
  return state;
}

export function removeState(dir: string, onlyIfPid?: number): void {
  if (onlyIfPid !== undefined) {
    try {
      const s = JSON.parse(readFileSync(stateFile(dir), "utf8")) as { pid?: unknown };
      if (s.pid !== onlyIfPid) return;
    } catch {
      return;
    }
  }
  rmSync(stateFile(dir), { force: true });
}
