// The seeds' telemetry message (002/004, Fig. 2: Go `struct { Id int; Timestamp uint64; Payload string }`)
// as a layout, the seeded records the sender streams, and the digest every receiver folds its
// decoded values into (so decoding cannot be skipped, and the bench can check the receiver read
// exactly what was sent).
import { type Layout, parseLayout, Prng, type TypedRecord } from "#codecs";

/** The two message types of the seeds: payloads of at most 100 and at most 1000 bytes. */
export const PAYLOAD_LIMITS = [100, 1000] as const;
export type PayloadLimit = (typeof PAYLOAD_LIMITS)[number];

/**
 * Go's `int` is 64-bit on the seeds' Raspberry Pi 5 (arm64): int64, written as a plain protobuf
 * varint (`int64`, what protoc-gen-go users write for `int`), not zigzag. The timestamp is Unix
 * nanoseconds, the uint64 Go's time package gives.
 */
export function telemetryLayout(maxPayload: number): Layout {
  return parseLayout({
    format: "satlayout",
    version: 1,
    name: `Gateway telemetry, payload up to ${maxPayload} B`,
    description: "Seeds 002/004 (Paliy, Bidochka 2026), Fig. 2: message id, creation time, payload.",
    package: "gateway",
    message: "Telemetry",
    fields: [
      {
        id: "id",
        key: "id",
        name: "Id",
        type: { kind: "int", bits: 64, signed: true },
        options: { protobuf: { intEncoding: "varint" } },
      },
      {
        id: "timestamp",
        key: "timestamp",
        name: "Timestamp",
        unit: "ns",
        type: { kind: "int", bits: 64, signed: false },
      },
      // a Go string: any UTF-8 (the records hold ASCII, so bytes = characters)
      { id: "payload", key: "payload", name: "Payload", type: { kind: "string", maxLength: maxPayload } },
    ],
  });
}

const PAYLOAD_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .,:;-_=+/";
/** 2026-05-31T00:00:00Z (the seeds' publication day) in ns */
const T0 = 1_780_185_600_000_000_000n;

/**
 * `count` records: ids counting from `firstId`, timestamps 0–2 ms apart, payloads of 1..maxPayload
 * ASCII characters (uniform: the seeds give only the maximum payload size), cut at random offsets
 * from one seeded random text (100 000 records of up to 1000 characters in well under a second).
 */
export function telemetryRecords(maxPayload: number, count: number, seed: number, firstId = 1): TypedRecord[] {
  const rng = new Prng(seed);
  let text = "";
  for (let k = 0; k < 8192 + maxPayload; k++) text += PAYLOAD_CHARS[rng.int(0, PAYLOAD_CHARS.length - 1)];
  const out: TypedRecord[] = [];
  let t = T0 + BigInt(seed) * 1_000_000_000n;
  for (let i = 0; i < count; i++) {
    t += BigInt(rng.int(0, 2_000_000));
    const len = rng.int(1, maxPayload);
    const at = rng.int(0, 8192);
    out.push({ id: BigInt(firstId + i), timestamp: t, payload: text.slice(at, at + len) });
  }
  return out;
}

/**
 * FNV-1a over 32-bit words: per message id (low, high), timestamp (low, high), the payload's length
 * and its first, middle and last character. The Java receiver computes the same in Java ints.
 */
export class Digest {
  private h = 0x811c9dc5 | 0;
  count = 0;

  word(x: number): void {
    this.h = Math.imul(this.h ^ x, 0x01000193);
  }

  /** one message from its values as 32-bit halves */
  add(idLow: number, idHigh: number, tsLow: number, tsHigh: number, payload: string): void {
    this.word(idLow);
    this.word(idHigh);
    this.word(tsLow);
    this.word(tsHigh);
    const n = payload.length;
    this.word(n);
    if (n > 0) {
      this.word(payload.charCodeAt(0));
      this.word(payload.charCodeAt(n >> 1));
      this.word(payload.charCodeAt(n - 1));
    }
    this.count++;
  }

  /** one message as our codecs decode it: int64 → bigint */
  addRecord(r: TypedRecord): void {
    const id = r.id as bigint;
    const ts = r.timestamp as bigint;
    this.add(
      Number(BigInt.asIntN(32, id)),
      Number(BigInt.asIntN(32, id >> 32n)),
      Number(BigInt.asIntN(32, ts)),
      Number(BigInt.asIntN(32, ts >> 32n)),
      r.payload as string,
    );
  }

  /** the framing-only baseline: a message's length and nothing of its content */
  addFrame(length: number): void {
    this.word(length);
    this.count++;
  }

  get value(): string {
    return (this.h >>> 0).toString(16).padStart(8, "0");
  }
}

export function digestOf(records: readonly TypedRecord[]): string {
  const d = new Digest();
  for (const r of records) d.addRecord(r);
  return d.value;
}

/** What the framing-only baseline reports for these messages. */
export function framesDigestOf(messages: readonly Uint8Array[]): string {
  const d = new Digest();
  for (const m of messages) d.addFrame(m.length);
  return d.value;
}
