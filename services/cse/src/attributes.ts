// Which attributes a client may send for each resource type on create and update, and the shape
// each must have. Anything else is refused with a reason (400/4000) instead of being stored.
import {
  bool,
  boolOrText,
  content,
  contentInfo,
  count,
  durationMs,
  httpUrl,
  isObject,
  isUrlLike,
  nonEmptyStr,
  positiveCount,
  serializations,
  str,
  strList,
  time,
  type Check,
} from "./checks.ts";
import { badRequest, CseError, RSC } from "./errors.ts";
import { MGMT_COMMON, MGMT_SPECS, mgmtSpecByMgd, mgmtSpecByRoot, NODE_ATTRIBUTES } from "./management.ts";
import { TY } from "./resourceTree.ts";

export { isUrlLike } from "./checks.ts";

const notificationUris: Check = (v, n) => {
  if (!Array.isArray(v) || v.length === 0)
    throw badRequest(`${n} must be a non-empty array of URLs, AE-IDs or structured paths of AEs`);
  for (const u of v) {
    if (typeof u !== "string" || u === "") throw badRequest(`${n}: ${JSON.stringify(u)} is neither a URL nor an AE-ID`);
    if (isUrlLike(u)) httpUrl(u, n);
    else if (/[\s?#]/.test(u)) throw badRequest(`${n}: "${u}" is neither a URL nor an AE-ID`);
  }
  return v;
};
const subscriberUri: Check = (v, n) => httpUrl(v, n);

/** TS-0004 notificationEventType values this CSE raises: update, delete, child created, child deleted */
export const EVENT_TYPES = [1, 2, 3, 4] as const;
const eventCriteria: Check = (v, n) => {
  if (!isObject(v)) throw badRequest(`${n} must be an object`);
  const out: { net?: number[]; atr?: string[]; chty?: number[] } = {};
  for (const k of Object.keys(v))
    if (k !== "net" && k !== "atr" && k !== "chty")
      throw badRequest(`${n}.${k} is not supported (net, atr and chty are)`);
  if (v.net !== undefined) {
    const net = v.net;
    if (!Array.isArray(net) || net.length === 0) throw badRequest(`${n}.net must be a non-empty array`);
    for (const e of net)
      if (!(EVENT_TYPES as readonly unknown[]).includes(e))
        throw badRequest(
          `${n}.net: ${JSON.stringify(e)} is not supported (1 update, 2 delete, 3 create of child, 4 delete of child)`,
        );
    out.net = [...new Set(net as number[])];
  }
  if (v.atr !== undefined) {
    if (!Array.isArray(v.atr) || v.atr.length === 0 || v.atr.some((a) => typeof a !== "string" || a === ""))
      throw badRequest(`${n}.atr must be a non-empty array of attribute names`);
    out.atr = [...new Set(v.atr as string[])];
  }
  if (v.chty !== undefined) {
    if (!Array.isArray(v.chty) || v.chty.length === 0 || v.chty.some((t) => !Number.isInteger(t)))
      throw badRequest(`${n}.chty must be a non-empty array of resource types`);
    out.chty = [...new Set(v.chty as number[])];
  }
  return out;
};
/** 1 the whole resource, 2 the modified attributes, 3 the resource's id */
const notificationContentType: Check = (v, n) => {
  if (v !== 1 && v !== 2 && v !== 3)
    throw badRequest(`${n} must be 1 (whole resource), 2 (modified attributes) or 3 (resource id)`);
  return v;
};

/**
 * batchNotify: notifications go out together once `num` have gathered or `dur` has passed since the
 * first (an ISO 8601 duration "PT2S", or a number of seconds as ACME writes its default); dur
 * defaults to 60 seconds.
 */
const batchNotify: Check = (v, n) => {
  if (!isObject(v)) throw badRequest(`${n} must be an object {"num": …, "dur": …}`);
  for (const k of Object.keys(v)) if (k !== "num" && k !== "dur") throw badRequest(`${n}.${k} is not known (num, dur)`);
  if (v.num === undefined && v.dur === undefined) throw badRequest(`${n} needs num, dur or both`);
  if (v.num !== undefined) positiveCount(v.num, `${n}.num`);
  if (v.dur !== undefined && batchDurationMs(v.dur) === undefined)
    throw badRequest(`${n}.dur must be an ISO 8601 duration like "PT2S", or a positive number of seconds`);
  return { ...(v.num !== undefined ? { num: v.num } : {}), dur: v.dur ?? 60 };
};

/** A batch's dur in milliseconds (undefined: not a duration). */
export function batchDurationMs(dur: unknown): number | undefined {
  if (typeof dur === "number") return Number.isFinite(dur) && dur > 0 ? Math.round(dur * 1000) : undefined;
  return typeof dur === "string" ? durationMs(dur) : undefined;
}

const COMMON: Record<string, Check> = { lbl: strList, et: time };

export interface TypeSpec {
  root: string;
  create: Record<string, Check>;
  /** attributes only the standard profile takes (TS-0004 attributes Mobius does not know), or takes in a stricter form */
  standard?: Record<string, Check>;
  mandatory: readonly string[];
  /** undefined: the type cannot be updated */
  update: Record<string, Check> | undefined;
  /** optional attributes an update may remove by setting them to null; null for any other is refused */
  removable?: readonly string[];
}

export const TYPES: Record<number, TypeSpec> = {
  [TY.AE]: {
    root: "m2m:ae",
    // Mobius takes any api; the standard profile checks the N/R prefix itself (it depends on the release)
    create: { ...COMMON, api: nonEmptyStr, rr: bool, srv: strList, poa: strList, apn: str, csz: serializations },
    mandatory: ["api"],
    update: { ...COMMON, rr: bool, srv: strList, poa: strList, apn: str, csz: serializations },
    removable: ["lbl", "poa", "apn", "csz"],
  },
  [TY.CNT]: {
    root: "m2m:cnt",
    create: { ...COMMON, mni: count, mbs: count, mia: count, disr: bool },
    mandatory: [],
    update: { ...COMMON, mni: count, mbs: count, mia: count, disr: bool },
    removable: ["lbl", "disr"],
  },
  [TY.CIN]: {
    root: "m2m:cin",
    create: { ...COMMON, con: content, cnf: str },
    // dataGenerationTime (when the device measured it) and deletionCnt (gone after that many retrievals)
    standard: { cnf: contentInfo, dgt: time, dcnt: positiveCount },
    mandatory: ["con"],
    update: undefined,
  },
  [TY.SUB]: {
    root: "m2m:sub",
    create: {
      ...COMMON,
      enc: eventCriteria,
      nu: notificationUris,
      nct: notificationContentType,
      su: subscriberUri,
      exc: positiveCount,
      ln: bool,
      bn: batchNotify,
    },
    mandatory: ["nu"],
    update: {
      ...COMMON,
      enc: eventCriteria,
      nu: notificationUris,
      nct: notificationContentType,
      exc: positiveCount,
      ln: bool,
      bn: batchNotify,
    },
    removable: ["lbl", "enc", "exc", "ln", "bn"],
  },
  [TY.NODE]: {
    root: "m2m:nod",
    create: NODE_ATTRIBUTES,
    mandatory: ["ni"],
    update: NODE_ATTRIBUTES,
    removable: ["lbl", "hcl"],
  },
  [TY.CSE_BASE]: { root: "m2m:cb", create: {}, mandatory: [], update: undefined },
};

/** A mgmtObj's spec follows its specialization (its root, or the stored mgd). */
const MGMT_TYPES = new Map<string, TypeSpec>(
  MGMT_SPECS.map((s) => {
    const mgd: Check = (v, n) => {
      if (v !== s.mgd) throw badRequest(`${n} must be ${s.mgd} for ${s.root}`);
      return v;
    };
    const attributes = { ...MGMT_COMMON, ...s.attributes };
    return [
      s.root,
      {
        root: s.root,
        create: { ...attributes, mgd },
        mandatory: ["mgd", ...s.mandatory],
        update: attributes,
        removable: ["lbl", "dc"],
      },
    ];
  }),
);

/** Whether the CSE implements resource type `ty` at all. */
export const isImplemented = (ty: number): boolean => ty === TY.MGMT_OBJ || TYPES[ty] !== undefined;

/** The spec of a stored resource (a mgmtObj's from its mgd). */
export function specOf(ty: number, attrs: Record<string, unknown>): TypeSpec {
  if (ty !== TY.MGMT_OBJ) return TYPES[ty]!;
  return MGMT_TYPES.get(mgmtSpecByMgd(attrs.mgd)!.root)!;
}

/** The JSON root of a stored resource: `{"m2m:cnt": …}`; a mgmtObj's names its specialization. */
export function rootOf(ty: number, attrs: Record<string, unknown>): string {
  return specOf(ty, attrs).root;
}

/** Attributes the CSE sets itself; a client sending one gets told so. */
const READ_ONLY = new Set(["ri", "pi", "ty", "ct", "lt", "cni", "cbs", "st", "cs", "aei", "cr", "csi", "srt", "cst"]);

/** The specs a create of type `ty` may be rooted in (a mgmtObj: one per specialization). */
export function specsForType(ty: number): TypeSpec[] {
  if (ty === TY.MGMT_OBJ) return [...MGMT_TYPES.values()];
  return TYPES[ty] ? [TYPES[ty]] : [];
}

/** Unwraps `{"m2m:xx": {...}}` for one of `specs`, refusing a body rooted in anything else. */
export function unwrap(body: unknown, specs: readonly TypeSpec[]): { spec: TypeSpec; attrs: Record<string, unknown> } {
  const shape = specs.map((s) => `{"${s.root}": {...}}`).join(" or ");
  if (!isObject(body)) throw badRequest(`the body must be a JSON object ${shape}`);
  const keys = Object.keys(body);
  const spec = keys.length === 1 ? specs.find((s) => s.root === keys[0]) : undefined;
  if (!spec) throw badRequest(`the body must be ${shape}, got ${keys.map((k) => `"${k}"`).join(", ") || "{}"}`);
  const inner = body[spec.root];
  if (!isObject(inner)) throw badRequest(`"${spec.root}" must be a JSON object`);
  return { spec, attrs: inner };
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
  /** take the `standard` attributes of each spec (TS-0004's, which Mobius does not know) */
  standardAttributes: boolean;
}

function allowed(spec: TypeSpec, which: "create" | "update", rules: AttributeRules): Record<string, Check> {
  const base = which === "create" ? spec.create : spec.update!;
  // the standard forms apply to create (update has none: contentInstances cannot be updated)
  const checks = which === "create" && rules.standardAttributes && spec.standard ? { ...base, ...spec.standard } : base;
  return spec.root === "m2m:ae" && rules.rrFromString ? { ...checks, rr: boolOrText } : checks;
}

function checkAll(
  attrs: Record<string, unknown>,
  checks: Record<string, Check>,
  root: string,
  removable: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) {
    const check = checks[k];
    if (!check)
      throw badRequest(
        READ_ONLY.has(k)
          ? `${root}.${k} is set by the CSE and cannot be given`
          : `${root}.${k} is not a known attribute here`,
      );
    if (v === null) {
      if (!removable.includes(k))
        throw badRequest(
          `${root}.${k} cannot be null${removable.length ? ` (only ${removable.join(", ")} can be removed)` : ""}`,
        );
      out[k] = null;
    } else out[k] = check(v, `${root}.${k}`);
  }
  return out;
}

export interface CreateAttributes {
  rn: string | undefined;
  attrs: Record<string, unknown>;
  /** the request asked for the creator attribute (`cr: null`, TS-0001) */
  creator: boolean;
}

export function createAttributes(
  spec: TypeSpec,
  attrs: Record<string, unknown>,
  rules: AttributeRules,
): CreateAttributes {
  const { rn, cr, ...rest } = attrs;
  if ("cr" in attrs) {
    // an AE has no creator: it is its own (TS-0001, ACME, Mobius)
    if (spec.root === "m2m:ae") throw badRequest("m2m:ae.cr: an AE has no creator attribute");
    // oneM2M clients send "cr": null to ask for the creator attribute; the CSE sets its value
    if (cr !== null) throw badRequest(`${spec.root}.cr is set by the CSE: send "cr": null to ask for it`);
  }
  const checked = checkAll(rest, allowed(spec, "create", rules), spec.root, []);
  const mandatory = spec.root === "m2m:ae" ? [...spec.mandatory, ...rules.aeMandatory] : spec.mandatory;
  for (const m of mandatory) if (checked[m] === undefined) throw badRequest(`${spec.root}.${m} is mandatory`);
  return { rn: rn === undefined ? undefined : checkResourceName(rn), attrs: checked, creator: "cr" in attrs };
}

/** The checked changes of an update; null marks an attribute to remove. An empty update changes nothing but lt (and st). */
export function updateAttributes(
  spec: TypeSpec,
  attrs: Record<string, unknown>,
  rules: AttributeRules,
): Record<string, unknown> {
  if (!spec.update)
    throw new CseError(405, RSC.OPERATION_NOT_ALLOWED, `resources of type ${spec.root} cannot be updated`);
  if ("rn" in attrs) throw badRequest(`${spec.root}.rn cannot be updated`);
  return checkAll(attrs, allowed(spec, "update", rules), spec.root, spec.removable ?? []);
}

/** Which children each type takes; anything else is 403/4108. */
export const CHILD_TYPES: Record<number, readonly number[]> = {
  [TY.CSE_BASE]: [TY.AE, TY.CNT, TY.NODE, TY.SUB],
  [TY.AE]: [TY.CNT, TY.SUB],
  [TY.CNT]: [TY.CNT, TY.CIN, TY.SUB],
  [TY.CIN]: [],
  [TY.SUB]: [],
  [TY.NODE]: [TY.MGMT_OBJ, TY.SUB],
  [TY.MGMT_OBJ]: [TY.SUB],
};
