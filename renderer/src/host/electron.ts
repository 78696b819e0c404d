// Transport A: the preload's contextBridge object; errors come back through IPC and are normalised here.
import type { EventName, EventPayload, HostApi, MethodName, Req, Res } from "#host/api/contract.ts";
import { asHostError } from "./errors.ts";

export interface PreloadBridge {
  call(method: string, req: unknown): Promise<unknown>;
  on(event: string, cb: (payload: unknown) => void): () => void;
}

export function electronHost(bridge: PreloadBridge): HostApi {
  return {
    async call<M extends MethodName>(method: M, req: Req<M>): Promise<Res<M>> {
      try {
        return (await bridge.call(method, req)) as Res<M>;
      } catch (e) {
        throw asHostError(e);
      }
    },
    on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
      return bridge.on(event, listener as (p: unknown) => void);
    },
  };
}
