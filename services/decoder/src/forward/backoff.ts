// Exponential backoff with jitter: many decoders retrying one recovering CSE do not arrive in step.

export function backoffDelay(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const cap = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(cap * (0.5 + random() / 2));
}
