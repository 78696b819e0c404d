// The Channel page's state: the form (with per-field errors), the worker run and its result.
import { create } from "zustand";
import type { FormatId } from "#codecs";
import { layoutStackId } from "#planning";
import { type FleetStack, SEED003_CHANNEL } from "#planning/channel";
import type { ChannelAnswer, ChannelRequest, FleetAnswer, Seed003Answer } from "./protocol.ts";
import { projectFleet, projectFormat, rememberProjectFormat } from "../../session/projectDefaults.ts";
import { useSession } from "../../session/sessionStore.ts";
import { useDesigner } from "../../state/layoutStore.ts";
import { useSettings } from "../../state/settings.ts";

export type Scenario = "seed003" | "fleet";

export interface ChannelForm {
  scenario: Scenario;
  devices: string;
  perDay: string;
  format: FormatId;
  /** e.g. "coap:1, coap:10, mqtt" */
  stacks: string;
  replicas: string;
  slots: string;
  blockMs: string;
  slotBytes: string;
  rtt: string;
  horizon: string;
  seed: string;
}

export type FieldErrors = Partial<Record<keyof ChannelForm, string>>;

export interface ChannelState {
  form: ChannelForm;
  errors: FieldErrors;
  running: boolean;
  progress: { fraction: number; label: string } | null;
  /** a failure of the run itself (not of one field) */
  error: string | null;
  result: FleetAnswer | Seed003Answer | null;
  ms: number | null;
  /** the cost scenario "My fleet" took its devices and messages/day from, while the user has not changed them */
  fleetFrom: { scenario: string; devices: string; perDay: string } | null;
}

const DEFAULT_FORM: ChannelForm = {
  scenario: "seed003",
  devices: "10000",
  perDay: "96",
  format: "protobuf",
  stacks: "coap:1, coap:10, mqtt",
  replicas: String(SEED003_CHANNEL.mac.replicas),
  slots: String(SEED003_CHANNEL.mac.slotsPerBlock),
  blockMs: String(SEED003_CHANNEL.blockDuration * 1000),
  slotBytes: String(SEED003_CHANNEL.netSlotBytes),
  rtt: String(SEED003_CHANNEL.rtt),
  horizon: "300",
  seed: "1",
};

export const useChannel = create<ChannelState>()(() => ({
  form: DEFAULT_FORM,
  errors: {},
  running: false,
  progress: null,
  error: null,
  result: null,
  ms: null,
  fleetFrom: null,
}));

export function setField<K extends keyof ChannelForm>(key: K, value: ChannelForm[K]): void {
  const s = useChannel.getState();
  const errors = { ...s.errors };
  delete errors[key];
  useChannel.setState({ form: { ...s.form, [key]: value }, errors });
  if (key === "format") rememberProjectFormat(useDesigner.getState().projectId, value as FormatId);
}

/** Whether the fleet inputs still hold what was taken from a scenario (or the page's own default). */
function fleetUntouched(s: ChannelState): boolean {
  const taken = s.fleetFrom ?? DEFAULT_FORM;
  return s.form.devices === taken.devices && s.form.perDay === taken.perDay;
}

/**
 * "My fleet" starts from the open project (issue #26, point 7): its chosen format, and the devices and
 * messages/day of its cost scenario. Called on every visit, so a scenario edited on the cost page since
 * shows here too; fleet inputs the user changed on this page are theirs and stay.
 */
export async function enterChannelProject(): Promise<void> {
  const projectId = useDesigner.getState().projectId;
  const api = useSession.getState().api;
  if (projectId === null || api === null) return;
  setField("format", projectFormat(projectId));
  const fleet = await projectFleet(api, projectId);
  const s = useChannel.getState();
  if (!fleet || useDesigner.getState().projectId !== projectId || !fleetUntouched(s)) return;
  const devices = String(fleet.devices);
  const perDay = String(Number(fleet.messagesPerDay.toFixed(4)));
  useChannel.setState({
    form: { ...s.form, devices, perDay },
    fleetFrom: { scenario: fleet.scenario, devices, perDay },
  });
}

let makeWorker: (() => Worker) | null = null;
let worker: Worker | null = null;

/** The worker factory (Vite needs the `new Worker(new URL(…))` expression in the importing module). */
export function setChannelWorker(factory: () => Worker): void {
  makeWorker = factory;
}

