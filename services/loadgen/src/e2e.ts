// End-to-end delay, ingest → contentInstance, sampled through CSE subscriptions. The decoder files
// each device's records in the device's own container (created on its first record), so the probe
// subscribes to the decoder's AE for new containers and then to the first `maxContainers` of them
// (plus those already there) for their new cins; a cin carries the message id (in its `msgid:`
// label), and the generator's message id carries the send time. The stack runs as configured: no shared container that would serialise forwarding.
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Histogram } from "hdr-histogram-js";
import type { LatencySummary } from "#contracts/loadtest/result.ts";
import { newHistogram, summarize } from "./histogram.ts";
import { messageIdOf } from "../../decoder/src/names.ts";

export interface E2eProbeOptions {
  /** http://127.0.0.1:port/Mobius */
  cseBaseUrl: string;
  /** the decoder's AE resource name */
  ae: string;
  origin: string;
  runTag: string;
  /** containers watched at most (each one a subscription) */
  maxContainers?: number;
  /** how long to wait for the decoder to register its AE (it does on its first forwarded record) */
  aeTimeoutMs?: number;
}

export interface E2eProbe {
  /** counts only messages sent inside [from, to) (wall-clock ms) */
  setWindow(from: number, to: number): void;
  /** notifications of this run's cins so far */
  readonly seen: number;
  readonly containers: number;
  summary(): LatencySummary;
  close(): Promise<void>;
}

export class E2eError extends Error {
  override readonly name = "E2eError";
}

const m2mHeaders = (origin: string, extra: Record<string, string> = {}) => ({
  "X-M2M-RI": `lt-${randomUUID()}`,
  "X-M2M-Origin": origin,
  "X-M2M-RVI": "3",
  Accept: "application/json",
  ...extra,
});

/** The send time (wall-clock ms) inside the message id of an instance made from the generator's message, if it is this run's. */
export function sendTimeOf(cin: { rn?: unknown; lbl?: unknown } | undefined, runTag: string): number | undefined {
  if (typeof cin?.rn !== "string") return undefined;
  // the decoder names the instance by a ULID of arrival and labels it with the generator's message id
  const id = messageIdOf(cin.rn, Array.isArray(cin.lbl) ? cin.lbl : undefined);
  if (!id.startsWith(`${runTag}.`)) return undefined;
  const last = id.slice(id.lastIndexOf(".") + 1);
  const t = Number(last);
  return /^\d+$/.test(last) && Number.isFinite(t) ? t : undefined;
}

type Sgn = {
  "m2m:sgn"?: {
    vrq?: boolean;
    nev?: { net?: number; rep?: { "m2m:cin"?: { rn?: unknown; lbl?: unknown }; "m2m:cnt"?: { rn?: unknown } } };
  };
};

export async function startE2eProbe(o: E2eProbeOptions, signal?: AbortSignal): Promise<E2eProbe> {
  const max = o.maxContainers ?? 100;
  const aeUrl = `${o.cseBaseUrl}/${o.ae}`;
  const subName = `loadtest-${o.runTag}`;
  const hist: Histogram = newHistogram();
  const watched = new Set<string>();
  const subscribing = new Set<Promise<void>>();
  let from = Infinity;
  let to = -Infinity;
  let seen = 0;
  let open = true;
  let nu = "";

  const subscribe = async (parentUrl: string): Promise<boolean> => {
    const r = await fetch(parentUrl, {
      method: "POST",
      headers: m2mHeaders(o.origin, { "Content-Type": "application/json;ty=23" }),
      body: JSON.stringify({ "m2m:sub": { rn: subName, enc: { net: [3] }, nu: [nu], nct: 1 } }),
      signal: AbortSignal.timeout(10_000),
    });
    await r.arrayBuffer();
    return r.status === 201;
  };
  const watch = (container: string) => {
    if (!open || watched.has(container) || watched.size >= max || !/^[A-Za-z0-9._~-]+$/.test(container)) return;
    watched.add(container);
    const p = subscribe(`${aeUrl}/${container}`)
      .then((ok) => void (ok || watched.delete(container)))
      .catch(() => void watched.delete(container))
      .finally(() => subscribing.delete(p));
    subscribing.add(p);
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const arrived = Date.now();
      res.writeHead(200, {
        "X-M2M-RSC": "2000",
        "X-M2M-RI": String(req.headers["x-m2m-ri"] ?? ""),
        "content-length": 0,
      });
      res.end();
      let body: Sgn;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Sgn;
      } catch {
        return;
      }
      const rep = body["m2m:sgn"]?.nev?.rep;
      const cnt = rep?.["m2m:cnt"]?.rn;
      if (typeof cnt === "string") return watch(cnt);
      const sentAt = sendTimeOf(rep?.["m2m:cin"], o.runTag);
      if (sentAt === undefined) return;
      seen++;
      if (sentAt >= from && sentAt < to) hist.recordValue(Math.max(1, (arrived - sentAt) * 1000));
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  nu = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`;
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });

  try {
    const until = Date.now() + (o.aeTimeoutMs ?? 60_000);
    for (;;) {
      const r = await fetch(aeUrl, { headers: m2mHeaders(o.origin), signal: AbortSignal.timeout(5000) }).catch(
        () => undefined,
      );
      await r?.arrayBuffer();
      if (r?.status === 200) break;
      if (signal?.aborted) throw new E2eError("cancelled before the decoder registered with the CSE");
      if (Date.now() > until)
        throw new E2eError(
          `the decoder did not register its AE "${o.ae}" in the CSE within ${o.aeTimeoutMs ?? 60_000} ms`,
        );
      await new Promise((res) => setTimeout(res, 100));
    }
    if (!(await subscribe(aeUrl))) throw new E2eError(`the CSE refused a subscription on ${o.ae}`);
    // containers made before this run (an earlier run on the same stack) announce nothing new
    const d = await fetch(`${aeUrl}?fu=1&ty=3&lim=${max}`, {
      headers: m2mHeaders(o.origin),
      signal: AbortSignal.timeout(10_000),
    });
    const list = d.ok ? (((await d.json()) as { "m2m:uril"?: string[] })["m2m:uril"] ?? []) : [];
    for (const p of list) watch(p.slice(p.lastIndexOf("/") + 1));
    await Promise.all(subscribing);
  } catch (e) {
    open = false;
    await closeServer();
    hist.destroy();
    throw e;
  }

  return {
    setWindow(a, b) {
      from = a;
      to = b;
    },
    get seen() {
      return seen;
    },
    get containers() {
      return watched.size;
    },
    summary: () => summarize(hist),
    async close() {
      open = false;
      await Promise.all(subscribing);
      const targets = [aeUrl, ...[...watched].map((c) => `${aeUrl}/${c}`)];
      // a few at a time: the CSE is still the stack's
      for (let i = 0; i < targets.length; i += 16)
        await Promise.all(
          targets.slice(i, i + 16).map((t) =>
            fetch(`${t}/${subName}`, {
              method: "DELETE",
              headers: m2mHeaders(o.origin),
              signal: AbortSignal.timeout(5000),
            })
              .then((r) => r.arrayBuffer())
              .catch(() => undefined),
          ),
        );
      await closeServer();
      hist.destroy();
    },
  };
}
