// One load test from start to result: the target (a local stack or a URL), the payload pool, the
// end-to-end probe, the generator, the server's own counts and the paper's cell beside ours.
import { randomBytes } from "node:crypto";
import {
  RESULT_SCHEMA,
  type LoadTestResult,
  type PaperCell,
  type Progress,
  type ServerStats,
} from "#contracts/loadtest/result.ts";
import {
  isPaperWorkload,
  offeredRps,
  plannedSeconds,
  TRANSPORT_LABELS,
  type RunSettings,
} from "#contracts/loadtest/spec.ts";
import { figureOfMerit, PAPER_TABLE6, paperFomCell, paperLoadCell } from "#planning/paper";
import { startE2eProbe, type E2eProbe } from "./e2e.ts";
import { runEngine, type EngineOutcome } from "./engine.ts";
import type { RunLayout } from "./layoutSource.ts";
import { buildPool, poolPayload, poolSizes, type PayloadPool } from "./pool.ts";
import {
  serverStats,
  stackClient,
  startLocalStack,
  STACK_AE,
  STACK_ORIGIN,
  type DecoderStatsBody,
  type LocalStack,
} from "./stack.ts";

export interface RunOptions {
  settings: RunSettings;
  layout: RunLayout;
  signal?: AbortSignal | undefined;
  onProgress?: ((p: Progress) => void) | undefined;
  /** a running local stack to reuse (the matrix runs many cells on one) */
  stack?: LocalStack | undefined;
  onStackLine?: (service: "cse" | "decoder", line: string) => void;
  /** the engine's report interval, ms */
  tickMs?: number;
}

/** Headers every request of a run carries (the exported Locust and k6 scripts send the same). */
export function runHeaders(layoutId: string, format: string): Record<string, string> {
  return {
    "content-type": "application/octet-stream",
    "x-satpayload-format": format,
    // non-ASCII layout names travel percent-encoded, as the decoder expects
    "x-satpayload-layout": /^[\x20-\x7e]*$/.test(layoutId) ? layoutId : encodeURIComponent(layoutId),
  };
}

/** The published cell for this configuration, when the workload is the paper's (closed loop, U(1,3) s, its stack). */
export function paperCellFor(s: RunSettings): PaperCell | null {
  if (!isPaperWorkload(s) || s.target.kind !== "local") return null;
  const row = paperLoadCell(s.format, s.devices, s.target.replicas);
  if (!row) return null;
  const fom = paperFomCell(PAPER_TABLE6, s.format, s.devices, s.target.replicas);
  return {
    source: row.source,
    rps: row.rps,
    avgMs: row.avgMs,
    p95Ms: row.p95Ms,
    failuresPercent: row.failuresPercent,
    fom: fom?.fom ?? null,
  };
}

export class RunError extends Error {
  override readonly name = "RunError";
}

/** where the run's devices send: the decoder's /ingest, its MQTT broker or its CoAP server */
function ingestUrlFor(stack: LocalStack, transport: RunSettings["transport"]): string {
  if (transport === "http") return stack.ingestUrl;
  const url = transport === "mqtt" ? stack.mqttUrl : stack.coapUrl;
  if (!url)
    throw new RunError(
      `the stack's decoder does not take ${TRANSPORT_LABELS[transport]} (start it with --${transport}-port)`,
    );
  return url;
}

const iso = (ms: number) => new Date(ms).toISOString();

