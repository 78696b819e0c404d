// HostApi methods and events of the DevKit bench (Astronode S over a serial port or the simulator).
import { z } from "zod";
import { FORMAT_IDS } from "#codecs";

const evtMask = z.object({
  satAck: z.boolean(),
  reset: z.boolean(),
  command: z.boolean(),
  messagePending: z.boolean(),
});
export const moduleConfig = z.object({
  satAck: z.boolean(),
  geolocation: z.boolean(),
  ephemeris: z.boolean(),
  deepSleep: z.boolean(),
  evtMask,
});
const events = evtMask;
const empty = z.object({});
const ok = z.object({ ok: z.literal(true) });

export const devkitPort = z.object({
  /** what devkit.connect takes: a device path, or "sim:astronode-s" / "sim:wifi-devkit" */
  id: z.string(),
  label: z.string(),
  kind: z.enum(["serial", "simulator"]),
  likelyDevkit: z.boolean(),
  accessible: z.boolean(),
  hint: z.string().optional(),
});

export const devkitStatus = z.object({
  state: z.enum(["disconnected", "connecting", "ready", "reconnecting"]),
  port: z.string().nullable(),
  portLabel: z.string().nullable(),
  simulated: z.boolean(),
  /** the pseudo-terminal the simulator listens on, when it runs on one */
  simulatorPath: z.string().nullable(),
  productId: z.number().int().nullable(),
  productName: z.string().nullable(),
  polling: z.object({ enabled: z.boolean(), intervalMs: z.number().int() }),
  detail: z.string(),
});
export type DevkitStatus = z.infer<typeof devkitStatus>;

export const moduleInfo = z.object({
  productId: z.number().int(),
  productName: z.string(),
  hardwareRevision: z.number().int(),
  firmware: z.string(),
  guid: z.string(),
  serial: z.string(),
  productNumber: z.string(),
  rtcSeconds: z.number().int(),
  rtc: z.string(),
  nextContactS: z.number().int(),
  config: moduleConfig,
});

export const transmission = z.object({
  id: z.number().int(),
  projectId: z.string().nullable(),
  layoutVersion: z.number().int().nullable(),
  format: z.string().nullable(),
  sample: z.number().int().nullable(),
  seed: z.number().int().nullable(),
  payloadHex: z.string(),
  bytes: z.number().int(),
  queueId: z.number().int(),
  port: z.string(),
  status: z.enum(["queued", "acked", "dequeued", "freed"]),
  enqueuedAt: z.string(),
  ackedAt: z.string().nullable(),
});
export type Transmission = z.infer<typeof transmission>;

export const logEntry = z.object({
  seq: z.number().int(),
  at: z.string(),
  dir: z.enum(["tx", "rx"]),
  text: z.string(),
  decoded: z.string(),
  status: z.enum(["ok", "error", "probe", "stale", "bad"]),
});
export type LogEntry = z.infer<typeof logEntry>;

const downlink = z.object({ createdAt: z.string(), hex: z.string(), bytes: z.number().int() });
const tlvValues = z.record(z.string(), z.unknown());
const hex = z.string().max(2000);

export const DEVKIT_COMMANDS = [
  "CFG_WR",
  "WIF_WR",
  "SSC_WR",
  "CFG_SR",
  "CFG_FR",
  "CFG_RR",
  "RTC_RR",
  "NCO_RR",
  "MGI_RR",
  "MSN_RR",
  "MPN_RR",
  "PLD_ER",
  "PLD_DR",
  "PLD_FR",
  "GEO_WR",
  "SAK_RR",
  "SAK_CR",
  "CMD_RR",
  "CMD_CR",
  "RES_CR",
  "EVT_RR",
  "CTX_SR",
  "PER_RR",
  "PER_CR",
  "MST_RR",
  "LCD_RR",
  "END_RR",
] as const;

