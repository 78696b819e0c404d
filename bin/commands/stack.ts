// `satpayload stack up|down|status|export`: the local stack (embedded CSE + decoder replicas) from a
// terminal, in the foreground or detached, and the docker-compose bundle for one or more hosts.
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { LayoutError } from "#codecs";
import { parseRouteSpec, RouteSpecError } from "#contracts/decoder/routes.ts";
import {
  stackOptionsSchema,
  type StackOptionsInput,
  type StackRefused,
  type StackStats,
  type StackStatus,
} from "#host/api/stack.ts";
import { HostError } from "#host/errors.ts";
import { repoRoot } from "#host/httpHost.ts";
import { defaultDataDir } from "#host/paths.ts";
import { STACK_DIR } from "#host/stack/dirs.ts";
import { stopExternal } from "#host/stack/externalStack.ts";
import { listRefused, retryRefused } from "#host/stack/refused.ts";
import { readLiveState, type StackState } from "#host/stack/stateFile.ts";
import { StackSupervisor } from "#host/stack/supervisor.ts";
import { writeBundle, type ExportResult } from "#services/decoder/src/bundle/export.ts";
import { nodeCommand } from "#services/shared/launch.ts";
import { packageVersion } from "#services/shared/packageVersion.ts";
import { InputError, intFlag, parseFlags, UsageError, write } from "./common.ts";
import { stackKeysCommand, stackKeysHelp } from "./stackKeys.ts";

export const stackHelp = `satpayload stack up [--replicas N] [--port N] [--cse-port N] [--cse URL|acme] [--container device|shared] [--mqtt-port N] [--coap-port N] [--detach] [--json]
  Starts the embedded CSE (or forwards to --cse, a real Mobius/ACME base URL; --cse acme starts and
  supervises a real ACME, installed on first use) and the decoder with N replicas, prints the
  endpoints and runs until Ctrl-C; --detach runs it in the background (pid and endpoints in
  <data dir>/stack/state.json, logs in <data dir>/stack/logs).
    --route PATH=LAYOUT:FORMAT[:raw|envelope|auto][:batch=columns|delta]  a device path answering 200 (repeatable; default
                        /container-data and /astrocast-callback → paper:protobuf); add
                        :precision=refuse to refuse values with more decimals than the layout
                        declares (default: stored as sent and flagged), :range=flag to keep values
                        outside its declared range (default: refused)
    --mqtt-port N       also take records over MQTT on 127.0.0.1 (0: a free port; default off)
    --coap-port N       also take records over CoAP (UDP) on 127.0.0.1 (0: a free port; default off; one replica)
    --verify-subscriptions  the started CSE verifies new notification URIs
    --cse-profile mobius|standard  the embedded CSE's compatibility profile
    --cse-process       run the embedded CSE as its own process, reached over HTTP (default with
                        one replica: inside the decoder, one transaction per record and instance)
    --body-limit BYTES  largest accepted body (default 65536)   --cse-origin ID (default Cdecoder)
    --data-dir DIR      default: SATPAYLOAD_DATA_DIR or the app's data directory
satpayload stack status [--json]    satpayload stack down
  Report on / stop the stack the data directory's state file names (one started with --detach):
  records delivered / pending / refused by the CSE, containers backing off, the CSE's refusals.
satpayload stack retry [--container NAME] [--json]
  Puts the records the CSE refused for good (all, or one container's) back to pending once you
  have fixed the cause (a container too small, a missing privilege …); they are forwarded again.
satpayload stack export --out DIR [--replicas N] [--layout FILE]... [--cse URL] [--container device|shared] [--port N] [--mqtt-port N] [--coap-port N]
  Writes a self-contained deployment into DIR: docker-compose.yml (nginx with TLS and least_conn →
  N decoder replicas with --auth on → CSE on an internal network), nginx/decoder.conf, a
  self-signed pair in nginx/certs, secrets/keys.json, the Dockerfile with the sources in src/,
  and Kubernetes manifests in k8s/. --port: the HTTPS port (default 443). --mqtt-port N: also
  publish MQTT over TLS (nginx, same certificate) on N (8883 is MQTT's TLS port); --coap-port N:
  also publish CoAP (UDP, plain: no DTLS) on N (5683 is CoAP's); in k8s/ both as a LoadBalancer
  Service decoder-ingest (CoAP with protocol UDP). Off unless given.
${stackKeysHelp}`;

