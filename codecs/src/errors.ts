// Typed errors: callers (UI, services, CLI) branch on the class and show `message` as is.

export interface IssueAt {
  /** JSON path such as "fields[3].type.max" */
  path: string;
  message: string;
}

/** The layout document is invalid; every problem is listed with its path. */
export class LayoutError extends Error {
  override readonly name = "LayoutError";
  constructor(readonly issues: IssueAt[]) {
    super(issues.map((i) => (i.path ? `${i.path} ${i.message}` : i.message)).join("; "));
  }
}

/** Bytes could not be decoded for the layout; `offset` is where decoding stopped, when known. */
export class DecodeError extends Error {
  override readonly name = "DecodeError";
  constructor(
    message: string,
    readonly format: string,
    readonly offset?: number,
  ) {
    super(offset === undefined ? `${format}: ${message}` : `${format}: ${message} (at byte ${offset})`);
  }
}

/** A record cannot be represented in a format (value out of range, string too long, missing field). */
export class EncodeError extends Error {
  override readonly name = "EncodeError";
  constructor(
    message: string,
    readonly format: string,
    readonly path?: string,
  ) {
    super(path ? `${format}: ${path}: ${message}` : `${format}: ${message}`);
  }
}

/** A record does not satisfy its layout (type, range, enum, length). */
export class RecordError extends Error {
  override readonly name = "RecordError";
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}
