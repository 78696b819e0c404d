// Transport A: one ipcMain channel into the same dispatcher the HTTP transport uses.
import { z } from "zod";
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from "#host/api/channels.ts";
import type { HostErrorBody } from "#host/api/contract.ts";
import { toErrorBody } from "#host/errors.ts";
import type { Dispatch } from "#host/handlers/dispatch.ts";
import type { HostEvents } from "#host/handlers/events.ts";

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

export interface IpcEventLike {
  senderFrame?: { url: string } | null;
}

export type IpcReply = { ok: true; result: unknown } | { ok: false; error: HostErrorBody };

const envelope = z.object({ method: z.string().min(1).max(64), req: z.unknown() }).strict();

export interface IpcOptions {
  ipcMain: IpcMainLike;
  dispatch: Dispatch;
  events: HostEvents;
  /** only our own page may call the host; anything else loaded in a frame is refused */
  isTrustedUrl(url: string): boolean;
  /** sends to every window */
  broadcast(channel: string, message: unknown): void;
}

/** Registers the handler and the event forwarding; returns the undo for both. */
export function registerHostIpc(opts: IpcOptions): () => void {
  opts.ipcMain.handle(IPC_CALL_CHANNEL, async (event, payload): Promise<IpcReply> => {
    const url = event.senderFrame?.url ?? "";
    if (!opts.isTrustedUrl(url))
      return {
        ok: false,
        error: { code: "forbidden", message: `calls from ${url || "an unknown frame"} are not accepted` },
      };
    const parsed = envelope.safeParse(payload);
    if (!parsed.success)
      return {
        ok: false,
        error: {
          code: "bad_request",
          message: "malformed IPC payload: expected { method, req }",
          issues: parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
        },
      };
    try {
      return { ok: true, result: await opts.dispatch(parsed.data.method, parsed.data.req) };
    } catch (e) {
      return { ok: false, error: toErrorBody(e) };
    }
  });
  const unsubscribe = opts.events.subscribe((event, payload) => opts.broadcast(IPC_EVENT_CHANNEL, { event, payload }));
  return () => {
    opts.ipcMain.removeHandler(IPC_CALL_CHANNEL);
    unsubscribe();
  };
}
