// Untrusted JSON (files, HTTP bodies, IPC payloads) is bounded before anything recursive touches it:
// zod and parseLayout recurse, so a hostile nesting depth would otherwise end in a RangeError.

export const MAX_JSON_DEPTH = 64;
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export class UnsafeJsonError extends Error {
  override readonly name = "UnsafeJsonError";
}

/** Cheap pre-scan of the text so even the JSON parser never sees an absurd nesting depth. */
function checkTextDepth(text: string, maxDepth: number): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) throw new UnsafeJsonError(`nested deeper than ${maxDepth} levels (at character ${i})`);
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

function describePath(path: readonly (string | number)[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${p}` : p;
  return out || "(root)";
}

/**
 * Walks a value iteratively and accepts only what JSON can express, without prototype-pollution
 * keys and within the depth limit. Structured-cloned IPC payloads go through the same check.
 */
export function checkJsonValue(root: unknown, maxDepth = MAX_JSON_DEPTH): void {
  const stack: { v: unknown; path: (string | number)[] }[] = [{ v: root, path: [] }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    // undefined is allowed: structured-cloned IPC payloads keep optional properties set to undefined
    if (v === null || v === undefined || typeof v === "string" || typeof v === "boolean") continue;
    if (typeof v === "number") {
      if (!Number.isFinite(v)) throw new UnsafeJsonError(`${describePath(path)} is not a finite number`);
      continue;
    }
    if (typeof v !== "object")
      throw new UnsafeJsonError(`${describePath(path)} holds a ${typeof v}, which JSON cannot carry`);
    if (path.length >= maxDepth)
      throw new UnsafeJsonError(`nested deeper than ${maxDepth} levels at ${describePath(path)}`);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push({ v: v[i], path: [...path, i] });
      continue;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null)
      throw new UnsafeJsonError(`${describePath(path)} is not a plain JSON object`);
    for (const key of Object.keys(v)) {
      if (FORBIDDEN_KEYS.has(key))
        throw new UnsafeJsonError(`${describePath([...path, key])}: the key "${key}" is not allowed`);
      stack.push({ v: (v as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
}

/** JSON.parse plus the depth and key checks; errors say what is wrong in words a user can act on. */
export function parseJsonSafely(text: string, maxDepth = MAX_JSON_DEPTH): unknown {
  checkTextDepth(text, maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new UnsafeJsonError(`not valid JSON: ${(e as Error).message}`);
  }
  checkJsonValue(value, maxDepth);
  return value;
}
