// HostApi methods and events of the Stack page (decoder + embedded CSE); spread into contract.ts.
import { z } from "zod";
import { BATCH_FORMS, FORMAT_IDS } from "#codecs";
import { retryRequestSchema } from "#contracts/decoder/retryRequest.ts";

const port = z.number().int().min(0).max(65535);

/** a device path fixed to a layout and format (the decoder's --route; it checks reserved paths) */
export const stackRouteSchema = z.object({
  path: z
    .string()
    .regex(/^\/[A-Za-z0-9._~\-/]{1,200}$/, "must start with / and hold only letters, digits and . _ ~ - /"),
  layout: z.string().min(1, "names no layout").max(256),
  format: z.enum(FORMAT_IDS),
  /** raw: the body is the message; envelope: a portal's JSON with base64 data; auto: by Content-Type */
  body: z.enum(["raw", "envelope", "auto"]).default("auto"),
  /** more decimals than the layout declares: stored as sent and flagged, or refused; unset: flag */
  precision: z.enum(["flag", "refuse"]).optional(),
  /** outside the layout's declared range: refused, or stored as sent and flagged; unset: refuse */
  range: z.enum(["flag", "refuse"]).optional(),
  /** every message is a batch of the layout's readings in this form, stored one record per reading */
  batch: z.enum(BATCH_FORMS).optional(),
});
export type StackRoute = z.output<typeof stackRouteSchema>;

/** How a stack is started; the CLI's `stack up` flags map onto the same fields. */
export const stackOptionsSchema = z.object({
  /** decoder worker processes sharing one port (node:cluster) */
  replicas: z.number().int().min(1).max(16).default(1),
  /** 0: a free port */
  decoderPort: port.default(0),
  /** the embedded CSE's port; 0: a free port */
  csePort: port.default(0),
  /** MQTT ingest (the decoder's embedded broker); unset: off, 0: a free port */
  mqttPort: port.optional(),
  /** CoAP ingest (UDP); unset: off, 0: a free port; needs one replica */
  coapPort: port.optional(),
  /** forward to this CSE (a real Mobius/ACME, base URL with its base name) instead of the embedded one */
  cseUrl: z
    .string()
    .max(2048)
    .regex(/^http:\/\/[^/]+\/[^/]/, "must be http://host:port/<cse base name>")
    .optional(),
  /** X-M2M-Origin towards an external CSE (ACME registers AEs of C* / S* originators) */
  cseOrigin: z.string().min(1).max(128).default("Cdecoder"),
  container: z.enum(["device", "shared"]).default("device"),
  /** largest accepted ingest body */
  bodyLimit: z
    .number()
    .int()
    .min(1)
    .max(16 * 1024 * 1024)
    .default(65536),
  /** the CSE started with the stack when there is no cseUrl: the embedded one, or a real ACME */
  cseKind: z.enum(["embedded", "acme"]).default("embedded"),
  /** the started CSE sends a verification request to new notification URIs */
  verifySubscriptions: z.boolean().default(false),
  /**
   * the embedded CSE inside the decoder's process when the decoder has one replica: a record and its
   * contentInstance commit in one transaction, no HTTP hop between them (false: its own process)
   */
  cseInProcess: z.boolean().default(true),
  /** the embedded CSE's compatibility profile (its --profile); unset: its default */
  cseProfile: z.enum(["mobius", "standard"]).optional(),
  /** device paths besides the defaults (/container-data, /astrocast-callback → paper:protobuf) */
  routes: z.array(stackRouteSchema).max(32).default([]),
});
export type StackOptions = z.output<typeof stackOptionsSchema>;
export type StackOptionsInput = z.input<typeof stackOptionsSchema>;

export const serviceStatusSchema = z.object({
  name: z.enum(["cse", "decoder"]),
  state: z.enum(["stopped", "starting", "running", "restarting", "stopping", "failed"]),
  pid: z.number().int().nullable(),
  url: z.string().nullable(),
  /** null until the first health check */
  healthy: z.boolean().nullable(),
  restarts: z.number().int(),
  lastExit: z.string().nullable(),
  startedAt: z.string().nullable(),
});
export type ServiceStatus = z.infer<typeof serviceStatusSchema>;

