// The size loops catch one refused sample after another and keep only "refused" (or its message): capturing a stack
// trace for each of those errors was most of a large run's time in the browser (a 1 000-sample column whose every
// value is too long: ~45 ms of 60 in the sizes worker), and nothing ever reads those stacks.

type WithLimit = { stackTraceLimit?: number };

/**
 * Runs `fn` with stack capture off (V8's Error.stackTraceLimit; elsewhere a no-op). Only for loops that swallow
 * what they catch: an error that escapes `fn` has no stack.
 */
export function withoutStacks<T>(fn: () => T): T {
  const E = Error as WithLimit;
  const before = E.stackTraceLimit;
  if (before === undefined) return fn();
  E.stackTraceLimit = 0;
  try {
    return fn();
  } finally {
    E.stackTraceLimit = before;
  }
}
