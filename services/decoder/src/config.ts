// The decoder's command line, parsed into one typed config (bad flags are UsageErrors: exit 2).
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { presetById, PRESETS } from "#codecs";
import { DEFAULT_FIDELITY, isExcessChoice, type FidelityPolicy } from "#contracts/decoder/fidelity.ts";
import { mergeRoutes, parseRouteSpec, RouteSpecError, type DeviceRoute } from "#contracts/decoder/routes.ts";
import type { AuthConfig } from "./auth/guard.ts";
import type { EmbeddedCseConfig } from "./embedded/inProcessCse.ts";
import { MAX_RESOURCE_NAME } from "./names.ts";
import { isProfileName, PROFILE_NAMES } from "../../cse/src/profile.ts";
import { UsageError } from "../../shared/cliErrors.ts";
import { intFlag, parseFlags } from "../../shared/flags.ts";

export type ContainerMode = "device" | "shared";

export interface CseTarget {
  /** CSE base URL including the CSE's base name: http://127.0.0.1:7579/Mobius */
  url: string;
  origin: string;
  /** X-M2M-RVI; ACME requires it, Mobius echoes it */
  rvi: string;
  ae: string;
  containerMode: ContainerMode;
  /** the one container in shared mode */
  container: string;
  mni: number | undefined;
  mbs: number | undefined;
}

export interface DecoderConfig {
  host: string;
  port: number;
  /** MQTT ingest (embedded broker) port: undefined = off, 0 = any free port */
  mqttPort: number | undefined;
  /** CoAP ingest (UDP) port: undefined = off, 0 = any free port */
  coapPort: number | undefined;
  replicas: number;
  /** buffer index of this process's first worker (several decoder processes may share one data dir) */
  bufferIndex: number;
  /** buffers the whole deployment writes; files beyond are left-overs that get drained */
  bufferTotal: number;
  dataDir: string;
  layoutFiles: string[];
  presets: string[];
  projectsDb: string | undefined;
  /** layout id or name (or "*") → field path that names the device ("gps/id" for nested) */
  deviceKeys: Map<string, string>;
  defaultLayout: string | undefined;
  bodyLimit: number;
  /** device paths (POST /container-data …) fixed to a layout and format; the defaults included */
  routes: DeviceRoute[];
  /** values beyond the layout's declared decimals or range, where a route says nothing else */
  fidelity: FidelityPolicy;
  cse: CseTarget | undefined;
  /** --embedded-cse: the CSE runs in this process (cse.url is then its own address once it listens) */
  embeddedCse: EmbeddedCseConfig | undefined;
  commitDelayMs: number;
  commitMaxRecords: number;
  synchronous: "full" | "normal";
  forwardConcurrency: number;
  forwardBatch: number;
  retryBaseMs: number;
  retryMaxMs: number;
  requestTimeoutMs: number;
  instance: string;
  auth: AuthConfig;
  /** end when stdin closes: a supervisor that dies (even by SIGKILL) takes its children with it */
  watchStdin: boolean;
}