export const stackEndpointsSchema = z.object({
  ingest: z.string(),
  ingestBase64: z.string(),
  latest: z.string(),
  stats: z.string(),
  events: z.string(),
  health: z.string(),
  /** the CSE base the decoder forwards to */
  cse: z.string(),
  /** where the contentInstances land: <cse>/<ae>/<device key> or <cse>/<ae>/up */
  container: z.string(),
  /** device paths (defaults and configured): POST here without any X-Satpayload-* header */
  routes: z
    .array(
      z.object({
        url: z.string(),
        layout: z.string(),
        format: z.string(),
        body: z.enum(["raw", "envelope", "auto"]),
        /** its messages are batches of readings in this form (one record per reading) */
        batch: z.enum(BATCH_FORMS).optional(),
      }),
    )
    .default([]),
  /** mqtt://127.0.0.1:<port>: publish to satpayload/[<device>/]<layout>/<format>[/<message id>] */
  mqtt: z.string().optional(),
  /** coap://127.0.0.1:<port>: POST to /ingest?layout=…&format=… or a device route's path */
  coap: z.string().optional(),
});
export type StackEndpoints = z.infer<typeof stackEndpointsSchema>;

export const stackStatusSchema = z.object({
  state: z.enum(["stopped", "starting", "running", "degraded", "stopping"]),
  /** who runs it: this app, or `satpayload stack up` in a terminal (pid) */
  owner: z.enum(["app", "cli"]).nullable(),
  ownerPid: z.number().int().nullable(),
  options: stackOptionsSchema.nullable(),
  services: z.array(serviceStatusSchema),
  endpoints: stackEndpointsSchema.nullable(),
  /** the stack's files: buffers, CSE database, logs */
  dir: z.string(),
  startedAt: z.string().nullable(),
  error: z.string().nullable(),
});
export type StackStatus = z.infer<typeof stackStatusSchema>;

export const logLineSchema = z.object({
  /** capture order within the host: the page merges its snapshot and the live events by it */
  seq: z.number().int().nonnegative(),
  service: z.enum(["cse", "decoder", "supervisor"]),
  stream: z.enum(["stdout", "stderr", "event"]),
  at: z.string(),
  text: z.string(),
});
export type LogLine = z.infer<typeof logLineSchema>;

const failingSchema = z.object({
  attempt: z.number(),
  lastError: z.string(),
  lastErrorAt: z.number(),
  nextRetryAt: z.number(),
});

const forwarderSchema = z
  .object({
    state: z.string(),
    lastError: z.string().nullable(),
    lastErrorAt: z.number().nullable(),
    attempt: z.number(),
    nextRetryAt: z.number().nullable(),
    /** containers backing off alone while the others flow (worst first, at most 20) */
    failing: z.array(failingSchema.extend({ container: z.string() })).optional(),
    failingContainers: z.number().optional(),
  })
  .nullable();

/** a container with records the CSE refused, or backing off on its own */
export const containerTroubleSchema = z.object({
  container: z.string(),
  refused: z.number(),
  lastRefusedAt: z.number().nullable(),
  failing: failingSchema.nullable(),
});
export type ContainerTrouble = z.infer<typeof containerTroubleSchema>;

/** The decoder's /api/stats body (plus rates on the live ticks). */
export const stackStatsSchema = z.object({
  at: z.number(),
  records: z.number(),
  duplicates: z.number(),
  rejected: z.number(),
  deadLetters: z.number(),
  uniqueDevices: z.number(),
  successRate: z.number().nullable(),
  meanCompressionRatio: z.number().nullable(),
  /** records = delivered + pending + refused; dead letters (undecodable input) are no records */
  delivered: z.number(),
  pending: z.number(),
  refused: z.number(),
  /** conflicts on a resend counted delivered once the instance read back equal */
  conflictsVerified: z.number(),
  /** records re-created under the next name after a conflict that was not theirs */
  repairs: z.number(),
  /** = delivered */
  forwarded: z.number(),
  /** = pending */
  backlog: z.number(),
  forwardFailures: z.number(),
  containers: z.array(containerTroubleSchema),
  buffers: z.array(
    z.object({
      index: z.number(),
      records: z.number(),
      delivered: z.number(),
      pending: z.number(),
      refused: z.number(),
      backlog: z.number(),
      forwarded: z.number(),
      forwarder: forwarderSchema,
    }),
  ),
  /** records stored with values beyond their layout (more decimals than declared …), per field; older decoders: absent */
  flagged: z
    .object({
      records: z.number(),
      fields: z.array(z.object({ field: z.string(), kind: z.enum(["precision", "range"]), count: z.number() })),
    })
    .optional(),
  recordsPerSecond: z.number().optional(),
  forwardedPerSecond: z.number().optional(),
});
export type StackStats = z.infer<typeof stackStatsSchema>;

