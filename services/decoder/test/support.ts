// Shared by the decoder tests: throwaway directories, the decoder as a real child process, the
// embedded CSE, a keep-alive HTTP client with bounded concurrency, and sample messages.
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { codecFor, type FormatId, generateSamples, parseLayout, presetById } from "#codecs";
import { own, type OwnedProcess, type OwnOptions } from "#codecs-test/helpers/processes/owned.ts";
import { startCse, type RunningCse } from "../../cse/src/server.ts";
import { CSE_ENTRY, DECODER_ENTRY, launch, type LaunchOptions, stopChild, type Launched } from "../../shared/launch.ts";
import { messageIdOf } from "../src/names.ts";

const cleanups: (() => unknown)[] = [];
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

export function tempDir(prefix = "satpayload-decoder-"): string {
  const d = mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

export const paperLayout = parseLayout(presetById("paper")!.layout);

export interface DecoderProcess extends Launched {
  url: string;
  stderr: string[];
  stop(): Promise<void>;
  kill(): Promise<void>;
}

/**
 * `n` decoder processes sharing one buffer directory, buffer k of n each, named decoder-1 … decoder-n:
 * what the bundle's replicas are (containers sharing one volume) without a Docker engine.
 */
export async function spawnBufferReplicas(n: number, args: string[]): Promise<DecoderProcess[]> {
  const shared = tempDir();
  const replicas: DecoderProcess[] = [];
  for (let k = 0; k < n; k++)
    replicas.push(
      await spawnDecoder([
        "--data-dir",
        shared,
        "--buffer-index",
        String(k),
        "--buffer-total",
        String(n),
        "--instance",
        `decoder-${k + 1}`,
        ...args,
      ]),
    );
  return replicas;
}

/**
 * `launch`, owned from the moment it is spawned (owned.ts): stopped when the test that started it
 * ends (or the file, when started in beforeAll), even if that test times out while it starts.
 */
export async function launchOwned(
  entry: string,
  args: string[],
  opts: LaunchOptions,
  ownOpts: OwnOptions & { name: string },
): Promise<Launched> {
  let owned: OwnedProcess | undefined;
  // also here, so that it happens before the temp dirs above it are removed (cleanups run in reverse)
  cleanups.push(() => owned?.stop());
  return launch(entry, args, { ...opts, detached: true, onSpawn: (child) => (owned = own(child, ownOpts)) });
}

export async function spawnDecoder(args: string[]): Promise<DecoderProcess> {
  const stderr: string[] = [];
  const l = await launchOwned(
    DECODER_ENTRY,
    [...args, "--watch-stdin"],
    { tieToParent: true, onLine: (s, line) => s === "stderr" && stderr.push(line), timeoutMs: 60_000 },
    // what is left at the end is killed, as a crash would (a graceful stop is the test's own p.stop())
    { name: "decoder", stop: (me) => me.signal("SIGKILL") },
  );
  const p: DecoderProcess = {
    ...l,
    url: l.listening.url,
    stderr,
    stop: () => stopChild(l.child, l.exited),
    kill: async () => {
      if (l.child.exitCode === null && l.child.signalCode === null) l.child.kill("SIGKILL");
      await l.exited;
    },
  };
  return p;
}

/** The embedded CSE as its own process (services/cse/main.ts), so it does not share the test's event loop. */
export async function cseProcess(
  args: string[],
): Promise<{ url: string; cseBaseUrl: string; port: number; stop(): Promise<void> }> {
  const l = await launchOwned(CSE_ENTRY, args, { timeoutMs: 60_000 }, { name: "cse" });
  const stop = () => stopChild(l.child, l.exited);
  const url = l.listening.url;
  return { url, cseBaseUrl: String(l.listening.cseBaseUrl), port: Number(new URL(url).port), stop };
}

export async function embeddedCse(opts: { port?: number; dataDir?: string } = {}): Promise<RunningCse> {
  const cse = await startCse({ port: opts.port ?? 0, dataDir: opts.dataDir, log: () => {} });
  cleanups.push(() => cse.close().catch(() => {}));
  return cse;
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A keep-alive client (HTTPS when `base` is, trusting `ca`): `post`/`get` return status and text; connection errors reject. */
export function client(base: string, maxSockets = 64, ca?: string) {
  const u = new URL(base);
  const tls = u.protocol === "https:";
  const agent = tls
    ? new https.Agent({ keepAlive: true, maxSockets, ca })
    : new http.Agent({ keepAlive: true, maxSockets });
  cleanups.push(() => agent.destroy());
  const request = (method: string, p: string, headers: Record<string, string | number>, body?: Uint8Array | string) =>
    new Promise<Reply>((resolve, reject) => {
      const req = (tls ? https : http).request(
        {
          host: u.hostname,
          port: u.port,
          method,
          path: p,
          headers: body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) },
          agent,
          timeout: 30_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString("utf8"),
            }),
          );
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", reject);
      req.end(body);
    });
  return {
    agent,
    post: (p: string, body: Uint8Array | string, headers: Record<string, string | number> = {}) =>
      request("POST", p, headers, body),
    get: (p: string, headers: Record<string, string | number> = {}) => request("GET", p, headers),
    close: () => agent.destroy(),
  };
}

