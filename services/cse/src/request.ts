// A oneM2M request as the CSE core sees it, made from the HTTP binding's method, path, headers,
// query and body. Everything malformed is refused here with the reason, before the core runs.
import { badRequest, CseError, RSC } from "./errors.ts";
import { MAX_FILTER_VALUES, type Filter } from "./resourceTree.ts";
import { isM2mTime } from "./time.ts";

export type Operation = "create" | "retrieve" | "update" | "delete";

export interface Query {
  /** filter usage: 1 discovery, 2 conditional retrieval */
  fu: 1 | 2 | undefined;
  rcn: number | undefined;
  /** the filter criteria given; `conditions` lists which of them select resources (all but lim, ofst, lvl, fo) */
  filter: Filter;
  conditions: string[];
  /** every query parameter given, by name */
  given: string[];
}

export interface CseRequest {
  op: Operation;
  /** X-M2M-RVI as sent (absent: Mobius' 2a) */
  rvi: string;
  /** structured path without leading or trailing slash, each segment decoded: "Mobius/ae/cnt" */
  path: string;
  /** empty only for an AE create without one (the profile decides whether that registers) */
  originator: string;
  /** the type being created (create only) */
  ty: number | undefined;
  /** the parsed JSON body (create and update) */
  body: unknown;
  query: Query;
}

export interface HeaderView {
  method: string;
  /** path and query as received */
  url: string;
  header(name: string): string | undefined;
  body: Buffer;
}

const OPERATIONS: Record<string, Operation> = { POST: "create", GET: "retrieve", PUT: "update", DELETE: "delete" };

/** Mobius answers any of these; the request's value is echoed back. */
export const RELEASE_VERSIONS = new Set(["1", "2", "2a", "3", "4", "5"]);
export const DEFAULT_RVI = "2a";

const JSON_TYPES = new Set(["application/json", "application/vnd.onem2m-res+json"]);

export function parseRequest(h: HeaderView): CseRequest {
  const op = OPERATIONS[h.method];
  if (!op)
    throw new CseError(
      405,
      RSC.OPERATION_NOT_ALLOWED,
      `HTTP method ${h.method} is not a oneM2M operation (POST, GET, PUT, DELETE)`,
    );
  const rvi = h.header("x-m2m-rvi");
  if (rvi !== undefined && !RELEASE_VERSIONS.has(rvi))
    throw new CseError(
      501,
      RSC.RELEASE_VERSION_NOT_SUPPORTED,
      `release version "${rvi}" is not supported (use one of ${[...RELEASE_VERSIONS].join(", ")})`,
    );
  if (!h.header("x-m2m-ri")) throw badRequest("the X-M2M-RI header (request identifier) is mandatory");
  const originator = h.header("x-m2m-origin") ?? "";

  const q = h.url.indexOf("?");
  const rawPath = q < 0 ? h.url : h.url.slice(0, q);
  const query = parseQuery(q < 0 ? "" : h.url.slice(q + 1));
  if (op !== "retrieve") {
    // a filter would change nothing here; which rcn the operation takes is the core's to say
    const ignored = query.given.filter((k) => k !== "rcn");
    if (ignored.length > 0)
      throw badRequest(`query parameters ${ignored.join(", ")} do not apply to the ${op} operation (only rcn does)`);
  }

  let ty: number | undefined;
  let body: unknown;
  if (op === "create" || op === "update") {
    const ct = parseContentType(h.header("content-type"));
    if (op === "create") {
      if (ct.ty === undefined)
        throw badRequest("a create needs the resource type in Content-Type, e.g. application/json;ty=4");
      ty = ct.ty;
    }
    body = parseJsonBody(h.body);
  }
  // only an AE registration may come without an originator (TS-0001: the CSE assigns one)
  if (!originator && !(op === "create" && ty === 2))
    throw badRequest("the X-M2M-Origin header (originator) is mandatory");
  return { op, rvi: rvi || DEFAULT_RVI, path: parsePath(rawPath), originator, ty, body, query };
}

function parsePath(raw: string): string {
  const segments = raw.split("/").filter((s) => s !== "");
  try {
    return segments.map((s) => decodeURIComponent(s)).join("/");
  } catch {
    throw badRequest(`the path ${raw} is not valid percent-encoding`);
  }
}

function parseContentType(value: string | undefined): { ty: number | undefined } {
  if (!value)
    throw badRequest("Content-Type is missing (application/json;ty=<type> on create, application/json on update)");
  const [media, ...params] = value.split(";").map((p) => p.trim());
  if (!JSON_TYPES.has(media!.toLowerCase()))
    throw badRequest(`Content-Type ${media} is not supported: this CSE speaks JSON (application/json)`);
  let ty: number | undefined;
  for (const p of params) {
    const eq = p.indexOf("=");
    if (eq < 0 || p.slice(0, eq).trim().toLowerCase() !== "ty") continue;
    const v = p.slice(eq + 1).trim();
    if (!/^\d{1,5}$/.test(v)) throw badRequest(`Content-Type ty=${v} is not a resource type number`);
    ty = Number(v);
  }
  return { ty };
}

function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) throw badRequest("the request needs a JSON body");
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch (e) {
    throw badRequest(`the body is not valid JSON: ${(e as Error).message}`);
  }
}

/**
 * The HTTP binding separates several values of one parameter with "+" (ty=3+4); "%2B" is a literal
 * plus. URLSearchParams would turn both "+" and "%20" into a space, so the query is split by hand.
 */