export const DECODER_HELP = `satpayload-decoder [flags]
  --host H              bind address (default 127.0.0.1; 0.0.0.0 in containers)
  --port N              HTTP port (default 0: any free port)
  --mqtt-port N         also take records over MQTT 3.1.1 on this TCP port (0: any free port; default off)
  --coap-port N         also take records over CoAP on this UDP port (0: any free port; default off; --replicas 1)
  --replicas N          worker processes sharing the port (node:cluster), 1..64 (default 1)
  --data-dir DIR        where the SQLite buffers live (required)
  --buffer-index I      first buffer this process writes (default 0): decoder processes sharing a
  --buffer-total T      data dir (containers on one volume) take I..I+replicas-1 of T (default replicas)
  --layout FILE         a *.satlayout.json file; repeatable (id: the file name without .satlayout.json)
  --preset ID           a built-in layout; repeatable (default: all presets when nothing else is given)
  --projects-db FILE    the studio's projects.sqlite: every project's current layout (id: project id)
  --default-layout L    layout used when a request names none (default: the only one, if one)
  --device-key L=FIELD  field that names the device for layout L ("*" for all); repeatable
  --body-limit BYTES    largest accepted body (default 65536)
  --route PATH=LAYOUT:FORMAT[:raw|envelope|auto][:precision=…][:range=…][:batch=columns|delta]   a device path
                        answering 200 (repeatable; default /container-data=paper:protobuf,
                        /astrocast-callback=paper:protobuf:envelope); batch=: each message is a batch of
                        the layout's readings, stored one record per reading (/ingest: header
                        X-Satpayload-Batch; MQTT topic <format>:batch=delta; CoAP ?batch=delta)
  --config FILE         JSON: {"routes": {"/container-data": "paper:cbor", …}} (--route wins per path)
  --precision flag|refuse   a value with more decimals than its field's text form declares: stored as
                        sent and counted per field (flag, default) or refused 400 (refuse); a route
                        may choose its own (PATH=LAYOUT:FORMAT:precision=refuse)
  --range refuse|flag   a value outside its field's declared min/max: refused 400 (refuse, default)
                        or stored as sent and counted (flag; self-describing formats); per route too
  --cse URL             forward to this CSE (base URL incl. base name); omit to only buffer
  --embedded-cse        run the embedded CSE inside this process (instead of --cse; --replicas 1):
                        record and contentInstance commit in one transaction, the CSE's tree in
                        the buffer file; readers and subscribers use the CSE's HTTP port as usual
  --cse-host H --cse-port N   where the in-process CSE answers (default 127.0.0.1:7579)
  --cse-profile mobius|standard   the in-process CSE's profile (default mobius)
  --verify-subscriptions      the in-process CSE verifies notification URIs (ACME's behaviour)
  --cse-origin ID       X-M2M-Origin (default Cdecoder)      --cse-rvi V   X-M2M-RVI (default 3)
  --ae NAME             AE resource name (default decoder)
  --container device|shared   one container per device key (default) or one shared container
  --container-name N    the shared container's name (default up)
  --mni N --mbs N       container limits to request (default: the CSE's own)
  --commit-ms MS        group commit window (default 2)   --commit-max N  records per commit (default 512)
  --synchronous full|normal   full (default): acknowledged records survive power loss
  --forward-concurrency N     containers forwarded in parallel (default 8)
  --retry-base-ms MS --retry-max-ms MS   forward retry backoff (default 250 / 30000)
  --auth on|auto|off    on: device keys for ingest, reader keys for /api/*, signed webhooks; auto
                        (default on loopback): keys needed once the keys file has writer keys,
                        reads open; off: no checks. Keys: satpayload stack keys
  --keys FILE           the credentials file (default <data-dir>/keys.json)
  --trust-proxy         client address = last X-Forwarded-For hop (behind nginx or an ingress)
  --auth-refusals N     refused requests per source and minute before 429 (default 30)
  --allow-unauthenticated   accept --auth off/auto on a non-loopback address
  --instance NAME       name in X-Satpayload-Instance and logs (default decoder)
  --watch-stdin         stop when stdin closes (used by the supervisor)
`;

function positive(
  value: string | undefined,
  flag: string,
  fallback: number,
  min = 1,
  max = Number.MAX_SAFE_INTEGER,
): number {
  return intFlag(value, flag, fallback, min, max);
}

function optionalInt(value: string | undefined, flag: string): number | undefined {
  return value === undefined ? undefined : intFlag(value, flag, undefined, 0);
}

function excessChoice(value: string | undefined, flag: string, fallback: FidelityPolicy["precision"]) {
  if (value === undefined) return fallback;
  if (!isExcessChoice(value)) throw new UsageError(`${flag} must be flag or refuse, not "${value}"`);
  return value;
}

/** oneM2M resource names must be safe in a URL path segment and not collide with la/ol. */
export function checkResourceName(name: string, flag: string): string {
  // at most 45: Mobius keeps names in lookup.rn varchar(45) and refuses longer ones (500/5000)
  if (!/^[A-Za-z0-9._~-]{1,45}$/.test(name) || name === "la" || name === "ol")
    throw new UsageError(
      `${flag} "${name}" is not a usable oneM2M resource name (1 to ${MAX_RESOURCE_NAME} letters, digits, . _ ~ -; not la/ol)`,
    );
  return name;
}

