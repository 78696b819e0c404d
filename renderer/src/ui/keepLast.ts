// Heavy results (the fleet's cost, the report's model, a highlighted file) kept with the inputs they were computed
// from: coming back to a page whose inputs have not changed draws it at once instead of computing it again.

/** `fn` with a memory of its last call: the same arguments (by identity) return the same result. */
export function keepLast<A extends readonly unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  let last: { args: A; result: R } | null = null;
  return (...args: A) => {
    if (last && last.args.length === args.length && last.args.every((a, i) => Object.is(a, args[i])))
      return last.result;
    const result = fn(...args);
    last = { args, result };
    return result;
  };
}
