// The Stack page's state: the stack's status, live numbers and records fed by host events, the
// rate history the chart draws, captured logs, and the start form.
import { create } from "zustand";
import { PRESETS, type FormatId } from "#codecs";
import type { HostApi } from "#host/api/contract.ts";
import {
  stackRouteSchema,
  type LogLine,
  type StackRecord,
  type StackRefused,
  type StackRoute,
  type StackStats,
  type StackStatus,
} from "#host/api/stack.ts";
import { asHostError } from "../../host/errors.ts";
import { useSession } from "../../session/sessionStore.ts";

export interface RatePoint {
  /** ms since epoch */
  t: number;
  rps: number;
  fps: number;
}

export interface RouteRow {
  path: string;
  layout: string;
  format: FormatId;
  body: StackRoute["body"];
  /** each message a batch of the layout's readings in this form, stored one record per reading; unset: one record */
  batch?: StackRoute["batch"];
}

export interface StackForm {
  replicas: string;
  container: "device" | "shared";
  target: "embedded" | "acme" | "external";
  cseUrl: string;
  /** the started CSE (embedded or ACME) verifies new notification URIs */
  verifySubscriptions: boolean;
  /** device paths besides the defaults */
  routes: RouteRow[];
  /** also take records over MQTT (the decoder's embedded broker) and CoAP, on free loopback ports */
  mqtt: boolean;
  coap: boolean;
}

/** what the decoder answers without any route configured (services/decoder/routes.ts) */
export const DEFAULT_ROUTES_TEXT = [
  "/container-data → paper · protobuf",
  "/astrocast-callback → paper · protobuf (portal JSON)",
];

export const MAX_RECORDS = 50;
export const MAX_POINTS = 300;
export const MAX_LOG_LINES = 500;

export interface StackPageState {
  status: StackStatus | null;
  stats: StackStats | null;
  series: RatePoint[];
  records: StackRecord[];
  /** records that arrived since the page opened, for the "N new" hint */
  arrived: number;
  logs: LogLine[];
  busy: "up" | "down" | null;
  error: string | null;
  form: StackForm;
  /** the newest records the CSE refused for good, with its answers */
  refused: StackRefused[];
  /** a retry running: all (""), or the container's name */
  retrying: string | null;
  /** what the last retry did, or why it failed */
  retryNote: { ok: boolean; text: string } | null;
  /** layout id → name (presets and the host's projects): records and routes name layouts by id */
  layoutNames: Record<string, string>;
}

const PRESET_NAMES: Record<string, string> = Object.fromEntries(PRESETS.map((p) => [p.id, p.name]));

export const useStack = create<StackPageState>()(() => ({
  status: null,
  stats: null,
  series: [],
  records: [],
  arrived: 0,
  logs: [],
  busy: null,
  error: null,
  refused: [],
  retrying: null,
  retryNote: null,
  layoutNames: PRESET_NAMES,
  form: {
    replicas: "1",
    container: "device",
    target: "embedded",
    cseUrl: "",
    verifySubscriptions: false,
    routes: [],
    mqtt: false,
    coap: false,
  },
}));

function api(): HostApi | null {
  return useSession.getState().api;
}

export const isLive = (s: StackStatus | null) => s?.state === "running" || s?.state === "degraded";

/** incoming rows replace the shown ones of the same record (their state may have moved) */
function mergeRecords(prev: StackRecord[], incoming: StackRecord[]): StackRecord[] {
  const key = (r: StackRecord) => `${r.buffer}:${r.seq}`;
  const fresh = new Set(incoming.map(key));
  return [...incoming, ...prev.filter((r) => !fresh.has(key(r)))]
    .sort((a, b) => b.receivedAt - a.receivedAt || b.seq - a.seq)
    .slice(0, MAX_RECORDS);
}

/**
 * Rows settle without a fetch per row: a row the refused list names is refused; when that list holds
 * every refused record, a row it does not name is not refused (any more); a pending row of a buffer
 * with nothing pending left was delivered.
 */
