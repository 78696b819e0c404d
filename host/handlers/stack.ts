// HostApi handlers of the Stack page; one supervisor per host, created on first use.
import path from "node:path";
import { addKey, addWebhook, KeysFileError, listKeys, revoke } from "#services/shared/credentials.ts";
import type { Res } from "../api/contract.ts";
import { HostError } from "../errors.ts";
import type { HandlerMap } from "./dispatch.ts";
import type { HostEvents } from "./events.ts";
import { decoderDataDir, STACK_DIR } from "../stack/dirs.ts";
import { StackSupervisor } from "../stack/supervisor.ts";

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
  // the same file `satpayload stack keys` edits and the stack's decoder reads (--auth auto: enforced once it holds a writer key)
  const keysFile = path.join(decoderDataDir(path.join(info.dataDir, STACK_DIR)), "keys.json");
  // the app quits: stop the decoder (its buffer flushed) and the CSE before the host is gone
  events.onClose(() => supervisor.close());
  return {
    "stack.up": (opts) => supervisor.up(opts),
    "stack.down": () => supervisor.down(),
    "stack.status": () => supervisor.status(),
    "stack.logs": ({ service, limit }) => ({ lines: supervisor.logs(limit, service) }),
    "stack.latest": async ({ limit }) => ({ records: await supervisor.latest(limit) }),
    "stack.stats": () => supervisor.stats(),
    "stack.refused": async ({ limit, container }) => ({ refused: await supervisor.refused(limit, container) }),
    "stack.retry": async (filter) => ({ retried: await supervisor.retry(filter) }),
    "stack.keys.list": () => ({ file: keysFile, keys: keysCall(() => listKeys(keysFile)) }),
    "stack.keys.add": (r) =>
      keysCall(() => {
        if (r.role === "webhook") {
          const { id, secret } = addWebhook(keysFile, { route: r.route, label: r.label });
          return { id, secret };
        }
        const { id, token } = addKey(keysFile, {
          role: r.role,
          device: r.role === "device" ? r.device : undefined,
          label: r.label,
        });
        return { id, secret: token };
      }),
    "stack.keys.revoke": ({ id }) => ({ revoked: keysCall(() => revoke(keysFile, id)) }),
  };
}

/** a broken credentials file is the user's to fix: say so, with the file's own problem */
function keysCall<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof KeysFileError) throw new HostError("conflict", e.message);
    throw e;
  }
}
