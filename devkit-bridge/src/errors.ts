// Every way a DevKit call can fail, as typed errors with messages a person can act on. `kind` lets the host
// map them to its error codes without instanceof chains.
import { errorInfo, hex4 } from "./protocol/codes.ts";

export type DevkitErrorKind =
  "module" | "timeout" | "corrupt" | "bad_answer" | "disconnected" | "request" | "port" | "closed";

export abstract class DevkitError extends Error {
  abstract readonly kind: DevkitErrorKind;
}

/** The module answered 0xFF: it understood the request and refused it. */
export class ModuleError extends DevkitError {
  override readonly name = "ModuleError";
  readonly kind = "module";
  readonly errorName: string;
  readonly meaning: string;
  constructor(
    readonly command: string,
    readonly code: number,
  ) {
    const info = errorInfo(code);
    super(`${command} refused by the module: ${info.name} (${hex4(code)}) — ${info.meaning}`);
    this.errorName = info.name;
    this.meaning = info.meaning;
  }
}

export class TimeoutError extends DevkitError {
  override readonly name = "TimeoutError";
  readonly kind = "timeout";
  constructor(
    readonly command: string,
    readonly timeoutMs: number,
    detail = "module busy, rebooting, or the line is noisy",
  ) {
    super(`no answer to ${command} within ${timeoutMs} ms (${detail})`);
  }
}

/** An answer arrived but its CRC or hex was wrong: we cannot know what the module said. */
export class CorruptAnswerError extends DevkitError {
  override readonly name = "CorruptAnswerError";
  readonly kind = "corrupt";
  constructor(
    readonly command: string,
    readonly detail: string,
  ) {
    super(`the answer to ${command} arrived damaged (${detail}); the request may or may not have been carried out`);
  }
}

/** A well-formed frame whose payload does not match the command's answer layout. */
export class BadAnswerError extends DevkitError {
  override readonly name = "BadAnswerError";
  readonly kind = "bad_answer";
}

export class DisconnectedError extends DevkitError {
  override readonly name = "DisconnectedError";
  readonly kind = "disconnected";
}

/** The request itself is invalid (caught before anything is sent). */
export class RequestError extends DevkitError {
  override readonly name = "RequestError";
  readonly kind = "request";
  constructor(
    message: string,
    /** which field is wrong, for forms that show the problem next to it */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The serial port cannot be listed or opened; the message says what to do about it. */
export class PortError extends DevkitError {
  override readonly name = "PortError";
  readonly kind = "port";
}

/** The client was closed by its owner while the call waited. */
export class ClosedError extends DevkitError {
  override readonly name = "ClosedError";
  readonly kind = "closed";
}
