// Every documented Astronode S command with its request and answer layouts, in both directions: the client
// encodes requests and decodes answers, the simulator decodes requests and encodes answers, so one table
// fixes the bytes for both and the worked frames test both.
import { END_FIELDS, LCD_FIELDS, MST_FIELDS, PER_FIELDS, type TlvField } from "#contracts/devkit/counters.ts";
import { WIFI_FIELDS, type EvtMask, type ModuleConfig, type WifiSettings } from "#contracts/devkit/settings.ts";
import { BadAnswerError, RequestError } from "../errors.ts";
import { asciiField, asciiPadded, concat, i32le, Reader, u16le, u32le } from "./bytes.ts";
import { ERR } from "./codes.ts";
import { readTlvFields, writeTlvFields, type TlvItem } from "./tlv.ts";

// the settings and counter tables host and renderer share live in contracts/; the command table names them too
export * from "#contracts/devkit/counters.ts";
export * from "#contracts/devkit/settings.ts";

/** Seconds of the module's clock count from 2018-01-01T00:00:00Z. */
export const EPOCH_2018_UNIX = 1514764800;
export const MAX_USER_BYTES = 160;
export const QUEUE_SLOTS = 8;

/** The simulator's way of refusing a request: the module answers 0xFF with this code. */
export class WireRefusal extends Error {
  constructor(readonly code: number) {
    super(`refused with 0x${code.toString(16)}`);
  }
}

export interface CommandDef<Req, Ans> {
  name: string;
  opcode: number;
  /** what the command does, for logs and the UI */
  summary: string;
  /** answer timeout when the default does not fit */
  timeoutMs?: number;
  encodeRequest(req: Req): Uint8Array;
  decodeRequest(payload: Uint8Array): Req;
  /** answers that echo the request (PLD_EA) must echo ours: anything else is a stale answer, not ours */
  answerMatches?(req: Req, ans: Ans): boolean;
  encodeAnswer(ans: Ans): Uint8Array;
  decodeAnswer(payload: Uint8Array): Ans;
}

const NONE = new Uint8Array(0);

function noPayload(p: Uint8Array, name: string, side: "request" | "answer"): void {
  if (p.length === 0) return;
  if (side === "request") throw new WireRefusal(ERR.LENGTH_NOT_VALID);
  throw new BadAnswerError(`${name}: expected an empty answer, got ${p.length} bytes`);
}

function exact(p: Uint8Array, n: number): void {
  if (p.length !== n) throw new WireRefusal(ERR.LENGTH_NOT_VALID);
}

type Empty = Record<string, never>;
const EMPTY: Empty = {};

/** Commands whose request carries nothing and whose answer is a fixed layout. */
function reader<Ans>(
  name: string,
  opcode: number,
  summary: string,
  enc: (a: Ans) => Uint8Array,
  dec: (r: Reader) => Ans,
  timeoutMs?: number,
): CommandDef<Empty, Ans> {
  return {
    name,
    opcode,
    summary,
    ...(timeoutMs ? { timeoutMs } : {}),
    encodeRequest: () => NONE,
    decodeRequest: (p) => (noPayload(p, name, "request"), EMPTY),
    encodeAnswer: enc,
    decodeAnswer: (p) => {
      const r = new Reader(p, name);
      const a = dec(r);
      r.end();
      return a;
    },
  };
}

/** Commands with neither request nor answer payload. */
function action(name: string, opcode: number, summary: string, timeoutMs?: number): CommandDef<Empty, Empty> {
  return reader(
    name,
    opcode,
    summary,
    () => NONE,
    () => EMPTY,
    timeoutMs,
  );
}

// ---- configuration ---------------------------------------------------------------------------

export const configByte = (c: Omit<ModuleConfig, "evtMask">): number =>
  (c.satAck ? 1 : 0) | (c.geolocation ? 2 : 0) | (c.ephemeris ? 4 : 0) | (c.deepSleep ? 8 : 0);
export const maskByte = (m: EvtMask): number =>
  (m.satAck ? 1 : 0) | (m.reset ? 2 : 0) | (m.command ? 4 : 0) | (m.messagePending ? 8 : 0);
const flags = (b: number) => ({
  satAck: !!(b & 1),
  geolocation: !!(b & 2),
  ephemeris: !!(b & 4),
  deepSleep: !!(b & 8),
});
const mask = (b: number): EvtMask => ({
  satAck: !!(b & 1),
  reset: !!(b & 2),
  command: !!(b & 4),
  messagePending: !!(b & 8),
});

