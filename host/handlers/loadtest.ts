// HostApi handlers of the Load Test page; the state lives in one LoadTestService per host.
import type Database from "better-sqlite3";
import type { HandlerMap } from "./dispatch.ts";
import type { HostEvents } from "./events.ts";
import { stackSupervisorOf } from "./stack.ts";
import type { ProjectStore } from "../db/projects.ts";
import { LoadTestService } from "../loadtest/service.ts";

type LoadTestHandlers = Pick<HandlerMap, Extract<keyof HandlerMap, `loadtest.${string}`>>;

/** the load-test service of each host, so tests and shells can stop a run in progress */
const services = new WeakMap<HostEvents, LoadTestService>();

export function loadTestServiceOf(events: HostEvents): LoadTestService | undefined {
  return services.get(events);
}

export function createLoadTestHandlers({
  store,
  db,
  events,
}: {
  store: ProjectStore;
  db: Database.Database;
  events: HostEvents;
}): LoadTestHandlers {
  // the Stack page's supervisor is made after these handlers: look it up when a run starts
  const svc = new LoadTestService(events, db, store, undefined, () => stackSupervisorOf(events)?.status());
  services.set(events, svc);
  // quitting the app ends a running test (its generator and stack are child processes)
  events.onClose(() => svc.close());
  return {
    "loadtest.start": ({ layout, settings }) => svc.begin(layout, settings),
    "loadtest.cancel": ({ id }) => ({ cancelled: svc.cancel(id) }),
    "loadtest.active": () => svc.activeRun(),
    "loadtest.history": ({ limit }) => svc.history(limit),
    "loadtest.get": ({ id }) => svc.get(id),
    "loadtest.compare": ({ ids }) => svc.compare(ids),
    "loadtest.export": ({ ids, format }) => svc.export(ids, format),
    "loadtest.delete": ({ id }) => ({ deleted: svc.delete(id) }),
  };
}
