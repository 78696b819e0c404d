// Struct+Zlib: the paper's Struct stream compressed with zlib level 9 (docs/design/struct-mapping.md).
import { DecodeError } from "../../errors.ts";
import type { Layout } from "../../layout/schema.ts";
import { InflateError, zlibCompress, zlibInflate } from "../deflate.ts";
import { DEFLATE_FACTS } from "../deflateFacts.ts";
import { compileStruct, type CompiledStruct } from "../struct/codec.ts";
import type { Codec, CompiledCodec, FormatInfo } from "../types.ts";

const FORMAT = "struct-zlib";

const info: FormatInfo = {
  id: "struct-zlib",
  label: "Struct+Zlib",
  short: "Struct+Zlib",
  exports: { networkDecoder: false, kaitai: false, firmware: true },
  selfDescribing: false,
  compressed: true,
  lossy: false,
  implementation: `Struct stream + ${DEFLATE_FACTS.implementation} zlib level 9 with zlib's classic hash: ${DEFLATE_FACTS.claim}, so sizes are what a device running zlib 1.2.x sends (${DEFLATE_FACTS.defaultHashMeanDelta === undefined ? "" : `pako's default hash, like Node's zlib, averages +${DEFLATE_FACTS.defaultHashMeanDelta} B; `}miniz not measured)`,
};

export interface CompiledStructZlib extends CompiledCodec {
  /** the Struct stream before compression: encode(r) = compress(stream.encode(r)) */
  readonly stream: CompiledStruct;
  compress(stream: Uint8Array): Uint8Array;
}

export function compileStructZlib(layout: Layout): CompiledStructZlib {
  const struct = compileStruct(layout);
  const maxStream = struct.plan.maxSize;
  return {
    info,
    layout,
    stream: struct,
    compress: zlibCompress,
    encode: (rec) => zlibCompress(struct.encode(rec)),
    encodeWithSpans(rec) {
      const uncompressed = struct.encodeWithSpans(rec);
      const bytes = zlibCompress(uncompressed.bytes);
      return { bytes, spans: [{ start: 0, end: bytes.length, field: "", role: "framing" }], uncompressed };
    },
    decode(bytes) {
      if (!(bytes instanceof Uint8Array)) throw new DecodeError("input must be bytes", FORMAT);
      let stream: Uint8Array;
      try {
        stream = zlibInflate(bytes, maxStream);
      } catch (e) {
        if (e instanceof InflateError) throw new DecodeError(e.message, FORMAT, e.offset);
        throw e;
      }
      try {
        return struct.decode(stream);
      } catch (e) {
        if (e instanceof DecodeError) throw new DecodeError(`inflated Struct stream: ${e.message}`, FORMAT);
        throw e;
      }
    },
  };
}

export const structZlibCodec: Codec = { info, compile: compileStructZlib };
