// Starts the receivers (ours SBE, Protobuf and FlatBuffers, protobufjs static code and flatc's
// TypeScript accessors: Node; official SBE codecs: Java),
// streams batches to them over loopback TCP and collects what they report.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { generateSbeXml } from "#exporters";
import { buildWithSbeTool, sbeJar } from "#exporters-test/sbe/sbeTool.ts";
import { nodeCommand } from "#services/shared/launch.ts";
import type { NodeDecoder } from "./nodeReceiver.ts";
import { telemetryLayout } from "./telemetry.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const NODE_RECEIVER = path.join(here, "nodeReceiver.ts");
const JAVA_RECEIVER = path.join(here, "java/gatewaybench/Receiver.java");

export type ReceiverKind = NodeDecoder | "java-sbe";
/** the decoders the bench compares: ours and an official one per format */
export const DECODING_KINDS: readonly ReceiverKind[] = [
  "ours-sbe",
  "java-sbe",
  "ours-protobuf",
  "pbjs-static",
  "ours-flatbuffers",
  "flatc-ts",
];
export const RECEIVER_LABELS: Readonly<Record<ReceiverKind, string>> = {
  "frames-only": "framing only, no decoding (Node)",
  "ours-sbe": "SBE, ours (TypeScript, codecs/src)",
  "java-sbe": "SBE, official Java codecs (SbeTool 1.38.1)",
  "ours-protobuf": "Protobuf, ours (TypeScript, codecs/src)",
  "pbjs-static": "Protobuf, protobufjs static code (pbjs)",
  "ours-flatbuffers": "FlatBuffers, ours (TypeScript, codecs/src)",
  "flatc-ts": "FlatBuffers, flatc --ts accessors (npm flatbuffers)",
};

/** Which wire format a receiver reads (the framing-only floor reads the SBE stream). */
export type WireFormat = "sbe" | "protobuf" | "flatbuffers";
export function formatOf(kind: ReceiverKind): WireFormat {
  if (kind === "frames-only" || kind.endsWith("sbe")) return "sbe";
  return kind === "ours-flatbuffers" || kind === "flatc-ts" ? "flatbuffers" : "protobuf";
}

export interface BatchResult {
  messages: number;
  bytes: number;
  /** first byte received → last message decoded */
  ms: number;
  /** the receiver process's CPU time (all its threads) over the batch */
  cpuMs: number;
  digest: string;
}

export interface DecodedRecord {
  id: string;
  timestamp: string;
  payload: string;
}

type Event =
  | ({ event: "batch" } & BatchResult)
  | ({ event: "record" } & DecodedRecord)
  | { event: "error"; message: string; messages: number }
  | { event: "listening"; port: number; pid: number };

export class ReceiverError extends Error {
  override readonly name = "ReceiverError";
}

export interface Receiver {
  kind: ReceiverKind;
  pid: number;
  /** streams one batch over a new connection; with `verify` the receiver reports every record */
  send(framed: Buffer): Promise<{ result: BatchResult; records: DecodedRecord[] }>;
  stop(): Promise<void>;
}

/** Compiles the SbeTool codecs for the layout's schema with the Java receiver (cached under .cache/sbe/). */
export function buildJavaReceiver(maxPayload: number): string {
  const schemas = generateSbeXml(telemetryLayout(maxPayload)).map((f) => ({
    name: f.path.replace(/\.xml$/, ""),
    xml: f.content,
  }));
  return buildWithSbeTool(schemas, [
    { file: "gatewaybench/Receiver.java", source: readFileSync(JAVA_RECEIVER, "utf8") },
  ]).classes;
}

export interface ReceiverOptions {
  maxPayload: number;
  verify?: boolean;
  /** pbjs-static: the generated module */
  staticModule?: string;
  /** flatc-ts: the bundled module from writeFlatcModule */
  flatcModule?: string;
  /** java-sbe: classes from buildJavaReceiver */
  javaClasses?: string;
}

