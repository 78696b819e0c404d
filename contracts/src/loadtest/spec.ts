// What a load test is: the one schema the engine, the CLI, the host API and the Load Test page share.
// Pure (zod + codecs types only) so the renderer can import it.
import { z } from "zod";
import { FORMAT_IDS } from "#codecs";
import { INGEST_TRANSPORT_LABELS, INGEST_TRANSPORTS, type IngestTransport } from "#planning/ingest";
import { PAPER_WORKLOAD } from "#planning/paper";

/** Think time between a device's answer and its next send (Locust's `wait_time`). */
export const waitSchema = z.discriminatedUnion("kind", [
  z
    .object({ kind: z.literal("uniform"), min: z.number().min(0).max(3600), max: z.number().min(0).max(3600) })
    .refine((w) => w.max >= w.min, {
      message: "max must be ≥ min",
      path: ["max"],
    }),
  z.object({ kind: z.literal("constant"), seconds: z.number().min(0).max(3600) }),
  z.object({ kind: z.literal("exponential"), mean: z.number().positive().max(3600) }),
]);
export type WaitDistribution = z.infer<typeof waitSchema>;

/** The paper's Locust `between(1, 3)`. */
export const PAPER_WAIT: WaitDistribution = {
  kind: "uniform",
  min: PAPER_WORKLOAD.waitMinSeconds,
  max: PAPER_WORKLOAD.waitMaxSeconds,
};

export function meanWaitSeconds(w: WaitDistribution): number {
  switch (w.kind) {
    case "uniform":
      return (w.min + w.max) / 2;
    case "constant":
      return w.seconds;
    case "exponential":
      return w.mean;
  }
}

export function describeWait(w: WaitDistribution): string {
  switch (w.kind) {
    case "uniform":
      return `U(${w.min}, ${w.max}) s`;
    case "constant":
      return `${w.seconds} s`;
    case "exponential":
      return `Exp(mean ${w.mean} s)`;
  }
}

/** how simulated devices reach the decoder */
export const TRANSPORTS = INGEST_TRANSPORTS;
export type Transport = IngestTransport;
export const TRANSPORT_LABELS = INGEST_TRANSPORT_LABELS;

export const targetSchema = z.discriminatedUnion("kind", [
  /** a decoder + CSE started for this run with `replicas` decoder workers */
  z.object({ kind: z.literal("local"), replicas: z.number().int().min(1).max(16) }),
  /**
   * the stack already running (the app's Stack page, `satpayload stack up`): its records count in that
   * stack's stats. The request names only the kind; the host fills in where that stack answers, so the
   * run record says which stack it used.
   */
  z.object({
    kind: z.literal("stack"),
    decoderUrl: z.string().max(2048).optional(),
    cseBaseUrl: z.string().max(2048).optional(),
    replicas: z.number().int().min(1).max(64).optional(),
    startedAt: z.string().max(64).optional(),
    /** the stack's MQTT broker / CoAP server, filled in for a run over that transport */
    mqttUrl: z.string().max(2048).optional(),
    coapUrl: z.string().max(2048).optional(),
  }),
  /** any ingest endpoint (a decoder's /ingest, a Locust-compatible server) */
  z.object({
    kind: z.literal("url"),
    url: z
      .string()
      .max(2048)
      .refine((u) => /^https?:\/\/[^/\s]+/i.test(u), "must be an http:// or https:// URL"),
  }),
]);
export type Target = z.infer<typeof targetSchema>;

