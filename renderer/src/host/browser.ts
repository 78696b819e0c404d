// Transport B: POST /api/call/<method> and one WebSocket for events, as fixed in host/api/contract.ts.
import type { EventName, EventPayload, HostApi, MethodName, Req, Res } from "#host/api/contract.ts";
import { HostCallError, toHostError } from "./errors.ts";

type Listener = (payload: unknown) => void;

export interface BrowserHostOptions {
  token: string;
  /** origin the page was served from, e.g. http://127.0.0.1:5173 */
  origin: string;
  fetchImpl?: typeof fetch;
  /** injectable for tests; the real one is the DOM WebSocket */
  openSocket?: (url: string) => WebSocket;
}

export function browserHost(opts: BrowserHostOptions): HostApi & { close(): void } {
  const doFetch = opts.fetchImpl ?? fetch.bind(globalThis);
  const listeners = new Map<string, Set<Listener>>();
  let socket: WebSocket | null = null;
  let retry = 0;
  let closed = false;

  const connect = () => {
    if (closed || socket) return;
    const wsUrl = `${opts.origin.replace(/^http/, "ws")}/api/events?token=${encodeURIComponent(opts.token)}`;
    const ws = (opts.openSocket ?? ((u: string) => new WebSocket(u)))(wsUrl);
    socket = ws;
    ws.addEventListener("open", () => {
      retry = 0;
    });
    ws.addEventListener("message", (ev: MessageEvent) => {
      let msg: unknown;
      try {
        msg = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      if (!msg || typeof msg !== "object") return;
      const { event, payload } = msg as { event?: unknown; payload?: unknown };
      if (typeof event !== "string") return;
      for (const l of listeners.get(event) ?? []) l(payload);
    });
    ws.addEventListener("close", () => {
      socket = null;
      // the host restarts or the laptop sleeps: reconnect with backoff while anyone listens
      if (!closed && [...listeners.values()].some((s) => s.size)) {
        const delay = Math.min(10_000, 500 * 2 ** retry++);
        setTimeout(connect, delay);
      }
    });
  };

  return {
    async call<M extends MethodName>(method: M, req: Req<M>): Promise<Res<M>> {
      let res: Response;
      try {
        res = await doFetch(`${opts.origin}/api/call/${method}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-satpayload-token": opts.token },
          body: JSON.stringify(req),
        });
      } catch (e) {
        throw new HostCallError(
          "network",
          `cannot reach the SatPayload host (${e instanceof Error ? e.message : String(e)})`,
        );
      }
      const text = await res.text();
      let body: unknown = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        if (res.ok) throw new HostCallError("internal", `host sent invalid JSON for ${method}`);
      }
      if (!res.ok) throw toHostError(body, res.status);
      return body as Res<M>;
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as Listener);
      connect();
      return () => {
        set.delete(listener as Listener);
      };
    },
    close() {
      closed = true;
      socket?.close();
    },
  };
}
