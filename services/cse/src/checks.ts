// The value checks attribute specs are made of: each takes a value and the attribute's name (for
// the reason) and returns the value to store, or throws 400/4000 saying what is wrong with it.
import { badRequest } from "./errors.ts";
import { isM2mTime } from "./time.ts";

export type Check = (value: unknown, name: string) => unknown;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export const str: Check = (v, n) => {
  if (typeof v !== "string") throw badRequest(`${n} must be a string`);
  return v;
};
export const nonEmptyStr: Check = (v, n) => {
  if (typeof v !== "string" || v === "") throw badRequest(`${n} must be a non-empty string`);
  return v;
};
export const bool: Check = (v, n) => {
  if (typeof v !== "boolean") throw badRequest(`${n} must be a JSON boolean`);
  return v;
};
/** Mobius stores "true"/"false" strings as booleans */
export const boolOrText: Check = (v, n) => {
  if (v === "true" || v === "false") return v === "true";
  if (typeof v !== "boolean") throw badRequest(`${n} must be a boolean (true, false, "true" or "false")`);
  return v;
};
export const count: Check = (v, n) => {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    throw badRequest(`${n} must be a non-negative integer`);
  return v;
};
export const positiveCount: Check = (v, n) => {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1) throw badRequest(`${n} must be a positive integer`);
  return v;
};
/** An integer from `min` to `max` (an enumeration or a bounded level). */
export const intIn =
  (min: number, max: number): Check =>
  (v, n) => {
    if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)
      throw badRequest(`${n} must be an integer from ${min} to ${max}`);
    return v;
  };
export const strList: Check = (v, n) => {
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw badRequest(`${n} must be an array of strings`);
  return v;
};
export const time: Check = (v, n) => {
  if (typeof v !== "string" || !isM2mTime(v)) throw badRequest(`${n} must be a time "YYYYMMDDTHHMMSS"`);
  return v;
};
export const content: Check = (v, n) => {
  if (v === null || v === undefined) throw badRequest(`${n} must be a string or JSON value`);
  return v;
};

/**
 * TS-0004's contentInfo: "type/subtype:encoding", encoding 0 (plain), 1 (base64 of a string) or
 * 2 (base64 of binary), optionally ":security" 0–5 (content security).
 */
const CONTENT_INFO = /^[^\s:/]+\/[^\s:/]+:[0-2](:[0-5])?$/;
export const contentInfo: Check = (v, n) => {
  if (typeof v !== "string" || !CONTENT_INFO.test(v))
    throw badRequest(
      `${n} must be "type/subtype:encoding" with encoding 0 (plain), 1 (base64 string) or 2 (base64 binary), optionally ":0"–":5" for content security, e.g. "application/json:0"; got ${JSON.stringify(v)}`,
    );
  return v;
};

/** The content serializations TS-0004 names (an AE's `csz`: what it can receive, most preferred first). */
export const SERIALIZATIONS = [
  "application/json",
  "application/cbor",
  "application/xml",
  "application/vnd.onem2m-res+json",
  "application/vnd.onem2m-res+cbor",
  "application/vnd.onem2m-res+xml",
] as const;
export const serializations: Check = (v, n) => {
  strList(v, n);
  for (const s of v as string[])
    if (!(SERIALIZATIONS as readonly string[]).includes(s))
      throw badRequest(`${n}: "${s}" is not a content serialization (${SERIALIZATIONS.join(", ")})`);
  return v;
};

export function httpUrl(u: unknown, n: string): string {
  let url: URL;
  try {
    url = new URL(String(u));
  } catch {
    throw badRequest(`${n}: "${String(u)}" is not a URL`);
  }
  if (typeof u !== "string" || (url.protocol !== "http:" && url.protocol !== "https:"))
    throw badRequest(`${n}: "${String(u)}": this CSE notifies over HTTP only (http:// or https://)`);
  return u;
}

/** An entry of `nu` that is not a URL names an AE (its AE-ID or structured path); the CSE checks it is registered. */
export const isUrlLike = (u: string): boolean => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(u);

/** ISO 8601 durations as oneM2M writes them: "PT2S", "PT1M30S", "P1DT2H", "PT0.5S". */
const ISO_DURATION = /^P(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/** An ISO 8601 duration in milliseconds, or undefined when the text is not one (or is zero long). */
export function durationMs(v: string): number | undefined {
  const m = ISO_DURATION.exec(v);
  if (!m || v === "P" || v.endsWith("T")) return undefined;
  const [d, h, min, sec] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x))) as [number, number, number, number];
  const ms = Math.round((((d * 24 + h) * 60 + min) * 60 + sec) * 1000);
  return ms > 0 ? ms : undefined;
}
