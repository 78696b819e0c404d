// Typed errors: callers (UI, services, CLI) branch on the class and show `message` as is.

export interface IssueAt {
  /** JSON path such as "fields[3].type.max": where a program puts the problem (the designer's inspector) */
  path: string;
  /**
   * Layout validation: a sentence that names the setting, what is wrong and what is allowed ("Count is
   * 100,000; the most is 65,535 …"), read next to the control. Elsewhere (exporters): a phrase after the path.
   */
  message: string;
  /** Layout validation: the field a person knows it by ('field "GPS › Latitude"'), "" for the layout itself */
  where?: string | undefined;
  /** a clash: the path of the other field involved, which shows the same message */
  related?: string | undefined;
}

/** One issue as a person reads it outside the field it belongs to (CLI, start screen, file import). */
export function describeIssue(i: IssueAt): string {
  if (i.where !== undefined) return i.where ? `${capitalise(i.where)}: ${i.message}` : i.message;
  return i.path ? `${i.path} ${i.message}` : i.message;
}

/** Issues one after another: sentences follow each other, path-and-phrase issues are separated by "; ". */
export function joinIssues(texts: readonly string[]): string {
  return texts.reduce((out, s) => (out ? `${out}${/[.?!]$/.test(out) ? " " : "; "}${s}` : s), "");
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The layout document is invalid; every problem is listed with its path. */
export class LayoutError extends Error {
  override readonly name = "LayoutError";
  constructor(readonly issues: IssueAt[]) {
    super(joinIssues(issues.map(describeIssue)));
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