async function prime(
  stack: LocalStack,
  headers: Record<string, string>,
  pool: PayloadPool,
  runTag: string,
): Promise<void> {
  // one message before the clock starts, so the decoder has created its container and the probe can subscribe
  const r = await fetch(stack.ingestUrl, {
    method: "POST",
    headers: { ...headers, "x-satpayload-device": "prime", "x-satpayload-message-id": `${runTag}-prime` },
    body: poolPayload(pool, 0).slice(),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await r.text();
  if (r.status !== 201 && r.status !== 200)
    throw new RunError(`the decoder refused the first message: ${r.status} ${text.slice(0, 300)}`);
}

export async function runLoadTest(o: RunOptions): Promise<LoadTestResult> {
  const s = o.settings;
  const startedAt = Date.now();
  const planned = plannedSeconds(s);
  const report = (p: Omit<Progress, "plannedSeconds">) => o.onProgress?.({ ...p, plannedSeconds: planned });
  report({
    phase: "starting",
    fraction: 0,
    elapsedSeconds: 0,
    sent: 0,
    failures: 0,
    point: null,
    message: "encoding the payload pool",
  });
  const pool = buildPool(o.layout.layout, s.format, s.poolSize, s.seed, true, s.devices);
  const headers = runHeaders(o.layout.id, s.format);
  const runTag = `lt${randomBytes(4).toString("hex")}`;

  let stack = o.stack;
  const ownStack = s.target.kind === "local" && !stack;
  let probe: E2eProbe | undefined;
  let engine: EngineOutcome | undefined;
  let server: ServerStats | null = null;
  let e2eNote: string | undefined;
  try {
    if (s.target.kind === "local" && !stack) {
      report({
        phase: "starting",
        fraction: 0,
        elapsedSeconds: 0,
        sent: 0,
        failures: 0,
        point: null,
        message: `starting the CSE and ${s.target.replicas} decoder replica(s)`,
      });
      stack = await startLocalStack({
        replicas: s.target.replicas,
        layoutArgs: o.layout.decoderArgs,
        transports: s.transport !== "http",
        onLine: o.onStackLine,
      });
    }
    if (s.target.kind === "stack" && !stack) {
      const t = s.target;
      if (!t.decoderUrl || !t.cseBaseUrl)
        throw new RunError(
          "a run on the running stack needs its decoder and CSE URLs (the host fills them in when a stack runs)",
        );
      // not ours: the run sends to it and reads its counts, and leaves it running
      stack = {
        ...stackClient({
          decoderUrl: t.decoderUrl,
          cseBaseUrl: t.cseBaseUrl,
          replicas: t.replicas ?? 1,
          ae: STACK_AE,
          mqttUrl: t.mqttUrl,
          coapUrl: t.coapUrl,
        }),
        stop: async () => {},
      };
    }
    if (stack && s.target.kind === "local" && stack.replicas !== s.target.replicas)
      throw new RunError(`the stack runs ${stack.replicas} replicas, the run asks for ${s.target.replicas}`);
    const url = s.target.kind === "url" ? s.target.url : ingestUrlFor(stack!, s.transport);
    let before: DecoderStatsBody | undefined;
    if (stack) {
      await prime(stack, headers, pool, runTag);
      // the priming message is forwarded before the counts are taken, so it is in neither side of the run
      await stack.drained(15_000, o.signal);
      before = await stack.stats();
      if (s.endToEnd) {
        report({
          phase: "starting",
          fraction: 0,
          elapsedSeconds: 0,
          sent: 0,
          failures: 0,
          point: null,
          message: "subscribing to the decoder's containers in the CSE",
        });
        probe = await startE2eProbe(
          { cseBaseUrl: stack.cseBaseUrl, ae: stack.ae, origin: STACK_ORIGIN, runTag },
          o.signal,
        ).catch((e: Error) => {
          e2eNote = e.message;
          return undefined;
        });
      }
    }
    const p = probe;
    engine = await runEngine({
      settings: s,
      url,
      headers,
      pool,
      runTag,
      signal: o.signal,
      tickMs: o.tickMs,
      onStart: (t) => p?.setWindow(t.measureStart, t.measureEnd),
      onTick: (t) =>
        report({
          phase: t.point.phase,
          fraction: Math.min(1, t.elapsedSeconds / planned),
          elapsedSeconds: t.elapsedSeconds,
          sent: t.sent,
          failures: t.failures,
          point: t.point,
        }),
    });
    if (stack) {
      report({
        phase: "e2e",
        fraction: 1,
        elapsedSeconds: planned,
        sent: engine.sent,
        failures: 0,
        point: null,
        message: "waiting for the decoder to forward its backlog",
      });
      const drained = await stack.drained(engine.cancelled ? 5_000 : 60_000, o.signal);
      if (!drained) e2eNote ??= "the decoder still had records to forward when the run ended";
      // notifications trail the forwarder by a hop: wait until they stop coming (bounded)
      if (probe) {
        const until = Date.now() + (engine.cancelled ? 1000 : 10_000);
        let last = -1;
        while (probe.seen !== last && Date.now() < until && !o.signal?.aborted) {
          last = probe.seen;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
      const after = await stack.stats();
      server = serverStats({
        ...after,
        records: after.records - (before?.records ?? 0),
        rejected: after.rejected - (before?.rejected ?? 0),
        deadLetters: after.deadLetters - (before?.deadLetters ?? 0),
        forwarded: after.forwarded - (before?.forwarded ?? 0),
      });
    }
  } finally {
    await probe?.close().catch(() => {});
    if (ownStack) await stack?.stop().catch(() => {});
  }

  const e = engine!;
  const rps = e.measuredSeconds > 0 ? e.measured / e.measuredSeconds : 0;
  const successRate = e.measured > 0 ? (e.measured - e.measuredFailed) / e.measured : 0;
  const offered = offeredRps(s);
  const p95s = e.latency.p95 / 1000;
  const endToEnd = probe ? probe.summary() : null;
  const result: LoadTestResult = {
    schema: RESULT_SCHEMA,
    status: e.cancelled ? "cancelled" : "completed",
    settings: s,
    layout: { id: o.layout.id, name: o.layout.name },
    targetUrl:
      s.target.kind === "local"
        ? s.transport === "http"
          ? "local stack"
          : `local stack over ${TRANSPORT_LABELS[s.transport]}`
        : s.target.kind === "stack"
          ? ((s.transport === "mqtt" ? s.target.mqttUrl : s.transport === "coap" ? s.target.coapUrl : undefined) ??
            `${s.target.decoderUrl}/ingest`)
          : s.target.url,
    startedAt: iso(startedAt),
    finishedAt: iso(Date.now()),
    measuredSeconds: round(e.measuredSeconds, 3),
    requests: {
      sent: e.sent,
      succeeded: e.succeeded,
      measured: e.measured,
      measuredFailed: e.measuredFailed,
      abandoned: e.abandoned,
    },
    rps: round(rps, 2),
    successRate: round(successRate, 5),
    offeredRps: offered === null ? null : round(offered, 2),
    offeredShare: offered ? round(rps / offered, 4) : null,
    latency: e.latency,
    failures: e.failures,
    endToEnd: endToEnd && endToEnd.count > 0 ? endToEnd : null,
    fom: e.measured > 0 && p95s > 0 ? round(figureOfMerit({ rps, successRate, p95Seconds: p95s }), 1) : null,
    payloadBytes: (({ min, mean, max }) => ({ min, mean: round(mean, 1), max }))(poolSizes(pool)),
    timeline: e.timeline,
    client: e.client,
    server,
    paper: paperCellFor(s),
    notes: [],
  };
  if (e2eNote) result.notes.push(`end-to-end probe: ${e2eNote}`);
  if (probe && endToEnd)
    result.notes.push(
      `ingest → cin sampled from ${probe.containers} device containers (${endToEnd.count} contentInstances of the measured window)`,
    );
  if (!e.client.valid)
    result.notes.push("the load generator could not keep up: its numbers describe the generator, not the server");
  if (e.abandoned > 0)
    result.notes.push(`${e.abandoned} requests were still open when the run ended and were abandoned`);
  return result;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
