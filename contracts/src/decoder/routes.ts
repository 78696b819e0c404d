// Device routes: paths that devices or satellite portals POST to, each fixed to one layout and
// format, so unmodified clients (the paper's Locust senders, Astrocast's push callbacks) need no
// X-Satpayload-* headers. `--route /container-data=paper:protobuf[:raw|envelope|auto][:batch=delta]`.
import { BATCH_FORMS, type BatchForm, FORMAT_IDS, type FormatId, isFormatId } from "#codecs";
import { fidelitySetting, isExcessChoice, type ExcessChoice, type FidelityPolicy } from "./fidelity.ts";

export type RouteBody = "raw" | "envelope" | "auto";

export interface DeviceRoute {
  path: string;
  /** layout id or name, as X-Satpayload-Layout takes it */
  layout: string;
  format: FormatId;
  /** raw: the body is the message; envelope: a portal's JSON with base64 `data`; auto: by Content-Type */
  body: RouteBody;
  /** values beyond the layout's declared decimals / range on this path; unset: the decoder's --precision / --range */
  precision?: ExcessChoice | undefined;
  range?: ExcessChoice | undefined;
  /**
   * every message is a batch of the layout's readings (its `batch`) in this form; each reading is
   * stored as its own record (docs/stack.md "Batches"). Unset: one record per message.
   */
  batch?: BatchForm | undefined;
}

/** the paths the paper's receiver exposes; mapped to the paper layout unless configured otherwise */
export const DEFAULT_ROUTES: readonly DeviceRoute[] = [
  { path: "/container-data", layout: "paper", format: "protobuf", body: "auto" },
  { path: "/astrocast-callback", layout: "paper", format: "protobuf", body: "envelope" },
];

/** paths the decoder answers itself; a device route may not shadow them */
export const RESERVED_PATHS = ["/ingest", "/ingest/base64", "/health", "/api"];

const PATH = /^\/[A-Za-z0-9._~\-/]{1,200}$/;
const BODIES: readonly RouteBody[] = ["raw", "envelope", "auto"];

export class RouteSpecError extends Error {}

const isBatchForm = (v: string): v is BatchForm => (BATCH_FORMS as readonly string[]).includes(v);

/** "batch=delta" → "delta"; undefined when the text is no batch setting, a reason when its form is wrong */
function batchSetting(text: string): { form: BatchForm } | string | undefined {
  const m = /^batch=(.*)$/.exec(text.trim());
  if (!m) return undefined;
  const v = m[1]!.trim();
  return isBatchForm(v) ? { form: v } : `batch must be ${BATCH_FORMS.join(" or ")}, not "${v}"`;
}

/**
 * "PATH=LAYOUT:FORMAT[:BODY][:precision=flag|refuse][:range=flag|refuse][:batch=columns|delta]"; the
 * layout may itself contain ":" (names do), so parse from the right.
 */
export function parseRouteSpec(spec: string): DeviceRoute {
  const eq = spec.indexOf("=");
  if (eq <= 0)
    throw new RouteSpecError(`route "${spec}" must be PATH=LAYOUT:FORMAT, e.g. /container-data=paper:protobuf`);
  const path = spec.slice(0, eq).trim();
  const parts = spec.slice(eq + 1).split(":");
  const fidelity: Partial<FidelityPolicy> = {};
  let batch: BatchForm | undefined;
  // the settings trail the spec in any order: batch=…, precision=…, range=…
  while (parts.length > 2) {
    const last = parts.at(-1)!;
    const b = batchSetting(last);
    const s = b === undefined ? fidelitySetting(last) : undefined;
    if (b === undefined && s === undefined) break;
    const problem = typeof b === "string" ? b : typeof s === "string" ? s : undefined;
    if (problem !== undefined) throw new RouteSpecError(`route "${spec}": ${problem}`);
    if (b !== undefined) {
      if (batch !== undefined) throw new RouteSpecError(`route "${spec}": batch is given twice`);
      batch = (b as { form: BatchForm }).form;
    } else {
      const [k, v] = s as [keyof FidelityPolicy, FidelityPolicy[keyof FidelityPolicy]];
      if (fidelity[k] !== undefined) throw new RouteSpecError(`route "${spec}": ${k} is given twice`);
      fidelity[k] = v;
    }
    parts.pop();
  }
  let body: RouteBody = "auto";
  if (parts.length >= 3 && (BODIES as string[]).includes(parts.at(-1)!)) body = parts.pop() as RouteBody;
  const format = parts.pop()?.trim().toLowerCase() ?? "";
  const layout = parts.join(":").trim();
  return checkRoute({ path, layout, format, body, ...fidelity, batch }, `route "${spec}"`);
}

/** the same checks for a route from the command line, the config file or the Stack page */
export function checkRoute(
  r: {
    path: string;
    layout: string;
    format: string;
    body?: string | undefined;
    precision?: string | undefined;
    range?: string | undefined;
    batch?: string | undefined;
  },
  where: string,
): DeviceRoute {
  if (!PATH.test(r.path) || r.path.includes("//") || r.path.split("/").some((s) => s === "." || s === ".."))
    throw new RouteSpecError(
      `${where}: path "${r.path}" must start with / and hold only letters, digits and . _ ~ - /`,
    );
  const clean = r.path.length > 1 ? r.path.replace(/\/+$/, "") : r.path;
  if (RESERVED_PATHS.some((p) => clean === p || clean.startsWith(`${p}/`)))
    throw new RouteSpecError(
      `${where}: ${clean} is the decoder's own endpoint (reserved: ${RESERVED_PATHS.join(", ")})`,
    );
  if (r.layout === "") throw new RouteSpecError(`${where}: names no layout (PATH=LAYOUT:FORMAT)`);
  if (!isFormatId(r.format))
    throw new RouteSpecError(`${where}: "${r.format}" is not a format (formats: ${FORMAT_IDS.join(", ")})`);
  const body = r.body ?? "auto";
  if (!(BODIES as string[]).includes(body))
    throw new RouteSpecError(`${where}: body "${body}" must be raw, envelope or auto`);
  const route: DeviceRoute = { path: clean, layout: r.layout, format: r.format, body: body as RouteBody };
  for (const k of ["precision", "range"] as const) {
    const v = r[k];
    if (v === undefined) continue;
    if (!isExcessChoice(v)) throw new RouteSpecError(`${where}: ${k} must be flag or refuse, not "${v}"`);
    route[k] = v;
  }
  if (r.batch !== undefined) {
    if (!isBatchForm(r.batch))
      throw new RouteSpecError(`${where}: batch must be ${BATCH_FORMS.join(" or ")}, not "${r.batch}"`);
    route.batch = r.batch;
  }
  return route;
}

/** configured routes over the defaults: a path given twice is a mistake, a default path is replaced */
export function mergeRoutes(
  configured: readonly DeviceRoute[],
  defaults: readonly DeviceRoute[] = DEFAULT_ROUTES,
): DeviceRoute[] {
  const out = new Map<string, DeviceRoute>();
  for (const r of configured) {
    if (out.has(r.path)) throw new RouteSpecError(`route ${r.path} is given twice`);
    out.set(r.path, r);
  }
  for (const d of defaults) if (!out.has(d.path)) out.set(d.path, d);
  return [...out.values()];
}

export const routeSpec = (r: DeviceRoute): string =>
  `${r.path}=${r.layout}:${r.format}${r.body === "auto" ? "" : `:${r.body}`}${r.precision ? `:precision=${r.precision}` : ""}${r.range ? `:range=${r.range}` : ""}${r.batch ? `:batch=${r.batch}` : ""}`;
