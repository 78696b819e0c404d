// Byte/text helpers that work in browsers, workers and Node alike (codecs/ imports nothing from Node).
import { strictUtf8Decoder } from "./utf8.ts";

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

export function bytesToHex(b: Uint8Array, separator = ""): string {
  let s = "";
  for (let i = 0; i < b.length; i++) s += (i && separator ? separator : "") + HEX[b[i]!];
  return s;
}

/** Accepts upper/lower case and whitespace between bytes; undefined when not hex. */
export function hexToBytes(text: string): Uint8Array | undefined {
  const t = text.replace(/\s+/g, "");
  if (t.length % 2 || !/^[0-9a-fA-F]*$/.test(t)) return undefined;
  const out = new Uint8Array(t.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(t.slice(2 * i, 2 * i + 2), 16);
  return out;
}

const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

export function bytesToBase64(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i += 3) {
    const n = (b[i]! << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
    s +=
      B64[(n >> 18) & 63]! +
      B64[(n >> 12) & 63]! +
      (i + 1 < b.length ? B64[(n >> 6) & 63]! : "=") +
      (i + 2 < b.length ? B64[n & 63]! : "=");
  }
  return s;
}

export function base64ToBytes(text: string): Uint8Array | undefined {
  const t = text.replace(/\s+/g, "");
  if (t.length % 4 || !/^[A-Za-z0-9+/]*={0,2}$/.test(t)) return undefined;
  const pad = t.endsWith("==") ? 2 : t.endsWith("=") ? 1 : 0;
  const out = new Uint8Array((t.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < t.length; i += 4) {
    const n =
      (B64.indexOf(t[i]!) << 18) |
      (B64.indexOf(t[i + 1]!) << 12) |
      ((B64.indexOf(t[i + 2]!) & 63) << 6) |
      (B64.indexOf(t[i + 3]!) & 63);
    if (o < out.length) out[o++] = (n >> 16) & 255;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}

const encoder = new TextEncoder();
export const utf8Encode = (s: string): Uint8Array => encoder.encode(s);
/** Throws TypeError on invalid UTF-8 (callers turn it into a DecodeError). */
export const utf8Decode = (b: Uint8Array): string => strictUtf8Decoder.decode(b);
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}