export const CFG_WR: CommandDef<ModuleConfig, Empty> = {
  name: "CFG_WR",
  opcode: 0x05,
  summary: "write configuration (RAM until CFG_SR)",
  encodeRequest: (c) => Uint8Array.of(configByte(c), 0, maskByte(c.evtMask)),
  decodeRequest: (p) => {
    exact(p, 3);
    return { ...flags(p[0]!), evtMask: mask(p[2]!) };
  },
  encodeAnswer: () => NONE,
  decodeAnswer: (p) => (noPayload(p, "CFG_WR", "answer"), EMPTY),
};

export interface ConfigAnswer extends ModuleConfig {
  /** 3 = Astronode S, 4 = Wi-Fi DevKit */
  productId: number;
  hardwareRevision: number;
  firmware: { major: number; minor: number; revision: number };
}

export const PRODUCT_NAMES: Readonly<Record<number, string>> = { 3: "Astronode S", 4: "Wi-Fi DevKit" };

export const CFG_RR = reader<ConfigAnswer>(
  "CFG_RR",
  0x15,
  "read configuration and product",
  (a) =>
    Uint8Array.of(
      a.productId,
      a.hardwareRevision,
      a.firmware.major,
      a.firmware.minor,
      a.firmware.revision,
      configByte(a),
      0,
      maskByte(a.evtMask),
    ),
  (r) => {
    const productId = r.u8();
    const hardwareRevision = r.u8();
    const firmware = { major: r.u8(), minor: r.u8(), revision: r.u8() };
    const f = flags(r.u8());
    r.u8();
    return { productId, hardwareRevision, firmware, ...f, evtMask: mask(r.u8()) };
  },
);

// ---- Wi-Fi DevKit ----------------------------------------------------------------------------

export const WIF_WR: CommandDef<WifiSettings, Empty> = {
  name: "WIF_WR",
  opcode: 0x06,
  summary: "write Wi-Fi settings (Wi-Fi DevKit only)",
  encodeRequest: (w) => {
    // only what the frame cannot carry is refused here; printable-ASCII rules are the module's to enforce
    // (and checkWifi's, for forms), so the module's own FORMAT_NOT_VALID stays reachable
    for (const key of ["ssid", "password", "token"] as const) {
      const v = w[key];
      if (v.length > WIFI_FIELDS[key] - 1)
        throw new RequestError(`${key} has ${v.length} characters, at most ${WIFI_FIELDS[key] - 1} fit`, key);
      if (/[^\x01-\xff]/.test(v))
        throw new RequestError(`${key} holds characters that are not single bytes (NUL or beyond Latin-1)`, key);
    }
    return concat(
      asciiPadded(w.ssid, WIFI_FIELDS.ssid),
      asciiPadded(w.password, WIFI_FIELDS.password),
      asciiPadded(w.token, WIFI_FIELDS.token),
    );
  },
  decodeRequest: (p) => {
    exact(p, 194);
    return {
      ssid: asciiField(p.subarray(0, 33)),
      password: asciiField(p.subarray(33, 97)),
      token: asciiField(p.subarray(97, 194)),
    };
  },
  encodeAnswer: () => NONE,
  decodeAnswer: (p) => (noPayload(p, "WIF_WR", "answer"), EMPTY),
};

// ---- satellite search --------------------------------------------------------------------------

/** SSC_WR period enum: 0 = module default, then these milliseconds */
export const SEARCH_PERIODS_MS: readonly (number | null)[] = [null, 1377, 2755, 4132, 15150, 17905, 23414];

export interface SearchConfig {
  period: number;
  force: boolean;
}

export const SSC_WR: CommandDef<SearchConfig, Empty> = {
  name: "SSC_WR",
  opcode: 0x07,
  summary: "set satellite search period (RAM only)",
  encodeRequest: (s) => {
    if (!Number.isInteger(s.period) || s.period < 0 || s.period > 255)
      throw new RequestError(`search period must be a byte, got ${s.period}`, "period");
    return Uint8Array.of(s.period, s.force ? 1 : 0);
  },
  decodeRequest: (p) => {
    exact(p, 2);
    return { period: p[0]!, force: !!(p[1]! & 1) };
  },
  encodeAnswer: () => NONE,
  decodeAnswer: (p) => (noPayload(p, "SSC_WR", "answer"), EMPTY),
};

// writing flash is slow: CFG_SR may take the whole default timeout on its own before answering
export const CFG_SR = action("CFG_SR", 0x10, "save configuration, Wi-Fi and position to flash", 3000);
export const CFG_FR = action("CFG_FR", 0x11, "factory reset of the configuration", 3000);

// ---- clock, identity -----------------------------------------------------------------------------

export interface Seconds {
  seconds: number;
}

