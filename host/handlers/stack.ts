// HostApi handlers of the Stack page; one supervisor per host, created on first use.
import type { Res } from "../api/contract.ts";
import { StackSupervisor } from "../stack/supervisor.ts";
import type { HandlerMap } from "./dispatch.ts";
import type { HostEvents } from "./events.ts";

type StackHandlers = Pick<HandlerMap, Extract<keyof HandlerMap, `stack.${string}`>>;

const supervisors = new WeakMap<HostEvents, StackSupervisor>();

/** the supervisor of a host (tests and shells stop the stack through it) */
export function stackSupervisorOf(events: HostEvents): StackSupervisor | undefined {
  return supervisors.get(events);
}

export function createStackHandlers({ events, info }: { events: HostEvents; info: Res<"app.info"> }): StackHandlers {
  const supervisor = new StackSupervisor({
    dataDir: info.dataDir,
    owner: "app",
    onStatus: (s) => events.emit("stack.status", s),
    onStats: (s) => events.emit("stack.stats", s),
    onIngested: (e) => events.emit("stack.ingested", e),
    onLog: (lines) => events.emit("stack.log", { lines }),
  });
  supervisors.set(events, supervisor);
  // the app quits: stop the decoder (its buffer flushed) and the CSE before the host is gone
  events.onClose(() => supervisor.close());
  return {
    "stack.up": (opts) => supervisor.up(opts),
    "stack.down": () => supervisor.down(),
    "stack.status": () => supervisor.status(),
    "stack.logs": ({ service, limit }) => ({ lines: supervisor.logs(limit, service) }),
    "stack.latest": async ({ limit }) => ({ records: await supervisor.latest(limit) }),
    "stack.stats": () => supervisor.stats(),
  };
}
