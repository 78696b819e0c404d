// The Load Test form as text inputs → run settings, with each problem worded for and placed at the
// input that caused it (the schema speaks of settings paths; the user sees inputs).
import { z } from "zod";
import { runSettingsSchema, type RunSettingsInput } from "#contracts/loadtest/spec.ts";
import { INGEST_TRANSPORTS, type IngestTransport } from "#planning/ingest";

export interface LoadTestForm {
  /** "preset:<id>" or "project:<id>" */
  layout: string;
  format: string;
  /** how the simulated devices send: HTTP POST, MQTT QoS 1 publish, CoAP confirmable POST */
  transport: IngestTransport;
  mode: "closed" | "open";
  devices: string;
  rate: string;
  waitKind: "uniform" | "constant" | "exponential";
  waitA: string;
  waitB: string;
  spawnRate: string;
  duration: string;
  warmup: string;
  /** stack: the one the Stack page runs; local: a private stack started for this run only */
  target: "stack" | "local" | "url";
  replicas: string;
  url: string;
  connection: "keep-alive" | "close";
}

export const DEFAULT_FORM: LoadTestForm = {
  layout: "preset:paper",
  format: "protobuf",
  transport: "http",
  mode: "closed",
  devices: "100",
  rate: "100",
  waitKind: "uniform",
  waitA: "1",
  waitB: "3",
  spawnRate: "100",
  duration: "30",
  warmup: "5",
  target: "local",
  replicas: "1",
  url: "http://127.0.0.1:8080/ingest",
  connection: "keep-alive",
};

/** The form a project starts from before the user changed anything: its own layout and its chosen format. */
export function projectForm(projectId: string | null, format: string): LoadTestForm {
  return { ...DEFAULT_FORM, ...(projectId === null ? {} : { layout: `project:${projectId}` }), format };
}

const text = z.string().max(500);

/**
 * What is remembered per project, each input checked on its own so that one unreadable value (an older
 * app, a hand-edited storage) costs that input only. Not the format (the project's chosen format, shared
 * with the other pages, stands for it) and not the target (it follows the running stack).
 */
const REMEMBERED: { [K in Exclude<keyof LoadTestForm, "format" | "target">]: z.ZodType<LoadTestForm[K]> } = {
  layout: z
    .string()
    .regex(/^(preset|project):./)
    .max(200),
  transport: z.enum(INGEST_TRANSPORTS),
  mode: z.enum(["closed", "open"]),
  devices: text,
  rate: text,
  waitKind: z.enum(["uniform", "constant", "exponential"]),
  waitA: text,
  waitB: text,
  spawnRate: text,
  duration: text,
  warmup: text,
  replicas: text,
  url: text,
  connection: z.enum(["keep-alive", "close"]),
};

/** The remembered inputs of a stored form (anything else, or a bad value, is left out). */
export function rememberedInputs(raw: unknown): Partial<LoadTestForm> {
  if (!raw || typeof raw !== "object") return {};
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(REMEMBERED)) {
    const r = schema.safeParse((raw as Record<string, unknown>)[key]);
    if (r.success) out[key] = r.data;
  }
  return out as Partial<LoadTestForm>;
}

export type FormField = keyof LoadTestForm;
export type FormIssues = Partial<Record<FormField, string>>;

/** settings path (first segments) → the input that holds it */
const INPUT_OF: [string, FormField][] = [
  ["devices", "devices"],
  ["arrivalRate", "rate"],
  ["wait.max", "waitB"],
  ["wait", "waitA"],
  ["spawnRate", "spawnRate"],
  ["durationSeconds", "duration"],
  ["warmupSeconds", "warmup"],
  ["target.replicas", "replicas"],
  ["target", "url"],
  ["format", "format"],
  ["transport", "transport"],
];

function inputOf(path: string): FormField | undefined {
  return INPUT_OF.find(([p]) => path === p || path.startsWith(`${p}.`))?.[1];
}

/** zod's wording ("Too small: expected number to be >=1") as a sentence about the input */
function wording(message: string, field: FormField, form: LoadTestForm): string {
  if (/received NaN|expected number, received/i.test(message)) return "enter a number";
  if (field === "waitB" && /max must be/.test(message))
    return `must be at least the lower bound (${form.waitA.trim()} s)`;
  const bound = /expected (?:number|int) to be ([<>]=?)\s*(-?[\d.e+]+)/i.exec(message);
  if (bound) {
    const [, op, n] = bound;
    const words: Record<string, string> = { ">=": "at least", ">": "more than", "<=": "at most", "<": "less than" };
    return `must be ${words[op!]} ${Number(n).toLocaleString("en-US")}`;
  }
  if (/expected int/i.test(message)) return "must be a whole number";
  return message;
}

const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));

/** The form as run settings, or the problems per input (every input with a problem, not only the first). */
export function formSettings(
  f: LoadTestForm,
): { ok: true; settings: RunSettingsInput } | { ok: false; issues: FormIssues } {
  const wait =
    f.waitKind === "uniform"
      ? { kind: "uniform", min: num(f.waitA), max: num(f.waitB) }
      : f.waitKind === "constant"
        ? { kind: "constant", seconds: num(f.waitA) }
        : { kind: "exponential", mean: num(f.waitA) };
  const target =
    f.target === "local"
      ? { kind: "local", replicas: num(f.replicas) }
      : f.target === "stack"
        ? { kind: "stack" }
        : { kind: "url", url: f.url.trim() };
  const input = {
    format: f.format,
    transport: f.transport,
    mode: f.mode,
    devices: num(f.devices),
    ...(f.mode === "open" ? { arrivalRate: num(f.rate) } : {}),
    ...(f.mode === "closed" ? { wait } : {}),
    spawnRate: num(f.spawnRate),
    durationSeconds: num(f.duration),
    warmupSeconds: num(f.warmup),
    connection: f.connection,
    target,
  };
  const r = runSettingsSchema.safeParse(input);
  if (r.success) return { ok: true, settings: input as RunSettingsInput };
  const issues: FormIssues = {};
  for (const i of r.error.issues) {
    const field = inputOf(i.path.join("."));
    if (field) issues[field] ??= wording(i.message, field, f);
  }
  return { ok: false, issues };
}

/** in the order the inputs stand on the form */
const LABELS: Partial<Record<FormField, string>> = {
  format: "format",
  transport: "transport",
  devices: "devices",
  rate: "requests/s",
  spawnRate: "spawn rate",
  waitA: "wait",
  waitB: "wait upper bound",
  duration: "duration",
  warmup: "warm-up",
  target: "target",
  replicas: "replicas",
  url: "URL",
};

/** Why Start is disabled, in one line: "Fix 2 fields: devices, duration." */
export function startBlockedReason(issues: FormIssues): string | null {
  const order = Object.keys(LABELS);
  const fields = (Object.keys(issues) as FormField[]).sort((a, b) => order.indexOf(a) - order.indexOf(b));
  if (fields.length === 0) return null;
  return `Fix ${fields.length === 1 ? "1 field" : `${fields.length} fields`} to start: ${fields.map((k) => LABELS[k] ?? k).join(", ")}.`;
}
