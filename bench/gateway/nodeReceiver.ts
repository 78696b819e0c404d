// A gateway receiver in Node: accepts one loopback TCP connection per batch, splits the stream into
// length-prefixed messages, decodes each with one decoder and folds every field into a digest.
// stdout, one JSON line each: {"event":"listening",…} once, then per batch {"event":"batch",…}
// (with --verify, one {"event":"record",…} per message before it).
//   --decoder ours-sbe | ours-protobuf | pbjs-static | ours-flatbuffers | flatc-ts | frames-only
//   --max-payload N   [--static-module file] [--flatc-module file] [--verify]
// frames-only decodes nothing: the floor that socket, framing and the sender set for every receiver.
import net from "node:net";
import { codecFor, DecodeError, type Layout } from "#codecs";
import { compileSbe, protobufCodec } from "#codecs/plans";
import { UsageError } from "#services/shared/cliErrors.ts";
import { intFlag, parseFlags } from "#services/shared/flags.ts";
import { loadFlatcTelemetry } from "./flatcTelemetry.ts";
import { FrameError, FrameReader } from "./framing.ts";
import { loadStaticModule } from "./staticProtobuf.ts";
import { Digest, telemetryLayout } from "./telemetry.ts";

export const NODE_DECODERS = [
  "ours-sbe",
  "ours-protobuf",
  "pbjs-static",
  "ours-flatbuffers",
  "flatc-ts",
  "frames-only",
] as const;
export type NodeDecoder = (typeof NODE_DECODERS)[number];

/** What a decoder does with one message: fold it into the digest, and in verify mode report it. */
type Sink = (
  bytes: Uint8Array,
  digest: Digest,
  report: ((id: string, timestamp: string, payload: string) => void) | null,
) => void;

const OURS = {
  "ours-sbe": compileSbe,
  "ours-protobuf": protobufCodec.compile,
  "ours-flatbuffers": (l: Layout) => codecFor(l, "flatbuffers"),
};

function sinkFor(decoder: NodeDecoder, maxPayload: number, modules: { static?: string; flatc?: string }): Sink {
  const layout = telemetryLayout(maxPayload);
  if (decoder === "frames-only") return (bytes, digest) => digest.addFrame(bytes.length);
  if (decoder === "pbjs-static") {
    if (!modules.static) throw new UsageError("--static-module is required for pbjs-static");
    const T = loadStaticModule(modules.static);
    return (bytes, digest, report) => {
      const m = T.decode(bytes);
      digest.add(m.id.low, m.id.high, m.timestamp.low, m.timestamp.high, m.payload);
      report?.(m.id.toString(), m.timestamp.toString(), m.payload);
    };
  }
  if (decoder === "flatc-ts") {
    if (!modules.flatc) throw new UsageError("--flatc-module is required for flatc-ts");
    const read = loadFlatcTelemetry(modules.flatc);
    return (bytes, digest, report) => {
      const m = read(bytes);
      // every field through its generated accessor; an absent string reads as null, our decoders' ""
      const id = m.id();
      const timestamp = m.timestamp();
      const payload = m.payload() ?? "";
      digest.addRecord({ id, timestamp, payload });
      report?.(String(id), String(timestamp), payload);
    };
  }
  const codec = OURS[decoder](layout);
  return (bytes, digest, report) => {
    const r = codec.decode(bytes);
    digest.addRecord(r);
    report?.(String(r.id), String(r.timestamp), r.payload as string);
  };
}

function print(msg: object): void {
  process.stdout.write(`${JSON.stringify(msg)}\n`);
}

function main(): void {
  const flags = parseFlags(process.argv.slice(2), {
    decoder: { type: "string" },
    "max-payload": { type: "string" },
    "static-module": { type: "string" },
    "flatc-module": { type: "string" },
    verify: { type: "boolean", default: false },
  });
  const decoder = flags.decoder as NodeDecoder;
  if (!NODE_DECODERS.includes(decoder)) throw new UsageError(`--decoder must be one of ${NODE_DECODERS.join(", ")}`);
  const maxPayload = intFlag(flags["max-payload"], "--max-payload", undefined, 1, 65535);
  const sink = sinkFor(decoder, maxPayload, { static: flags["static-module"], flatc: flags["flatc-module"] });
  const verify = flags.verify === true;
  // header, fixed fields, lengths and FlatBuffers' vtable and offsets stay well under 64 bytes in every format
  const maxMessage = maxPayload + 64;

  const server = net.createServer((socket) => {
    let cpu0 = process.cpuUsage();
    let t0 = 0;
    let bytes = 0;
    const digest = new Digest();
    const report = verify
      ? (id: string, timestamp: string, payload: string) => print({ event: "record", id, timestamp, payload })
      : null;
    const reader = new FrameReader((m) => sink(m, digest, report), maxMessage);
    const fail = (e: unknown) => {
      if (!(e instanceof DecodeError || e instanceof FrameError)) throw e;
      print({ event: "error", message: e.message, messages: digest.count });
      socket.destroy();
    };
    socket.on("data", (chunk: Buffer) => {
      if (t0 === 0) {
        // getrusage: every thread of the process (V8's GC helpers too), to the microsecond
        cpu0 = process.cpuUsage();
        t0 = performance.now();
      }
      bytes += chunk.length;
      try {
        reader.push(chunk);
      } catch (e) {
        fail(e);
      }
    });
    socket.on("end", () => {
      try {
        reader.end();
      } catch (e) {
        fail(e);
        return;
      }
      const ms = t0 === 0 ? 0 : performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      print({
        event: "batch",
        messages: digest.count,
        bytes,
        ms,
        cpuMs: (cpu.user + cpu.system) / 1000,
        digest: digest.value,
      });
      socket.end();
    });
    socket.on("error", (e) => print({ event: "error", message: e.message, messages: digest.count }));
  });
  server.listen(0, "127.0.0.1", () => {
    const a = server.address() as net.AddressInfo;
    print({ event: "listening", url: `tcp://127.0.0.1:${a.port}`, port: a.port, decoder, pid: process.pid });
  });
  // ends with the bench: stdin is a pipe from the parent
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
}

main();
