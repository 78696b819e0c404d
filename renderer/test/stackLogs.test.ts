// The Stack page's log (issue #13: duplicated lines): the page's store, fed by a real host running
// a real stack, must show each captured line once and in order: exactly the host's own log ring.
import { afterAll, describe, expect, it } from "vitest";
import type { EventName, EventPayload, HostApi, MethodName, Req, Res } from "../../host/api/contract.ts";
import { testHost } from "../../host/test/support.ts";
import { refresh, stackDown, stackUp, startStack, useStack } from "../src/pages/stack/store.ts";
import { useSession } from "../src/state/session.ts";

// the store reads the page address once when it starts listening
(globalThis as { location?: unknown }).location ??= { href: "http://127.0.0.1/" };

const host = testHost();
afterAll(async () => {
  await stackDown();
  await host.close();
});

/** the renderer's HostApi over the real host in this process: the dispatcher and its event fan-out */
const api: HostApi = {
  call: <M extends MethodName>(method: M, req: Req<M>) => host.dispatch(method, req) as Promise<Res<M>>,
  on: <E extends EventName>(event: E, listener: (p: EventPayload<E>) => void) =>
    host.events.subscribe((e, p) => {
      if (e === event) listener(p as EventPayload<E>);
    }),
};

const settle = () => new Promise((r) => setTimeout(r, 1200));

describe("Stack page log", () => {
  it("shows every line once, in order, through start, live events and refreshes", { timeout: 120_000 }, async () => {
    useSession.setState({ api });
    startStack();
    await stackUp();
    expect(useStack.getState().error).toBeNull();
    expect(useStack.getState().status?.state).toBe("running");
    // lines still waiting for the batched log event when the page fetched the log arrive now
    await settle();
    const ring = (await host.dispatch("stack.logs", { limit: 2000 })) as Res<"stack.logs">;
    const shown = useStack.getState().logs;
    expect(shown.length).toBeGreaterThan(3);
    expect(shown.map((l) => l.text)).toEqual(ring.lines.slice(-shown.length).map((l) => l.text));
    expect(shown).toEqual(ring.lines.slice(-shown.length));
    // a refresh (the page opened again) while lines keep coming changes nothing either
    await Promise.all([refresh(), host.dispatch("stack.logs", { limit: 1 })]);
    await settle();
    const again = ((await host.dispatch("stack.logs", { limit: 2000 })) as Res<"stack.logs">).lines;
    const now = useStack.getState().logs;
    expect(now).toEqual(again.slice(-now.length));
  });
});
