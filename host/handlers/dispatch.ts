// The single entry point both transports use: validate the request, run the handler, report errors
// as HostError. Nothing transport-specific lives here.
import type { z } from "zod";
import { methods, type MethodName, type Res } from "../api/contract.ts";
import { HostError, requestError } from "../errors.ts";
import { checkJsonValue, UnsafeJsonError } from "../json/safeJson.ts";

export type Parsed<M extends MethodName> = z.output<(typeof methods)[M]["req"]>;
export type HandlerMap = { [M in MethodName]: (req: Parsed<M>) => Res<M> | Promise<Res<M>> };

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(methods, name);
}

export type Dispatch = (method: string, rawRequest: unknown) => Promise<unknown>;

export function createDispatch(handlers: HandlerMap): Dispatch {
  return async (method, raw) => {
    if (!isMethodName(method)) throw new HostError("not_found", `unknown method "${method}"`);
    try {
      checkJsonValue(raw);
    } catch (e) {
      if (e instanceof UnsafeJsonError)
        throw new HostError("bad_request", `malformed request for ${method}: ${e.message}`);
      throw e;
    }
    const parsed = methods[method].req.safeParse(raw ?? {});
    if (!parsed.success) throw requestError(parsed.error, method);
    return (handlers[method] as (req: unknown) => unknown)(parsed.data);
  };
}
