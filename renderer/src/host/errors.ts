// One error type for every failed host call, whatever the transport, so views branch on `code` only.
import { describeIssue, joinIssues, type IssueAt } from "#codecs";
import type { HostErrorBody } from "#host/api/contract.ts";

export type HostErrorCode = HostErrorBody["code"] | "network";

export class HostCallError extends Error {
  override readonly name = "HostCallError";
  constructor(
    readonly code: HostErrorCode,
    message: string,
    readonly issues: readonly IssueAt[] = [],
  ) {
    super(message);
  }

  /** What a person reads: the message plus the first few path-precise issues. */
  describe(maxIssues = 3): string {
    // hosts often repeat a lone issue in the message; say it once
    const fresh = this.issues.filter((i) => !this.message.includes(i.message));
    if (!fresh.length) return this.message;
    // layout issues carry a person's "where" (the field's name); other hosts' issues their path
    const shown = fresh
      .slice(0, maxIssues)
      .map((i) => (i.where !== undefined ? describeIssue(i) : i.path ? `${i.path}: ${i.message}` : i.message));
    const more = fresh.length > maxIssues ? ` (+${fresh.length - maxIssues} more)` : "";
    return `${this.message} — ${joinIssues(shown)}${more}`;
  }
}

const CODES: readonly HostErrorCode[] = [
  "bad_request",
  "not_found",
  "conflict",
  "invalid_layout",
  "forbidden",
  "internal",
];

/** Reads a HostErrorBody defensively: a proxy or a crashed host may answer with anything. */
export function toHostError(body: unknown, status: number): HostCallError {
  if (body && typeof body === "object") {
    const b = body as Record<string, unknown>;
    const code = CODES.includes(b.code as HostErrorCode)
      ? (b.code as HostErrorCode)
      : status === 409
        ? "conflict"
        : "internal";
    const message = typeof b.message === "string" ? b.message : `host answered ${status}`;
    const issues = Array.isArray(b.issues)
      ? b.issues.filter(
          (i): i is IssueAt =>
            !!i &&
            typeof i.path === "string" &&
            typeof i.message === "string" &&
            (i.where === undefined || typeof i.where === "string"),
        )
      : [];
    return new HostCallError(code, message, issues);
  }
  return new HostCallError(status === 409 ? "conflict" : "internal", `host answered ${status}`);
}

export function asHostError(e: unknown): HostCallError {
  if (e instanceof HostCallError) return e;
  // the Electron preload rejects with the plain HostErrorBody (contextBridge strips Error fields)
  if (e && typeof e === "object" && !(e instanceof Error) && typeof (e as { message?: unknown }).message === "string")
    return toHostError(e, 500);
  // an Error that crossed IPC may carry the body as JSON in its message
  if (e instanceof Error) {
    const start = e.message.indexOf("{");
    if (start >= 0) {
      try {
        return toHostError(JSON.parse(e.message.slice(start)), 500);
      } catch {
        // not a JSON body: fall through
      }
    }
    return new HostCallError("network", e.message);
  }
  return new HostCallError("network", String(e));
}