export const RTC_RR = reader<Seconds>(
  "RTC_RR",
  0x17,
  "read the clock (seconds since 2018-01-01 UTC)",
  (a) => u32le(a.seconds),
  (r) => ({ seconds: r.u32() }),
);
export const NCO_RR = reader<Seconds>(
  "NCO_RR",
  0x18,
  "seconds to the next contact opportunity",
  (a) => u32le(a.seconds),
  (r) => ({ seconds: r.u32() }),
);

export interface Text {
  text: string;
}

function textReader(name: string, opcode: number, summary: string, width: number): CommandDef<Empty, Text> {
  return reader<Text>(
    name,
    opcode,
    summary,
    (a) => asciiPadded(a.text, width),
    (r) => ({ text: asciiField(r.bytes(width)) }),
  );
}

export const MGI_RR = textReader("MGI_RR", 0x19, "module GUID", 36);
export const MSN_RR = textReader("MSN_RR", 0x1a, "serial number", 16);
export const MPN_RR = textReader("MPN_RR", 0x1b, "product number", 16);

export function rtcToDate(seconds: number): Date {
  return new Date((EPOCH_2018_UNIX + seconds) * 1000);
}

// ---- uplink queue ----------------------------------------------------------------------------------

export interface PayloadId {
  id: number;
}

export interface Enqueue {
  id: number;
  data: Uint8Array;
}

function checkId(id: number): void {
  if (!Number.isInteger(id) || id < 0 || id > 0xffff)
    throw new RequestError(`payload id must be 0..65535, got ${id}`, "id");
}

export const PLD_ER: CommandDef<Enqueue, PayloadId> = {
  name: "PLD_ER",
  opcode: 0x25,
  summary: "enqueue an uplink payload",
  encodeRequest: (e) => {
    checkId(e.id);
    if (e.data.length > MAX_USER_BYTES)
      throw new RequestError(
        `payload is ${e.data.length} bytes: ${e.data.length - MAX_USER_BYTES} over the module's ${MAX_USER_BYTES}`,
        "data",
      );
    return concat(u16le(e.id), e.data);
  },
  decodeRequest: (p) => {
    if (p.length < 2 || p.length > 2 + MAX_USER_BYTES) throw new WireRefusal(ERR.LENGTH_NOT_VALID);
    return { id: p[0]! | (p[1]! << 8), data: p.slice(2) };
  },
  answerMatches: (req, ans) => req.id === ans.id,
  encodeAnswer: (a) => u16le(a.id),
  decodeAnswer: (p) => {
    const r = new Reader(p, "PLD_ER");
    const id = r.u16();
    r.end();
    return { id };
  },
};

const idReader = (name: string, opcode: number, summary: string) =>
  reader<PayloadId>(
    name,
    opcode,
    summary,
    (a) => u16le(a.id),
    (r) => ({ id: r.u16() }),
  );

export const PLD_DR = idReader("PLD_DR", 0x26, "delete the oldest queued payload");
export const PLD_FR = action("PLD_FR", 0x27, "delete every queued payload");

// ---- position ------------------------------------------------------------------------------------

export interface Position {
  /** degrees × 1e7, as the module stores them */
  latE7: number;
  lonE7: number;
}

export const GEO_WR: CommandDef<Position, Empty> = {
  name: "GEO_WR",
  opcode: 0x35,
  summary: "write the position appended to uplinks",
  encodeRequest: (g) => {
    for (const k of ["latE7", "lonE7"] as const)
      if (!Number.isInteger(g[k]) || g[k] < -0x80000000 || g[k] > 0x7fffffff)
        throw new RequestError(`${k} must be a 32-bit integer (degrees × 1e7)`, k);
    return concat(i32le(g.latE7), i32le(g.lonE7));
  },
  decodeRequest: (p) => {
    exact(p, 8);
    const r = new Reader(p, "GEO_WR");
    return { latE7: r.i32(), lonE7: r.i32() };
  },
  encodeAnswer: () => NONE,
  decodeAnswer: (p) => (noPayload(p, "GEO_WR", "answer"), EMPTY),
};

export const toE7 = (deg: number): number => Math.round(deg * 1e7);

// ---- acks, downlink, events -----------------------------------------------------------------------

export const SAK_RR = idReader("SAK_RR", 0x45, "read the id of an acknowledged payload");
export const SAK_CR = action("SAK_CR", 0x46, "clear the acknowledgement just read");

export interface DownlinkCommand {
  /** seconds since 2018-01-01 UTC */
  createdAt: number;
  /** 8 or 40 bytes */
  data: Uint8Array;
}

export const DOWNLINK_SIZES = [8, 40] as const;