function settle(records: StackRecord[], s: StackStats, refused: StackRefused[]): StackRecord[] {
  const drained = new Set(s.buffers.filter((b) => b.pending === 0).map((b) => b.index));
  const out = new Set(refused.map((r) => `${r.buffer}:${r.seq}`));
  const complete = refused.length === s.refused;
  let changed = false;
  const next = records.map((r) => {
    let n = r;
    if (out.has(`${r.buffer}:${r.seq}`)) {
      if (!r.refusedAt || r.forwardedAt !== null) n = { ...r, refusedAt: r.refusedAt ?? s.at, forwardedAt: null };
    } else {
      if (r.refusedAt && complete) n = { ...r, refusedAt: null };
      if (!n.refusedAt && n.forwardedAt === null && drained.has(r.buffer)) n = { ...n, forwardedAt: s.at };
    }
    if (n !== r) changed = true;
    return n;
  });
  return changed ? next : records;
}

function onStats(s: StackStats): void {
  const before = useStack.getState().stats;
  // the refused list is read again when what it summarises moved
  if (s.refused !== (before?.refused ?? 0) || (s.refused > 0 && useStack.getState().refused.length === 0))
    void loadRefused();
  useStack.setState((st) => ({
    stats: s,
    records: settle(st.records, s, st.refused),
    series: [...st.series, { t: s.at, rps: s.recordsPerSecond ?? 0, fps: s.forwardedPerSecond ?? 0 }].slice(
      -MAX_POINTS,
    ),
  }));
}

/**
 * The host's log snapshot and its live events overlap: lines captured before a snapshot may still
 * arrive in the next batched event. Each line once, in capture order, by its sequence number.
 */
export function mergeLogs(prev: LogLine[], incoming: LogLine[]): LogLine[] {
  const last = prev.at(-1)?.seq ?? -1;
  if (incoming.every((l) => l.seq > last)) return [...prev, ...incoming].slice(-MAX_LOG_LINES);
  const bySeq = new Map<number, LogLine>();
  for (const l of prev) bySeq.set(l.seq, l);
  for (const l of incoming) bySeq.set(l.seq, l);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-MAX_LOG_LINES);
}

let listening = false;

/**
 * Subscribes to the host's stack events once per page load (the host only sends while someone listens) and reads
 * the status; true when this call did so.
 */
export function startStack(): boolean {
  const a = api();
  if (!a || listening) return false;
  listening = true;
  a.on("stack.status", (s) => {
    const was = useStack.getState().status;
    useStack.setState({ status: s });
    if (isLive(s) && !isLive(was)) void refresh();
    if (!isLive(s) && isLive(was)) useStack.setState({ stats: null, series: [], refused: [], retryNote: null });
  });
  a.on("stack.stats", onStats);
  a.on("stack.ingested", (e) =>
    useStack.setState((st) => ({ records: mergeRecords(st.records, e.records), arrived: st.arrived + e.count })),
  );
  a.on("stack.log", (e) => useStack.setState((st) => ({ logs: mergeLogs(st.logs, e.lines) })));
  void refresh();
  return true;
}

/** The projects' names, so that records show "Tracker" rather than the project's UUID (presets are known). */
export async function loadLayoutNames(): Promise<void> {
  const a = api();
  if (!a) return;
  try {
    const projects = await a.call("projects.list", { limit: 200 });
    useStack.setState({ layoutNames: { ...PRESET_NAMES, ...Object.fromEntries(projects.map((p) => [p.id, p.name])) } });
  } catch {
    // names are a nicety: without them the table shows the ids it was given
  }
}

/** Clears the records kept from the last run (a Start clears them too). */
export function clearRecords(): void {
  useStack.setState({ records: [], arrived: 0 });
}

/** Status, and for a running stack the newest records, numbers and logs (a page opened mid-run). */
export async function refresh(): Promise<void> {
  const a = api();
  if (!a) return;
  void loadLayoutNames();
  try {
    const status = await a.call("stack.status", {});
    useStack.setState({ status });
    if (!isLive(status)) return;
    const [latest, stats, logs] = await Promise.all([
      a.call("stack.latest", { limit: 20 }),
      a.call("stack.stats", {}),
      a.call("stack.logs", { limit: 200 }),
    ]);
    useStack.setState((st) => ({
      records: mergeRecords(st.records, latest.records),
      stats: stats ?? st.stats,
      logs: mergeLogs(st.logs, logs.lines),
    }));
    await loadRefused();
  } catch (e) {
    useStack.setState({ error: asHostError(e).describe() });
  }
}

