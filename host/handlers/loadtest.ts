// HostApi handlers of the Load Test page; the state lives in one LoadTestService per host.
import type { ProjectStore } from "../db/projects.ts";
import { LoadTestService } from "../loadtest/service.ts";
import type { Res } from "../api/contract.ts";
import type { HandlerMap } from "./dispatch.ts";
import type { HostEvents } from "./events.ts";

type LoadTestHandlers = Pick<HandlerMap, Extract<keyof HandlerMap, `loadtest.${string}`>>;

/** the load-test service of each host, so tests and shells can stop a run in progress */
const services = new WeakMap<HostEvents, LoadTestService>();

export function loadTestServiceOf(events: HostEvents): LoadTestService | undefined {
  return services.get(events);
}

export function createLoadTestHandlers({ store, events, info }: { store: ProjectStore; events: HostEvents; info: Res<"app.info"> }): LoadTestHandlers {
  const svc = new LoadTestService(events, info.dataDir, store);
  services.set(events, svc);
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
