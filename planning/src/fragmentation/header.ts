// The reassembly header a record carries when it is split over several platform messages, and the receiver's rule.
//
//   byte 0   record id, 0–255, incremented per record by the device (wraps)
//   byte 1   high nibble: fragment index 0–15 · low nibble: last index (fragment count − 1), 0–15
//
// A layout whose largest record exceeds the platform limit is sent in "fragmented mode": every message of it
// carries the header, records that happen to fit included, so a receiver never has to guess whether a message
// is a whole record or a piece of one.

export const FRAGMENT_HEADER_BYTES = 2;
export const MAX_FRAGMENTS = 16;

export class FragmentError extends Error {
  override readonly name = "FragmentError";
}

export interface FragmentHeader {
  recordId: number;
  index: number;
  count: number;
}

/** Payload bytes one message carries in fragmented mode. */
export function fragmentPayload(limit: number): number {
  const room = limit - FRAGMENT_HEADER_BYTES;
  if (!Number.isInteger(limit) || room < 1)
    throw new FragmentError(
      `a ${limit}-byte message leaves no room after the ${FRAGMENT_HEADER_BYTES}-byte fragment header`,
    );
  return room;
}

/** Largest record fragmented mode can carry on a platform with this limit. */
export function maxRecordBytes(limit: number): number {
  return MAX_FRAGMENTS * fragmentPayload(limit);
}

/** The messages one record becomes: each is header + at most limit − 2 bytes; an empty record is one header-only message. */
export function splitRecord(record: Uint8Array, limit: number, recordId: number): Uint8Array[] {
  if (!Number.isInteger(recordId) || recordId < 0 || recordId > 255)
    throw new FragmentError(`record id ${recordId} is not in 0–255`);
  const room = fragmentPayload(limit);
  const count = Math.max(1, Math.ceil(record.length / room));
  if (count > MAX_FRAGMENTS)
    throw new FragmentError(
      `a ${record.length}-byte record needs ${count} fragments of ${room} bytes; the header counts at most ${MAX_FRAGMENTS} (${MAX_FRAGMENTS * room} bytes)`,
    );
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const part = record.subarray(i * room, Math.min(record.length, (i + 1) * room));
    const msg = new Uint8Array(FRAGMENT_HEADER_BYTES + part.length);
    msg[0] = recordId;
    msg[1] = (i << 4) | (count - 1);
    msg.set(part, FRAGMENT_HEADER_BYTES);
    out.push(msg);
  }
  return out;
}

export function readHeader(message: Uint8Array): FragmentHeader {
  if (message.length < FRAGMENT_HEADER_BYTES)
    throw new FragmentError(`a ${message.length}-byte message is shorter than the fragment header`);
  const index = message[1]! >> 4;
  const count = (message[1]! & 0x0f) + 1;
  if (index >= count) throw new FragmentError(`fragment index ${index} is beyond the last index ${count - 1}`);
  return { recordId: message[0]!, index, count };
}

interface Pending {
  count: number;
  parts: (Uint8Array | undefined)[];
  received: number;
  /** how many records had been opened before it, for eviction */
  openedAt: number;
  /** receive time of the first fragment, for the timeout */
  firstSeenMs: number;
}

/**
 * Receiver side, one per device. Rule: fragments with the same record id are collected until all `count`
 * indexes are there, then the record is their concatenation in index order. A duplicate index is ignored; a
 * fragment whose count disagrees with the pending one means the id wrapped, so the stale pieces are dropped.
 * Pieces are dropped as well when they are older than `timeoutMs` or when 128 other records (half the id space)
 * have started since, so a wrapped id can never be glued to an old half.
 */
export class Reassembler {
  private readonly pending = new Map<number, Pending>();
  private opened = 0;
  dropped = 0;

  constructor(private readonly timeoutMs = Number.POSITIVE_INFINITY) {}

  push(message: Uint8Array, nowMs = 0): Uint8Array | null {
    const h = readHeader(message);
    this.evict(nowMs);
    let p = this.pending.get(h.recordId);
    if (p && p.count !== h.count) {
      this.pending.delete(h.recordId);
      this.dropped++;
      p = undefined;
    }
    if (!p) {
      p = {
        count: h.count,
        parts: new Array(h.count).fill(undefined),
        received: 0,
        openedAt: this.opened++,
        firstSeenMs: nowMs,
      };
      this.pending.set(h.recordId, p);
    }
    if (p.parts[h.index] === undefined) {
      p.parts[h.index] = message.subarray(FRAGMENT_HEADER_BYTES);
      p.received++;
    }
    if (p.received < p.count) return null;
    this.pending.delete(h.recordId);
    const size = p.parts.reduce((a, part) => a + part!.length, 0);
    const out = new Uint8Array(size);
    let at = 0;
    for (const part of p.parts) {
      out.set(part!, at);
      at += part!.length;
    }
    return out;
  }

  /** records still waiting for fragments */
  get waiting(): number {
    return this.pending.size;
  }

  private evict(nowMs: number): void {
    for (const [id, p] of this.pending) {
      if (this.opened - p.openedAt > 128 || nowMs - p.firstSeenMs > this.timeoutMs) {
        this.pending.delete(id);
        this.dropped++;
      }
    }
  }
}