/** Runs `task(i)` for i in 0..n-1 with at most `concurrency` in flight. */
export async function pool(n: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next < n) await task(next++);
    }),
  );
}

export function encodedSamples(format: FormatId, n: number, seed = 1, layout = paperLayout): Uint8Array[] {
  const codec = codecFor(layout, format);
  return generateSamples(layout, n, seed).map((r) => codec.encode(r));
}

/** oneM2M GET as the CSE's superuser (embedded: Sponde; ACME: CAdmin) */
/**
 * A discovery condition on one label, written the way that works on a real Mobius too: Mobius reads a
 * single `lbl` value with a pattern its stored (indented) labels never match, so the value is given
 * twice (measured, docs/stack.md "A real Mobius"); other CSEs take the pair as one value.
 */
export function byLabel(label: string): string {
  const v = encodeURIComponent(label);
  return `lbl=${v}&lbl=${v}`;
}

export async function m2mGet(
  base: string,
  p: string,
  origin = "Sponde",
): Promise<{ status: number; rsc: number; json: unknown }> {
  const r = await fetch(`${base}/${p}`, {
    headers: { "X-M2M-RI": `t${Math.random()}`, "X-M2M-Origin": origin, "X-M2M-RVI": "3", Accept: "application/json" },
  });
  const text = await r.text();
  return { status: r.status, rsc: Number(r.headers.get("x-m2m-rsc") ?? 0), json: text ? JSON.parse(text) : null };
}

/** oneM2M create (POST with `ty`) or update (PUT) as `origin`; the status, RSC and body */
export async function m2mWrite(
  base: string,
  method: "POST" | "PUT",
  p: string,
  body: unknown,
  origin = "Sponde",
  ty?: number,
): Promise<{ status: number; rsc: number; json: unknown }> {
  const r = await fetch(`${base}/${p}`, {
    method,
    headers: {
      "X-M2M-RI": `t${Math.random()}`,
      "X-M2M-Origin": origin,
      "X-M2M-RVI": "3",
      "Content-Type": ty === undefined ? "application/json" : `application/json;ty=${ty}`,
      Accept: "application/json",
    },
    body: JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, rsc: Number(r.headers.get("x-m2m-rsc") ?? 0), json: text ? JSON.parse(text) : null };
}

/**
 * The message ids of a container's instances in name order (Mobius' order for la/ol), read from
 * the CSE: each instance's `msgid:` label (a device's own id), else its name (a generated id).
 * Every name must start with a ULID (repaired: `.r<n>` behind it; older decoders: `-<id>`) and
 * fit 45 characters (Mobius).
 */
export async function instanceIds(base: string, container: string, origin = "Sponde"): Promise<string[]> {
  const r = await m2mGet(base, `${container}?rcn=4`, origin);
  if (r.status !== 200) throw new Error(`GET ${container}?rcn=4: ${r.status} ${JSON.stringify(r.json)}`);
  const cins = (r.json as { "m2m:cnt": { "m2m:cin"?: { rn: string; lbl?: string[] }[] } })["m2m:cnt"]["m2m:cin"] ?? [];
  const odd = cins.find((c) => !/^[0-9A-HJKMNP-TV-Z]{26}([-.][A-Za-z0-9._~-]+)?$/.test(c.rn) || c.rn.length > 45);
  if (odd) throw new Error(`${container}/${odd.rn} is not a name of the decoder's scheme (≤ 45 characters)`);
  cins.sort((a, b) => (a.rn < b.rn ? -1 : a.rn > b.rn ? 1 : 0));
  return cins.map((c) => messageIdOf(c.rn, c.lbl));
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 60_000,
  everyMs = 100,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > until)
      throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ""}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
