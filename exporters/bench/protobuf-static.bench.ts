// `npx tsx exporters/bench/protobuf-static.bench.ts`: our protobuf codec against protobufjs static code
// (pbjs -t static-module) generated from the same .proto, on the paper preset. Prints numbers only.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { generateSamples, paperPreset, parseLayout, type TypedRecord } from "#codecs";
import { formatTimestamp, parseTimestamp, protobufCodec, protoModel, reflectModel } from "#codecs/plans";
import { generateProto } from "../src/proto.ts";

const SAMPLES = 1000;
const RUNS = process.argv.includes("--quick") ? 5 : 15;
const require = createRequire(import.meta.url);

interface StaticMessage {
  encode(m: object): { finish(): Uint8Array };
  decode(b: Uint8Array): Record<string, unknown>;
}

/** pbjs static-module output for the paper schema, loaded from a temp dir. */
async function staticCode(proto: string): Promise<StaticMessage> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "pbjs-static-"));
  try {
    writeFileSync(path.join(dir, "container.proto"), proto);
    const out = path.join(dir, "container.cjs");
    const pbjs = path.join(path.dirname(require.resolve("protobufjs-cli/package.json")), "bin/pbjs");
    execFileSync(process.execPath, [
      pbjs,
      "-t",
      "static-module",
      "-w",
      "commonjs",
      "--keep-case",
      "--dependency",
      require.resolve("protobufjs/minimal"),
      "-o",
      out,
      path.join(dir, "container.proto"),
    ]);
    const mod = (await import(pathToFileURL(out).href)) as { default: { container: { ContainerData: StaticMessage } } };
    return mod.default.container.ContainerData;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// What a static-code user writes to go from the typed record to the generated message and back.
const TIME = "DDMMYY hhmmss.s";
function toMessage(r: TypedRecord): object {
  const acc = r.acc as number[];
  return {
    msisdn: r.msisdn,
    iso6346: r.iso6346,
    time: formatTimestamp(r.time as number, TIME),
    cgi: r.cgi,
    door: r.door,
    rssi: r.rssi,
    ble_m: r["ble-m"],
    bat_soc: r["bat-soc"],
    gnss: r.gnss,
    nsat: r.nsat,
    acc_x: acc[0],
    acc_y: acc[1],
    acc_z: acc[2],
    temperature: r.temperature,
    humidity: r.humidity,
    pressure: r.pressure,
    latitude: r.latitude,
    longitude: r.longitude,
    altitude: r.altitude,
    speed: r.speed,
    heading: r.heading,
    hdop: r.hdop,
  };
}
function fromMessage(m: Record<string, unknown>): TypedRecord {
  return {
    msisdn: m.msisdn as string,
    iso6346: m.iso6346 as string,
    time: parseTimestamp(m.time as string, TIME)!,
    rssi: m.rssi as number,
    cgi: m.cgi as string,
    "ble-m": m.ble_m as number,
    "bat-soc": m.bat_soc as number,
    acc: [m.acc_x as number, m.acc_y as number, m.acc_z as number],
    temperature: m.temperature as number,
    humidity: m.humidity as number,
    pressure: m.pressure as number,
    door: m.door as string,
    gnss: m.gnss as number,
    latitude: m.latitude as number,
    longitude: m.longitude as number,
    altitude: m.altitude as number,
    speed: m.speed as number,
    heading: m.heading as number,
    nsat: m.nsat as number,
    hdop: m.hdop as number,
  };
}

let sink: unknown;
/** CPU time per 1 000 operations, best of RUNS (the machine is shared, so wall time is noisy). */
function measure(f: () => void): number {
  for (let i = 0; i < 30; i++) f();
  let best = Infinity;
  for (let r = 0; r < RUNS; r++) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < 10; i++) f();
    const d = process.cpuUsage(t0);
    best = Math.min(best, (d.user + d.system) / 1000 / 10);
  }
  return best;
}

async function main(): Promise<void> {
  const layout = parseLayout(paperPreset);
  const ours = protobufCodec.compile(layout);
  const Static = await staticCode(generateProto(layout));
  const reflected = reflectModel(protoModel(layout));
  const records = generateSamples(layout, SAMPLES, 1);
  const messages = records.map(toMessage);
  const bytes = records.map((r) => ours.encode(r));
  const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
  const same = messages.every((m, i) => hex(Static.encode(m).finish()) === hex(bytes[i]!));
  if (!same) throw new Error("static code and our codec disagree on the bytes");

  const rows: [string, number][] = [
    [
      "encode  ours (typed record → bytes, validated)",
      measure(() => {
        for (const r of records) sink = ours.encode(r);
      }),
    ],
    [
      "encode  static, typed record converted first",
      measure(() => {
        for (const r of records) sink = Static.encode(toMessage(r)).finish();
      }),
    ],
    [
      "encode  static, message objects prepared",
      measure(() => {
        for (const m of messages) sink = Static.encode(m).finish();
      }),
    ],
    [
      "encode  protobufjs reflection, prepared",
      measure(() => {
        for (const m of messages) sink = reflected.encode(m).finish();
      }),
    ],
    [
      "decode  ours (bytes → typed record, validated)",
      measure(() => {
        for (const b of bytes) sink = ours.decode(b);
      }),
    ],
    [
      "decode  static, converted to the typed record",
      measure(() => {
        for (const b of bytes) sink = fromMessage(Static.decode(b));
      }),
    ],
    [
      "decode  static, message objects only",
      measure(() => {
        for (const b of bytes) sink = Static.decode(b);
      }),
    ],
    [
      "decode  protobufjs reflection, message objects",
      measure(() => {
        for (const b of bytes) sink = reflected.decode(b);
      }),
    ],
  ];
  console.log(
    `protobuf, paper preset, ${SAMPLES} samples (seed 1), mean ${(bytes.reduce((n, b) => n + b.length, 0) / SAMPLES).toFixed(2)} bytes; static code bytes identical: ${same}`,
  );
  console.log(`CPU ms per ${SAMPLES} records, best of ${RUNS} (node ${process.version}):`);
  for (const [name, ms] of rows) console.log(`  ${name.padEnd(50)} ${ms.toFixed(3)}`);
  void sink;
}

await main();
