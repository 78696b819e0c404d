// `satpayload channel`: protocol-stack overhead per message, and the random-access channel
// simulator on seed 003's scenario or on the user's fleet.
import { measureSizes } from "#codecs";
import { allStackOverheads, OverheadError, stackOverheadCsv } from "#planning";
import {
  type ChannelConfig,
  ChannelConfigError,
  DEFAULT_FLEET_CHANNEL,
  feasibleBytesPerPacket,
  KB,
  type FleetInput,
  type FleetResult,
  type FleetStack,
  loadFactorsFor,
  rowsOutside,
  SEED003_CHANNEL,
  SEED003_COAP_BLOCK,
  SEED003_STACKS,
  SEED003_TOLERANCE,
  seed003Row,
  type Seed003Row,
  simulateFleet,
  stackLabel,
} from "#planning/channel";
import {
  commaList,
  intFlag,
  LAYOUT_FLAGS,
  loadLayout,
  parseFlags,
  parseFormat,
  table,
  UsageError,
  write,
} from "./common.ts";
import { loadRecords, RECORD_FLAGS } from "./records.ts";

export const CHANNEL_SCHEMA = "satpayload.channel/1";
export const OVERHEAD_SCHEMA = "satpayload.overhead/1";

export const channelHelp = `satpayload channel simulate --scenario seed003 [--nstart N,...] [--no-mqtt] [--horizon S] [--sim-seed N] [--json]
  Seed 003 (Bacco et al. 2017) on its DVB-RCS2 3-CRDSA channel: goodput (Table II), MAC offered
  load (Table III) and completion time per packets per exchange (Fig. 4), beside the paper's values.
satpayload channel simulate --layout FILE | --preset ID --format NAME --devices N --per-day M
                [--stack coap:NSTART|mqtt ...] [--loads G,G,...] [--horizon S] [--sim-seed N]
                [--slots N] [--replicas N] [--block-ms MS] [--slot-bytes B] [--rtt S]
                [--records FILE.jsonl | --samples N --seed S] [--json]
  Your fleet on a random-access channel (default: seed 003's): each device a terminal, each message
  an exchange. Per stack, at the fleet's own traffic and at the normalized loads --loads
  (default 0.05,0.1,0.2,0.4,0.6): offered load, collision probability, completion p50/p95/p99, goodput.
satpayload channel overhead --payload BYTES[,BYTES...] | (--layout FILE | --preset ID) --format NAME
                [--csv | --json]
  Bytes on air per message over each protocol stack, layer by layer.
`;

function list(value: string | undefined, flag: string): number[] | undefined {
  if (value === undefined) return undefined;
  const out = commaList([value]).map(Number);
  if (out.length === 0 || out.some((n) => !Number.isFinite(n) || n <= 0))
    throw new UsageError(`${flag} takes positive numbers separated by commas, got "${value}"`);
  return out;
}

