// The official FlatBuffers reader of the telemetry message: accessor classes `flatc --ts` generates
// from our exported .fbs, over the npm `flatbuffers` runtime — the peer our FlatBuffers decoder is
// compared with, as protobufjs static code is for Protobuf.
import type { Layout } from "#codecs";
import { flatbuffersSchema } from "#codecs/plans";
import { flatcRootReader, loadFlatcTsModule, writeFlatcTsModule } from "#exporters-test/flatbuffers/flatcTs.ts";

/** Writes `<dir>/telemetry.fbs` and the bundled flatc module next to it; returns the module's path. */
export function writeFlatcModule(layout: Layout, dir: string): string {
  return writeFlatcTsModule(flatbuffersSchema(layout), dir, "telemetry");
}

/** The generated accessors of one message: every int64 a bigint, the payload a string. */
export interface FlatcTelemetry {
  id(): bigint;
  timestamp(): bigint;
  payload(): string | null;
}

/** Opens the module once; the reader it returns wraps each message's bytes as the generated code expects. */
export function loadFlatcTelemetry(file: string): (bytes: Uint8Array) => FlatcTelemetry {
  return flatcRootReader(loadFlatcTsModule(file), "Telemetry") as unknown as (bytes: Uint8Array) => FlatcTelemetry;
}
