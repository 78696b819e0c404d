// CBOR with integer keys, as constrained devices send it (SenML-CBOR's labels, RFC 8428 §6; LwM2M
// resource ids): each map key is the field's stable layout number instead of its text key, values
// exactly as the text-keyed CBOR writes them (the same sink), so the keys are the only difference.
import { Encoder } from "cbor-x";
import type { Layout } from "../../layout/schema.ts";
import type { PlainValue } from "../../layout/values.ts";
import { checkCbor } from "../cbor/cborCheck.ts";
import { CBOR_X_OPTIONS, CborSink, cborDecoder, isCborXInputError } from "../cbor/codec.ts";
import { libraryDecode } from "../decodeFailure.ts";
import { normalizeDecoded } from "../selfdescribing/decoded.ts";
import { fieldNumber, IntKeyNames, mapsToRecords, numberedLayout } from "../selfdescribing/intKeys.ts";
import { compileSelfDescribing } from "../selfdescribing/plan.ts";
import type { Codec, CompiledCodec, FormatInfo } from "../types.ts";

const FORMAT = "cbor-int";

const info: FormatInfo = {
  id: FORMAT,
  label: "CBOR, integer keys",
  short: "CBOR-int",
  exports: { networkDecoder: false, kaitai: false, firmware: false },
  selfDescribing: true,
  compressed: false,
  lossy: false,
  implementation:
    "cbor-x 1.6.9 (useRecords: false, variableMapSize: true, tagUint8Array: false) per key and value, byte-identical to Python cbor2.dumps of the number-keyed dict; keys are the fields' layout numbers (as in the .proto); float fields written by width (0xfa float32, 0xfb float64)",
};

function compile(layout: Layout): CompiledCodec {
  // the numbers are the layout's (a layout made in code gets them as a file would, by position)
  const numbered = numberedLayout(layout);
  const names = new IntKeyNames(numbered);
  const keyEncoder = new Encoder(CBOR_X_OPTIONS);
  return compileSelfDescribing(numbered, info, {
    sink: new CborSink(FORMAT),
    encodeKey: (_key, field) => keyEncoder.encode(fieldNumber(field)).slice(),
    mode: "binary",
    keys: { mode: "number", named: (doc: PlainValue) => names.named(doc, FORMAT) },
    read(bytes) {
      checkCbor(bytes, FORMAT, names.describe);
      const doc = libraryDecode(FORMAT, () => cborDecoder.decode(bytes) as unknown, isCborXInputError);
      return normalizeDecoded(mapsToRecords(doc));
    },
  });
}

export const cborIntCodec: Codec = { info, compile };
