// One message, whatever carried it (HTTP, MQTT, CoAP): resolve the layout, decode, keep an
// undecodable payload as a dead letter, or store the record — resolved only once its group commit is
// fsync'd, so every transport acknowledges after the same durable commit.
import { DecodeError, type Excess } from "#codecs";
import { DEFAULT_FIDELITY, type FidelityPolicy } from "#contracts/decoder/fidelity.ts";
import type { GroupCommit } from "../buffer/groupCommit.ts";
import { decodeMessage } from "../decode.ts";
import { batchDigestId, decodeBatchMessage, type DecodedReading, readingId } from "../decodeBatch.ts";
import { IngestError } from "../errors.ts";
import type { KnownLayout, LayoutRegistry } from "../layouts.ts";
import { nextUlid } from "../names.ts";
import type { IngestMeta } from "../request.ts";

export const UNKNOWN_DEVICE = "unknown";

export interface IngestInput {
  meta: IngestMeta;
  /** the payload; undefined when an envelope's data is not base64 */
  bytes: Uint8Array | undefined;
  /** what arrived, kept as the dead letter's body when there are no payload bytes */
  body: Uint8Array;
  receivedAt: number;
  /** the device the record is stored for, checked against the sender's key (throws the refusal) */
  bindDevice: (named: string | undefined) => string | undefined;
}

/** the answer every transport gives for a stored (or already stored) message */
export interface StoredMessage {
  messageId: string;
  seq: number;
  buffer: number;
  layout: string;
  format: IngestMeta["format"];
  device: string;
  duplicate: boolean;
  /** values beyond the layout, stored as sent (present only when there are some) */
  flagged?: Excess[];
  /** a batch message: its readings, and how many of them this request stored (0 for a resend) */
  readings?: { count: number; stored: number };
}

export class MessageStore {
  constructor(
    private readonly layouts: LayoutRegistry,
    private readonly commit: GroupCommit,
    private readonly worker: number,
    /** what to do with values beyond a layout where a route says nothing */
    private readonly fidelity: FidelityPolicy = DEFAULT_FIDELITY,
  ) {}

  private policyFor(meta: IngestMeta): FidelityPolicy {
    const own = meta.fidelity;
    if (!own) return this.fidelity;
    return { precision: own.precision ?? this.fidelity.precision, range: own.range ?? this.fidelity.range };
  }

  /** every refusal counts against the success rate; only undecodable payloads are kept as dead letters */
  countRejected(): void {
    this.commit.append({ kind: "rejected" }).catch(() => {});
  }

  /** Throws IngestError for bad input (an undecodable payload after its dead letter is committed); anything else is a storage failure. */
  async store(input: IngestInput): Promise<StoredMessage> {
    const { meta, bytes, receivedAt } = input;
    let known;
    try {
      known = this.layouts.resolve(meta.layoutRef);
    } catch (e) {
      if (e instanceof IngestError) this.countRejected();
      throw e;
    }
    if (meta.batch !== undefined && bytes) return this.storeBatch(input, known, meta.batch, bytes);
    let decoded;
    let problem: string | undefined;
    if (!bytes) problem = "envelope data is not base64";
    else {
      try {
        decoded = decodeMessage(known, meta.format, bytes, this.policyFor(meta));
      } catch (e) {
        if (!(e instanceof DecodeError)) throw e;
        problem = e.message;
      }
    }
    if (!decoded || !bytes) return this.deadLetter(input, known, problem ?? "undecodable");
    // every record is named by the ULID of its arrival (docs/stack.md): ≤ 45 characters for Mobius'
    // lookup.rn, sorting by arrival for its la/ol; a device's own id travels in a label
    const generated = nextUlid();
    const messageId = meta.messageId ?? generated;
    const device = input.bindDevice(decoded.device ?? meta.device) ?? UNKNOWN_DEVICE;
    const result = await this.commit.append({
      kind: "record",
      record: {
        messageId,
        rn: generated,
        receivedAt,
        layout: known.id,
        format: meta.format,
        device,
        size: decoded.size,
        jsonSize: decoded.jsonSize,
        con: decoded.con,
        ...(decoded.flagged.length ? { flagged: decoded.flagged.map(({ field, kind }) => ({ field, kind })) } : {}),
      },
    });
    const stored = result!;
    return {
      messageId,
      seq: stored.seq,
      buffer: this.worker,
      layout: known.id,
      format: meta.format,
      device,
      duplicate: stored.duplicate,
      ...(decoded.flagged.length ? { flagged: decoded.flagged } : {}),
    };
  }

  /** an undecodable payload is kept with its reason before the sender hears 400 */
  private async deadLetter(input: IngestInput, known: KnownLayout, reason: string): Promise<never> {
    const { meta, bytes, receivedAt } = input;
    await this.commit.append({
      kind: "dead",
      dead: {
        receivedAt,
        layout: known.id,
        format: meta.format,
        messageId: meta.messageId,
        reason,
        body: bytes ?? input.body,
      },
    });
    throw new IngestError("undecodable", reason);
  }

  /**
   * A batch message: every reading becomes its own record, named `<message id>~<i>` so that a resent
   * message (the same id, or for time-stamped readings the same bytes) stores none of them twice,
   * and each with its own ULID, taken in reading order so the CSE's instances sort as the readings
   * do. Nothing is stored when any reading fails to decode.
   */
  private async storeBatch(
    input: IngestInput,
    known: KnownLayout,
    form: NonNullable<IngestMeta["batch"]>,
    bytes: Uint8Array,
  ): Promise<StoredMessage> {
    const { meta, receivedAt } = input;
    let readings: DecodedReading[];
    try {
      readings = decodeBatchMessage(known, meta.format, form, bytes);
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e;
      return this.deadLetter(input, known, e.message);
    }
    // one device for the whole message: the once-fields name it (or nothing in the bytes does)
    const device = input.bindDevice(readings[0]!.device ?? meta.device) ?? UNKNOWN_DEVICE;
    const messageId =
      meta.messageId ?? batchDigestId(known, meta.format, form, meta.device, bytes) ?? nextUlid(receivedAt);
    // one item: the readings go into one transaction, in reading order (seq, then the forwarder), so
    // a crash or a failed commit leaves none of them and the resend stores the whole message
    const result = (await this.commit.append({
      kind: "readings",
      records: readings.map((r, i) => ({
        messageId: readingId(messageId, i),
        rn: nextUlid(),
        receivedAt,
        layout: known.id,
        format: meta.format,
        device,
        size: r.size,
        jsonSize: r.jsonSize,
        con: r.con,
      })),
    }))!;
    const stored = result.stored ?? 0;
    return {
      messageId,
      seq: result.seq,
      buffer: this.worker,
      layout: known.id,
      format: meta.format,
      device,
      duplicate: stored === 0,
      readings: { count: readings.length, stored },
    };
  }
}
