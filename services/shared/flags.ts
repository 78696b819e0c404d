// Command-line flag parsing shared by the CLI and the services: bad flags become UsageErrors (exit 2).
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./cliErrors.ts";

export type Options = NonNullable<ParseArgsConfig["options"]>;

export function parseFlags<T extends Options>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

/** A whole number flag within bounds; `fallback` when absent. */
export function intFlag(
  value: string | undefined,
  flag: string,
  fallback: number | undefined,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) {
    if (fallback === undefined) throw new UsageError(`${flag} is required`);
    return fallback;
  }
  if (!/^\d+$/.test(value.trim())) throw new UsageError(`${flag} must be a whole number, got "${value}"`);
  const n = Number(value);
  if (n < min || n > max) throw new UsageError(`${flag} must be within ${min}..${max}, got ${n}`);
  return n;
}
