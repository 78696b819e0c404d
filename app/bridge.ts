// What the preload exposes to the renderer: exactly call and on, nothing of ipcRenderer itself.
import { IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL } from "#host/api/channels.ts";

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export interface ContextBridgeLike {
  exposeInMainWorld(apiKey: string, api: unknown): void;
}

export const API_KEY = "satpayload";

type Reply = { ok: true; result: unknown } | { ok: false; error: { code: string; message: string } };

function isReply(r: unknown): r is Reply {
  return typeof r === "object" && r !== null && typeof (r as { ok?: unknown }).ok === "boolean";
}

export function exposeHostApi(bridge: ContextBridgeLike, ipc: IpcRendererLike): void {
  const api = {
    /** rejects with a plain HostErrorBody: contextBridge would strip the fields of an Error */
    async call(method: string, req: unknown): Promise<unknown> {
      if (typeof method !== "string") throw { code: "bad_request", message: "method must be a string" };
      const reply = await ipc.invoke(IPC_CALL_CHANNEL, { method, req: req ?? {} });
      if (!isReply(reply)) throw { code: "internal", message: "the host sent a malformed reply" };
      if (reply.ok) return reply.result;
      throw reply.error;
    },
    on(event: string, listener: (payload: unknown) => void): () => void {
      if (typeof event !== "string" || typeof listener !== "function")
        throw new TypeError("on(event: string, listener: function)");
      // the IpcRendererEvent (with its sender) never reaches page code
      const wrapped = (_e: unknown, msg: unknown) => {
        const m = msg as { event?: unknown; payload?: unknown } | null;
        if (m && m.event === event) listener(m.payload);
      };
      ipc.on(IPC_EVENT_CHANNEL, wrapped);
      return () => {
        ipc.removeListener(IPC_EVENT_CHANNEL, wrapped);
      };
    },
  };
  bridge.exposeInMainWorld(API_KEY, api);
}