export const CMD_RR = reader<DownlinkCommand>(
  "CMD_RR",
  0x47,
  "read the downlink command",
  (a) => concat(u32le(a.createdAt), a.data),
  (r) => {
    const createdAt = r.u32();
    if (r.remaining !== 8 && r.remaining !== 40)
      throw new BadAnswerError(`CMD_RR: a command holds 8 or 40 bytes, the answer has ${r.remaining}`);
    return { createdAt, data: r.rest() };
  },
);
export const CMD_CR = action("CMD_CR", 0x48, "clear the downlink command");
export const RES_CR = action("RES_CR", 0x55, "clear the reset event");

export interface Events {
  satAck: boolean;
  reset: boolean;
  command: boolean;
  messagePending: boolean;
}

export const eventsByte = maskByte;

export const EVT_RR = reader<Events>(
  "EVT_RR",
  0x65,
  "read pending events",
  (a) => Uint8Array.of(eventsByte(a)),
  (r) => mask(r.u8()),
);

export const CTX_SR = action("CTX_SR", 0x66, "save the context before a power cut");

// ---- counters (TLV) --------------------------------------------------------------------------------

export type TlvAnswer<K extends string> = Partial<Record<K, number>> & { unknown?: TlvItem[] };

function tlvReader<K extends string>(
  name: string,
  opcode: number,
  summary: string,
  fields: readonly TlvField<K>[],
): CommandDef<Empty, TlvAnswer<K>> {
  return {
    name,
    opcode,
    summary,
    encodeRequest: () => NONE,
    decodeRequest: (p) => (noPayload(p, name, "request"), EMPTY),
    encodeAnswer: (a) => writeTlvFields(a as Partial<Record<K, number>>, fields),
    decodeAnswer: (p) => {
      const { values, unknown } = readTlvFields(p, fields, name);
      return unknown.length ? { ...values, unknown } : values;
    },
  };
}

export const PER_RR = tlvReader("PER_RR", 0x67, "performance counters", PER_FIELDS);
export const PER_CR = action("PER_CR", 0x68, "clear performance counters");
export const MST_RR = tlvReader("MST_RR", 0x69, "module state", MST_FIELDS);
export const LCD_RR = tlvReader("LCD_RR", 0x6a, "last contact details", LCD_FIELDS);
export const END_RR = tlvReader("END_RR", 0x6b, "environment details", END_FIELDS);

// ---- the table ------------------------------------------------------------------------------------

export const COMMANDS = {
  CFG_WR,
  WIF_WR,
  SSC_WR,
  CFG_SR,
  CFG_FR,
  CFG_RR,
  RTC_RR,
  NCO_RR,
  MGI_RR,
  MSN_RR,
  MPN_RR,
  PLD_ER,
  PLD_DR,
  PLD_FR,
  GEO_WR,
  SAK_RR,
  SAK_CR,
  CMD_RR,
  CMD_CR,
  RES_CR,
  EVT_RR,
  CTX_SR,
  PER_RR,
  PER_CR,
  MST_RR,
  LCD_RR,
  END_RR,
} as const;

export type CommandName = keyof typeof COMMANDS;
export type RequestOf<N extends CommandName> = (typeof COMMANDS)[N] extends CommandDef<infer R, unknown> ? R : never;
export type AnswerOf<N extends CommandName> = (typeof COMMANDS)[N] extends CommandDef<unknown, infer A> ? A : never;

export const COMMAND_BY_OPCODE: ReadonlyMap<number, CommandDef<unknown, unknown>> = new Map(
  Object.values(COMMANDS).map((c) => [c.opcode, c as unknown as CommandDef<unknown, unknown>]),
);

/** Opcodes named by drivers whose payload nobody documents: logged by name, never sent by this client. */
export const UNDOCUMENTED_OPCODES: Readonly<Record<number, string>> = {
  0x60: "VAL_W",
  0x61: "TTX_S",
  0x62: "GPO_S",
  0x63: "GPI_R",
  0x64: "ADC_R",
  0x6c: "HTX_S",
};

/** the opcode libraries send first after a restart; the module answers OPCODE_NOT_VALID */
export const DUMMY_OPCODE = 0x00;
export const ANSWER_BIT = 0x80;

export function opcodeName(opcode: number): string {
  if (opcode === 0xff) return "ERROR";
  if (opcode === DUMMY_OPCODE) return "DUMMY";
  const req = opcode & ~ANSWER_BIT;
  const name = COMMAND_BY_OPCODE.get(req)?.name ?? UNDOCUMENTED_OPCODES[req];
  if (!name) return `0x${opcode.toString(16).padStart(2, "0").toUpperCase()}`;
  return opcode & ANSWER_BIT ? name.replace(/_(.)R$/, "_$1A") : name;
}