/** the newest refused records (the Stack page's "Refused by the CSE" card) */
export async function loadRefused(): Promise<void> {
  const a = api();
  if (!a) return;
  try {
    const { refused } = await a.call("stack.refused", { limit: 100 });
    useStack.setState((st) => ({
      refused,
      records: st.stats ? settle(st.records, st.stats, refused) : st.records,
    }));
  } catch (e) {
    useStack.setState({ retryNote: { ok: false, text: asHostError(e).describe() } });
  }
}

/** Puts refused records (all, or one container's) back to pending after the user fixed the cause. */
export async function retryRefused(container?: string): Promise<void> {
  const a = api();
  if (!a || useStack.getState().retrying !== null) return;
  useStack.setState({ retrying: container ?? "", retryNote: null });
  try {
    const { retried } = await a.call("stack.retry", container === undefined ? {} : { container });
    useStack.setState({
      retryNote: {
        ok: true,
        text:
          retried === 0
            ? "Nothing was refused any more."
            : `${retried} record${retried === 1 ? "" : "s"}${container ? ` of ${container}` : ""} back to pending: being forwarded again.`,
      },
    });
    const [stats, latest] = await Promise.all([a.call("stack.stats", {}), a.call("stack.latest", { limit: 20 })]);
    useStack.setState((st) => ({ records: mergeRecords(st.records, latest.records) }));
    if (stats) onStats(stats);
    await loadRefused();
  } catch (e) {
    useStack.setState({ retryNote: { ok: false, text: asHostError(e).describe() } });
  } finally {
    useStack.setState({ retrying: null });
  }
}

export function setForm(patch: Partial<StackForm>): void {
  useStack.setState((s) => ({ form: { ...s.form, ...patch } }));
}

/** the first problem of a device route row, or null */
export function routeProblem(r: RouteRow, all: RouteRow[]): string | null {
  const parsed = stackRouteSchema.safeParse(r);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    return `${String(i.path[0] ?? "route")}: ${i.message}`;
  }
  if (all.filter((x) => x.path === r.path).length > 1) return `path ${r.path} is given twice`;
  return null;
}

/** CoAP retransmissions must reach the worker that holds the exchange (the decoder refuses otherwise) */
export function coapProblem(f: StackForm): string | null {
  return f.coap && Number(f.replicas) > 1 ? "CoAP ingest needs one decoder replica." : null;
}

export function formProblem(f: StackForm): string | null {
  const n = Number(f.replicas);
  if (!/^\d+$/.test(f.replicas) || n < 1 || n > 16) return "Replicas: a whole number from 1 to 16.";
  const coap = coapProblem(f);
  if (coap) return coap;
  if (f.target === "external" && !/^http:\/\/[^/\s]+\/[^/\s]/.test(f.cseUrl.trim()))
    return "CSE URL: http://host:port/<base name>, e.g. http://mobius.example:7579/Mobius.";
  for (const [i, r] of f.routes.entries()) {
    const p = routeProblem(r, f.routes);
    if (p) return `Device route ${i + 1}: ${p}.`;
  }
  return null;
}

export async function stackUp(): Promise<void> {
  const a = api();
  const f = useStack.getState().form;
  if (!a || formProblem(f)) return;
  useStack.setState({ busy: "up", error: null, records: [], arrived: 0, series: [], stats: null });
  try {
    const status = await a.call("stack.up", {
      replicas: Number(f.replicas),
      container: f.container,
      ...(f.target === "external"
        ? { cseUrl: f.cseUrl.trim() }
        : { cseKind: f.target, verifySubscriptions: f.verifySubscriptions }),
      routes: f.routes,
      ...(f.mqtt ? { mqttPort: 0 } : {}),
      ...(f.coap ? { coapPort: 0 } : {}),
    });
    useStack.setState({ status });
    await refresh();
  } catch (e) {
    useStack.setState({ error: asHostError(e).describe() });
    void refresh();
  } finally {
    useStack.setState({ busy: null });
  }
}

export async function stackDown(): Promise<void> {
  const a = api();
  if (!a) return;
  useStack.setState({ busy: "down", error: null });
  try {
    const status = await a.call("stack.down", {});
    useStack.setState({ status, stats: null, series: [] });
  } catch (e) {
    useStack.setState({ error: asHostError(e).describe() });
  } finally {
    useStack.setState({ busy: null });
  }
}
