// The stack's processes: the CSE (embedded, or ACME) unless the decoder embeds it or an external CSE is
// given, and the decoder with its replicas — ports chosen once so addresses survive restarts, each a
// ManagedService (health-checked, restarted on crash, its output captured); stopped decoder first.
import { existsSync } from "node:fs";
import path from "node:path";
import { ACME_ADMIN, ACME_BASE } from "#services/shared/acme.ts";
import { ACME_ENTRY, CSE_ENTRY, DECODER_ENTRY } from "#services/shared/launch.ts";
import { freePort, freeUdpPort } from "#services/shared/ports.ts";
import { acmeArgs, cseInDecoder, decoderArgs, embeddedCseArgs } from "./args.ts";
import { ACME_VENV_DIR, decoderDataDir } from "./dirs.ts";
import { endpointsFor } from "./endpoints.ts";
import { ManagedService, type ServiceTimings } from "./service.ts";
import type { LogLine, StackEndpoints, StackOptions, StackStatus } from "../api/stack.ts";
import { DB_FILE_NAME } from "../db/open.ts";

const ACME_START_TIMEOUT_MS = 15 * 60_000;

/** what a started stack is: the options it runs with and where it answers */
export interface RunningStack {
  options: StackOptions;
  startedAt: Date;
  endpoints: StackEndpoints;
  decoderUrl: string;
  cseUrl: string | null;
}

export class StackProcesses {
  private cse: ManagedService | undefined;
  private decoder: ManagedService | undefined;

  constructor(
    private readonly o: {
      /** the stack's directory (<data dir>/stack) */
      dir: string;
      /** the app's data directory */
      dataDir: string;
      timings: ServiceTimings;
      log: (line: Omit<LogLine, "seq">) => void;
      /** a service changed state */
      onChange: () => void;
    },
  ) {}

  /** each process's state, the CSE first; the last run's stay after a stop */
  statuses(): StackStatus["services"] {
    return [this.cse, this.decoder].filter((s): s is ManagedService => !!s).map((s) => s.status());
  }

  /** Starts the CSE (unless the decoder embeds it or an external one is given), then the decoder. */
  async start(opts: StackOptions): Promise<RunningStack> {
    const onChange = this.o.onChange;
    const logTo = this.o.log;
    let cseBase = opts.cseUrl?.replace(/\/+$/, "");
    let cseUrl: string | null = null;
    const inDecoder = cseInDecoder(opts);
    // the CSE port is fixed across decoder restarts: readers and subscriptions keep their address
    const inProcessPort = inDecoder ? opts.csePort || (await freePort()) : 0;
    if (!cseBase && !inDecoder) {
      const port = opts.csePort || (await freePort());
      const acme = opts.cseKind === "acme";
      const health = acme ? { base: ACME_BASE, origin: ACME_ADMIN } : { base: "Mobius", origin: "Sponde" };
      this.cse = new ManagedService(
        {
          name: "cse",
          entry: acme ? ACME_ENTRY : CSE_ENTRY,
          port,
          args: acme
            ? (p) =>
                acmeArgs(opts, p, path.join(this.o.dir, "acme"), path.join(path.resolve(this.o.dataDir), ACME_VENV_DIR))
            : (p) => embeddedCseArgs(opts, p, path.join(this.o.dir, "cse")),
          healthPath: (url) => ({
            url: `${url}/${health.base}`,
            headers: {
              "X-M2M-RI": "health",
              "X-M2M-Origin": health.origin,
              "X-M2M-RVI": "3",
              Accept: "application/json",
            },
          }),
          tieToParent: acme,
        },
        // ACME is a Python program that may first be installed from PyPI
        acme
          ? { ...this.o.timings, startTimeoutMs: Math.max(this.o.timings.startTimeoutMs, ACME_START_TIMEOUT_MS) }
          : this.o.timings,
        logTo,
        onChange,
      );
      await this.cse.start();
      cseUrl = this.cse.status().url!;
      cseBase = String(this.cse.listening.cseBaseUrl ?? `${cseUrl}/${health.base}`);
    }
    const projects = path.join(path.resolve(this.o.dataDir), DB_FILE_NAME);
    const decoderPort = opts.decoderPort || (await freePort());
    // chosen once, like the HTTP port, so devices keep their address across decoder restarts
    const mqttPort = opts.mqttPort === undefined ? undefined : opts.mqttPort || (await freePort());
    const coapPort = opts.coapPort === undefined ? undefined : opts.coapPort || (await freeUdpPort());
    const base = cseBase;
    this.decoder = new ManagedService(
      {
        name: "decoder",
        entry: DECODER_ENTRY,
        port: decoderPort,
        args: (p) =>
          decoderArgs(opts, p, {
            dataDir: decoderDataDir(this.o.dir),
            cse: base ? { base } : { inProcessPort },
            projectsDb: existsSync(projects) ? projects : undefined,
            mqttPort,
            coapPort,
          }),
        healthPath: (url) => ({ url: `${url}/health` }),
        tieToParent: true,
      },
      this.o.timings,
      logTo,
      onChange,
    );
    await this.decoder.start();
    const decoderUrl = this.decoder.status().url!;
    if (inDecoder) {
      cseBase = String(this.decoder.listening.cseBaseUrl);
      cseUrl = new URL(cseBase).origin;
    }
    return {
      options: opts,
      startedAt: new Date(),
      endpoints: endpointsFor(decoderUrl, cseBase!, opts, { mqtt: mqttPort, coap: coapPort }),
      decoderUrl,
      cseUrl,
    };
  }

  async stop(): Promise<void> {
    // the decoder first: it flushes its commits and stops forwarding before the CSE goes away
    if (this.decoder) await this.decoder.stop();
    if (this.cse) await this.cse.stop(10_000);
  }

  /** synchronous, from process "exit": children get SIGTERM and shut down cleanly on their own */
  signalStop(): void {
    this.decoder?.signalStop();
    this.cse?.signalStop();
  }
}
