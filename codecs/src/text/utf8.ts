// UTF-8 for every codec: strict (overlong forms, surrogates, truncation are errors), BOM-preserving
// (a leading U+FEFF is data, not a marker), and fast for the short mostly-ASCII strings telemetry holds.

const encoder = new TextEncoder();
/** ignoreBOM: a string that starts with U+FEFF must come back with it */
export const strictUtf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const decoder = strictUtf8Decoder;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A string with a lone surrogate has no UTF-8 form; encoders would silently write U+FFFD. */
export function hasLoneSurrogate(s: string): boolean {
  return LONE_SURROGATE.test(s);
}

/** Offset of the first byte that is not valid UTF-8 in bytes[start, end), or -1 when all is valid. */
export function invalidUtf8At(b: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    let cp: number;
    if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
      cp = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
      cp = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
      cp = c & 0x07;
    } else return i;
    for (let k = 1; k <= need; k++) {
      // a sequence cut short by the end of the text is as invalid as a wrong continuation byte
      if (i + k >= end) return i;
      const d = b[i + k]!;
      if ((d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** short runs are cheaper char by char than through TextDecoder; long ones would overflow apply() */
const SHORT = 64;

/** Text of bytes[start, end) known to be ASCII. */
export function asciiText(b: Uint8Array, start: number, end: number): string {
  if (end - start <= SHORT) return String.fromCharCode.apply(null, b.subarray(start, end) as unknown as number[]);
  return decoder.decode(b.subarray(start, end));
}

/** Text of bytes[start, end) already checked with invalidUtf8At. */
export function utf8Text(b: Uint8Array, start: number, end: number): string {
  if (end - start <= SHORT) {
    let ascii = true;
    for (let i = start; i < end; i++) {
      if (b[i]! >= 0x80) {
        ascii = false;
        break;
      }
    }
    if (ascii) return asciiText(b, start, end);
  }
  return decoder.decode(b.subarray(start, end));
}

/**
 * Writes `s` at `pos` and returns the byte count, or -1 when `s` holds a lone surrogate (it has
 * no UTF-8 form; TextEncoder would silently write U+FFFD). Needs 3 × s.length bytes of room.
 */
export function writeUtf8(buf: Uint8Array, pos: number, s: string): number {
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      if (hasLoneSurrogate(s)) return -1;
      return i + encoder.encodeInto(s.slice(i), buf.subarray(pos + i)).written;
    }
    buf[pos + i] = c;
  }
  return n;
}

/** The string of buf[pos … pos+len), or undefined when the bytes are not valid UTF-8. */
export function readUtf8(buf: Uint8Array, pos: number, len: number): string | undefined {
  const end = pos + len;
  // past a few dozen bytes TextDecoder is faster than building the string (bench:gateway, ≤ 1000 B payloads)
  if (len > SHORT) return decodeNonAscii(buf, pos, end);
  let s = "";
  let i = pos;
  // four characters per call: measurably faster than one at a time or apply() for 1–30 byte strings
  for (; i + 4 <= end; i += 4) {
    const a = buf[i]!,
      b = buf[i + 1]!,
      c = buf[i + 2]!,
      d = buf[i + 3]!;
    if ((a | b | c | d) >= 0x80) return decodeNonAscii(buf, pos, end);
    s += String.fromCharCode(a, b, c, d);
  }
  for (; i < end; i++) {
    const a = buf[i]!;
    if (a >= 0x80) return decodeNonAscii(buf, pos, end);
    s += String.fromCharCode(a);
  }
  return s;
}

function decodeNonAscii(buf: Uint8Array, pos: number, end: number): string | undefined {
  try {
    return decoder.decode(buf.subarray(pos, end));
  } catch {
    return undefined;
  }
}
