// Type-length-value answers (PER_RA, MST_RA, LCD_RA, END_RA): parsed generically so types added by newer
// firmware are skipped by their length instead of breaking the parse.
import type { TlvField } from "#contracts/devkit/counters.ts";
import { BadAnswerError } from "../errors.ts";
import { concat } from "./bytes.ts";

export interface TlvItem {
  type: number;
  value: Uint8Array;
}

export function parseTlv(b: Uint8Array, what: string): TlvItem[] {
  const out: TlvItem[] = [];
  let o = 0;
  while (o < b.length) {
    if (o + 2 > b.length) throw new BadAnswerError(`${what}: TLV entry at byte ${o} has no length byte`);
    const type = b[o]!;
    const len = b[o + 1]!;
    if (o + 2 + len > b.length)
      throw new BadAnswerError(
        `${what}: TLV type 0x${type.toString(16)} claims ${len} bytes, ${b.length - o - 2} left`,
      );
    out.push({ type, value: b.slice(o + 2, o + 2 + len) });
    o += 2 + len;
  }
  return out;
}

export function encodeTlv(items: readonly TlvItem[]): Uint8Array {
  return concat(...items.map((i) => concat(Uint8Array.of(i.type, i.value.length), i.value)));
}

/** little-endian unsigned value of 1, 2 or 4 bytes */
export function tlvUint(v: Uint8Array): number {
  let n = 0;
  for (let i = v.length - 1; i >= 0; i--) n = n * 256 + v[i]!;
  return n;
}

export function uintTlv(type: number, width: 1 | 2 | 4, value: number): TlvItem {
  const v = new Uint8Array(width);
  let x = value;
  for (let i = 0; i < width; i++) {
    v[i] = x % 256;
    x = Math.floor(x / 256);
  }
  return { type, value: v };
}

/**
 * Reads the known fields of a TLV answer into an object; fields the answer lacks stay undefined (older
 * firmware), unknown types are returned apart so nothing the module said is lost.
 */
export function readTlvFields<K extends string>(
  b: Uint8Array,
  fields: readonly TlvField<K>[],
  what: string,
): { values: Partial<Record<K, number>>; unknown: TlvItem[] } {
  const values: Partial<Record<K, number>> = {};
  const unknown: TlvItem[] = [];
  for (const item of parseTlv(b, what)) {
    const f = fields.find((x) => x.type === item.type);
    if (!f) unknown.push(item);
    else if (item.value.length !== f.width)
      throw new BadAnswerError(
        `${what}: ${f.label} (type 0x${f.type.toString(16)}) has ${item.value.length} bytes, expected ${f.width}`,
      );
    else values[f.key] = tlvUint(item.value);
  }
  return { values, unknown };
}

export function writeTlvFields<K extends string>(
  values: Partial<Record<K, number>>,
  fields: readonly TlvField<K>[],
): Uint8Array {
  return encodeTlv(
    fields.filter((f) => values[f.key] !== undefined).map((f) => uintTlv(f.type, f.width, values[f.key]!)),
  );
}
