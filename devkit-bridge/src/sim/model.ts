// What an Astronode S (product 3) or a Wi-Fi DevKit (product 4) does with each request: queue, acks,
// downlink, configuration in RAM and flash, reset, counters and clock. Byte framing lives in device.ts.
import type { Clock, TimerHandle } from "../clock.ts";
import { ERR } from "../protocol/codes.ts";
import {
  COMMAND_BY_OPCODE,
  COMMANDS as C,
  DOWNLINK_SIZES,
  EPOCH_2018_UNIX,
  MAX_USER_BYTES,
  PER_FIELDS,
  QUEUE_SLOTS,
  WIFI_FIELDS,
  WIFI_TOKEN_CHARS,
  WireRefusal,
  type CommandDef,
  type Events,
  type ModuleConfig,
  type PerKey,
  type Position,
  type WifiSettings,
} from "../protocol/commands.ts";
import { ERROR_OPCODE } from "../protocol/frame.ts";

export type ProductId = 3 | 4;

export interface SimIdentity {
  productId: ProductId;
  hardwareRevision: number;
  firmware: { major: number; minor: number; revision: number };
  guid: string;
  serial: string;
  productNumber: string;
}

export interface PassSettings {
  /** a pass happens this long after a payload is enqueued (when `auto`); 0 = at once */
  delayMs: number;
  auto: boolean;
  /** peak RSSI reported for a pass, as the module's raw byte */
  rssi: number;
}

export interface SimOptions {
  clock: Clock;
  productId?: ProductId;
  identity?: Partial<Omit<SimIdentity, "productId">>;
  pass?: Partial<PassSettings>;
  /** the module clock at power-up, in seconds since 2018-01-01; default: the real time now */
  rtcAtStart?: number;
  /** one source says geolocation leaves 152 user bytes, another 160: configurable */
  geolocationReducesPayload?: boolean;
  /** how long the module stays deaf after a reset */
  bootMs?: number;
  /** the Wi-Fi DevKit starts with saved Wi-Fi settings, so passes work without WIF_WR */
  wifiProvisioned?: boolean;
}

export interface QueuedPayload {
  id: number;
  data: Uint8Array;
  acked: boolean;
  enqueuedAt: number;
}

const DEFAULT_CONFIG: ModuleConfig = {
  satAck: true,
  geolocation: false,
  ephemeris: true,
  deepSleep: false,
  evtMask: { satAck: true, reset: true, command: true, messagePending: false },
};

interface Saved {
  config: ModuleConfig;
  wifi: WifiSettings | null;
  position: Position | null;
}

interface Context {
  queue: QueuedPayload[];
  command: { createdAt: number; data: Uint8Array } | null;
  counters: Record<PerKey, number>;
}

const zeroCounters = (): Record<PerKey, number> =>
  Object.fromEntries(PER_FIELDS.map((f) => [f.key, 0])) as Record<PerKey, number>;

export interface Answer {
  opcode: number;
  payload: Uint8Array;
}

export type SimEvent =
  | { kind: "enqueued"; id: number; bytes: number }
  | { kind: "pass"; sent: number[]; acked: number[]; downlink: boolean }
  | { kind: "reset"; reason: number }
  | { kind: "downlink-injected"; bytes: number };

/** the length of a satellite contact, for LCD_RR */
const CONTACT_S = 420;

export class AstronodeModel {
  readonly identity: SimIdentity;
  private readonly clock: Clock;
  readonly pass: PassSettings;
  private readonly rtcAtStart: number;
  private readonly reduceWithGeo: boolean;
  readonly bootMs: number;

  private saved: Saved;
  private config: ModuleConfig;
  private wifi: WifiSettings | null;
  private position: Position | null;
  private search = { period: 0, force: false };
  queue: QueuedPayload[] = [];
  private command: { createdAt: number; data: Uint8Array } | null = null;
  /** injected downlinks wait here for the next uplink */
  private pendingDownlinks: Uint8Array[] = [];
  private counters = zeroCounters();
  private context: Context | null = null;
  private resetFlag = true;
  private resetReason = 1;
  private bootedAt: number;
  /** clock time at power-up: the module clock counts from rtcAtStart there */
  private readonly startedAt: number;
  private lastContact: { start: number; end: number; peakRssi: number; peakTime: number } | null = null;
  private lastMac = 0;
  private lastDetection: number | null = null;
  private passTimer: TimerHandle | null = null;
  private passDue: number | null = null;
  private listeners = new Set<(e: SimEvent) => void>();