function command(kind: ReceiverKind, o: ReceiverOptions): { command: string; args: string[]; env?: NodeJS.ProcessEnv } {
  if (kind === "java-sbe") {
    if (!o.javaClasses) throw new Error("java-sbe needs javaClasses");
    // Agrona reads buffers through jdk.internal.misc.Unsafe; fixed compiler threads, so none ends with its CPU time uncounted
    return {
      command: "java",
      args: [
        "--add-exports",
        "java.base/jdk.internal.misc=ALL-UNNAMED",
        "-XX:-UseDynamicNumberOfCompilerThreads",
        "-cp",
        `${o.javaClasses}${path.delimiter}${sbeJar}`,
        "gatewaybench.Receiver",
        String(o.maxPayload),
        ...(o.verify ? ["--verify"] : []),
      ],
    };
  }
  const args = [
    "--decoder",
    kind,
    "--max-payload",
    String(o.maxPayload),
    ...(o.staticModule ? ["--static-module", o.staticModule] : []),
    ...(o.flatcModule ? ["--flatc-module", o.flatcModule] : []),
    ...(o.verify ? ["--verify"] : []),
  ];
  return nodeCommand(NODE_RECEIVER, args);
}

export async function startReceiver(kind: ReceiverKind, o: ReceiverOptions): Promise<Receiver> {
  const cmd = command(kind, o);
  const child: ChildProcess = spawn(cmd.command, cmd.args, {
    env: cmd.env ?? process.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const events: Event[] = [];
  const stderr: string[] = [];
  let wake: (() => void) | null = null;
  let gone: string | null = null;
  createInterface({ input: child.stdout! }).on("line", (line) => {
    if (!line.startsWith("{")) return;
    events.push(JSON.parse(line) as Event);
    wake?.();
  });
  createInterface({ input: child.stderr! }).on("line", (line) => {
    stderr.push(line);
    if (stderr.length > 30) stderr.shift();
  });
  void exited.then((code) => {
    gone = `${kind} receiver exited (${code})${stderr.length ? `:\n${stderr.join("\n")}` : ""}`;
    wake?.();
  });
  child.once("error", (e) => {
    gone = `${kind} receiver could not start: ${e.message}`;
    wake?.();
  });

  async function next(timeoutMs: number): Promise<Event> {
    const deadline = Date.now() + timeoutMs;
    while (events.length === 0) {
      if (gone) throw new ReceiverError(gone);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new ReceiverError(
          `${kind} receiver: no report within ${timeoutMs} ms${stderr.length ? `:\n${stderr.join("\n")}` : ""}`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      wake = null;
    }
    return events.shift()!;
  }

  const first = await next(60_000);
  if (first.event !== "listening")
    throw new ReceiverError(`${kind} receiver: expected a listening line, got ${JSON.stringify(first)}`);
  const { port, pid } = first;

  return {
    kind,
    pid,
    async send(framed) {
      await new Promise<void>((resolve, reject) => {
        const s = net.connect({ host: "127.0.0.1", port }, () => s.end(framed, () => resolve()));
        s.on("error", reject);
        // the receiver closes after its report; nothing comes back on the socket
        s.resume();
      });
      const records: DecodedRecord[] = [];
      for (;;) {
        const e = await next(120_000);
        if (e.event === "record") records.push({ id: e.id, timestamp: e.timestamp, payload: e.payload });
        else if (e.event === "batch")
          return {
            result: { messages: e.messages, bytes: e.bytes, ms: e.ms, cpuMs: e.cpuMs, digest: e.digest },
            records,
          };
        else if (e.event === "error")
          throw new ReceiverError(`${kind} receiver rejected the batch after ${e.messages} messages: ${e.message}`);
        else throw new ReceiverError(`${kind} receiver: unexpected ${JSON.stringify(e)}`);
      }
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin!.end();
      const t = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(t);
    },
  };
}
