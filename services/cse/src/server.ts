// startCse(): the embedded CSE (profile mobius or standard) as one call, for main.ts, tests and benchmarks.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type Database from "better-sqlite3";
import { Cse } from "./cse.ts";
import { CseConfigError } from "./errors.ts";
import { createHandler } from "./http.ts";
import { Notifier } from "./notify.ts";
import { DEFAULT_PROFILE, isProfileName, PROFILE_NAMES, PROFILES, type ProfileName } from "./profile.ts";
import { Store } from "./resourceTree.ts";

export interface CseOptions {
  /** whose behaviour to reproduce where Mobius and the standard differ; default "mobius" (docs/cse.md) */
  profile?: ProfileName;
  /** default 127.0.0.1 */
  host?: string;
  /** default 7579 (Mobius); 0 picks a free port */
  port?: number;
  /** CSE base name, the first path segment; default "Mobius" */
  base?: string;
  /** default "/Mobius2" */
  cseId?: string;
  /** where cse.sqlite lives; without it the tree is kept in memory only */
  dataDir?: string;
  /**
   * keep the tree in this open database instead (dataDir is then ignored): another component of the
   * same process commits its own rows and instances in one transaction with it (the decoder's
   * in-process mode). That component owns the connection: its durability, and closing it.
   */
  connection?: Database.Database;
  /** may update and delete anything; default "Sponde" */
  superuser?: string;
  /** patterns with "*" wildcards of originators that may register AEs; default ["*"] (Mobius) */
  allowedAeOriginators?: string[];
  /** send ACME's verification request to new notification URIs; default false (Mobius) */
  verifySubscriptions?: boolean;
  /** per notification request; default 2500 ms (Mobius) */
  notificationTimeoutMs?: number;
  /** notifications in a row without an answer before a subscription is deleted; default 16 (Mobius) */
  maxNotificationFailures?: number;
  /** pending notifications kept per subscription; default 10 000 */
  maxPendingNotifications?: number;
  /** default 4 MiB */
  maxBodyBytes?: number;
  /** one structured event per call (errors, dropped notifications, removed subscriptions) */
  log?: (event: Record<string, unknown>) => void;
  /** the clock (ms since the epoch) behind ct, lt and Mobius' la/ol windows; default Date.now */
  now?: () => number;
}

export interface RunningCse {
  /** http://host:port */
  url: string;
  /** http://host:port/<base> */
  cseBaseUrl: string;
  port: number;
  base: string;
  cseId: string;
  profile: ProfileName;
  /** the SQLite file, or undefined when in memory */
  databaseFile: string | undefined;
  /** the CSE's core, for a component in the same process that creates resources without HTTP */
  core: Cse;
  /** stops accepting requests, ends connections, drops pending notifications, closes the database */
  close(): Promise<void>;
}

export const DB_FILE_NAME = "cse.sqlite";

const SEGMENT = /^[A-Za-z0-9._~-]+$/;

function patternMatcher(patterns: string[]): (s: string) => boolean {
  const res = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .split("*")
          .map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
          .join(".*")}$`,
      ),
  );
  return (s) => res.some((r) => r.test(s));
}

function positive(name: string, v: number | undefined, dflt: number, integer: boolean): number {
  if (v === undefined) return dflt;
  if (!Number.isFinite(v) || v <= 0 || (integer && !Number.isInteger(v)))
    throw new CseConfigError(`${name} must be a positive ${integer ? "integer" : "number"}, got ${v}`);
  return v;
}

export async function startCse(options: CseOptions = {}): Promise<RunningCse> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 7579;
  const base = options.base ?? "Mobius";
  const cseId = options.cseId ?? "/Mobius2";
  const superuser = options.superuser ?? "Sponde";
  const log = options.log ?? ((e) => console.error(JSON.stringify(e)));
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CseConfigError(`port must be 0..65535, got ${port}`);
  if (!SEGMENT.test(base) || base === "." || base === "..")
    throw new CseConfigError(`base "${base}" must be one path segment of letters, digits, . _ ~ -`);
  if (!/^\/[A-Za-z0-9._~-]+$/.test(cseId)) throw new CseConfigError(`CSE-ID "${cseId}" must look like /Mobius2`);
  const profile = options.profile ?? DEFAULT_PROFILE;
  if (!isProfileName(profile))
    throw new CseConfigError(`profile "${String(profile)}" is not one of ${PROFILE_NAMES.join(", ")}`);
  if (superuser === "") throw new CseConfigError("the superuser originator cannot be empty");
  const timeoutMs = positive("notificationTimeoutMs", options.notificationTimeoutMs, 2500, false);
  const maxFailures = positive("maxNotificationFailures", options.maxNotificationFailures, 16, true);
  const maxQueue = positive("maxPendingNotifications", options.maxPendingNotifications, 10_000, true);
  const maxBodyBytes = positive("maxBodyBytes", options.maxBodyBytes, 4 * 1024 * 1024, true);

  const databaseFile = options.connection
    ? options.connection.name
    : options.dataDir === undefined
      ? undefined
      : path.join(path.resolve(options.dataDir), DB_FILE_NAME);
  const store = new Store(options.connection ? { connection: options.connection } : databaseFile);
  let open = true;
  let url = "";
  let cse: Cse | undefined;
  const notifier = new Notifier({
    cseId,
    timeoutMs,
    maxFailures,
    maxQueue,
    log,
    onExhausted: (ri) => {
      if (open) cse?.removeSubscription(ri);
    },
  });
  const core = new Cse(store, notifier, {
    base,
    cseId,
    superuser,
    aeOriginatorAllowed: patternMatcher(options.allowedAeOriginators ?? ["*"]),
    verifySubscriptions: options.verifySubscriptions ?? false,
    pointOfAccess: () => url,
    profile: PROFILES[profile],
    now: options.now,
  });
  cse = core;
  const server = createServer(createHandler(core, { maxBodyBytes, log, isOpen: () => open }));
  try {
    core.init();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
  } catch (e) {
    store.close();
    throw e;
  }
  const actualPort = (server.address() as AddressInfo).port;
  url = `http://${host.includes(":") ? `[${host}]` : host}:${actualPort}`;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      open = false;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // requests are answered in microseconds; anything still open after this is a stalled client
      const force = setTimeout(() => server.closeAllConnections(), 1000);
      await stopped;
      clearTimeout(force);
      core.close();
      await notifier.close();
      store.close();
    })());
  return { url, cseBaseUrl: `${url}/${base}`, port: actualPort, base, cseId, profile, databaseFile, core, close };
}
