// The local target of a run: the embedded CSE and the decoder (N replicas), started through the
// services' own entry points, in the decoder's default configuration (one container per device),
// with a throw-away data directory. As `satpayload stack up` does, one replica runs the CSE inside
// the decoder's process (--embedded-cse: record and contentInstance in one transaction); more
// replicas forward to the CSE as its own process.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ServerStats } from "#contracts/loadtest/result.ts";
import { CSE_ENTRY, DECODER_ENTRY, launch, stopChild, type Launched } from "../../shared/launch.ts";

export const STACK_AE = "decoder";
/** the embedded CSE's superuser: may create and delete the probe's subscription */
export const STACK_ORIGIN = "Sponde";

export interface LocalStackOptions {
  replicas: number;
  /** decoder flags that load the run's layout: ["--preset", "paper"] or ["--layout", FILE] */
  layoutArgs: string[];
  /** also start the decoder's MQTT broker and (one replica only) its CoAP server */
  transports?: boolean;
  /** every log line of both services */
  onLine?: (service: "cse" | "decoder", line: string) => void;
  /** one replica: the CSE inside the decoder (default true, as the stack runs it) */
  cseInProcess?: boolean;
}

export interface LocalStack {
  replicas: number;
  decoderUrl: string;
  ingestUrl: string;
  /** mqtt://127.0.0.1:port and coap://127.0.0.1:port when the decoder takes those */
  mqttUrl?: string | undefined;
  coapUrl?: string | undefined;
  /** http://127.0.0.1:port/Mobius */
  cseBaseUrl: string;
  /** the decoder's AE under the CSE base; one container per device below it */
  ae: string;
  stats(): Promise<DecoderStatsBody>;
  /** waits until every acknowledged record reached the CSE (or the timeout passes); false on timeout */
  drained(timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  stop(): Promise<void>;
}

export interface DecoderStatsBody {
  records: number;
  duplicates: number;
  rejected: number;
  deadLetters: number;
  uniqueDevices: number;
  forwarded: number;
  backlog: number;
  meanCompressionRatio: number | null;
}

export class StackError extends Error {
  override readonly name = "StackError";
}

export function serverStats(s: DecoderStatsBody): ServerStats {
  return {
    records: s.records,
    rejected: s.rejected,
    deadLetters: s.deadLetters,
    forwarded: s.forwarded,
    backlog: s.backlog,
    uniqueDevices: s.uniqueDevices,
    meanCompressionRatio: s.meanCompressionRatio === null ? null : Math.round(s.meanCompressionRatio * 1000) / 1000,
  };
}

const children = new Set<Launched>();
let exitHook = false;
function track(l: Launched): void {
  children.add(l);
  void l.exited.then(() => children.delete(l));
  if (!exitHook) {
    exitHook = true;
    // the CSE has no --watch-stdin: make sure it does not outlive us on a normal exit
    process.once("exit", () => {
      for (const c of children) c.child.kill("SIGKILL");
    });
  }
}

export interface RunningStackRef {
  decoderUrl: string;
  cseBaseUrl: string;
  replicas: number;
  ae: string;
  mqttUrl?: string | undefined;
  coapUrl?: string | undefined;
}

/** Talks to a decoder + CSE that run already (ours, or the app's Stack page's): stopping it is not ours to do. */
export function stackClient(ref: RunningStackRef): Omit<LocalStack, "stop"> {
  const stats = async (): Promise<DecoderStatsBody> => {
    const r = await fetch(`${ref.decoderUrl}/api/stats`, { signal: AbortSignal.timeout(10_000) });
    if (!r.ok) throw new StackError(`decoder /api/stats answered ${r.status}`);
    return (await r.json()) as DecoderStatsBody;
  };
  return {
    replicas: ref.replicas,
    decoderUrl: ref.decoderUrl,
    ingestUrl: `${ref.decoderUrl}/ingest`,
    mqttUrl: ref.mqttUrl,
    coapUrl: ref.coapUrl,
    cseBaseUrl: ref.cseBaseUrl,
    ae: ref.ae,
    stats,
    async drained(timeoutMs, signal) {
      const until = Date.now() + timeoutMs;
      while (Date.now() < until && !signal?.aborted) {
        const s = await stats().catch(() => undefined);
        if (s && s.backlog === 0) return true;
        await new Promise((r) => setTimeout(r, 200));
      }
      return false;
    },
  };
}

export async function startLocalStack(o: LocalStackOptions): Promise<LocalStack> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "satpayload-loadtest-"));
  let cse: Launched | undefined;
  let decoder: Launched | undefined;
  const stopAll = async () => {
    if (decoder) await stopChild(decoder.child, decoder.exited, 10_000);
    if (cse) await stopChild(cse.child, cse.exited, 5_000);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const inProcess = o.replicas === 1 && (o.cseInProcess ?? true);
    if (!inProcess) {
      cse = await launch(CSE_ENTRY, ["--port", "0"], {
        onLine: (_s, line) => o.onLine?.("cse", line),
        timeoutMs: 60_000,
      });
      track(cse);
    }
    const cseArgs = cse
      ? ["--cse", String(cse.listening.cseBaseUrl ?? `${cse.listening.url}/Mobius`)]
      : ["--embedded-cse", "--cse-port", "0"];
    const transportArgs = o.transports ? ["--mqtt-port", "0", ...(o.replicas === 1 ? ["--coap-port", "0"] : [])] : [];
    decoder = await launch(
      DECODER_ENTRY,
      [
        "--data-dir",
        dataDir,
        "--port",
        "0",
        "--replicas",
        String(o.replicas),
        ...cseArgs,
        "--ae",
        STACK_AE,
        "--instance",
        "loadtest",
        "--watch-stdin",
        ...transportArgs,
        ...o.layoutArgs,
      ],
      { onLine: (_s, line) => o.onLine?.("decoder", line), timeoutMs: 90_000, tieToParent: true },
    );
    track(decoder);
    const cseBaseUrl = cse
      ? String(cse.listening.cseBaseUrl ?? `${cse.listening.url}/Mobius`)
      : String(decoder.listening.cseBaseUrl);
    let stopped: Promise<void> | undefined;
    const announced = (k: string) =>
      typeof decoder!.listening[k] === "string" ? (decoder!.listening[k] as string) : undefined;
    return {
      ...stackClient({
        decoderUrl: decoder.listening.url,
        cseBaseUrl,
        replicas: o.replicas,
        ae: STACK_AE,
        mqttUrl: announced("mqtt"),
        coapUrl: announced("coap"),
      }),
      stop: () => (stopped ??= stopAll()),
    };
  } catch (e) {
    await stopAll().catch(() => {});
    throw e;
  }
}