export const devkitMethods = {
  /** serial ports (with what stands in the way of using each) and the simulators */
  "devkit.ports": { req: empty, res: z.object({ ports: z.array(devkitPort), problems: z.array(z.string()) }) },
  "devkit.connect": { req: z.object({ port: z.string().min(1).max(4096) }), res: devkitStatus },
  "devkit.disconnect": { req: empty, res: devkitStatus },
  "devkit.status": { req: empty, res: devkitStatus },
  /** product, firmware, GUID, serial, clock, next contact, configuration */
  "devkit.info": { req: empty, res: moduleInfo },
  /** CFG_WR (+ GEO_WR when a position is given) (+ CFG_SR when save) */
  "devkit.configure": {
    req: z.object({
      config: moduleConfig,
      position: z
        .object({ lat: z.number().min(-90).max(90), lon: z.number().min(-180).max(180) })
        .nullable()
        .default(null),
      save: z.boolean().default(false),
    }),
    res: z.object({ config: moduleConfig, saved: z.boolean() }),
  },
  /** Wi-Fi DevKit only: WIF_WR (+ CFG_SR); problems come back per field */
  "devkit.wifi": {
    req: z.object({
      ssid: z.string().max(200),
      password: z.string().max(200),
      token: z.string().max(300),
      save: z.boolean().default(true),
    }),
    res: z.object({ saved: z.boolean() }),
  },
  "devkit.search": {
    req: z.object({ period: z.number().int().min(0).max(255), force: z.boolean().default(false) }),
    res: ok,
  },
  /** the module's queue state and what we enqueued on this port that is not gone yet */
  "devkit.queue": {
    req: empty,
    res: z.object({ module: tlvValues, ours: z.array(transmission) }),
  },
  /** encodes sample `sample` of the project's saved layout in `format` and enqueues it (refused over 160 bytes) */
  "devkit.sendDesign": {
    req: z.object({
      projectId: z.string().min(1).max(64),
      format: z.enum(FORMAT_IDS),
      sample: z.number().int().min(0).max(99_999),
      seed: z.number().int().default(1),
    }),
    res: transmission,
  },
  "devkit.enqueueHex": { req: z.object({ hex, id: z.number().int().min(0).max(65535).optional() }), res: transmission },
  "devkit.dequeue": { req: empty, res: z.object({ id: z.number().int() }) },
  "devkit.free": { req: empty, res: ok },
  /** one EVT_RR now, handling acks, downlinks and resets as the background poll does */
  "devkit.poll": {
    req: empty,
    res: z.object({ events, acked: z.array(z.number().int()), downlink: downlink.nullable(), reset: z.boolean() }),
  },
  "devkit.polling": {
    req: z.object({ enabled: z.boolean(), intervalMs: z.number().int().min(250).max(60_000).default(2000) }),
    res: devkitStatus,
  },
  "devkit.downlinkRead": { req: empty, res: downlink.nullable() },
  "devkit.downlinkClear": { req: empty, res: ok },
  /** PER, MST, LCD and END answers */
  "devkit.counters": { req: empty, res: z.object({ per: tlvValues, mst: tlvValues, lcd: tlvValues, end: tlvValues }) },
  "devkit.countersClear": { req: empty, res: ok },
  /** any module command by name, for the commands the page has no form for; byte fields as hex */
  "devkit.command": {
    req: z.object({ name: z.enum(DEVKIT_COMMANDS), args: z.record(z.string(), z.unknown()).default({}) }),
    res: z.object({ answer: z.unknown() }),
  },
  "devkit.log": { req: z.object({ limit: z.number().int().min(1).max(5000).default(500) }), res: z.array(logEntry) },
  "devkit.logExport": {
    req: z.object({ format: z.enum(["text", "jsonl"]).default("text") }),
    res: z.object({ fileName: z.string(), content: z.string() }),
  },
  "devkit.logClear": { req: empty, res: ok },
  "devkit.transmissions": {
    req: z.object({ projectId: z.string().max(64).optional(), limit: z.number().int().min(1).max(1000).default(100) }),
    res: z.array(transmission),
  },
  /** simulator controls: a satellite pass now, a downlink waiting for the next pass, the reset pin */
  "devkit.simPass": { req: empty, res: z.object({ sent: z.array(z.number().int()), downlink: z.boolean() }) },
  "devkit.simDownlink": { req: z.object({ hex }), res: z.object({ waiting: z.number().int() }) },
  "devkit.simReset": { req: empty, res: ok },
  "devkit.simSettings": {
    req: z.object({
      autoPass: z.boolean().optional(),
      passDelayMs: z.number().int().min(0).max(3_600_000).optional(),
      /** pace the line at the module's 9600 baud (on by default) or run as fast as the link */
      lineRate: z.boolean().optional(),
      /** the start-up quirk: the first request after power-up or a reset goes unanswered (off by default) */
      firstRequestLost: z.boolean().optional(),
    }),
    res: z.object({
      autoPass: z.boolean(),
      passDelayMs: z.number().int(),
      lineRate: z.boolean(),
      firstRequestLost: z.boolean(),
    }),
  },
} as const;

export const devkitEvents = {
  "devkit.status": devkitStatus,
  "devkit.frame": logEntry,
  "devkit.notice": z.object({
    kind: z.enum(["ack", "downlink", "reset", "events", "lost"]),
    message: z.string(),
    at: z.string(),
    id: z.number().int().optional(),
    events: events.optional(),
  }),
  "devkit.transmission": transmission,
} as const;
