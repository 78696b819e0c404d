// Every way an ingest request can be refused, with the HTTP status and a reason the sender can act on.

export type IngestErrorCode = "bad_request" | "unknown_layout" | "unsupported_format" | "too_large" | "undecodable" | "unavailable" | "not_found" | "method_not_allowed";

const STATUS: Record<IngestErrorCode, number> = {
  bad_request: 400,
  undecodable: 400,
  unknown_layout: 404,
  not_found: 404,
  method_not_allowed: 405,
  too_large: 413,
  unsupported_format: 415,
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
