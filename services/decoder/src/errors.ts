// Every way an ingest request can be refused, with the HTTP status and a reason the sender can act on.

export type IngestErrorCode =
  | "bad_request"
  | "unknown_layout"
  | "unsupported_format"
  | "too_large"
  | "undecodable"
  | "unavailable"
  | "not_found"
  | "method_not_allowed"
  | "unauthenticated"
  | "forbidden"
  | "rate_limited";

const STATUS: Record<IngestErrorCode, number> = {
  bad_request: 400,
  undecodable: 400,
  unauthenticated: 401,
  forbidden: 403,
  unknown_layout: 404,
  not_found: 404,
  method_not_allowed: 405,
  too_large: 413,
  unsupported_format: 415,
  rate_limited: 429,
  unavailable: 503,
};

export class IngestError extends Error {
  override readonly name = "IngestError";
  readonly status: number;
  constructor(
    readonly code: IngestErrorCode,
    message: string,
  ) {
    super(message);
    this.status = STATUS[code];
  }
}
