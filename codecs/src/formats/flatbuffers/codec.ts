// FlatBuffers: tables with a vtable per message, fields at the slots the layout's protobuf numbers give,
// as mapped in docs/design/flatbuffers-mapping.md. The bytes are the official builder's (npm flatbuffers).
import { flatbuffersDecode, flatbuffersSpans } from "./decode.ts";
import { flatbuffersEncode } from "./encode.ts";
import { flatbuffersModel } from "./model.ts";
import type { Layout } from "../../layout/schema.ts";
import type { Codec, CompiledCodec, FormatInfo } from "../types.ts";

const info: FormatInfo = {
  id: "flatbuffers",
  label: "FlatBuffers",
  short: "FlatBuffers",
  // the .fbs schema is written by its own exporter, not by these three
  exports: { networkDecoder: false, kaitai: false, firmware: false },
  selfDescribing: false,
  compressed: false,
  lossy: false,
  implementation:
    "npm flatbuffers 25.9.23 Builder, fields added as flatc's Python Pack adds them (= the official Python builder's bytes), no file identifier",
};

export function compileFlatbuffers(layout: Layout): CompiledCodec {
  const model = flatbuffersModel(layout);
  return {
    info,
    layout,
    encode: (rec) => flatbuffersEncode(model, rec),
    encodeWithSpans: (rec) => {
      const bytes = flatbuffersEncode(model, rec);
      // the reader's walk over the finished bytes: the builder writes back to front, in no span order
      return { bytes, spans: flatbuffersSpans(model, bytes) };
    },
    // no size-only path: alignment padding and shared vtables make a message's size depend on every
    // field together, so it is not a sum of per-field contributions (FieldSizer); sizes come from encode
    decode: (bytes) => flatbuffersDecode(model, bytes),
  };
}

export const flatbuffersCodec: Codec = { info, compile: compileFlatbuffers };
