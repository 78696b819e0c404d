// protobufjs static code (pbjs -t static-module) for the telemetry layout's .proto, as its users
// generate it: the peer our protobuf decoder is compared with.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Layout } from "#codecs";
import { generateProto } from "#exporters";

const require = createRequire(import.meta.url);

/** Writes `<dir>/telemetry.proto` and the pbjs module next to it; returns the module's path. */
export function writeStaticModule(layout: Layout, dir: string): string {
  const proto = path.join(dir, "telemetry.proto");
  writeFileSync(proto, generateProto(layout));
  const out = path.join(dir, "telemetry.pbjs.cjs");
  const pbjs = path.join(path.dirname(require.resolve("protobufjs-cli/package.json")), "bin/pbjs");
  execFileSync(
    process.execPath,
    [
      pbjs,
      "-t",
      "static-module",
      "-w",
      "commonjs",
      "--dependency",
      require.resolve("protobufjs/minimal"),
      "--no-verify",
      "--no-convert",
      "--no-delimited",
      "-o",
      out,
      proto,
    ],
    { timeout: 60_000 },
  );
  return out;
}

/** protobufjs' int64 value with long.js installed (a dependency of protobufjs) */
export interface LongBits {
  low: number;
  high: number;
  toString(): string;
}

export interface StaticTelemetry {
  encode(m: object): { finish(): Uint8Array };
  decode(b: Uint8Array): { id: LongBits; timestamp: LongBits; payload: string };
}

export function loadStaticModule(file: string): StaticTelemetry {
  const mod = require(file) as { gateway: { Telemetry: StaticTelemetry } };
  return mod.gateway.Telemetry;
}