const DETACHED_ENV = "SATPAYLOAD_STACK_DETACHED";

function dataDirOf(flag: string | undefined): string {
  return flag !== undefined ? path.resolve(flag) : defaultDataDir();
}

type StackFlags = {
  replicas?: string | undefined;
  port?: string | undefined;
  "cse-port"?: string | undefined;
  "mqtt-port"?: string | undefined;
  "coap-port"?: string | undefined;
  cse?: string | undefined;
  container?: string | undefined;
  "body-limit"?: string | undefined;
  "cse-origin"?: string | undefined;
  route?: string[] | undefined;
  "verify-subscriptions"?: boolean | undefined;
  "cse-profile"?: string | undefined;
  "cse-process"?: boolean | undefined;
};

export function stackInput(f: StackFlags): StackOptionsInput {
  const raw: Record<string, unknown> = {};
  if (f.replicas !== undefined) raw.replicas = intFlag(f.replicas, "--replicas", undefined, 1, 16);
  if (f.port !== undefined) raw.decoderPort = intFlag(f.port, "--port", undefined, 0, 65535);
  if (f["cse-port"] !== undefined) raw.csePort = intFlag(f["cse-port"], "--cse-port", undefined, 0, 65535);
  if (f["mqtt-port"] !== undefined) raw.mqttPort = intFlag(f["mqtt-port"], "--mqtt-port", undefined, 0, 65535);
  if (f["coap-port"] !== undefined) raw.coapPort = intFlag(f["coap-port"], "--coap-port", undefined, 0, 65535);
  if (raw.coapPort !== undefined && ((raw.replicas as number | undefined) ?? 1) > 1)
    throw new UsageError(
      "--coap-port needs --replicas 1 (CoAP retransmissions must reach the worker that holds the exchange)",
    );
  if (f["body-limit"] !== undefined)
    raw.bodyLimit = intFlag(f["body-limit"], "--body-limit", undefined, 1, 16 * 1024 * 1024);
  if (f.cse === "acme") raw.cseKind = "acme";
  else if (f.cse !== undefined) raw.cseUrl = f.cse;
  if (f["cse-origin"] !== undefined) raw.cseOrigin = f["cse-origin"];
  if (f.container !== undefined) raw.container = f.container;
  if (f["verify-subscriptions"]) raw.verifySubscriptions = true;
  if (f["cse-process"]) raw.cseInProcess = false;
  if (f["cse-profile"] !== undefined) {
    if (f["cse-profile"] !== "mobius" && f["cse-profile"] !== "standard")
      throw new UsageError(`--cse-profile must be mobius or standard, not "${f["cse-profile"]}"`);
    raw.cseProfile = f["cse-profile"];
  }
  if (f.route?.length) {
    raw.routes = f.route.map((spec) => {
      try {
        return parseRouteSpec(spec);
      } catch (e) {
        if (e instanceof RouteSpecError) throw new UsageError(`--route: ${e.message}`);
        throw e;
      }
    });
  }
  if ((raw.verifySubscriptions || raw.cseProfile) && raw.cseUrl !== undefined)
    throw new UsageError(
      "--verify-subscriptions and --cse-profile configure a CSE the stack starts, not one at --cse URL",
    );
  if (raw.cseProfile && raw.cseKind === "acme")
    throw new UsageError("--cse-profile is the embedded CSE's; ACME follows the standard");
  const parsed = stackOptionsSchema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new UsageError(
      `--${String(i.path[0] ?? "")}: ${i.message}`.replace("--cseUrl", "--cse").replace("--decoderPort", "--port"),
    );
  }
  return raw as StackOptionsInput;
}

function describe(
  s: Pick<StackStatus, "endpoints" | "options"> & { owner: string | null; ownerPid: number | null },
): string {
  const e = s.endpoints!;
  return [
    `stack running (${s.options?.replicas ?? 1} decoder replica(s), ${s.owner === "cli" ? "satpayload stack up" : "SatPayload Studio"}, pid ${s.ownerPid})`,
    `  ingest         POST ${e.ingest}`,
    `  ingest base64  POST ${e.ingestBase64}`,
    ...(e.routes ?? []).map(
      (r) =>
        `  device route   POST ${r.url}  (${r.layout} · ${r.format}${r.body === "auto" ? "" : `, ${r.body}`}; answers 200)`,
    ),
    ...(e.mqtt
      ? [`  MQTT           ${e.mqtt}  (publish QoS 1 to satpayload/[<device>/]<layout>/<format>[/<message id>])`]
      : []),
    ...(e.coap ? [`  CoAP           POST ${e.coap}/ingest?layout=…&format=…  (and the device routes' paths)`] : []),
    `  latest         GET  ${e.latest}`,
    `  stats          GET  ${e.stats}`,
    `  events         GET  ${e.events}`,
    `  CSE            ${e.cse}  (records in ${e.container})`,
  ].join("\n");
}