/** addresses only this machine can reach: the one place where an open stack is acceptable */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function parseDecoderArgs(argv: string[]): DecoderConfig {
  const f = parseFlags(argv, {
    host: { type: "string" },
    port: { type: "string" },
    "mqtt-port": { type: "string" },
    "coap-port": { type: "string" },
    replicas: { type: "string" },
    "buffer-index": { type: "string" },
    "buffer-total": { type: "string" },
    "data-dir": { type: "string" },
    layout: { type: "string", multiple: true },
    preset: { type: "string", multiple: true },
    "projects-db": { type: "string" },
    "default-layout": { type: "string" },
    "device-key": { type: "string", multiple: true },
    "body-limit": { type: "string" },
    route: { type: "string", multiple: true },
    config: { type: "string" },
    precision: { type: "string" },
    range: { type: "string" },
    cse: { type: "string" },
    "embedded-cse": { type: "boolean", default: false },
    "cse-host": { type: "string" },
    "cse-port": { type: "string" },
    "cse-profile": { type: "string" },
    "verify-subscriptions": { type: "boolean", default: false },
    "cse-origin": { type: "string" },
    "cse-rvi": { type: "string" },
    ae: { type: "string" },
    container: { type: "string" },
    "container-name": { type: "string" },
    mni: { type: "string" },
    mbs: { type: "string" },
    "commit-ms": { type: "string" },
    "commit-max": { type: "string" },
    synchronous: { type: "string" },
    "forward-concurrency": { type: "string" },
    "retry-base-ms": { type: "string" },
    "retry-max-ms": { type: "string" },
    instance: { type: "string" },
    auth: { type: "string" },
    keys: { type: "string" },
    "trust-proxy": { type: "boolean", default: false },
    "auth-refusals": { type: "string" },
    "allow-unauthenticated": { type: "boolean", default: false },
    "watch-stdin": { type: "boolean", default: false },
  });
  if (f["data-dir"] === undefined) throw new UsageError("--data-dir is required");
  const layoutFiles = (f.layout ?? []).map((p) => path.resolve(p));
  const projectsDb = f["projects-db"] !== undefined ? path.resolve(f["projects-db"]) : undefined;
  let presets = f.preset ?? [];
  if (presets.includes("all") || (presets.length === 0 && layoutFiles.length === 0 && projectsDb === undefined))
    presets = PRESETS.map((p) => p.id);
  for (const p of presets)
    if (!presetById(p))
      throw new UsageError(`unknown preset "${p}" (presets: ${PRESETS.map((x) => x.id).join(", ")}, all)`);

  const deviceKeys = new Map<string, string>();
  for (const d of f["device-key"] ?? []) {
    const eq = d.lastIndexOf("=");
    if (eq <= 0 || eq === d.length - 1) throw new UsageError(`--device-key takes LAYOUT=FIELD, got "${d}"`);
    deviceKeys.set(d.slice(0, eq), d.slice(eq + 1));
  }

  const mode = f.container ?? "device";
  if (mode !== "device" && mode !== "shared")
    throw new UsageError(`--container must be device or shared, not "${mode}"`);
  let cse: CseTarget | undefined;
  let embeddedCse: EmbeddedCseConfig | undefined;
  if (f["embedded-cse"]) {
    if (f.cse !== undefined) throw new UsageError("--embedded-cse runs the CSE in this process: leave out --cse");
    const profile = f["cse-profile"];
    if (profile !== undefined && !isProfileName(profile))
      throw new UsageError(`--cse-profile must be one of ${PROFILE_NAMES.join(", ")}, not "${profile}"`);
    embeddedCse = {
      host: f["cse-host"] ?? "127.0.0.1",
      port: intFlag(f["cse-port"], "--cse-port", 7579, 0, 65535),
      profile,
      verifySubscriptions: f["verify-subscriptions"],
    };
  } else {
    for (const flag of ["cse-host", "cse-port", "cse-profile"] as const)
      if (f[flag] !== undefined)
        throw new UsageError(`--${flag} configures the in-process CSE: it needs --embedded-cse`);
    if (f["verify-subscriptions"])
      throw new UsageError("--verify-subscriptions configures the in-process CSE: it needs --embedded-cse");
  }
  const cseUrl = embeddedCse ? `http://${embeddedCse.host}:${embeddedCse.port}/Mobius` : f.cse;
  if (cseUrl !== undefined) {
    let u: URL;
    try {
      u = new URL(cseUrl);
    } catch {
      throw new UsageError(`--cse "${cseUrl}" is not a URL`);
    }
    if (u.protocol !== "http:")
      throw new UsageError(`--cse must be an http:// URL (the oneM2M HTTP binding), not ${u.protocol}`);
    if (u.pathname === "/" || u.pathname === "")
      throw new UsageError(`--cse needs the CSE base name in the path, e.g. ${u.origin}/Mobius`);
    cse = {
      url: `${u.origin}${u.pathname.replace(/\/+$/, "")}`,
      origin: f["cse-origin"] ?? "Cdecoder",
      rvi: f["cse-rvi"] ?? "3",
      ae: checkResourceName(f.ae ?? "decoder", "--ae"),
      containerMode: mode,
      container: checkResourceName(f["container-name"] ?? "up", "--container-name"),
      mni: optionalInt(f.mni, "--mni"),
      mbs: optionalInt(f.mbs, "--mbs"),
    };
  }
  const synchronous = f.synchronous ?? "full";
  if (synchronous !== "full" && synchronous !== "normal")
    throw new UsageError(`--synchronous must be full or normal, not "${synchronous}"`);
  const retryBaseMs = positive(f["retry-base-ms"], "--retry-base-ms", 250, 1, 600_000);
  const retryMaxMs = positive(f["retry-max-ms"], "--retry-max-ms", 30_000, 1, 3_600_000);
  if (retryMaxMs < retryBaseMs) throw new UsageError("--retry-max-ms must be at least --retry-base-ms");
  const replicas = positive(f.replicas, "--replicas", 1, 1, 64);
  if (embeddedCse && replicas > 1)
    throw new UsageError(
      "--embedded-cse shares one transaction between the decoder and the CSE of one process: it needs --replicas 1 (for more replicas, run the CSE on its own and give --cse URL)",
    );
  const bufferIndex = intFlag(f["buffer-index"], "--buffer-index", 0, 0, 1023);
  const bufferTotal = positive(f["buffer-total"], "--buffer-total", bufferIndex + replicas, 1, 1024);
  if (bufferIndex + replicas > bufferTotal)
    throw new UsageError(
      `--buffer-index ${bufferIndex} + --replicas ${replicas} exceeds --buffer-total ${bufferTotal}`,
    );
  const host = f.host ?? "127.0.0.1";
  const mqttPort = f["mqtt-port"] === undefined ? undefined : intFlag(f["mqtt-port"], "--mqtt-port", 0, 0, 65535);
  const coapPort = f["coap-port"] === undefined ? undefined : intFlag(f["coap-port"], "--coap-port", 0, 0, 65535);
  // node:cluster would spread one exchange's retransmissions over workers that do not know it
  if (coapPort !== undefined && replicas > 1)
    throw new UsageError(
      "--coap-port needs --replicas 1 (CoAP retransmissions must reach the worker that holds the exchange)",
    );
  const auth = f.auth ?? (isLoopback(host) ? "auto" : "on");
  if (auth !== "on" && auth !== "off" && auth !== "auto")
    throw new UsageError(`--auth must be on, auto or off, not "${auth}"`);
  if (auth !== "on" && !isLoopback(host) && !f["allow-unauthenticated"])
    throw new UsageError(
      `refusing to accept records and serve telemetry without authentication on ${host}: use --auth on (keys: satpayload stack keys add), or --allow-unauthenticated behind a proxy that authenticates`,
    );
  const dataDir = path.resolve(f["data-dir"]);
  return {
    host,
    port: intFlag(f.port, "--port", 0, 0, 65535),
    mqttPort,
    coapPort,
    replicas,
    bufferIndex,
    bufferTotal,
    dataDir,
    layoutFiles,
    presets,
    projectsDb,
    deviceKeys,
    defaultLayout: f["default-layout"],
    bodyLimit: positive(f["body-limit"], "--body-limit", 65536, 1, 16 * 1024 * 1024),
    routes: routesFrom(f.config, f.route ?? []),
    fidelity: {
      precision: excessChoice(f.precision, "--precision", DEFAULT_FIDELITY.precision),
      range: excessChoice(f.range, "--range", DEFAULT_FIDELITY.range),
    },
    cse,
    embeddedCse,
    commitDelayMs: intFlag(f["commit-ms"], "--commit-ms", 2, 0, 1000),
    commitMaxRecords: positive(f["commit-max"], "--commit-max", 512, 1, 100_000),
    synchronous,
    forwardConcurrency: positive(f["forward-concurrency"], "--forward-concurrency", 8, 1, 256),
    forwardBatch: 1000,
    retryBaseMs,
    retryMaxMs,
    requestTimeoutMs: 10_000,
    instance: f.instance ?? "decoder",
    auth: {
      mode: auth,
      keysFile: f.keys !== undefined ? path.resolve(f.keys) : path.join(dataDir, "keys.json"),
      trustProxy: f["trust-proxy"],
      refusalsPerMinute: positive(f["auth-refusals"], "--auth-refusals", 30, 1, 1_000_000),
    },
    watchStdin: f["watch-stdin"],
  };
}

const configFileSchema = z.strictObject({ routes: z.record(z.string(), z.string()).optional() });

/** the config file's routes, then --route flags (the later wins for one path), then the defaults */
function routesFrom(configFile: string | undefined, flags: string[]): DeviceRoute[] {
  const byPath = new Map<string, DeviceRoute>();
  const add = (spec: string, where: string) => {
    try {
      const r = parseRouteSpec(spec);
      byPath.set(r.path, r);
    } catch (e) {
      if (e instanceof RouteSpecError) throw new UsageError(`${where}: ${e.message}`);
      throw e;
    }
  };
  if (configFile !== undefined) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(configFile, "utf8"));
    } catch (e) {
      throw new UsageError(`--config ${configFile}: ${(e as Error).message}`);
    }
    const parsed = configFileSchema.safeParse(raw);
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      throw new UsageError(
        `--config ${configFile}: ${i.path.join(".") || "the file"}: ${i.message} (expected {"routes": {"/path": "layout:format"}})`,
      );
    }
    for (const [p, target] of Object.entries(parsed.data.routes ?? {})) add(`${p}=${target}`, `--config ${configFile}`);
  }
  for (const spec of flags) add(spec, "--route");
  return mergeRoutes([...byPath.values()]);
}
