// The failure kinds of every command line (the CLI and the services' own flags); the exit code tells
// scripts which one happened.

/** Wrong flags or values: exit 2, so scripts can tell "you called me wrong" from "your data is wrong" (exit 1). */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** Bad input data (record, bytes, file): exit 1. */
export class InputError extends Error {
  override readonly name = "InputError";
}
