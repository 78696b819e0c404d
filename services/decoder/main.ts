#!/usr/bin/env tsx
// The decoder service: `node --import tsx services/decoder/main.ts --data-dir DIR [--cse URL] …`.
// Prints one JSON line {"event":"listening","url":…} on stdout when it takes requests; logs go to stderr.
import cluster from "node:cluster";
import { DECODER_HELP, parseDecoderArgs, type DecoderConfig } from "./src/config.ts";
import { LayoutRegistry } from "./src/layouts.ts";
import {
  forwardedBy,
  runPrimary,
  WORKER_INDEX_ENV,
  type ListeningPorts,
  type PrimaryMessage,
  type WorkerMessage,
} from "./src/primary.ts";
import { startWorker } from "./src/worker.ts";
import { UsageError } from "../shared/cliErrors.ts";

const nativeBinding = process.env.SATPAYLOAD_SQLITE_BINDING || undefined;
// nothing can be stored any more: end, so cluster's primary or the supervisor starts a fresh process
const onFatal = () => process.exit(1);

function parse(): DecoderConfig {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(DECODER_HELP);
    process.exit(0);
  }
  try {
    return parseDecoderArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`decoder: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}

function onStop(stop: () => Promise<void>, cfg: DecoderConfig): void {
  let stopping = false;
  const run = () => {
    if (stopping) return;
    stopping = true;
    stop().then(
      () => process.exit(0),
      (e) => {
        process.stderr.write(`decoder: shutdown failed: ${(e as Error).stack ?? String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", run);
  process.on("SIGINT", run);
  if (cfg.watchStdin) {
    // the supervisor holds our stdin open; when it dies for any reason, so do we
    process.stdin.on("end", run);
    process.stdin.on("close", run);
    process.stdin.resume();
  }
}

function announce(cfg: DecoderConfig, ports: ListeningPorts): void {
  const host = cfg.host === "0.0.0.0" || cfg.host === "::" ? "127.0.0.1" : cfg.host;
  const at = (scheme: string, port: number | undefined) =>
    port === undefined ? undefined : `${scheme}://${host.includes(":") ? `[${host}]` : host}:${port}`;
  process.stdout.write(
    `${JSON.stringify({ event: "listening", url: at("http", ports.port), mqtt: at("mqtt", ports.mqttPort), coap: at("coap", ports.coapPort), replicas: cfg.replicas, pid: process.pid, ...(ports.cseBaseUrl ? { cseBaseUrl: ports.cseBaseUrl } : {}) })}\n`,
  );
}

async function main(): Promise<void> {
  const cfg = parse();
  const log = (m: string) => process.stderr.write(`[${cfg.instance}] ${m}\n`);
  if (cluster.isWorker) {
    const index = Number(process.env[WORKER_INDEX_ENV]);
    const w = await startWorker(cfg, {
      index,
      forwards: forwardedBy(index, cfg.bufferTotal, cfg.dataDir),
      nativeBinding,
      onFatal,
    });
    let closing = false;
    const close = () => {
      if (closing) return;
      closing = true;
      void w.close().finally(() => process.exit(0));
    };
    process.on("message", (m: PrimaryMessage) => {
      if (m?.type === "shutdown") close();
    });
    // the primary is gone: nobody would restart or stop us
    process.on("disconnect", close);
    // signals go to the primary, which tells us; a Ctrl-C in a terminal reaches the whole group
    process.on("SIGINT", () => {});
    process.on("SIGTERM", close);
    process.send!({
      type: "listening",
      port: w.port,
      mqttPort: w.mqttPort,
      coapPort: w.coapPort,
    } satisfies WorkerMessage);
    return;
  }
  if (cfg.replicas === 1) {
    const w = await startWorker(cfg, {
      index: cfg.bufferIndex,
      forwards: forwardedBy(cfg.bufferIndex, cfg.bufferTotal, cfg.dataDir),
      nativeBinding,
      onFatal,
    });
    onStop(() => w.close(), cfg);
    announce(cfg, w);
    return;
  }
  // a bad layout file or device key is reported once here, not by N workers restarting forever
  new LayoutRegistry(cfg).close();
  const primary = runPrimary(cfg, (ports) => announce(cfg, ports), log);
  onStop(() => primary.stop(), cfg);
}

main().catch((e: unknown) => {
  if (e instanceof UsageError) {
    process.stderr.write(`decoder: ${e.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`decoder: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
