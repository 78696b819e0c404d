// Symbol alphabets for bit-packed strings: fewer bits per character when the layout restricts the charset.
import type { ScalarType } from "../../layout/schema.ts";

type Charset = Extract<ScalarType, { kind: "string" }>["charset"];

/**
 * One character ⇄ one symbol of `bits` bits. `pad` fills fixed-length strings that are shorter than
 * maxLength (it never occurs in a valid value, so stripping it is unambiguous); -1 when the alphabet
 * has no spare symbol (hex: a fixed hex string must be full length).
 */
export interface Alphabet {
  charset: Charset;
  bits: number;
  /** char code (< 128) → symbol, -1 when the character is not in the charset */
  toSymbol: Int16Array;
  /** symbol → char code, -1 when the symbol is not a character of the charset */
  toChar: Int16Array;
  pad: number;
  /** one line for docs and the plan */
  describe: string;
}

function build(
  charset: Charset,
  bits: number,
  pairs: Array<[number, number]>,
  pad: number,
  describe: string,
): Alphabet {
  const toSymbol = new Int16Array(128).fill(-1);
  const toChar = new Int16Array(1 << bits).fill(-1);
  for (const [code, sym] of pairs) {
    if (toSymbol[code] === -1) toSymbol[code] = sym;
    if (toChar[sym] === -1) toChar[sym] = code;
  }
  return { charset, bits, toSymbol, toChar, pad, describe };
}

const range = (from: string, to: string): number[] => {
  const out: number[] = [];
  for (let c = from.charCodeAt(0); c <= to.charCodeAt(0); c++) out.push(c);
  return out;
};

/** ITU-R M.1371 (AIS) six-bit ASCII: symbols 0–31 are '@'..'_', 32–63 are ' '..'?'; '@' pads. */
export function aisSymbol(code: number): number {
  return code >= 0x40 ? code - 0x40 : code;
}
export function aisChar(sym: number): number {
  return sym < 32 ? sym + 0x40 : sym;
}

function makeUpperAlnum(): Alphabet {
  const valid = [...range("0", "9"), ...range("A", "Z"), 0x20, 0x2d];
  return build(
    "upper-alnum",
    6,
    valid.map((c) => [c, aisSymbol(c)]),
    aisSymbol(0x40),
    "6-bit AIS alphabet (ITU-R M.1371 Table 47), '@' (symbol 0) pads",
  );
}

function makeDigits(): Alphabet {
  return build(
    "digits",
    4,
    range("0", "9").map((c, i) => [c, i]),
    15,
    "4-bit BCD 0–9, 0xF pads",
  );
}

function makeHex(): Alphabet {
  const pairs: Array<[number, number]> = range("0", "9").map((c, i) => [c, i]);
  range("A", "F").forEach((c, i) => pairs.push([c, 10 + i]));
  // lower case maps onto the same symbols: 4 bits cannot keep the case, decoding gives upper case
  range("a", "f").forEach((c, i) => pairs.push([c, 10 + i]));
  return build("hex", 4, pairs, -1, "4-bit nibble 0–F (decodes as upper case), no pad symbol");
}

function makeAlnum(): Alphabet {
  const chars = [...range("0", "9"), ...range("A", "Z"), ...range("a", "z")];
  return build(
    "alnum",
    6,
    chars.map((c, i) => [c, i]),
    62,
    "6-bit 0–9 A–Z a–z (0–61), 62 pads",
  );
}

function makeAscii(): Alphabet {
  return build(
    "ascii",
    7,
    range(" ", "~").map((c) => [c, c]),
    0,
    "7-bit ASCII 0x20–0x7E, NUL pads",
  );
}

const ALPHABETS: Partial<Record<Charset, Alphabet>> = {
  "upper-alnum": makeUpperAlnum(),
  digits: makeDigits(),
  hex: makeHex(),
  alnum: makeAlnum(),
  ascii: makeAscii(),
};

/** undefined for utf8, which travels as its UTF-8 bytes (8 bits each, NUL pads). */
export function alphabetFor(charset: Charset): Alphabet | undefined {
  return ALPHABETS[charset];
}
