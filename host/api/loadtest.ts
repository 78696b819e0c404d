// HostApi methods and events of the Load Test page; spread into host/api/contract.ts.
import { z } from "zod";
import { loadTestResultSchema, progressSchema } from "#contracts/loadtest/result.ts";
import { runSettingsSchema } from "#contracts/loadtest/spec.ts";
import { INGEST_TRANSPORTS } from "#planning/ingest";

const id = z.string().min(1).max(64);

/** why the running stack cannot take a run over this transport (the host refuses with it, the page shows it under the field) */
export function stackLacksTransport(label: string, flag: string): string {
  return `the running stack does not take ${label}: stop it and start it again with ${label} ticked on the Stack page (or satpayload stack up ${flag} 0)`;
}

export const loadTestLayoutRef = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("preset"), id: z.string().min(1).max(64) }),
  z.object({ kind: z.literal("project"), id }),
]);

export const loadTestSummary = z.object({
  id: z.string(),
  status: z.enum(["running", "completed", "cancelled", "failed"]),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** the project's current name (it follows a rename); the layout's name at the start for presets */
  layoutName: z.string(),
  /** the project whose layout ran; null for a preset */
  projectId: z.string().nullable().default(null),
  format: z.string(),
  /** how the devices sent (runs from before transports were recorded: http) */
  transport: z.enum(INGEST_TRANSPORTS).default("http"),
  mode: z.enum(["closed", "open"]),
  devices: z.number().int(),
  /** local stack replicas; null for a URL target */
  replicas: z.number().int().nullable(),
  target: z.string(),
  durationSeconds: z.number(),
  rps: z.number().nullable(),
  p95Ms: z.number().nullable(),
  failurePercent: z.number().nullable(),
  fom: z.number().nullable(),
  /** the paper's workload on the local stack (closed loop, U(1, 3) s): comparable with its tables */
  paperWorkload: z.boolean(),
  /** false: the client limited the run */
  valid: z.boolean().nullable(),
  error: z.string().nullable(),
});
export type LoadTestSummary = z.infer<typeof loadTestSummary>;

export const loadTestRun = loadTestSummary.extend({ result: loadTestResultSchema.nullable() });
export type LoadTestRun = z.infer<typeof loadTestRun>;

export const loadtestMethods = {
  /** starts a run in its own process; one run at a time (409 while another runs) */
  "loadtest.start": { req: z.object({ layout: loadTestLayoutRef, settings: runSettingsSchema }), res: loadTestSummary },
  "loadtest.cancel": { req: z.object({ id }), res: z.object({ cancelled: z.boolean() }) },
  /** the run in progress, with its last progress report (a reloaded page picks it up) */
  "loadtest.active": {
    req: z.object({}),
    res: z
      .object({
        run: loadTestSummary,
        progress: progressSchema.nullable(),
        timeline: z.array(progressSchema.shape.point.unwrap()),
      })
      .nullable(),
  },
  "loadtest.history": {
    req: z.object({ limit: z.number().int().min(1).max(500).default(50) }),
    res: z.array(loadTestSummary),
  },
  "loadtest.get": { req: z.object({ id }), res: loadTestRun },
  /** runs side by side, in the order asked */
  "loadtest.compare": { req: z.object({ ids: z.array(id).min(1).max(6) }), res: z.array(loadTestRun) },
  "loadtest.export": {
    req: z.object({ ids: z.array(id).min(1).max(500), format: z.enum(["csv", "json"]) }),
    res: z.object({ fileName: z.string(), mediaType: z.string(), content: z.string() }),
  },
  "loadtest.delete": { req: z.object({ id }), res: z.object({ deleted: z.boolean() }) },
} as const;

export const loadtestEvents = {
  "loadtest.progress": z.object({ id: z.string(), progress: progressSchema }),
  "loadtest.finished": loadTestSummary,
} as const;
