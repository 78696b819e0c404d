// The embedded CSE as a process, the way the stack supervisor runs it:
//   tsx services/cse/main.ts [--host 127.0.0.1] [--port 7579] [--base Mobius] [--cse-id /Mobius2]
//                            [--data-dir DIR] [--superuser Sponde] [--allowed-ae-originators C*,S*]
//                            [--verify-subscriptions] [--notification-timeout-ms 2500]
//                            [--max-notification-failures 16] [--profile mobius|standard]
// Prints one JSON line {"event":"listening","url":...} on stdout when it answers; logs JSON lines on
// stderr; SIGTERM or SIGINT closes it cleanly (exit 0). Exit 2: bad flags; 1: could not start.
import { parseArgs } from "node:util";
import { CseConfigError } from "./src/errors.ts";
import { isProfileName, PROFILE_NAMES } from "./src/profile.ts";
import { startCse, type CseOptions } from "./src/server.ts";

function usage(message: string): never {
  process.stderr.write(`satpayload-cse: ${message}\n`);
  process.exit(2);
}

function integer(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) usage(`--${name} must be a non-negative integer, got "${text}"`);
  return Number(text);
}

function parse(argv: string[]): CseOptions {
  let values;
  try {
    values = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: "string" },
        port: { type: "string" },
        base: { type: "string" },
        "cse-id": { type: "string" },
        "data-dir": { type: "string" },
        superuser: { type: "string" },
        "allowed-ae-originators": { type: "string" },
        "verify-subscriptions": { type: "boolean" },
        "notification-timeout-ms": { type: "string" },
        "max-notification-failures": { type: "string" },
        profile: { type: "string" },
      },
    }).values;
  } catch (e) {
    usage((e as Error).message);
  }
  const profile = values.profile;
  if (profile !== undefined && !isProfileName(profile))
    usage(`--profile must be one of ${PROFILE_NAMES.join(", ")}, got "${profile}"`);
  return {
    profile,
    host: values.host,
    port: integer("port", values.port),
    base: values.base,
    cseId: values["cse-id"],
    dataDir: values["data-dir"],
    superuser: values.superuser,
    allowedAeOriginators: values["allowed-ae-originators"]
      ?.split(",")
      .map((s) => s.trim())
      .filter((s) => s !== ""),
    verifySubscriptions: values["verify-subscriptions"],
    notificationTimeoutMs: integer("notification-timeout-ms", values["notification-timeout-ms"]),
    maxNotificationFailures: integer("max-notification-failures", values["max-notification-failures"]),
  };
}

const options = parse(process.argv.slice(2));
const log = (e: Record<string, unknown>) =>
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...e })}\n`);
try {
  const cse = await startCse({ ...options, log });
  process.stdout.write(
    `${JSON.stringify({ event: "listening", url: cse.url, cseBaseUrl: cse.cseBaseUrl, base: cse.base, cseId: cse.cseId, profile: cse.profile, database: cse.databaseFile ?? ":memory:" })}\n`,
  );
  const stop = (signal: string) => {
    log({ event: "stopping", signal });
    cse.close().then(
      () => process.exit(0),
      (e) => {
        log({ event: "error", error: String(e) });
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
} catch (e) {
  if (e instanceof CseConfigError) usage(e.message);
  log({ event: "start-failed", error: (e as Error).message });
  process.exit(1);
}
