// The bench page's state: what the host says about the DevKit (status, module info, queue, log, notices),
// kept current from host events, and every action with its own busy flag and error.
import { create } from "zustand";
import type { EventPayload, HostApi, Res } from "#host/api/contract.ts";
import type { DevkitStatus, LogEntry, Transmission } from "#host/api/devkit.ts";
import { asHostError } from "../../host/errors.ts";
import { useSession } from "../../session/sessionStore.ts";

export type Port = Res<"devkit.ports">["ports"][number];
export type ModuleInfo = Res<"devkit.info">;
export type Counters = Res<"devkit.counters">;
export type Downlink = NonNullable<Res<"devkit.downlinkRead">>;
export type Notice = EventPayload<"devkit.notice"> & { seq: number };
export type Events = NonNullable<EventPayload<"devkit.notice">["events"]>;

/** the log the page keeps; the host keeps more and exports all of it */
const LOG_KEEP = 1000;

export interface BenchState {
  status: DevkitStatus | null;
  ports: Port[];
  portProblems: string[];
  selectedPort: string;
  info: ModuleInfo | null;
  /** Date.now() when `info` was read: the module clock and next contact count on from there */
  infoAt: number;
  queue: Res<"devkit.queue"> | null;
  transmissions: Transmission[];
  counters: Counters | null;
  log: LogEntry[];
  notices: Notice[];
  events: Events | null;
  downlink: Downlink | null;
  busy: Record<string, boolean>;
  errors: Record<string, string | null>;
  /** per-field problems of the Wi-Fi form, from the host's validation */
  wifiIssues: Record<string, string>;
  flash: Record<string, string | null>;
}

export const useBench = create<BenchState>()(() => ({
  status: null,
  ports: [],
  portProblems: [],
  selectedPort: "sim:astronode-s",
  info: null,
  infoAt: 0,
  queue: null,
  transmissions: [],
  counters: null,
  log: [],
  notices: [],
  events: null,
  downlink: null,
  busy: {},
  errors: {},
  wifiIssues: {},
  flash: {},
}));

function api(): HostApi {
  const a = useSession.getState().api;
  if (!a) throw new Error("host not connected");
  return a;
}

/**
 * Runs one action: its busy flag while it runs, its error (or null) after. The action's last success
 * line goes when it starts again, so a refusal is never shown under an older success.
 */
export async function act<T>(key: string, fn: (api: HostApi) => Promise<T>): Promise<T | undefined> {
  useBench.setState((s) => ({
    busy: { ...s.busy, [key]: true },
    errors: { ...s.errors, [key]: null },
    flash: { ...s.flash, [key]: null },
  }));
  try {
    return await fn(api());
  } catch (e) {
    useBench.setState((s) => ({ errors: { ...s.errors, [key]: asHostError(e).describe() } }));
    return undefined;
  } finally {
    useBench.setState((s) => ({ busy: { ...s.busy, [key]: false } }));
  }
}

/** the page's own background reads; a disconnect lets them finish instead of failing them */
const BACKGROUND_READS = ["queue", "info", "downlink"];

/** Disconnects once the page's running reads are done (at most ~3 s), so none fails half-way. */
export function disconnect() {
  return act("connect", async (h) => {
    for (let i = 0; i < 30 && BACKGROUND_READS.some((k) => useBench.getState().busy[k]); i++)
      await new Promise((r) => setTimeout(r, 100));
    await h.call("devkit.disconnect", {});
  });
}

export function flash(key: string, text: string | null): void {
  useBench.setState((s) => ({ flash: { ...s.flash, [key]: text } }));
}

function upsert(list: Transmission[], t: Transmission): Transmission[] {
  const i = list.findIndex((x) => x.id === t.id);
  return i < 0 ? [t, ...list] : list.map((x) => (x.id === t.id ? t : x));
}

const FRAME_BATCH_MS = 100;
let pendingFrames: LogEntry[] = [];

function flushFrames(): void {
  const batch = pendingFrames;
  pendingFrames = [];
  useBench.setState((s) => ({ log: [...s.log, ...batch].slice(-LOG_KEEP) }));
}

let listening = false;
let noticeSeq = 0;

/** Subscribes to the bench's host events once and loads what the host already has. */
export function startBench(): void {
  if (listening) return;
  listening = true;
  const a = api();
  a.on("devkit.status", (status) => {
    const was = useBench.getState().status?.state;
    useBench.setState({ status });
    if (status.state === "ready" && was !== "ready") void refreshAfterConnect();
    if (status.state === "disconnected")
      useBench.setState({ info: null, queue: null, counters: null, events: null, downlink: null });
  });
  a.on("devkit.frame", (e) => {
    // frames come in bursts (connect, resynchronisation, a queue read): one log update per burst, not a
    // re-render of a thousand rows per frame
    pendingFrames.push(e);
    if (pendingFrames.length === 1) setTimeout(flushFrames, FRAME_BATCH_MS);
  });
  a.on("devkit.notice", (n) => {
    if (n.kind === "events") {
      useBench.setState({ events: n.events ?? null });
      return;
    }
    useBench.setState((s) => ({ notices: [{ ...n, seq: ++noticeSeq }, ...s.notices].slice(0, 50) }));
    if (n.kind === "ack" || n.kind === "reset") void refreshQueue();
    if (n.kind === "downlink") void readDownlink();
  });
  a.on("devkit.transmission", (t) =>
    useBench.setState((s) => ({
      transmissions: upsert(s.transmissions, t),
      queue: s.queue
        ? {
            ...s.queue,
            ours: t.status === "queued" ? upsert(s.queue.ours, t) : s.queue.ours.filter((x) => x.id !== t.id),
          }
        : s.queue,
    })),
  );
  void act("load", async (h) => {
    const [status, log, transmissions] = await Promise.all([
      h.call("devkit.status", {}),
      h.call("devkit.log", { limit: LOG_KEEP }),
      h.call("devkit.transmissions", { limit: 50 }),
    ]);
    useBench.setState({ status, log, transmissions });
    if (status.state === "ready") await refreshAfterConnect();
  });
}

export function refreshPorts() {
  return act("ports", async (h) => {
    const { ports, problems } = await h.call("devkit.ports", {});
    useBench.setState((s) => ({
      ports,
      portProblems: problems,
      selectedPort: ports.some((p) => p.id === s.selectedPort) ? s.selectedPort : (ports[0]?.id ?? ""),
    }));
  });
}

export async function refreshAfterConnect(): Promise<void> {
  await loadInfo();
  await refreshQueue();
}

export function loadInfo() {
  return act("info", async (h) => {
    const info = await h.call("devkit.info", {});
    useBench.setState({ info, infoAt: Date.now() });
  });
}

export function refreshQueue() {
  return act("queue", async (h) => useBench.setState({ queue: await h.call("devkit.queue", {}) }));
}

export function readDownlink() {
  return act("downlink", async (h) => useBench.setState({ downlink: await h.call("devkit.downlinkRead", {}) }));
}
