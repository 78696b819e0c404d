// One error type for every host failure, so both transports send the same HostErrorBody.
import { ZodError } from "zod";
import { LayoutError } from "#codecs";
import type { HostErrorBody } from "./api/contract.ts";

type Code = HostErrorBody["code"];
type Issue = NonNullable<HostErrorBody["issues"]>[number];

export class HostError extends Error {
  override readonly name = "HostError";
  constructor(
    readonly code: Code,
    message: string,
    readonly issues?: Issue[],
  ) {
    super(message);
  }
}

export const HTTP_STATUS: Record<Code, number> = {
  bad_request: 400,
  invalid_layout: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  internal: 500,
};

function zodIssues(err: ZodError): Issue[] {
  return err.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

/**
 * Anything thrown by a handler becomes a body the renderer can show. Unexpected errors keep their
 * details in the host log only: their messages may carry paths or SQL the UI should not echo.
 */
export function toErrorBody(e: unknown, log: (e: unknown) => void = console.error): HostErrorBody {
  if (e instanceof HostError)
    return e.issues ? { code: e.code, message: e.message, issues: e.issues } : { code: e.code, message: e.message };
  if (e instanceof LayoutError)
    return { code: "invalid_layout", message: `invalid layout: ${e.message}`, issues: e.issues };
  if (e instanceof ZodError) return { code: "bad_request", message: "malformed request", issues: zodIssues(e) };
  log(e);
  return { code: "internal", message: "internal error (see the host log)" };
}

export function requestError(err: ZodError, what: string): HostError {
  return new HostError("bad_request", `malformed request for ${what}`, zodIssues(err));
}
