// The Stack page's log (issue #13: duplicated lines): the page's store, fed by a real host running
// a real stack, must show each captured line once and in order: exactly the host's own log ring.
import { afterAll, describe, expect, it } from "vitest";
import type { EventName, EventPayload, HostApi, MethodName, Req, Res } from "#host/api/contract.ts";
import { testHost } from "#host/test/support.ts";
import { refresh, stackDown, stackUp, startStack, useStack } from "../src/pages/stack/stackStore.ts";
import { useSession } from "../src/session/sessionStore.ts";

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

/**
 * The host's log ring once the page has caught up with it: lines keep coming (health checks) and
 * reach the page in batches, so compare only when both end at the same line.
 */
async function ringWhenCaughtUp(): Promise<Res<"stack.logs">["lines"]> {
  const until = Date.now() + 20_000;
  for (;;) {
    const ring = ((await host.dispatch("stack.logs", { limit: 2000 })) as Res<"stack.logs">).lines;
    const shown = useStack.getState().logs;
    if (shown.length && ring.length && shown.at(-1)!.seq === ring.at(-1)!.seq) return ring;
    if (Date.now() > until)
      throw new Error(
        `the page never caught up with the host's log (page ends at ${shown.at(-1)?.seq}, host at ${ring.at(-1)?.seq})`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("Stack page log", () => {
  it("shows every line once, in order, through start, live events and refreshes", { timeout: 120_000 }, async () => {
    useSession.setState({ api });
    startStack();
    await stackUp();
    expect(useStack.getState().error).toBeNull();
    expect(useStack.getState().status?.state).toBe("running");
    // lines still waiting for the batched log event when the page fetched the log arrive now
    const ring = await ringWhenCaughtUp();
    const shown = useStack.getState().logs;
    expect(shown.length).toBeGreaterThan(3);
    expect(shown.map((l) => l.text)).toEqual(ring.slice(-shown.length).map((l) => l.text));
    expect(shown).toEqual(ring.slice(-shown.length));
    // a refresh (the page opened again) while lines keep coming changes nothing either
    await Promise.all([refresh(), host.dispatch("stack.logs", { limit: 1 })]);
    const again = await ringWhenCaughtUp();
    const now = useStack.getState().logs;
    expect(now).toEqual(again.slice(-now.length));
  });
});