export const stackRecordSchema = z.object({
  buffer: z.number(),
  seq: z.number(),
  messageId: z.string(),
  /** the contentInstance's resource name: the ULID of its arrival, ≤ 45 characters (docs/stack.md); older decoders: absent */
  rn: z.string().optional(),
  receivedAt: z.number(),
  layout: z.string(),
  format: z.string(),
  device: z.string(),
  size: z.number(),
  jsonSize: z.number(),
  forwardedAt: z.number().nullable(),
  /** set while the CSE's refusal keeps it out (see stack.refused) */
  refusedAt: z.number().nullable().optional(),
  record: z.unknown(),
});
export type StackRecord = z.infer<typeof stackRecordSchema>;

/** a record the CSE refused for good, with its answer (the decoder's GET /api/refused) */
export const stackRefusedSchema = z.object({
  buffer: z.number(),
  seq: z.number(),
  messageId: z.string(),
  device: z.string(),
  receivedAt: z.number(),
  refusal: z.object({
    status: z.number(),
    rsc: z.number(),
    reason: z.string(),
    container: z.string(),
    rn: z.string(),
    at: z.number(),
  }),
});
export type StackRefused = z.infer<typeof stackRefusedSchema>;

/** one credential of the stack's decoder, as the Stack page lists it: never a hash or a secret */
export const stackKeySchema = z.object({
  id: z.string(),
  role: z.enum(["device", "fleet", "reader", "webhook"]),
  device: z.string().nullable(),
  route: z.string().nullable(),
  label: z.string(),
  created: z.string(),
  revoked: z.string().nullable(),
});
export type StackKey = z.infer<typeof stackKeySchema>;

export const stackKeyRequestSchema = z.discriminatedUnion("role", [
  z.object({
    role: z.literal("device"),
    device: z.string().trim().min(1, "name the device this key writes for").max(128),
    label: z.string().max(200).default(""),
  }),
  z.object({ role: z.literal("fleet"), label: z.string().max(200).default("") }),
  z.object({ role: z.literal("reader"), label: z.string().max(200).default("") }),
  z.object({
    role: z.literal("webhook"),
    route: z
      .string()
      .trim()
      .regex(/^\/[A-Za-z0-9._~/-]*$/, "a path such as /astrocast-callback")
      .max(256),
    label: z.string().max(200).default(""),
  }),
]);

export const stackMethods = {
  /** starts the embedded CSE (unless cseUrl) and the decoder; resolves when both answer */
  "stack.up": { req: stackOptionsSchema, res: stackStatusSchema },
  /** stops the decoder (its buffer flushed) and then the CSE */
  "stack.down": { req: z.object({}), res: stackStatusSchema },
  "stack.status": { req: z.object({}), res: stackStatusSchema },
  /** the newest captured log lines (all are also in <dir>/logs) */
  "stack.logs": {
    req: z.object({
      service: z.enum(["cse", "decoder", "supervisor"]).optional(),
      limit: z.number().int().min(1).max(2000).default(200),
    }),
    res: z.object({ lines: z.array(logLineSchema) }),
  },
  /** the paper's get-latest-data through the host: newest record per device */
  "stack.latest": {
    req: z.object({ limit: z.number().int().min(1).max(200).default(20) }),
    res: z.object({ records: z.array(stackRecordSchema) }),
  },
  "stack.stats": { req: z.object({}), res: stackStatsSchema.nullable() },
  /** records the CSE refused for good, newest first, with its answers */
  "stack.refused": {
    req: z.object({ limit: z.number().int().min(1).max(1000).default(100), container: z.string().optional() }),
    res: z.object({ refused: z.array(stackRefusedSchema) }),
  },
  /** puts refused records back to pending once the cause is fixed; resolves with how many */
  "stack.retry": { req: retryRequestSchema, res: z.object({ retried: z.number() }) },
  /** the decoder's credentials file (device/fleet/reader keys, webhook secrets) */
  "stack.keys.list": { req: z.object({}), res: z.object({ file: z.string(), keys: z.array(stackKeySchema) }) },
  /** the secret is in this answer only: the file keeps a hash (or, for a webhook, the secret itself) */
  "stack.keys.add": { req: stackKeyRequestSchema, res: z.object({ id: z.string(), secret: z.string() }) },
  "stack.keys.revoke": {
    req: z.object({ id: z.string().regex(/^[a-f0-9]{12}$/) }),
    res: z.object({ revoked: z.boolean() }),
  },
} as const;

export const stackEvents = {
  "stack.status": stackStatusSchema,
  /** about once a second while a stack runs and a window listens */
  "stack.stats": stackStatsSchema,
  /** newest first, at most 20 per event; count is how many arrived since the last one */
  "stack.ingested": z.object({ count: z.number(), records: z.array(stackRecordSchema) }),
  "stack.log": z.object({ lines: z.array(logLineSchema) }),
} as const;
