// Every worked frame of astronode-serial.md, encoded from typed values and decoded back, byte for byte.
import { describe, expect, it } from "vitest";
import { hexToBytes } from "#codecs";
import { BadAnswerError, RequestError } from "../src/errors.ts";
import { ERR } from "../src/protocol/codes.ts";
import * as C from "../src/protocol/commands.ts";
import { crc16 } from "../src/protocol/crc.ts";
import {
  encodeFrame,
  frameChars,
  FrameDecoder,
  frameText,
  MAX_ANSWER_TEXT,
  parseFrameText,
  textToWire,
} from "../src/protocol/frame.ts";
import { parseTlv } from "../src/protocol/tlv.ts";

const ascii = (s: string) => new TextEncoder().encode(s);
const answer = (cmd: { opcode: number }) => cmd.opcode | 0x80;
const errorPayload = (code: number) => Uint8Array.of(code & 0xff, code >> 8);

function roundTrip(text: string, opcode: number, payload: Uint8Array) {
  expect(frameText(opcode, payload)).toBe(text);
  const parsed = parseFrameText(text);
  expect(parsed.kind).toBe("frame");
  if (parsed.kind !== "frame") return;
  expect(parsed.frame.opcode).toBe(opcode);
  expect([...parsed.frame.payload]).toEqual([...payload]);
  // the module sends upper case; lower case must be accepted all the same
  const lower = parseFrameText(text.toLowerCase());
  expect(lower.kind === "frame" && lower.frame.text).toBe(text);
}

describe("CRC-16/CCITT-FALSE", () => {
  it("has the catalogue check value", () => {
    expect(crc16(ascii("123456789"))).toBe(0x29b1);
  });
});