function positive(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number, got "${value}"`);
  return n;
}

function parseStacks(values: readonly string[] | undefined): FleetStack[] {
  const names = commaList(values ?? ["coap:1", "coap:10", "mqtt"]);
  return names.map((n) => {
    if (n === "mqtt") return { kind: "mqtt" };
    const m = /^coap:(\d+)$/.exec(n);
    if (!m || Number(m[1]) < 1) throw new UsageError(`unknown stack "${n}" (stacks: coap:NSTART, mqtt)`);
    return { kind: "coap", nstart: Number(m[1]) };
  });
}

/** Bad numbers in the scenario are the user's flags: exit 2 with the reason. */
function asUsage<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ChannelConfigError || e instanceof OverheadError) throw new UsageError(e.message);
    throw e;
  }
}

const progress = (label: string) => (f: number) => {
  if (process.stderr.isTTY) process.stderr.write(`\r${label} ${(f * 100).toFixed(0).padStart(3)} %`);
};
const endProgress = () => {
  if (process.stderr.isTTY) process.stderr.write("\r\x1b[K");
};

export async function channelCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === "simulate") return simulate(rest);
  if (sub === "overhead") return overhead(rest);
  throw new UsageError(
    `channel needs a subcommand: simulate or overhead (got ${sub === undefined ? "none" : `"${sub}"`})`,
  );
}

async function simulate(argv: string[]): Promise<void> {
  const flags = parseFlags(argv, {
    ...LAYOUT_FLAGS,
    ...RECORD_FLAGS,
    scenario: { type: "string" },
    nstart: { type: "string" },
    "no-mqtt": { type: "boolean", default: false },
    format: { type: "string" },
    devices: { type: "string" },
    "per-day": { type: "string" },
    stack: { type: "string", multiple: true },
    loads: { type: "string" },
    horizon: { type: "string" },
    "sim-seed": { type: "string" },
    slots: { type: "string" },
    replicas: { type: "string" },
    "block-ms": { type: "string" },
    "slot-bytes": { type: "string" },
    rtt: { type: "string" },
    json: { type: "boolean", default: false },
  });
  const simSeed = intFlag(flags["sim-seed"], "--sim-seed", 1, 0, 0xffffffff);
  if (flags.scenario !== undefined) {
    if (flags.scenario !== "seed003") throw new UsageError(`unknown scenario "${flags.scenario}" (scenarios: seed003)`);
    const fleetOnly = [
      "layout",
      "preset",
      "format",
      "devices",
      "per-day",
      "stack",
      "loads",
      "records",
      "samples",
      "seed",
      "slots",
      "replicas",
      "block-ms",
      "slot-bytes",
      "rtt",
    ] as const;
    const extra = fleetOnly.filter((k) => flags[k] !== undefined);
    if (extra.length)
      throw new UsageError(`--scenario seed003 fixes the channel and the traffic (drop --${extra.join(", --")})`);
    return seed003(
      flags.nstart,
      !flags["no-mqtt"],
      positive(flags.horizon, "--horizon", 1000),
      simSeed,
      flags.json ?? false,
    );
  }
  const { layout, preset } = loadLayout(flags);
  const format = parseFormat(flags.format);
  const devices = intFlag(flags.devices, "--devices", undefined, 1, 10_000_000);
  const messagesPerDay = positive(flags["per-day"], "--per-day", Number.NaN);
  if (Number.isNaN(messagesPerDay)) throw new UsageError("--per-day is required");
  const source = loadRecords(layout, flags);
  const measured = measureSizes(layout, source.records, [format])[0]!;
  if (measured.stats.count === 0)
    throw new UsageError(`no record encodes as ${format}: ${measured.firstError ?? "unknown reason"}`);
  const base = DEFAULT_FLEET_CHANNEL;
  const channel: ChannelConfig = {
    ...base,
    mac: {
      ...base.mac,
      slotsPerBlock: intFlag(flags.slots, "--slots", base.mac.slotsPerBlock, 1, 100_000),
      replicas: intFlag(flags.replicas, "--replicas", base.mac.replicas, 1, 16),
    },
    blockDuration: positive(flags["block-ms"], "--block-ms", base.blockDuration * 1000) / 1000,
    netSlotBytes: intFlag(flags["slot-bytes"], "--slot-bytes", base.netSlotBytes, 1, 65_535),
    rtt: positive(flags.rtt, "--rtt", base.rtt),
  };
  const targets = list(flags.loads, "--loads") ?? [0.05, 0.1, 0.2, 0.4, 0.6];
  const horizon = positive(flags.horizon, "--horizon", 600);
  const stacks = parseStacks(flags.stack);
  const results: FleetResult[] = asUsage(() =>
    stacks.map((stack) => {
      const input: FleetInput = {
        devices,
        messagesPerDay,
        sizes: Array.from(measured.sizes),
        stack,
        channel,
        horizon,
        seed: simSeed,
        layout: preset ?? layout.name,
        format,
      };
      const r = simulateFleet(input, loadFactorsFor(input, targets), progress(stackLabel(stack)));
      endProgress();
      return r;
    }),
  );
  if (flags.json) {
    write(
      `${JSON.stringify(
        {
          schema: CHANNEL_SCHEMA,
          mode: "fleet",
          layout: layout.name,
          preset: preset ?? null,
          format,
          sizes: measured.stats,
          devices,
          messagesPerDay,
          channel,
          horizon,
          simSeed,
          stacks: results,
        },
        null,
        2,
      )}\n`,
    );
    return;
  }
  write(
    `${layout.name} as ${format}: ${measured.stats.count} messages, mean ${measured.stats.mean.toFixed(1)} B, max ${measured.stats.max} B\n`,
  );
  write(
    `${devices.toLocaleString("en-US")} devices × ${messagesPerDay}/day on ${channel.mac.replicas === 1 ? "slotted ALOHA" : `${channel.mac.replicas}-CRDSA`}, ${channel.mac.slotsPerBlock} slots / ${(channel.blockDuration * 1000).toFixed(1)} ms, ${channel.netSlotBytes} B slots, RTT ${channel.rtt} s\n\n`,
  );
  const rows = results.flatMap((r) =>
    r.points.map((p) => [
      r.stack,
      p.loadFactor === 1 ? "fleet" : `×${p.loadFactor.toFixed(1)}`,
      p.messagesPerSecond.toFixed(2),
      p.offeredLoad.mean.toFixed(3),
      `${(p.collisionProbability * 100).toFixed(2)} %`,
      p.completion.p50.toFixed(2),
      p.completion.p95.toFixed(2),
      p.completion.p99.toFixed(2),
      (p.goodputBytesPerSecond / 1024).toFixed(2),
      `${p.completed}/${p.exchanges}`,
    ]),
  );
  write(
    table(
      ["stack", "traffic", "msg/s", "load G", "collisions", "p50 s", "p95 s", "p99 s", "goodput KB/s", "done"],
      rows,
      2,
    ),
  );
}

function seed003(
  nstartFlag: string | undefined,
  withMqtt: boolean,
  horizon: number,
  simSeed: number,
  json: boolean,
): void {
  const nstarts = list(nstartFlag, "--nstart")?.map((n) => {
    if (!Number.isInteger(n)) throw new UsageError(`--nstart takes whole numbers, got ${n}`);
    return n;
  });
  const stacks = [...(nstarts ?? SEED003_STACKS.filter((s): s is number => s !== null)), ...(withMqtt ? [null] : [])];
  const rows: Seed003Row[] = stacks.map((n) => {
    const r = seed003Row(n, horizon, simSeed, progress(n === null ? "MQTT/TCP" : `NSTART ${n}`));
    endProgress();
    return r;
  });
  if (json) {
    write(`${JSON.stringify({ schema: CHANNEL_SCHEMA, mode: "seed003", horizon, simSeed, rows }, null, 2)}\n`);
    return;
  }
  write(
    `Seed 003 (Bacco, Colucci, Gotta 2017) on 3-CRDSA, 64 slots / 13 ms, 182 B slots, RTT 0.52 s, ${horizon} s of arrivals at λ⁻¹ = 1 s, seed ${simSeed}\n\n`,
  );
  const pct = (a: number, b: number) =>
    Number.isFinite(b) ? `${a >= b ? "+" : ""}${((a / b - 1) * 100).toFixed(0)} %` : "–";
  write(
    table(
      ["stack", "goodput KB/s", "paper", "Δ", "load G", "paper G", "Δ", "collisions", "completion p50 s", "p95 s"],
      rows.map((r) => [
        r.label,
        r.goodputKBps.toFixed(2),
        Number.isFinite(r.paperGoodputKBps) ? r.paperGoodputKBps.toFixed(2) : "–",
        pct(r.goodputKBps, r.paperGoodputKBps),
        r.load.mean.toFixed(4),
        r.paperLoad ? r.paperLoad.mean.toFixed(4) : "–",
        r.paperLoad ? pct(r.load.mean, r.paperLoad.mean) : "–",
        `${(r.collisionProbability * 100).toFixed(3)} %`,
        r.completion.p50.toFixed(1),
        r.completion.p95.toFixed(1),
      ]),
    ),
  );
  write(`\n${seed003Note(rows)}\n`);
}

/** Says which rows miss the issue's ±10 % and why, rather than widening the tolerance. */
function seed003Note(rows: Seed003Row[]): string {
  const pc = `±${SEED003_TOLERANCE * 100} %`;
  const out = rowsOutside(rows);
  if (out.length === 0) return `Every row is within ${pc} of the paper.`;
  const w = feasibleBytesPerPacket(SEED003_TOLERANCE, KB);
  return [
    `Outside ${pc} of the paper: ${out.map((o) => o.label).join(", ")}.`,
    `Why: Tables II and III together allow ${w.low.toFixed(1)}–${w.high.toFixed(1)} B of data per packet for every CoAP row`,
    `to be within ${pc}; this model's packets carry ${SEED003_COAP_BLOCK} B (RFC 7959 block), and its ${SEED003_CHANNEL.terminals} terminals`,
    `are an assumption (the paper gives no number). See docs/channel.md, "Where ±10 % cannot be reached".`,
  ].join("\n");
}