function parseQuery(raw: string): Query {
  const values = new Map<string, string[]>();
  for (const part of raw.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const key = eq < 0 ? part : part.slice(0, eq);
    if (!KNOWN_PARAMETERS.has(key) && !FILTER_ATTRIBUTES.has(key))
      throw badRequest(
        `query parameter "${key}" is not supported by this CSE (it knows ${[...KNOWN_PARAMETERS].join(", ")} and the attributes ${[...FILTER_ATTRIBUTES].join(", ")} as filters)`,
      );
    const list = values.get(key) ?? [];
    for (const v of (eq < 0 ? "" : part.slice(eq + 1)).split("+")) {
      try {
        list.push(decodeURIComponent(v));
      } catch {
        throw badRequest(`query parameter ${key}: "${v}" is not valid percent-encoding`);
      }
    }
    values.set(key, list);
  }
  const one = (k: string): string | undefined => {
    const v = values.get(k);
    if (v && v.length > 1) throw badRequest(`query parameter ${k} takes one value`);
    return v?.[0];
  };
  const int = (k: string, v: string): number => {
    if (!/^\d{1,15}$/.test(v)) throw badRequest(`query parameter ${k}=${v} must be a non-negative integer`);
    return Number(v);
  };
  const optInt = (k: string): number | undefined => {
    const v = one(k);
    return v === undefined ? undefined : int(k, v);
  };
  const time = (k: string): string | undefined => {
    const v = one(k);
    if (v !== undefined && !isM2mTime(v)) throw badRequest(`query parameter ${k}=${v} must be a time YYYYMMDDTHHMMSS`);
    return v;
  };
  const fuText = one("fu");
  let fu: Query["fu"];
  if (fuText !== undefined) {
    if (fuText !== "1" && fuText !== "2") throw badRequest(`fu=${fuText}: use 1 (discovery) or 2 (retrieve)`);
    fu = fuText === "1" ? 1 : 2;
  }
  const drt = one("drt");
  if (drt !== undefined && drt !== "1")
    throw badRequest(`drt=${drt}: this CSE answers discovery with structured paths only (drt=1)`);
  const ty = (values.get("ty") ?? []).filter((v) => v !== "").map((v) => int("ty", v));
  const lbl = (values.get("lbl") ?? []).filter((v) => v !== "");
  if (ty.length > MAX_FILTER_VALUES || lbl.length > MAX_FILTER_VALUES)
    throw badRequest(`at most ${MAX_FILTER_VALUES} values of ty and of lbl`);
  const foText = one("fo");
  if (foText !== undefined && foText !== "1" && foText !== "2")
    throw badRequest(`fo=${foText}: use 1 (all conditions, AND) or 2 (any condition, OR)`);
  const lvl = optInt("lvl");
  if (lvl === 0) throw badRequest("lvl must be at least 1");
  const cty = (values.get("cty") ?? []).filter((v) => v !== "");
  if (cty.length > MAX_FILTER_VALUES) throw badRequest(`at most ${MAX_FILTER_VALUES} values of cty`);
  const arp = one("arp");
  if (arp !== undefined && (arp === "" || arp.split("/").some((seg) => seg === "" || seg === "." || seg === "..")))
    throw badRequest(`arp=${arp} must be a relative structured path (names separated by /)`);
  const attributes = [...values.keys()]
    .filter((k) => FILTER_ATTRIBUTES.has(k))
    .map((name) => ({ name, value: one(name)! }));
  if (attributes.length > MAX_FILTER_VALUES) throw badRequest(`at most ${MAX_FILTER_VALUES} attribute filters`);
  const rcnText = one("rcn");
  const filter: Filter = {
    ty: [...new Set(ty)],
    lbl: [...new Set(lbl)],
    lblOneValue: lbl.length === 1 && !lbl[0]!.includes(","),
    crb: time("crb"),
    cra: time("cra"),
    ms: time("ms"),
    us: time("us"),
    sts: optInt("sts"),
    stb: optInt("stb"),
    lvl,
    lim: optInt("lim"),
    ofst: optInt("ofst"),
    or: foText === "2",
    cty: [...new Set(cty)],
    sza: optInt("sza"),
    szb: optInt("szb"),
    exa: time("exa"),
    exb: time("exb"),
    arp,
    attributes,
  };
  const conditions = [
    ...CONDITIONS.filter(
      (k) =>
        values.has(k) &&
        (k !== "ty" || filter.ty.length > 0) &&
        (k !== "lbl" || filter.lbl.length > 0) &&
        (k !== "cty" || filter.cty.length > 0),
    ),
    ...attributes.map((a) => a.name),
  ];
  return {
    fu,
    rcn: rcnText === undefined ? undefined : int("rcn", rcnText),
    filter,
    conditions,
    given: [...values.keys()],
  };
}

/** The filter criteria that select resources; lim, ofst, lvl, fo and arp only shape the selection. */
const CONDITIONS = ["ty", "lbl", "crb", "cra", "ms", "us", "sts", "stb", "exb", "exa", "sza", "szb", "cty"] as const;
const KNOWN_PARAMETERS = new Set(["fu", "rcn", "drt", ...CONDITIONS, "lim", "ofst", "lvl", "fo", "arp"]);
/**
 * Attributes a filter may name with a value (TS-0004's attribute conditions: `cni=5`, `con=a*` with
 * `*` and `?` as wildcards): the scalar attributes of the resource types this CSE keeps.
 */
export const FILTER_ATTRIBUTES = new Set([
  "rn",
  "ri",
  "pi",
  "cr",
  "st",
  "cni",
  "cbs",
  "mni",
  "mbs",
  "mia",
  "disr",
  "cs",
  "cnf",
  "con",
  "dgt",
  "api",
  "aei",
  "rr",
  "apn",
  "nct",
  "exc",
  "ni",
  "hcl",
  "mgd",
  "dc",
  "btl",
  "bts",
  "mma",
  "mmt",
]);