function number(
  errors: FieldErrors,
  key: keyof ChannelForm,
  raw: string,
  min: number,
  max: number,
  integer: boolean,
  what: string,
): number {
  const n = Number(raw.trim());
  if (raw.trim() === "" || !Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || n > max) {
    errors[key] = `${what}: ${integer ? "a whole number" : "a number"} from ${min} to ${max}`;
    return Number.NaN;
  }
  return n;
}

export function parseStacks(raw: string): FleetStack[] | string {
  const parts = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0) return "name at least one stack: coap:NSTART or mqtt";
  const out: FleetStack[] = [];
  for (const p of parts) {
    if (p === "mqtt") out.push({ kind: "mqtt" });
    else {
      const m = /^coap:(\d+)$/.exec(p);
      if (!m || Number(m[1]) < 1 || Number(m[1]) > 1000) return `"${p}" is not a stack: coap:1…1000 or mqtt`;
      out.push({ kind: "coap", nstart: Number(m[1]) });
    }
  }
  if (out.length > 4) return "at most 4 stacks side by side";
  return out;
}

/** Validates the form; returns the request or null with the errors next to their fields. */
export function buildRequest(): ChannelRequest | null {
  const { form } = useChannel.getState();
  const errors: FieldErrors = {};
  const seed = number(errors, "seed", form.seed, 0, 0xffffffff, true, "seed");
  if (form.scenario === "seed003") {
    const horizon = number(errors, "horizon", form.horizon, 30, 1000, false, "seconds of arrivals");
    useChannel.setState({ errors });
    return Object.keys(errors).length ? null : { kind: "seed003", horizon, seed };
  }
  const layout = useDesigner.getState().valid;
  const devices = number(errors, "devices", form.devices, 1, 1_000_000, true, "devices");
  const messagesPerDay = number(errors, "perDay", form.perDay, 0.01, 100_000, false, "messages per day");
  const replicas = number(errors, "replicas", form.replicas, 1, 8, true, "replicas");
  const slots = number(errors, "slots", form.slots, 1, 10_000, true, "slots per block");
  const blockMs = number(errors, "blockMs", form.blockMs, 0.1, 10_000, false, "block duration (ms)");
  const slotBytes = number(errors, "slotBytes", form.slotBytes, 16, 65_535, true, "net slot bytes");
  const rtt = number(errors, "rtt", form.rtt, 0, 10, false, "RTT (s)");
  const horizon = number(errors, "horizon", form.horizon, 30, 3600, false, "seconds of arrivals");
  if (!Number.isNaN(replicas) && !Number.isNaN(slots) && replicas > slots)
    errors.replicas = "replicas cannot exceed the slots per block";
  const stacks = parseStacks(form.stacks);
  if (typeof stacks === "string") errors.stacks = stacks;
  useChannel.setState({ errors });
  if (Object.keys(errors).length || !layout || typeof stacks === "string") return null;
  const st = useSettings.getState();
  return {
    kind: "fleet",
    layout,
    // names the CoAP resource and MQTT topic, so it is counted on air: a short slug of the layout's name
    layoutId: layoutStackId(layout.name),
    format: form.format,
    samples: Math.min(st.samples, 2000),
    sampleSeed: st.seed,
    devices,
    messagesPerDay,
    stacks,
    loads: [0.05, 0.1, 0.2, 0.4, 0.6],
    channel: {
      ...SEED003_CHANNEL,
      mac: { ...SEED003_CHANNEL.mac, replicas, slotsPerBlock: slots },
      blockDuration: blockMs / 1000,
      netSlotBytes: slotBytes,
      rtt,
    },
    horizon,
    seed,
  };
}

export function runSimulation(): void {
  const req = buildRequest();
  if (!req || !makeWorker) return;
  // a run in progress cannot be interrupted inside the worker: replace the worker instead
  if (worker) worker.terminate();
  worker = makeWorker();
  worker.onmessage = (ev: MessageEvent<ChannelAnswer>) => {
    const a = ev.data;
    if (a.type === "progress") useChannel.setState({ progress: { fraction: a.fraction, label: a.label } });
    else if (a.type === "result")
      useChannel.setState({ running: false, progress: null, result: a.result, ms: a.ms, error: null });
    else useChannel.setState({ running: false, progress: null, error: a.message });
  };
  worker.onerror = (ev) =>
    useChannel.setState({
      running: false,
      progress: null,
      error: `channel worker failed: ${ev.message || "unknown error"}`,
    });
  useChannel.setState({ running: true, progress: { fraction: 0, label: "starting" }, error: null });
  worker.postMessage(req);
}

export function cancelSimulation(): void {
  worker?.terminate();
  worker = null;
  useChannel.setState({ running: false, progress: null });
}