async function up(argv: string[]): Promise<void> {
  const f = parseFlags(argv, {
    replicas: { type: "string" },
    port: { type: "string" },
    "cse-port": { type: "string" },
    "mqtt-port": { type: "string" },
    "coap-port": { type: "string" },
    cse: { type: "string" },
    "cse-origin": { type: "string" },
    container: { type: "string" },
    "body-limit": { type: "string" },
    route: { type: "string", multiple: true },
    "verify-subscriptions": { type: "boolean", default: false },
    "cse-profile": { type: "string" },
    "cse-process": { type: "boolean", default: false },
    "data-dir": { type: "string" },
    detach: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  });
  const input = stackInput(f);
  const dataDir = dataDirOf(f["data-dir"]);
  if (f.detach)
    return detach(
      argv.filter((a) => a !== "--detach"),
      dataDir,
      f.json,
    );
  const quietLogs = process.env[DETACHED_ENV] === "1";
  const sup = new StackSupervisor({
    dataDir,
    owner: "cli",
    onLog: (lines) => {
      for (const l of lines) process.stderr.write(`${l.service.padEnd(10)} | ${l.text}\n`);
    },
  });
  let status: StackStatus;
  try {
    status = await sup.up(input);
  } catch (e) {
    await sup.close();
    if (e instanceof HostError) throw new InputError(e.message);
    throw e;
  }
  write(
    f.json
      ? `${JSON.stringify({ schema: "satpayload.stack/1", ...status })}\n`
      : `${describe(status)}\n${quietLogs ? "" : "Press Ctrl-C to stop.\n"}`,
  );
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      process.stderr.write("stopping the stack…\n");
      void sup.close().then(resolve);
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** The same command in a background process of its own; returns once it reports running (or failed). */
async function detach(argv: string[], dataDir: string, json: boolean): Promise<void> {
  const dir = path.join(dataDir, STACK_DIR);
  const running = readLiveState(dir);
  if (running)
    throw new InputError(
      `a stack is already running (pid ${running.pid}, ${running.decoderUrl}): "satpayload stack down" first`,
    );
  mkdirSync(path.join(dir, "logs"), { recursive: true });
  const logFile = path.join(dir, "logs", "stack-cli.log");
  const out = openSync(logFile, "a");
  const cmd = nodeCommand(path.join(repoRoot, "bin/satpayload.ts"), [
    "stack",
    "up",
    ...argv.filter((a) => a !== "--json"),
    "--data-dir",
    dataDir,
  ]);
  const child = spawn(cmd.command, cmd.args, {
    env: { ...cmd.env, [DETACHED_ENV]: "1" },
    detached: true,
    stdio: ["ignore", out, out],
  });
  closeSync(out);
  let exited: number | string | undefined;
  child.once("exit", (code, signal) => (exited = code ?? signal ?? -1));
  const until = Date.now() + 120_000;
  let state: StackState | undefined;
  while (!state) {
    if (exited !== undefined) {
      const tail = readFileSync(logFile, "utf8").trim().split("\n").slice(-15).join("\n");
      throw new InputError(`the stack did not start (exit ${exited}); the end of ${logFile}:\n${tail}`);
    }
    if (Date.now() > until) {
      child.kill("SIGTERM");
      throw new InputError(`the stack did not report running within 120 s (see ${logFile})`);
    }
    await new Promise((r) => setTimeout(r, 150));
    const s = readLiveState(dir);
    if (s && s.pid === child.pid) state = s;
  }
  child.unref();
  const status = { owner: state.owner, ownerPid: state.pid, endpoints: state.endpoints, options: state.options };
  write(
    json
      ? `${JSON.stringify({ schema: "satpayload.stack/1", state: "running", ...status, dir, log: logFile })}\n`
      : `${describe(status)}\nIn the background; "satpayload stack down" stops it. Logs: ${logFile}\n`,
  );
}

async function status(argv: string[]): Promise<void> {
  const f = parseFlags(argv, { "data-dir": { type: "string" }, json: { type: "boolean", default: false } });
  const dir = path.join(dataDirOf(f["data-dir"]), STACK_DIR);
  const s = readLiveState(dir);
  if (!s) {
    write(
      f.json
        ? `${JSON.stringify({ schema: "satpayload.stack-status/1", state: "stopped", dir })}\n`
        : "no stack is running\n",
    );
    return;
  }
  const health = await fetch(`${s.decoderUrl}/health`, { signal: AbortSignal.timeout(3000) }).then(
    (r) => r.ok,
    () => false,
  );
  const stats = (await fetch(`${s.decoderUrl}/api/stats`, { signal: AbortSignal.timeout(3000) }).then(
    (r) => (r.ok ? r.json() : null),
    () => null,
  )) as StackStats | null;
  const refused = stats?.refused ? await listRefused(s.decoderUrl, 100).catch(() => []) : [];
  if (f.json) {
    write(
      `${JSON.stringify({ schema: "satpayload.stack-status/1", state: health ? "running" : "degraded", owner: s.owner, pid: s.pid, startedAt: s.startedAt, options: s.options, endpoints: s.endpoints, dir, stats, refused })}\n`,
    );
    return;
  }
  write(`${describe({ owner: s.owner, ownerPid: s.pid, endpoints: s.endpoints, options: s.options })}\n`);
  write(`  since ${s.startedAt}; decoder ${health ? "healthy" : "NOT answering /health"}\n`);
  if (stats) write(forwardingReport(stats, refused));
}

/** records delivered / pending / refused, then the containers that need someone: refused records and back-offs */
export function forwardingReport(stats: StackStats, refused: StackRefused[], now = Date.now()): string {
  const lines = [
    `  ${stats.records} records from ${stats.uniqueDevices} devices: ${stats.delivered} delivered, ${stats.pending} pending, ${stats.refused} refused by the CSE; ${stats.deadLetters} dead letters (undecodable input)`,
  ];
  if (stats.repairs || stats.conflictsVerified)
    lines.push(
      `  ${stats.conflictsVerified} resends found already in the CSE (read back equal), ${stats.repairs} repaired under the next name`,
    );
  const newest = new Map<string, StackRefused>();
  for (const r of refused) if (!newest.has(r.refusal.container)) newest.set(r.refusal.container, r);
  for (const c of stats.containers) {
    if (c.refused > 0) {
      const r = newest.get(c.container)?.refusal;
      lines.push(
        `  ${c.container}: ${c.refused} refused${r ? ` — HTTP ${r.status}${r.rsc ? `/RSC ${r.rsc}` : ""} ${r.reason}` : ""}`,
      );
    }
    if (c.failing)
      lines.push(
        `  ${c.container}: backing off (attempt ${c.failing.attempt}, next in ${Math.max(0, Math.round((c.failing.nextRetryAt - now) / 100) / 10)} s) — ${c.failing.lastError}`,
      );
  }
  if (stats.refused > 0)
    lines.push('  fix the cause, then "satpayload stack retry" (or --container NAME) forwards them again');
  return `${lines.join("\n")}\n`;
}

async function retry(argv: string[]): Promise<void> {
  const f = parseFlags(argv, {
    "data-dir": { type: "string" },
    container: { type: "string" },
    json: { type: "boolean", default: false },
  });
  const dir = path.join(dataDirOf(f["data-dir"]), STACK_DIR);
  const s = readLiveState(dir);
  if (!s) throw new InputError("no stack is running");
  let n: number;
  try {
    n = await retryRefused(s.decoderUrl, f.container === undefined ? {} : { container: f.container });
  } catch (e) {
    if (e instanceof HostError) throw new InputError(e.message);
    throw e;
  }
  write(
    f.json
      ? `${JSON.stringify({ schema: "satpayload.stack-retry/1", retried: n, container: f.container ?? null })}\n`
      : n === 0
        ? `no refused records${f.container ? ` in ${f.container}` : ""}\n`
        : `${n} refused record(s)${f.container ? ` of ${f.container}` : ""} back to pending: they are being forwarded ("satpayload stack status" shows how it goes)\n`,
  );
}

async function down(argv: string[]): Promise<void> {
  const f = parseFlags(argv, { "data-dir": { type: "string" } });
  const dir = path.join(dataDirOf(f["data-dir"]), STACK_DIR);
  const s = readLiveState(dir);
  if (!s) {
    write("no stack is running\n");
    return;
  }
  try {
    await stopExternal(s);
  } catch (e) {
    if (e instanceof HostError) throw new InputError(e.message);
    throw e;
  }
  write(`stopped the stack (pid ${s.pid})\n`);
}

async function exportBundle(argv: string[]): Promise<void> {
  const f = parseFlags(argv, {
    out: { type: "string" },
    replicas: { type: "string" },
    layout: { type: "string", multiple: true },
    cse: { type: "string" },
    "cse-origin": { type: "string" },
    container: { type: "string" },
    "body-limit": { type: "string" },
    port: { type: "string" },
    "mqtt-port": { type: "string" },
    "coap-port": { type: "string" },
    json: { type: "boolean", default: false },
  });
  if (f.out === undefined) throw new UsageError("--out DIR is required");
  if (f.cse === "acme")
    throw new UsageError(
      "--cse acme starts ACME on this machine; the bundle needs the URL of the CSE its containers forward to",
    );
  const o = stackOptionsSchema.parse(
    stackInput({
      replicas: f.replicas,
      cse: f.cse,
      container: f.container,
      "body-limit": f["body-limit"],
      "cse-origin": f["cse-origin"],
    }),
  );
  const publicPort = intFlag(f.port, "--port", 443, 1, 65535);
  // published ports of a deployment: an operator names them (0, "any free port", means nothing on a server)
  const mqttPort =
    f["mqtt-port"] === undefined ? undefined : intFlag(f["mqtt-port"], "--mqtt-port", undefined, 1, 65535);
  const coapPort =
    f["coap-port"] === undefined ? undefined : intFlag(f["coap-port"], "--coap-port", undefined, 1, 65535);
  // MQTT is TCP like nginx's HTTPS and HTTP ports (CoAP is UDP: no clash)
  if (mqttPort !== undefined && (mqttPort === publicPort || mqttPort === 80))
    throw new UsageError(
      `--mqtt-port ${mqttPort} is nginx's ${mqttPort === publicPort ? "HTTPS" : "HTTP"} port already`,
    );
  let result: ExportResult;
  try {
    result = writeBundle({
      outDir: f.out,
      replicas: o.replicas,
      container: o.container,
      bodyLimit: o.bodyLimit,
      cseUrl: o.cseUrl,
      cseOrigin: o.cseOrigin,
      layouts: (f.layout ?? []).map((p) => path.resolve(p)),
      publicPort,
      mqttPort,
      coapPort,
      repoRoot,
      version: packageVersion(),
    });
  } catch (e) {
    if (e instanceof UsageError || e instanceof InputError || e instanceof LayoutError) throw e;
    if (e instanceof z.ZodError) throw new InputError(e.message);
    throw new InputError((e as Error).message);
  }
  const { files, tlsProblem } = result;
  const shown = files.filter((x) => !x.startsWith("src/"));
  write(
    f.json
      ? `${JSON.stringify({ schema: "satpayload.stack-export/2", out: path.resolve(f.out), files, tlsProblem: tlsProblem ?? null })}\n`
      : `wrote ${shown.map((x) => path.join(f.out!, x)).join(", ")} and the image's sources in ${path.join(f.out, "src")} (${files.length - shown.length} files)\n` +
          (tlsProblem
            ? `no TLS certificate: ${tlsProblem}\n`
            : "nginx/certs holds a self-signed pair for a first run: replace it before devices connect\n") +
          `Add keys: satpayload stack keys add --keys ${path.join(f.out, "secrets", "keys.json")} --device ID\nStart it with: cd ${f.out} && docker compose up -d --build\n`,
  );
}

export async function stackCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === "up") return up(rest);
  if (sub === "down") return down(rest);
  if (sub === "status") return status(rest);
  if (sub === "retry") return retry(rest);
  if (sub === "export") return exportBundle(rest);
  if (sub === "keys") return stackKeysCommand(rest);
  throw new UsageError(
    `stack needs a subcommand: up, down, status, retry, export or keys${sub ? ` (not "${sub}")` : ""}`,
  );
}
