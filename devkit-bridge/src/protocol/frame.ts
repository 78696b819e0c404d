// Frames on the wire: STX | hex(opcode payload crc_lo crc_hi) | ETX, every byte as two ASCII hex digits.
import { bytesToHex } from "#codecs";
import { crc16 } from "./crc.ts";

/** the module's UART: 9600 baud 8N1, so one character (10 bits) takes about 1.04 ms */
export const MODULE_BAUD = 9600;
export const STX = 0x02;
export const ETX = 0x03;
/** characters of a whole frame, STX and ETX included, are 8 + 2 × payload bytes */
export const frameChars = (payloadBytes: number): number => 8 + 2 * payloadBytes;
/** hosts refuse answer frames longer than this (PER_RA, the largest, is 176); the bound is for the text between STX and ETX */
export const MAX_ANSWER_TEXT = 178 - 2;
/** WIF_WR, the largest request, is a 396-character frame */
export const MAX_REQUEST_TEXT = 396 - 2;
export const ERROR_OPCODE = 0xff;

export interface Frame {
  opcode: number;
  payload: Uint8Array;
  /** the characters between STX and ETX, upper case as the module sends them */
  text: string;
}

/** The characters between STX and ETX for opcode + payload (upper-case hex, CRC low byte first). */
export function frameText(opcode: number, payload: Uint8Array = new Uint8Array(0)): string {
  const raw = new Uint8Array(payload.length + 1);
  raw[0] = opcode;
  raw.set(payload, 1);
  const crc = crc16(raw);
  return (bytesToHex(raw) + bytesToHex(Uint8Array.of(crc & 0xff, crc >> 8))).toUpperCase();
}

export function encodeFrame(opcode: number, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  return textToWire(frameText(opcode, payload));
}

/** Wraps frame text in STX/ETX as bytes, without checking it (tests and fault injection send broken text on purpose). */
export function textToWire(text: string): Uint8Array {
  const out = new Uint8Array(text.length + 2);
  out[0] = STX;
  for (let i = 0; i < text.length; i++) out[i + 1] = text.charCodeAt(i) & 0xff;
  out[out.length - 1] = ETX;
  return out;
}

export type FrameProblem = "crc" | "hex" | "short" | "too_long";

export type Received =
  { kind: "frame"; frame: Frame } | { kind: "bad"; problem: FrameProblem; text: string; detail: string };

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** Parses the text between STX and ETX; lower-case hex is accepted. */
export function parseFrameText(text: string): Received {
  if (text.length < 6 || text.length % 2)
    return {
      kind: "bad",
      problem: "short",
      text,
      detail: `${text.length} characters cannot hold opcode and CRC in whole bytes`,
    };
  const raw = new Uint8Array(text.length / 2);
  for (let i = 0; i < raw.length; i++) {
    const hi = hexValue(text.charCodeAt(2 * i));
    const lo = hexValue(text.charCodeAt(2 * i + 1));
    if (hi < 0 || lo < 0)
      return {
        kind: "bad",
        problem: "hex",
        text,
        detail: `character ${2 * i + (hi < 0 ? 0 : 1) + 1} is not a hex digit`,
      };
    raw[i] = (hi << 4) | lo;
  }
  const body = raw.subarray(0, raw.length - 2);
  const got = raw[raw.length - 2]! | (raw[raw.length - 1]! << 8);
  const want = crc16(body);
  if (got !== want)
    return { kind: "bad", problem: "crc", text, detail: `CRC ${hex16(got)} in the frame, ${hex16(want)} computed` };
  return { kind: "frame", frame: { opcode: body[0]!, payload: body.slice(1), text: text.toUpperCase() } };
}

function hex16(v: number): string {
  return `0x${v.toString(16).padStart(4, "0").toUpperCase()}`;
}

/**
 * Byte-stream reassembly. Every STX restarts the buffer (resynchronisation), bytes outside a frame are
 * noise, and a frame longer than `maxChars` is dropped without buffering it, so a stream of garbage
 * costs constant memory.
 */
export class FrameDecoder {
  private buf: number[] = [];
  private inFrame = false;
  private overflow = false;
  /** bytes seen outside any frame since construction */
  noise = 0;
  /** frames abandoned because a new STX arrived before their ETX */
  truncated = 0;

  constructor(private readonly maxChars: number) {}

  push(chunk: Uint8Array): Received[] {
    const out: Received[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (c === STX) {
        if (this.inFrame) this.truncated++;
        this.inFrame = true;
        this.overflow = false;
        this.buf = [];
      } else if (!this.inFrame) {
        this.noise++;
      } else if (c === ETX) {
        this.inFrame = false;
        const text = String.fromCharCode(...this.buf);
        this.buf = [];
        out.push(
          this.overflow
            ? {
                kind: "bad",
                problem: "too_long",
                text: text.slice(0, 16) + "…",
                detail: `more than ${this.maxChars} characters`,
              }
            : parseFrameText(text),
        );
      } else if (this.buf.length >= this.maxChars) {
        this.overflow = true;
      } else {
        this.buf.push(c);
      }
    }
    return out;
  }

  /** drops a half-received frame (after a timeout or reconnect) */
  reset(): void {
    this.inFrame = false;
    this.overflow = false;
    this.buf = [];
  }
}
