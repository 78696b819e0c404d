// Which attributes a client may send for each resource type on create and update, and the shape
// each must have. Anything else is refused with a reason (400/4000) instead of being stored.
import { badRequest, CseError, RSC } from "./errors.ts";
import { TY } from "./store.ts";
import { isM2mTime } from "./time.ts";

type Check = (value: unknown, name: string) => unknown;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

const str: Check = (v, n) => {
  if (typeof v !== "string") throw badRequest(`${n} must be a string`);
  return v;
};
const nonEmptyStr: Check = (v, n) => {
  if (typeof v !== "string" || v === "") throw badRequest(`${n} must be a non-empty string`);
  return v;
};
const bool: Check = (v, n) => {
  if (typeof v !== "boolean") throw badRequest(`${n} must be a JSON boolean`);
  return v;
};
/** Mobius stores "true"/"false" strings as booleans */
const boolOrText: Check = (v, n) => {
  if (v === "true" || v === "false") return v === "true";
  if (typeof v !== "boolean") throw badRequest(`${n} must be a boolean (true, false, "true" or "false")`);
  return v;
};
const count: Check = (v, n) => {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    throw badRequest(`${n} must be a non-negative integer`);
  return v;
};
const strList: Check = (v, n) => {
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw badRequest(`${n} must be an array of strings`);
  return v;
};
const time: Check = (v, n) => {
  if (typeof v !== "string" || !isM2mTime(v)) throw badRequest(`${n} must be a time "YYYYMMDDTHHMMSS"`);
  return v;
};
const content: Check = (v, n) => {
  if (v === null || v === undefined) throw badRequest(`${n} must be a string or JSON value`);
  return v;
};
function httpUrl(u: unknown, n: string): string {
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

/** An entry of `nu` that is not a URL names an AE (its AE-ID); the CSE checks it is registered. */
export const isUrlLike = (u: string): boolean => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(u);

const notificationUris: Check = (v, n) => {
  if (!Array.isArray(v) || v.length === 0) throw badRequest(`${n} must be a non-empty array of URLs or AE-IDs`);
  for (const u of v) {
    if (typeof u !== "string" || u === "") throw badRequest(`${n}: ${JSON.stringify(u)} is neither a URL nor an AE-ID`);
    if (isUrlLike(u)) httpUrl(u, n);
    else if (/[\s?#]/.test(u)) throw badRequest(`${n}: "${u}" is neither a URL nor an AE-ID`);
  }
  return v;
};
const subscriberUri: Check = (v, n) => httpUrl(v, n);
const positiveCount: Check = (v, n) => {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1) throw badRequest(`${n} must be a positive integer`);
  return v;
};
const eventCriteria: Check = (v, n) => {
  if (!isObject(v)) throw badRequest(`${n} must be an object`);
  for (const k of Object.keys(v)) if (k !== "net") throw badRequest(`${n}.${k} is not supported (only net)`);
  const net = v.net;
  if (!Array.isArray(net) || net.length === 0) throw badRequest(`${n}.net must be a non-empty array`);
  for (const e of net)
    if (e !== 1 && e !== 2 && e !== 3 && e !== 4)
      throw badRequest(
        `${n}.net: ${JSON.stringify(e)} is not supported (1 update, 2 delete, 3 create of child, 4 delete of child)`,
      );
  return { net: [...new Set(net as number[])] };
};
const notificationContentType: Check = (v, n) => {
  if (v !== 1 && v !== 2) throw badRequest(`${n} must be 1 (whole resource) or 2 (modified attributes)`);
  return v;
};

const COMMON_CREATE: Record<string, Check> = { lbl: strList, et: time };
const COMMON_UPDATE: Record<string, Check> = { lbl: strList, et: time };

interface TypeSpec {
  root: string;
  create: Record<string, Check>;
  mandatory: readonly string[];
  /** undefined: the type cannot be updated */
  update: Record<string, Check> | undefined;
}

export const TYPES: Record<number, TypeSpec> = {
  [TY.AE]: {
    root: "m2m:ae",
    // Mobius takes any api; ACME wants it to start with N or R. Accepting Mobius' wider set keeps
    // every Mobius client working.
    create: { ...COMMON_CREATE, api: nonEmptyStr, rr: bool, srv: strList, poa: strList, apn: str },
    mandatory: ["api"],
    update: { ...COMMON_UPDATE, rr: bool, srv: strList, poa: strList, apn: str },
  },
  [TY.CNT]: {
    root: "m2m:cnt",
    create: { ...COMMON_CREATE, mni: count, mbs: count, mia: count },
    mandatory: [],
    update: { ...COMMON_UPDATE, mni: count, mbs: count, mia: count },
  },
  [TY.CIN]: {
    root: "m2m:cin",
    create: { ...COMMON_CREATE, con: content, cnf: str },
    mandatory: ["con"],
    update: undefined,
  },
  [TY.SUB]: {
    root: "m2m:sub",
    create: {
      ...COMMON_CREATE,
      enc: eventCriteria,
      nu: notificationUris,
      nct: notificationContentType,
      su: subscriberUri,
      exc: positiveCount,
    },
    mandatory: ["nu"],
    update: {
      ...COMMON_UPDATE,
      enc: eventCriteria,
      nu: notificationUris,
      nct: notificationContentType,
      exc: positiveCount,
    },
  },
  [TY.CSE_BASE]: { root: "m2m:cb", create: {}, mandatory: [], update: undefined },
};

/** Attributes the CSE sets itself; a client sending one gets told so. */
const READ_ONLY = new Set(["ri", "pi", "ty", "ct", "lt", "cni", "cbs", "st", "cs", "aei", "cr", "csi", "srt", "cst"]);

export function rootName(ty: number): string | undefined {
  return TYPES[ty]?.root;
}

/** Unwraps `{"m2m:xx": {...}}` for type `ty`, refusing a body rooted in another type. */
export function unwrap(body: unknown, ty: number): Record<string, unknown> {
  const spec = TYPES[ty];
  if (!spec) throw badRequest(`resource type ${ty} is not known`);
  if (!isObject(body)) throw badRequest(`the body must be a JSON object {"${spec.root}": {...}}`);
  const keys = Object.keys(body);
  if (keys.length !== 1 || keys[0] !== spec.root)
    throw badRequest(
      `the body for ty=${ty} must be {"${spec.root}": {...}}, got ${keys.map((k) => `"${k}"`).join(", ") || "{}"}`,
    );
  const inner = body[spec.root];
  if (!isObject(inner)) throw badRequest(`"${spec.root}" must be a JSON object`);
  return inner;
}

function checkAll(
  attrs: Record<string, unknown>,
  allowed: Record<string, Check>,
  root: string,
  skip: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) {
    if (skip.includes(k)) continue;
    // oneM2M clients send "cr": null to ask for the creator attribute; this CSE always sets it
    if (k === "cr" && v === null) continue;
    const check = allowed[k];
    if (!check)
      throw badRequest(
        READ_ONLY.has(k)
          ? `${root}.${k} is set by the CSE and cannot be given`
          : `${root}.${k} is not a known attribute here`,
      );
    out[k] = check(v, `${root}.${k}`);
  }
  return out;
}

const RESERVED_NAMES = new Set(["la", "ol", "latest", "oldest"]);

/** A resource name must be one path segment; Mobius answers 409/4005 for the virtual names. */
export function checkResourceName(rn: unknown): string {
  if (typeof rn !== "string" || rn.length === 0 || rn.length > 255)
    throw badRequest("rn must be a string of 1 to 255 characters");
  if (/[/?#\s\u0000-\u001f\u007f]/.test(rn) || rn === "." || rn === "..")
    throw badRequest(`rn "${rn}" cannot be one segment of a path`);
  if (RESERVED_NAMES.has(rn))
    throw new CseError(409, RSC.OPERATION_NOT_ALLOWED, `rn "${rn}" is reserved for a virtual resource`);
  return rn;
}

/** How a profile widens or narrows the checks of TYPES. */
export interface AttributeRules {
  aeMandatory: readonly string[];
  rrFromString: boolean;
}

function allowed(ty: number, which: "create" | "update", rules: AttributeRules): Record<string, Check> {
  const spec = TYPES[ty]![which]!;
  return ty === TY.AE && rules.rrFromString ? { ...spec, rr: boolOrText } : spec;
}

export function createAttributes(
  ty: number,
  attrs: Record<string, unknown>,
  rules: AttributeRules,
): { rn: string | undefined; attrs: Record<string, unknown> } {
  const spec = TYPES[ty]!;
  const checked = checkAll(attrs, allowed(ty, "create", rules), spec.root, ["rn"]);
  const mandatory = ty === TY.AE ? [...spec.mandatory, ...rules.aeMandatory] : spec.mandatory;
  for (const m of mandatory) if (checked[m] === undefined) throw badRequest(`${spec.root}.${m} is mandatory`);
  return { rn: attrs.rn === undefined ? undefined : checkResourceName(attrs.rn), attrs: checked };
}

export function updateAttributes(
  ty: number,
  attrs: Record<string, unknown>,
  rules: AttributeRules,
): Record<string, unknown> {
  const spec = TYPES[ty]!;
  if (!spec.update)
    throw new CseError(405, RSC.OPERATION_NOT_ALLOWED, `resources of type ${ty} (${spec.root}) cannot be updated`);
  if ("rn" in attrs) throw badRequest(`${spec.root}.rn cannot be updated`);
  const checked = checkAll(attrs, allowed(ty, "update", rules), spec.root, []);
  if (Object.keys(checked).length === 0) throw badRequest(`the update of ${spec.root} names no attribute`);
  return checked;
}

/** Which children each type takes; anything else is 403/4108. */
export const CHILD_TYPES: Record<number, readonly number[]> = {
  [TY.CSE_BASE]: [TY.AE, TY.CNT, TY.SUB],
  [TY.AE]: [TY.CNT, TY.SUB],
  [TY.CNT]: [TY.CNT, TY.CIN, TY.SUB],
  [TY.CIN]: [],
  [TY.SUB]: [],
};
