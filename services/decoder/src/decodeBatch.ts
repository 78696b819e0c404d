// One batch message (a route with `batch=`) → one row per reading: each reading joined with the
// message's once-fields is an ordinary record of the layout, stored and forwarded like any other.
// What identifies a message and a reading, so that a resent message stores no reading twice, is
// written down in docs/stack.md "Batches".
import { createHash } from "node:crypto";
import {
  batchCodecFor,
  type BatchForm,
  codecFor,
  DecodeError,
  type FormatId,
  RecordError,
  toPlain,
  type TypedRecord,
} from "#codecs";
import { BatchPlanError, readingsPerMessage } from "#planning/batch";
import { strictJson, valueAt } from "./decode.ts";
import type { KnownLayout } from "./layouts.ts";

export interface DecodedReading {
  device: string | undefined;
  /** strict JSON of the reading as a record of the layout: the once-fields and this reading's fields */
  con: string;
  /** the message's bytes shared out over its readings (at least 1), for the compression ratio */
  size: number;
  /** this reading alone in the layout's JSON format, the baseline of the ratio */
  jsonSize: number;
}

/**
 * Throws DecodeError (and only that) when the bytes are not a batch of the layout in `form`, or the
 * layout cannot be read as a batch (none declared, a platform that sizes nothing): the caller keeps
 * the message as a dead letter with the reason, so a misconfigured route loses no message.
 */
export function decodeBatchMessage(
  known: KnownLayout,
  format: FormatId,
  form: BatchForm,
  bytes: Uint8Array,
): DecodedReading[] {
  const layout = known.layout;
  let max: number;
  try {
    max = readingsPerMessage(layout, format, form);
  } catch (e) {
    if (e instanceof BatchPlanError) throw new DecodeError(`not read as a batch: ${e.message}`, format);
    throw e;
  }
  const batch = batchCodecFor(layout, format, form, max).decode(bytes);
  if (batch.readings.length === 0) throw new DecodeError("the batch holds no readings", format);
  const json = codecFor(layout, "json");
  const size = Math.max(1, Math.round(bytes.length / batch.readings.length));
  return batch.readings.map((reading, i) => {
    const record: TypedRecord = { ...batch.once, ...reading };
    let con: string;
    try {
      con = strictJson(toPlain(layout, record, "json"));
    } catch (e) {
      if (e instanceof RecordError) throw new DecodeError(`reading ${i + 1} cannot be rendered: ${e.message}`, format);
      throw e;
    }
    let jsonSize: number;
    try {
      jsonSize = json.encode(record).length;
    } catch {
      jsonSize = Buffer.byteLength(con);
    }
    const key = known.deviceKey ? valueAt(record, known.deviceKey) : undefined;
    const device = key === undefined || typeof key === "object" ? undefined : String(key);
    return { device, con, size, jsonSize };
  });
}

/**
 * A batch message's identity when its sender gave none: a digest of what it is (layout, format,
 * form, the device named outside the bytes, the bytes). Only for layouts whose readings carry their
 * own time (`batch.time`): then the same bytes are the same readings, and a resent message is
 * recognised; without a time two honest messages may be byte-equal, so each arrival is its own
 * message (a generated id), as for single records.
 */
export function batchDigestId(
  known: KnownLayout,
  format: FormatId,
  form: BatchForm,
  device: string | undefined,
  bytes: Uint8Array,
): string | undefined {
  if (known.layout.batch?.time === undefined) return undefined;
  const h = createHash("sha256");
  for (const part of [known.id, format, form, device ?? ""]) h.update(`${part.length}:${part}|`);
  h.update(bytes);
  return `sha256-${h.digest("hex").slice(0, 32)}`;
}

/** reading i (0-based) of message `messageId`: `<message id>~<i>`, its record's message id */
export const readingId = (messageId: string, i: number): string => `${messageId}~${i}`;
