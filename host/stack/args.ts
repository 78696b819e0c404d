// The command lines the supervisor starts its services with, built from the stack's options: one
// place that says which option becomes which flag of which service.
import type { StackOptions } from "../api/stack.ts";

export const AE_NAME = "decoder";
export const SHARED_CONTAINER = "up";

export function embeddedCseArgs(opts: StackOptions, port: number, dataDir: string): string[] {
  return [
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--data-dir",
    dataDir,
    ...(opts.verifySubscriptions ? ["--verify-subscriptions"] : []),
    ...(opts.cseProfile ? ["--profile", opts.cseProfile] : []),
  ];
}

export function acmeArgs(opts: StackOptions, port: number, dataDir: string, venv: string): string[] {
  return [
    "--port",
    String(port),
    "--data-dir",
    dataDir,
    "--venv",
    venv,
    ...(opts.verifySubscriptions ? ["--verify-subscriptions"] : []),
    "--watch-stdin",
  ];
}

/** the embedded CSE runs inside the decoder (--embedded-cse): one process, one transaction per commit */
export function cseInDecoder(opts: StackOptions): boolean {
  return opts.cseInProcess && opts.cseUrl === undefined && opts.cseKind === "embedded" && opts.replicas === 1;
}

/** `cse`: the base URL to forward to, or the port of the CSE the decoder runs in its own process */
export function decoderArgs(
  opts: StackOptions,
  port: number,
  o: {
    dataDir: string;
    cse: { base: string } | { inProcessPort: number };
    projectsDb: string | undefined;
    mqttPort?: number | undefined;
    coapPort?: number | undefined;
  },
): string[] {
  return [
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--replicas",
    String(opts.replicas),
    "--data-dir",
    o.dataDir,
    ...("base" in o.cse
      ? ["--cse", o.cse.base]
      : [
          "--embedded-cse",
          "--cse-port",
          String(o.cse.inProcessPort),
          ...(opts.verifySubscriptions ? ["--verify-subscriptions"] : []),
          ...(opts.cseProfile ? ["--cse-profile", opts.cseProfile] : []),
        ]),
    "--cse-origin",
    opts.cseOrigin,
    "--ae",
    AE_NAME,
    "--container",
    opts.container,
    "--container-name",
    SHARED_CONTAINER,
    "--body-limit",
    String(opts.bodyLimit),
    "--preset",
    "all",
    // the studio's projects: every saved layout is known by its project id and name
    ...(o.projectsDb ? ["--projects-db", o.projectsDb] : []),
    ...opts.routes.flatMap((r) => [
      "--route",
      `${r.path}=${r.layout}:${r.format}:${r.body}${r.precision ? `:precision=${r.precision}` : ""}${r.range ? `:range=${r.range}` : ""}${r.batch ? `:batch=${r.batch}` : ""}`,
    ]),
    ...(o.mqttPort !== undefined ? ["--mqtt-port", String(o.mqttPort)] : []),
    ...(o.coapPort !== undefined ? ["--coap-port", String(o.coapPort)] : []),
    "--instance",
    "decoder",
    "--watch-stdin",
  ];
}
