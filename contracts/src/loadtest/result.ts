// What a run reports: the summary the CLI prints as JSON, the host stores in history and the page draws.
import { z } from "zod";
import { runSettingsSchema } from "./spec.ts";

export const RESULT_SCHEMA = "satpayload.loadtest/1";

/** milliseconds; null fields when nothing was measured */
export const latencySummarySchema = z.object({
  count: z.number().int(),
  min: z.number(),
  p50: z.number(),
  avg: z.number(),
  p95: z.number(),
  p99: z.number(),
  max: z.number(),
});
export type LatencySummary = z.infer<typeof latencySummarySchema>;

export const failuresSchema = z.object({
  /** HTTP status → count (any answer that is not 2xx) */
  http: z.record(z.string(), z.number().int()),
  timeout: z.number().int(),
  connection: z.number().int(),
});
export type Failures = z.infer<typeof failuresSchema>;

export const timelinePointSchema = z.object({
  /** seconds since the first device started */
  t: z.number(),
  phase: z.enum(["ramp", "warmup", "measure", "drain"]),
  rps: z.number(),
  /** p95 of the requests answered in this interval, ms (null: none answered) */
  p95: z.number().nullable(),
  failures: z.number().int(),
  inFlight: z.number().int(),
  activeDevices: z.number().int(),
});
export type TimelinePoint = z.infer<typeof timelinePointSchema>;

export const clientHealthSchema = z.object({
  workers: z.number().int(),
  /** event-loop delay of the generator threads beyond the timer resolution, ms */
  eventLoopLagP99Ms: z.number(),
  eventLoopLagMaxMs: z.number(),
  /** how late sends started against their schedule (the send backlog), ms */
  sendLagMeanMs: z.number(),
  sendLagP95Ms: z.number(),
  sendLagMaxMs: z.number(),
  /** open mode: arrivals that found every device busy and were not sent */
  droppedArrivals: z.number().int(),
  /** false when the client, not the server, limited the run: its numbers do not describe the server */
  valid: z.boolean(),
  reasons: z.array(z.string()),
});
export type ClientHealth = z.infer<typeof clientHealthSchema>;

export const serverStatsSchema = z.object({
  records: z.number().int(),
  rejected: z.number().int(),
  deadLetters: z.number().int(),
  forwarded: z.number().int(),
  backlog: z.number().int(),
  uniqueDevices: z.number().int(),
  meanCompressionRatio: z.number().nullable(),
});
export type ServerStats = z.infer<typeof serverStatsSchema>;

export const paperCellSchema = z.object({
  source: z.string(),
  rps: z.number(),
  avgMs: z.number(),
  p95Ms: z.number(),
  failuresPercent: z.number(),
  fom: z.number().nullable(),
});
export type PaperCell = z.infer<typeof paperCellSchema>;

export const loadTestResultSchema = z.object({
  schema: z.literal(RESULT_SCHEMA),
  status: z.enum(["completed", "cancelled", "failed"]),
  error: z.string().optional(),
  settings: runSettingsSchema,
  layout: z.object({ id: z.string(), name: z.string() }),
  /** where requests went */
  targetUrl: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  /** length of the measured window actually run, s (shorter when cancelled) */
  measuredSeconds: z.number(),
  requests: z.object({
    /** every request sent, warm-up included */
    sent: z.number().int(),
    /** every 2xx answer, warm-up included */
    succeeded: z.number().int(),
    /** answered (or failed) within the measured window */
    measured: z.number().int(),
    measuredFailed: z.number().int(),
    /** still open when the run ended and abandoned */
    abandoned: z.number().int(),
  }),
  rps: z.number(),
  successRate: z.number(),
  offeredRps: z.number().nullable(),
  /** rps / offeredRps */
  offeredShare: z.number().nullable(),
  latency: latencySummarySchema,
  failures: failuresSchema,
  /** ingest → contentInstance notification, ms; null when not measured */
  endToEnd: latencySummarySchema.nullable(),
  fom: z.number().nullable(),
  payloadBytes: z.object({ min: z.number().int(), mean: z.number(), max: z.number().int() }),
  timeline: z.array(timelinePointSchema),
  client: clientHealthSchema,
  server: serverStatsSchema.nullable(),
  paper: paperCellSchema.nullable(),
  /** what the reader should know about this run's numbers */
  notes: z.array(z.string()),
});
export type LoadTestResult = z.infer<typeof loadTestResultSchema>;

/** One progress report while a run goes on (roughly once a second). */
export const progressSchema = z.object({
  phase: z.enum(["starting", "ramp", "warmup", "measure", "drain", "e2e"]),
  /** 0..1 of the planned wall time */
  fraction: z.number(),
  elapsedSeconds: z.number(),
  plannedSeconds: z.number(),
  sent: z.number().int(),
  failures: z.number().int(),
  point: timelinePointSchema.nullable(),
  message: z.string().optional(),
});
export type Progress = z.infer<typeof progressSchema>;