  constructor(opts: SimOptions) {
    this.clock = opts.clock;
    const productId = opts.productId ?? 3;
    const id = opts.identity ?? {};
    this.identity = {
      productId,
      hardwareRevision: id.hardwareRevision ?? 1,
      firmware: id.firmware ?? { major: 2, minor: 1, revision: 0 },
      guid: id.guid ?? "5a1b7c9e-0000-4000-8000-00000000a57e",
      serial: id.serial ?? (productId === 4 ? "WDK0000000000042" : "ASN0000000000042"),
      productNumber: id.productNumber ?? (productId === 4 ? "WIFI-DEVKIT" : "ASTRONODE-S"),
    };
    this.pass = { delayMs: 5000, auto: true, rssi: 180, ...opts.pass };
    this.rtcAtStart = opts.rtcAtStart ?? Math.floor(Date.now() / 1000) - EPOCH_2018_UNIX;
    this.reduceWithGeo = opts.geolocationReducesPayload ?? false;
    this.bootMs = opts.bootMs ?? 400;
    const wifi =
      productId === 4 && opts.wifiProvisioned
        ? { ssid: "lab", password: "", token: "T".repeat(WIFI_TOKEN_CHARS) }
        : null;
    this.saved = { config: DEFAULT_CONFIG, wifi, position: null };
    this.config = DEFAULT_CONFIG;
    this.wifi = wifi;
    this.position = null;
    this.bootedAt = this.clock.now();
    this.startedAt = this.bootedAt;
  }