describe("worked frames of astronode-serial.md", () => {
  const cfg = (b0: number, b2: number): C.ModuleConfig => ({
    satAck: !!(b0 & 1),
    geolocation: !!(b0 & 2),
    ephemeris: !!(b0 & 4),
    deepSleep: !!(b0 & 8),
    evtMask: { satAck: !!(b2 & 1), reset: !!(b2 & 2), command: !!(b2 & 4), messagePending: !!(b2 & 8) },
  });

  it("CFG_WR requests and their answer", () => {
    for (const [text, b0, b2] of [
      ["0505000154C3", 0x05, 0x01],
      ["0503000BBED0", 0x03, 0x0b],
    ] as const) {
      const p = C.CFG_WR.encodeRequest(cfg(b0, b2));
      roundTrip(text, C.CFG_WR.opcode, p);
      expect(C.CFG_WR.decodeRequest(p)).toEqual(cfg(b0, b2));
    }
    roundTrip("85DD20", answer(C.CFG_WR), C.CFG_WR.encodeAnswer({}));
  });

  it("PLD_ER / PLD_EA / PLD_DR / PLD_DA", () => {
    const test = C.PLD_ER.encodeRequest({ id: 0x03e9, data: ascii("Test") });
    roundTrip("25E90354657374DF67", 0x25, test);
    expect(C.PLD_ER.decodeRequest(test)).toEqual({ id: 1001, data: ascii("Test") });
    roundTrip("25010048656C6C6F5F71", 0x25, C.PLD_ER.encodeRequest({ id: 1, data: ascii("Hello") }));
    roundTrip("A50100C1A9", 0xa5, C.PLD_ER.encodeAnswer({ id: 1 }));
    expect(C.PLD_ER.decodeAnswer(hexToBytes("0100")!)).toEqual({ id: 1 });
    roundTrip("2654A5", C.PLD_DR.opcode, C.PLD_DR.encodeRequest({}));
    roundTrip("A659008777", 0xa6, C.PLD_DR.encodeAnswer({ id: 0x59 }));
    expect(C.PLD_DR.decodeAnswer(hexToBytes("5900")!)).toEqual({ id: 0x59 });
  });

  it("GEO_WR", () => {
    const p = C.GEO_WR.encodeRequest({ latE7: 465343400, lonE7: 65787470 });
    roundTrip("35A893BC1B4ED6EB03BCB8", 0x35, p);
    expect(C.GEO_WR.decodeRequest(p)).toEqual({ latE7: 465343400, lonE7: 65787470 });
    expect(C.toE7(46.53434)).toBe(465343400);
  });

  it("CFG_RA", () => {
    const a: C.ConfigAnswer = {
      productId: 3,
      hardwareRevision: 1,
      firmware: { major: 2, minor: 1, revision: 0 },
      ...cfg(0x05, 0x01),
    };
    roundTrip("9503010201000500012629", 0x95, C.CFG_RR.encodeAnswer(a));
    expect(C.CFG_RR.decodeAnswer(hexToBytes("0301020100050001")!)).toEqual(a);
  });

  it("CMD_RA", () => {
    const a = { createdAt: 0x12345678, data: hexToBytes("0A0B0C0D0E0FAAAB")! };
    roundTrip("C7785634120A0B0C0D0E0FAAABD26F", 0xc7, C.CMD_RR.encodeAnswer(a));
    expect(C.CMD_RR.decodeAnswer(C.CMD_RR.encodeAnswer(a))).toEqual(a);
  });

  it("EVT and SAK", () => {
    roundTrip("65F3DD", C.EVT_RR.opcode, C.EVT_RR.encodeRequest({}));
    const evt = { satAck: true, reset: false, command: true, messagePending: false };
    roundTrip("E505EDA2", 0xe5, C.EVT_RR.encodeAnswer(evt));
    expect(C.EVT_RR.decodeAnswer(Uint8Array.of(5))).toEqual(evt);
    roundTrip("4591F9", C.SAK_RR.opcode, C.SAK_RR.encodeRequest({}));
    roundTrip("C50100AA32", 0xc5, C.SAK_RR.encodeAnswer({ id: 1 }));
  });

  it("error answers", () => {
    roundTrip("FF01250944", 0xff, errorPayload(ERR.BUFFER_FULL));
    roundTrip("FF11257A47", 0xff, errorPayload(ERR.DUPLICATE_ID));
    roundTrip("FF0100CE30", 0xff, errorPayload(ERR.CRC_NOT_VALID));
    roundTrip("FF21010926", 0xff, errorPayload(ERR.OPCODE_NOT_VALID));
  });

  it("the dummy opcode and every empty request", () => {
    roundTrip("00F0E1", 0x00, new Uint8Array(0));
    const empties: [C.CommandDef<Record<string, never>, unknown>, string][] = [
      [C.CFG_RR, "1564A3"],
      [C.CFG_SR, "10C1F3"],
      [C.CFG_FR, "11E0E3"],
      [C.RTC_RR, "172683"],
      [C.NCO_RR, "18C972"],
      [C.MGI_RR, "19E862"],
      [C.MSN_RR, "1A8B52"],
      [C.MPN_RR, "1BAA42"],
      [C.PLD_FR, "2775B5"],
      [C.SAK_CR, "46F2C9"],
      [C.CMD_RR, "47D3D9"],
      [C.CMD_CR, "483C28"],
      [C.RES_CR, "55A0EB"],
      [C.CTX_SR, "6690ED"],
      [C.PER_RR, "67B1FD"],
      [C.PER_CR, "685E0C"],
      [C.MST_RR, "697F1C"],
      [C.LCD_RR, "6A1C2C"],
      [C.END_RR, "6B3D3C"],
    ];
    for (const [cmd, text] of empties) roundTrip(text, cmd.opcode, cmd.encodeRequest({}));
  });
});