/** Settings of a run that do not depend on how the layout is resolved. */
export const runSettingsSchema = z
  .object({
    format: z.enum(FORMAT_IDS),
    /** mqtt and coap: a new local stack starts them; the running stack must have been started with them */
    transport: z.enum(TRANSPORTS).default("http"),
    /** closed: `devices` loops of send → answer → wait (Locust); open: fixed arrival rate (k6's constant-arrival-rate) */
    mode: z.enum(["closed", "open"]).default("closed"),
    /** closed: simulated devices; open: the most requests in flight at once (each one a device identity) */
    devices: z.number().int().min(1).max(100_000),
    /** open mode: requests per second, spread evenly over time */
    arrivalRate: z.number().positive().max(1_000_000).optional(),
    wait: waitSchema.default(PAPER_WAIT),
    /** devices started per second during ramp-up (Locust --spawn-rate) */
    spawnRate: z.number().positive().max(1_000_000).default(100),
    /** measured seconds, after ramp-up and warm-up */
    durationSeconds: z.number().positive().max(86_400),
    /** seconds after the ramp-up whose requests are sent but not measured */
    warmupSeconds: z.number().min(0).max(3600).default(5),
    /** keep-alive: each device holds its own connection; close: a new connection per request */
    connection: z.enum(["keep-alive", "close"]).default("keep-alive"),
    /** a request not answered within this is a timeout failure */
    timeoutMs: z.number().int().min(10).max(600_000).default(30_000),
    /** payloads pre-generated from the layout's sample model (the paper: 10 000 per worker) */
    poolSize: z.number().int().min(1).max(200_000).default(10_000),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
    /** generator threads; 0 = one per two cores, at least one */
    workers: z.number().int().min(0).max(64).default(0),
    /** measure ingest → contentInstance delay through a CSE subscription (local target only) */
    endToEnd: z.boolean().default(true),
    target: targetSchema,
  })
  .refine((s) => s.mode === "closed" || s.arrivalRate !== undefined, {
    message: "open mode needs arrivalRate",
    path: ["arrivalRate"],
  })
  .refine((s) => s.transport === "http" || s.target.kind !== "url", {
    message: "an ingest URL takes HTTP only: MQTT and CoAP need a stack (the running one or a new one for this run)",
    path: ["transport"],
  })
  .refine((s) => s.transport !== "coap" || s.target.kind !== "local" || s.target.replicas === 1, {
    message: "CoAP ingest runs on one decoder replica: set replicas to 1",
    path: ["transport"],
  });
export type RunSettings = z.output<typeof runSettingsSchema>;
export type RunSettingsInput = z.input<typeof runSettingsSchema>;

/** A layout is named where the run starts from: a preset or an inline document (a project's layout). */
export const layoutRefSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("preset"), id: z.string().min(1).max(64) }),
  z.object({ kind: z.literal("project"), id: z.string().min(1).max(64) }),
  z.object({ kind: z.literal("inline"), layout: z.unknown() }),
]);
export type LayoutRef = z.infer<typeof layoutRefSchema>;

/** The nominal load a closed fleet offers with instant answers: devices / mean wait (2000 / 2 s = 1000 RPS). */
export function offeredRps(s: Pick<RunSettings, "mode" | "devices" | "wait" | "arrivalRate">): number | null {
  if (s.mode === "open") return s.arrivalRate ?? null;
  const w = meanWaitSeconds(s.wait);
  return w > 0 ? s.devices / w : null;
}

/** Seconds from the first device until the last is started. */
export function rampSeconds(s: Pick<RunSettings, "mode" | "devices" | "spawnRate">): number {
  return s.mode === "open" ? 0 : (s.devices - 1) / s.spawnRate;
}

/** Wall time of the whole run: ramp-up, warm-up and the measured window. */
export function plannedSeconds(
  s: Pick<RunSettings, "mode" | "devices" | "spawnRate" | "warmupSeconds" | "durationSeconds">,
): number {
  return rampSeconds(s) + s.warmupSeconds + s.durationSeconds;
}

/** The paper's workload on the local stack (closed loop, U(1, 3) s): comparable with its Tables 3–6. */
export function isPaperWorkload(
  s: Pick<RunSettings, "mode" | "wait" | "target"> & { transport?: Transport | undefined },
): boolean {
  return (
    (s.transport ?? "http") === "http" &&
    s.mode === "closed" &&
    s.target.kind === "local" &&
    s.wait.kind === "uniform" &&
    s.wait.min === PAPER_WORKLOAD.waitMinSeconds &&
    s.wait.max === PAPER_WORKLOAD.waitMaxSeconds
  );
}