  on(listener: (e: SimEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: SimEvent): void {
    for (const l of this.listeners) l(e);
  }

  /** seconds since 2018-01-01 by the module's clock */
  rtc(): number {
    return this.rtcAtStart + Math.floor((this.clock.now() - this.startedAt) / 1000);
  }

  events(): Events {
    return {
      satAck: this.config.satAck && this.queue.some((q) => q.acked),
      reset: this.resetFlag,
      command: this.command !== null,
      messagePending: this.queue.some((q) => !q.acked),
    };
  }

  /** the EVT pin: an event is pending that the mask lets through */
  get evtPin(): boolean {
    const e = this.events();
    const m = this.config.evtMask;
    return (
      (e.satAck && m.satAck) ||
      (e.reset && m.reset) ||
      (e.command && m.command) ||
      (e.messagePending && m.messagePending)
    );
  }

  get currentConfig(): ModuleConfig {
    return this.config;
  }

  /** Runs one request; refusals become 0xFF answers exactly as the module sends them. */
  handle(opcode: number, payload: Uint8Array): Answer {
    const def = COMMAND_BY_OPCODE.get(opcode);
    try {
      if (!def || (def === (C.WIF_WR as unknown) && this.identity.productId !== 4))
        throw new WireRefusal(ERR.OPCODE_NOT_VALID);
      const req = def.decodeRequest(payload);
      const ans = this.run(def, req);
      return { opcode: opcode | 0x80, payload: def.encodeAnswer(ans) };
    } catch (e) {
      if (e instanceof WireRefusal) return { opcode: ERROR_OPCODE, payload: Uint8Array.of(e.code & 0xff, e.code >> 8) };
      throw e;
    }
  }

  private run(def: CommandDef<unknown, unknown>, req: unknown): unknown {
    const empty = {};
    switch (def.name) {
      case "CFG_WR":
        this.config = req as ModuleConfig;
        return empty;
      case "WIF_WR":
        this.wifi = checkWifiRequest(req as WifiSettings);
        return empty;
      case "SSC_WR": {
        const s = req as { period: number; force: boolean };
        if (s.period > 6) throw new WireRefusal(ERR.PERIOD_INVALID);
        this.search = s;
        return empty;
      }
      case "CFG_SR":
        this.saved = { config: this.config, wifi: this.wifi, position: this.position };
        return empty;
      case "CFG_FR":
        this.saved = { config: DEFAULT_CONFIG, wifi: null, position: null };
        this.config = DEFAULT_CONFIG;
        this.wifi = null;
        this.position = null;
        return empty;
      case "CFG_RR":
        return {
          productId: this.identity.productId,
          hardwareRevision: this.identity.hardwareRevision,
          firmware: this.identity.firmware,
          ...this.config,
        };
      case "RTC_RR":
        return { seconds: this.rtc() };
      case "NCO_RR":
        return { seconds: this.nextContactS() };
      case "MGI_RR":
        return { text: this.identity.guid };
      case "MSN_RR":
        return { text: this.identity.serial };
      case "MPN_RR":
        return { text: this.identity.productNumber };
      case "PLD_ER":
        return this.enqueue(req as { id: number; data: Uint8Array });
      case "PLD_DR": {
        const first = this.queue.shift();
        if (!first) throw new WireRefusal(ERR.BUFFER_EMPTY);
        if (!first.acked) this.counters.dequeuedUnacked++;
        return { id: first.id };
      }
      case "PLD_FR":
        if (!this.queue.length) throw new WireRefusal(ERR.BUFFER_EMPTY);
        // PER 0x09 counts payloads that left the queue without a satellite acknowledgement
        this.counters.dequeuedUnacked += this.queue.filter((q) => !q.acked).length;
        this.queue = [];
        return empty;
      case "GEO_WR": {
        const p = req as Position;
        if (Math.abs(p.latE7) > 90e7 || Math.abs(p.lonE7) > 180e7) throw new WireRefusal(ERR.INVALID_POS);
        this.position = p;
        return empty;
      }
      case "SAK_RR": {
        const acked = this.config.satAck ? this.queue.find((q) => q.acked) : undefined;
        if (!acked) throw new WireRefusal(ERR.NO_ACK);
        return { id: acked.id };
      }
      case "SAK_CR": {
        const i = this.config.satAck ? this.queue.findIndex((q) => q.acked) : -1;
        if (i < 0) throw new WireRefusal(ERR.NO_ACK_CLEAR);
        this.queue.splice(i, 1);
        return empty;
      }
      case "CMD_RR":
        if (!this.command) throw new WireRefusal(ERR.NO_COMMAND);
        return this.command;
      case "CMD_CR":
        if (!this.command) throw new WireRefusal(ERR.NO_COMMAND_CLEAR);
        this.command = null;
        return empty;
      case "RES_CR":
        this.resetFlag = false;
        return empty;
      case "EVT_RR":
        return this.events();
      case "CTX_SR":
        this.context = {
          queue: this.queue.map((q) => ({ ...q })),
          command: this.command,
          counters: { ...this.counters },
        };
        return empty;
      case "PER_RR":
        return { ...this.counters };
      case "PER_CR":
        this.counters = zeroCounters();
        return empty;
      case "MST_RR":
        return {
          queued: this.queue.length,
          ackedInQueue: this.queue.filter((q) => q.acked).length,
          lastResetReason: this.resetReason,
          uptime: Math.floor((this.clock.now() - this.bootedAt) / 1000),
        };
      case "LCD_RR": {
        const c = this.lastContact;
        return c
          ? { start: c.start, end: c.end, peakRssi: c.peakRssi, peakTime: c.peakTime }
          : { start: 0, end: 0, peakRssi: 0, peakTime: 0 };
      }
      case "END_RR":
        return {
          lastMacResult: this.lastMac,
          lastSearchPeakRssi: this.lastContact?.peakRssi ?? 0,
          sinceLastDetection: this.lastDetection === null ? 0xffffffff : this.rtc() - this.lastDetection,
        };
      default:
        throw new WireRefusal(ERR.OPCODE_NOT_VALID);
    }
  }

  private enqueue(e: { id: number; data: Uint8Array }): { id: number } {
    const room = this.config.geolocation && this.reduceWithGeo ? MAX_USER_BYTES - 8 : MAX_USER_BYTES;
    if (e.data.length > room) throw new WireRefusal(ERR.LENGTH_NOT_VALID);
    if (this.queue.length >= QUEUE_SLOTS) throw new WireRefusal(ERR.BUFFER_FULL);
    if (this.queue.some((q) => q.id === e.id)) throw new WireRefusal(ERR.DUPLICATE_ID);
    this.queue.push({ id: e.id, data: e.data, acked: false, enqueuedAt: this.rtc() });
    this.counters.queuedMessages++;
    this.emit({ kind: "enqueued", id: e.id, bytes: e.data.length });
    if (this.pass.auto) this.schedulePass(this.pass.delayMs);
    return { id: e.id };
  }

  private nextContactS(): number {
    if (this.passDue !== null) return Math.max(0, Math.ceil((this.passDue - this.clock.now()) / 1000));
    // without a scheduled pass, contacts come once per ~95-minute low orbit
    const period = 95 * 60;
    return period - (this.rtc() % period);
  }

  schedulePass(delayMs: number): void {
    if (this.passTimer) return;
    this.passDue = this.clock.now() + delayMs;
    this.passTimer = this.clock.setTimeout(() => {
      this.passTimer = null;
      this.passDue = null;
      this.satellitePass();
    }, delayMs);
  }

  /** A satellite contact: every waiting payload goes up and is acknowledged; a waiting downlink comes down after an uplink. */
  satellitePass(): SimEvent & { kind: "pass" } {
    const now = this.rtc();
    this.counters.satSearchPhases++;
    this.counters.satDetectOps++;
    const canReach = this.identity.productId !== 4 || this.saved.wifi !== null;
    const sent: number[] = [];
    const acked: number[] = [];
    let downlink = false;
    if (!canReach) {
      this.lastMac = 8;
    } else {
      this.lastDetection = now;
      this.counters.signallingDemodPhases++;
      this.counters.demodAttempts++;
      this.counters.demodSuccesses++;
      for (const q of this.queue.filter((x) => !x.acked)) {
        // a fragment carries up to 40 bytes on the air (INFERENCE: the counters only need a plausible split)
        const fragments = Math.max(1, Math.ceil((q.data.length + (this.config.geolocation ? 8 : 0)) / 40));
        this.counters.sentFragments += fragments;
        this.counters.ackedFragments += fragments;
        this.counters.ackDemodAttempts++;
        this.counters.ackDemodSuccesses++;
        this.counters.ackedMessages++;
        sent.push(q.id);
        acked.push(q.id);
        q.acked = true;
      }
      // without ack reporting, acknowledged messages leave the queue silently
      if (!this.config.satAck) this.queue = this.queue.filter((q) => !q.acked);
      if (sent.length && this.pendingDownlinks.length && this.command === null) {
        this.counters.cmdDemodAttempts++;
        this.counters.cmdDemodSuccesses++;
        this.command = { createdAt: now, data: this.pendingDownlinks.shift()! };
        downlink = true;
      }
      this.lastMac = sent.length ? 1 : 0;
      this.lastContact = {
        start: now,
        end: now + CONTACT_S,
        peakRssi: this.pass.rssi,
        peakTime: now + Math.floor(CONTACT_S / 2),
      };
    }
    const ev = { kind: "pass" as const, sent, acked, downlink };
    this.emit(ev);
    return ev;
  }

  /** Queues a downlink for the next contact that carries an uplink. */
  injectDownlink(data: Uint8Array): void {
    if (!(DOWNLINK_SIZES as readonly number[]).includes(data.length))
      throw new RangeError(`a downlink command holds 8 or 40 bytes, not ${data.length}`);
    this.pendingDownlinks.push(data.slice());
    this.emit({ kind: "downlink-injected", bytes: data.length });
  }

  get waitingDownlinks(): number {
    return this.pendingDownlinks.length;
  }

  /**
   * Reset pin or power cycle: configuration falls back to what was saved to flash, the queue survives only
   * if the context was saved (CTX_SR) — INFERENCE from "context save before power cut".
   */
  reset(reason: 1 | 2 | 3 | 4 = 2): void {
    this.config = this.saved.config;
    this.wifi = this.saved.wifi;
    this.position = this.saved.position;
    this.search = { period: 0, force: false };
    const ctx = this.context;
    this.context = null;
    this.queue = ctx ? ctx.queue : [];
    this.command = ctx ? ctx.command : null;
    this.counters = ctx ? ctx.counters : zeroCounters();
    this.clock.clearTimeout(this.passTimer);
    this.passTimer = null;
    this.passDue = null;
    this.resetFlag = true;
    this.resetReason = reason;
    this.bootedAt = this.clock.now();
    this.emit({ kind: "reset", reason });
    if (this.pass.auto && this.queue.some((q) => !q.acked)) this.schedulePass(this.pass.delayMs);
  }

  stop(): void {
    this.clock.clearTimeout(this.passTimer);
    this.passTimer = null;
  }
}

function checkWifiRequest(w: WifiSettings): WifiSettings {
  for (const key of ["ssid", "password", "token"] as const) {
    // a field without its NUL terminator runs into the next one: the module cannot read it
    if (!/^[\x20-\x7e]*$/.test(w[key]) || w[key].length >= WIFI_FIELDS[key])
      throw new WireRefusal(ERR.FORMAT_NOT_VALID);
  }
  // INFERENCE: the token length is an argument error, not a format one
  if (w.token.length !== WIFI_TOKEN_CHARS || w.ssid.length === 0) throw new WireRefusal(ERR.ARG_NOT_VALID);
  return w;
}
