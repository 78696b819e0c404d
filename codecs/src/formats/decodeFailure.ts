// Which decode failures are bad input: those become the format's DecodeError, everything else (a
// TypeError from a bug, an engine error) reaches the caller unchanged so tests and users see it.
import { DecodeError, RecordError } from "../errors.ts";

/**
 * A failure while decoding, as the caller should see it: bad input (our DecodeError, a record the
 * layout refuses) becomes this format's DecodeError; anything else is a bug and is thrown unchanged.
 */
export function rethrowDecodeFailure(e: unknown, format: string): never {
  if (e instanceof DecodeError) throw e.format === format ? e : new DecodeError(e.message, format, e.offset);
  if (e instanceof RecordError) throw new DecodeError(e.message, format);
  throw e;
}

/**
 * Runs a library's decode and turns the errors it documents for malformed input into DecodeError;
 * `isInputError` names them (their class or message), so a library bug still surfaces as itself.
 */
export function libraryDecode<T>(format: string, decode: () => T, isInputError: (e: unknown) => boolean): T {
  try {
    return decode();
  } catch (e) {
    if (isInputError(e)) throw new DecodeError((e as Error).message, format);
    throw e;
  }
}
