// What test harnesses may treat as an answer rather than a failure: a record the codec refuses with
// EncodeError, bytes it rejects with DecodeError. Anything else a codec throws (a TypeError, a
// RangeError) is a bug and propagates, so the harness fails instead of counting it as a refusal.
import { DecodeError, EncodeError } from "../../src/errors.ts";
import type { CompiledCodec } from "../../src/formats/types.ts";
import type { TypedRecord } from "../../src/layout/values.ts";

/** The codec's bytes for `rec`, or undefined when it refuses the record with EncodeError. */
export function encodeUnlessRefused(codec: Pick<CompiledCodec, "encode">, rec: TypedRecord): Uint8Array | undefined {
  try {
    return codec.encode(rec);
  } catch (e) {
    if (e instanceof EncodeError) return undefined;
    throw e;
  }
}

/** The record the codec reads from `bytes`, or undefined when it rejects them with DecodeError. */
export function decodeUnlessRejected(codec: Pick<CompiledCodec, "decode">, bytes: Uint8Array): TypedRecord | undefined {
  try {
    return codec.decode(bytes);
  } catch (e) {
    if (e instanceof DecodeError) return undefined;
    throw e;
  }
}
