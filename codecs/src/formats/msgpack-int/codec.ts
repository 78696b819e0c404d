// MessagePack with integer keys, as constrained devices send it: each map key is the field's stable
// layout number instead of its text key, values exactly as the text-keyed MessagePack writes them
// (the same sink), so the keys are the only difference.
import { Encoder } from "@msgpack/msgpack";
import type { Layout } from "../../layout/schema.ts";
import type { PlainValue } from "../../layout/values.ts";
import { libraryDecode } from "../decodeFailure.ts";
import { isMsgpackInputError, MSGPACK_OPTIONS, MsgpackSink, msgpackDecoder } from "../msgpack/codec.ts";
import { checkMsgpack } from "../msgpack/msgpackCheck.ts";
import { normalizeDecoded } from "../selfdescribing/decoded.ts";
import { fieldNumber, IntKeyNames, mapsToRecords, numberedLayout } from "../selfdescribing/intKeys.ts";
import { compileSelfDescribing } from "../selfdescribing/plan.ts";
import type { Codec, CompiledCodec, FormatInfo } from "../types.ts";

const FORMAT = "msgpack-int";

const info: FormatInfo = {
  id: FORMAT,
  label: "MessagePack, integer keys",
  short: "MsgPack-int",
  exports: { networkDecoder: false, kaitai: false, firmware: false },
  selfDescribing: true,
  compressed: false,
  lossy: false,
  implementation:
    "@msgpack/msgpack 3.1.3 (useBigInt64) per key and value, byte-identical to Python msgpack.packb (use_bin_type=True) of the number-keyed dict; keys are the fields' layout numbers (as in the .proto); float fields written by width (0xca float32, 0xcb float64)",
};

function compile(layout: Layout): CompiledCodec {
  // the numbers are the layout's (a layout made in code gets them as a file would, by position)
  const numbered = numberedLayout(layout);
  const names = new IntKeyNames(numbered);
  const keyEncoder = new Encoder(MSGPACK_OPTIONS);
  return compileSelfDescribing(numbered, info, {
    sink: new MsgpackSink(FORMAT),
    encodeKey: (_key, field) => keyEncoder.encode(fieldNumber(field)),
    mode: "binary",
    keys: { mode: "number", named: (doc: PlainValue) => names.named(doc, FORMAT) },
    read(bytes) {
      checkMsgpack(bytes, FORMAT, names.describe);
      const doc = libraryDecode(FORMAT, () => msgpackDecoder.decode(bytes) as unknown, isMsgpackInputError);
      return normalizeDecoded(mapsToRecords(doc));
    },
  });
}

export const msgpackIntCodec: Codec = { info, compile };