function overhead(argv: string[]): void {
  const flags = parseFlags(argv, {
    ...LAYOUT_FLAGS,
    ...RECORD_FLAGS,
    payload: { type: "string" },
    format: { type: "string" },
    csv: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  });
  if (flags.csv && flags.json) throw new UsageError("give --csv or --json, not both");
  let payloads: number[];
  let ctx = { layout: "device", format: "binary" };
  if (flags.payload !== undefined) {
    if (flags.layout !== undefined || flags.preset !== undefined)
      throw new UsageError("give --payload or a layout, not both");
    payloads = flags.payload.split(",").map((s) => intFlag(s.trim(), "--payload", undefined, 0, 65_000));
    if (flags.format !== undefined) ctx = { ...ctx, format: parseFormat(flags.format) };
  } else {
    const { layout, preset } = loadLayout(flags);
    const format = parseFormat(flags.format);
    const m = measureSizes(layout, loadRecords(layout, flags).records, [format])[0]!;
    if (m.stats.count === 0)
      throw new UsageError(`no record encodes as ${format}: ${m.firstError ?? "unknown reason"}`);
    payloads = [...new Set([m.stats.min, m.stats.p50, m.stats.max])];
    ctx = { layout: preset ?? layout.name, format };
  }
  const rows = asUsage(() => payloads.flatMap((p) => allStackOverheads(p, ctx)));
  if (flags.csv) return write(asUsage(() => stackOverheadCsv(payloads, ctx)));
  if (flags.json) return write(`${JSON.stringify({ schema: OVERHEAD_SCHEMA, payloads, stacks: rows }, null, 2)}\n`);
  write(
    table(
      ["stack", "payload B", "overhead B", "on air B", "layers"],
      rows.map((r) => [
        r.label,
        String(r.payload),
        String(r.overhead),
        String(r.total),
        r.layers.map((l) => `${l.layer} ${l.bytes}`).join(" + ") || "–",
      ]),
      1,
    ),
  );
}