describe("sizes and layouts", () => {
  it("frame length is 8 + 2 × payload characters on the wire; the largest request and answer fit the limits", () => {
    const data = new Uint8Array(160).fill(0x41);
    expect(encodeFrame(0x25, C.PLD_ER.encodeRequest({ id: 7, data })).length).toBe(8 + 2 * 162);
    const wifi = C.WIF_WR.encodeRequest({ ssid: "s".repeat(32), password: "p".repeat(63), token: "t".repeat(96) });
    expect(wifi.length).toBe(194);
    expect(encodeFrame(0x06, wifi).length).toBe(396);
    expect(frameChars(194)).toBe(396);
    const per: Record<string, number> = {};
    C.PER_FIELDS.forEach((f, i) => (per[f.key] = 1000 + i));
    const perPayload = C.PER_RR.encodeAnswer(per);
    expect(perPayload.length).toBe(84);
    expect(encodeFrame(0xe7, perPayload).length).toBe(176);
    expect(frameText(0xe7, perPayload).length).toBeLessThanOrEqual(MAX_ANSWER_TEXT);
    expect(encodeFrame(0x25, C.PLD_ER.encodeRequest({ id: 7, data })).length).toBe(332);
    expect(C.PER_RR.decodeAnswer(perPayload)).toEqual(per);
  });

  it("WIF_WR lays out SSID@0, password@33, token@97, NUL-terminated and zero-padded", () => {
    const p = C.WIF_WR.encodeRequest({ ssid: "net", password: "pw", token: "T".repeat(96) });
    expect([...p.subarray(0, 4)]).toEqual([0x6e, 0x65, 0x74, 0]);
    expect(p[33]).toBe(0x70);
    expect(p[35]).toBe(0);
    expect(p[97]).toBe(0x54);
    expect(p[193]).toBe(0);
    expect(C.WIF_WR.decodeRequest(p)).toEqual({ ssid: "net", password: "pw", token: "T".repeat(96) });
    expect(() => C.WIF_WR.encodeRequest({ ssid: "x".repeat(33), password: "", token: "" })).toThrow(RequestError);
    expect(C.checkWifi({ ssid: "caf\u00e9", password: "ok", token: "t".repeat(95) }).map((p) => p.field)).toEqual([
      "ssid",
      "token",
    ]);
    expect(C.checkWifi({ ssid: "lab", password: "secret", token: "t".repeat(96) })).toEqual([]);
  });

  it("TLV answers skip unknown types by their length and reject lies about lengths", () => {
    const payload = hexToBytes("41 01 03  99 03 AABBCC  44 04 10000000  42 01 01")!;
    expect(C.MST_RR.decodeAnswer(payload)).toEqual({
      queued: 3,
      uptime: 16,
      ackedInQueue: 1,
      unknown: [{ type: 0x99, value: hexToBytes("AABBCC") }],
    });
    expect(() => parseTlv(hexToBytes("41 05 01")!, "MST_RR")).toThrow(BadAnswerError);
    expect(() => C.MST_RR.decodeAnswer(hexToBytes("41 02 0100")!)).toThrow(/expected 1/);
  });

  it("answers of the wrong length are BadAnswerErrors, never RangeErrors", () => {
    expect(() => C.RTC_RR.decodeAnswer(Uint8Array.of(1, 2))).toThrow(BadAnswerError);
    expect(() => C.PLD_ER.decodeAnswer(Uint8Array.of(1, 2, 3))).toThrow(BadAnswerError);
    expect(() => C.CMD_RR.decodeAnswer(new Uint8Array(4 + 9))).toThrow(BadAnswerError);
    expect(() => C.CFG_WR.decodeAnswer(Uint8Array.of(0))).toThrow(BadAnswerError);
    expect(() => C.PLD_ER.encodeRequest({ id: 1, data: new Uint8Array(170) })).toThrow("10 over");
  });
});

describe("stream decoder", () => {
  const wire = (text: string) => textToWire(text);

  it("restarts on STX, drops noise and partial frames, accepts a frame split across chunks", () => {
    const d = new FrameDecoder(MAX_ANSWER_TEXT);
    const good = wire("A50100C1A9");
    const stream = new Uint8Array([0x55, 0xaa, ...wire("A501").subarray(0, 4), ...good.subarray(0, 5)]);
    expect(d.push(stream)).toEqual([]);
    const out = d.push(good.subarray(5));
    expect(out).toHaveLength(1);
    expect(out[0]!.kind === "frame" && out[0]!.frame.text).toBe("A50100C1A9");
    expect(d.noise).toBe(2);
    expect(d.truncated).toBe(1);
  });

  it("reports CRC, hex, short and over-long frames without buffering the excess", () => {
    const d = new FrameDecoder(MAX_ANSWER_TEXT);
    const out = d.push(
      new Uint8Array([
        ...wire("A50100C1AA"),
        ...wire("A5G100C1A9"),
        ...wire("A5"),
        ...wire("0".repeat(400)),
        ...wire("85DD20"),
      ]),
    );
    expect(out.map((r) => (r.kind === "bad" ? r.problem : "frame"))).toEqual([
      "crc",
      "hex",
      "short",
      "too_long",
      "frame",
    ]);
  });
});
