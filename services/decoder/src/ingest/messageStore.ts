// One message, whatever carried it (HTTP, MQTT, CoAP): resolve the layout, decode, keep an
// undecodable payload as a dead letter, or store the record — resolved only once its group commit is
// fsync'd, so every transport acknowledges after the same durable commit.
import { DecodeError, type Excess } from "#codecs";
import { DEFAULT_FIDELITY, type FidelityPolicy } from "#contracts/decoder/fidelity.ts";
import type { GroupCommit } from "../buffer/groupCommit.ts";
import { decodeMessage } from "../decode.ts";
import { IngestError } from "../errors.ts";
import type { LayoutRegistry } from "../layouts.ts";
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
    if (!decoded || !bytes) {
      const reason = problem ?? "undecodable";
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
}
