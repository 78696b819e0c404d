// MessagePack as the paper's Python client writes it (msgpack.packb of the plain record, bin type
// on), built with @msgpack/msgpack.
import { DecodeError as MsgpackDecodeError, Decoder, Encoder } from "@msgpack/msgpack";
import { checkMsgpack } from "./msgpackCheck.ts";
import { EncodeError } from "../../errors.ts";
import type { Layout } from "../../layout/schema.ts";
import type { PlainValue } from "../../layout/values.ts";
import { hasLoneSurrogate } from "../../text/utf8.ts";
import { libraryDecode } from "../decodeFailure.ts";
import { ByteWriter } from "../selfdescribing/byteWriter.ts";
import { normalizeDecoded } from "../selfdescribing/decoded.ts";
import { compileSelfDescribing, type NumHint, type Sink } from "../selfdescribing/plan.ts";
import type { Codec, CompiledCodec, FormatInfo } from "../types.ts";

export const MSGPACK_OPTIONS = { useBigInt64: true } as const;

const info: FormatInfo = {
  id: "msgpack",
  label: "MessagePack",
  short: "MsgPack",
  exports: { networkDecoder: false, kaitai: false, firmware: false },
  selfDescribing: true,
  compressed: false,
  lossy: false,
  implementation:
    "@msgpack/msgpack 3.1.3 (useBigInt64) per key and value, byte-identical to Python msgpack.packb (use_bin_type=True); float fields written by width (0xca float32, 0xcb float64)",
};

const TWO_31 = 2 ** 31;
const TWO_32 = 2 ** 32;

/** MessagePack's values; MsgPack-int writes through it too (msgpack-int/codec.ts), so only its keys differ. */
export class MsgpackSink implements Sink {
  readonly out = new ByteWriter();
  private readonly lib = new Encoder(MSGPACK_OPTIONS);

  constructor(readonly format = "msgpack") {}

  /**
   * fixmap/fixarray up to 15 entries, then the 16- and 32-bit forms, as both libraries write them;
   * written here because spans need the head apart from the entries that follow it.
   */
  private head(fix: number, code16: number, n: number): void {
    const out = this.out;
    if (n < 16) out.byte(fix | n);
    else if (n < 0x10000) {
      out.byte(code16);
      out.byte(n >> 8);
      out.byte(n & 0xff);
    } else {
      out.byte(code16 + 1);
      out.ensure(4);
      out.view.setUint32(out.pos, n);
      out.pos += 4;
    }
  }

  mapOpen(count: number): void {
    this.head(0x80, 0xde, count);
  }

  mapClose(): void {}

  entrySeparator(): void {}

  private lib1(v: unknown): void {
    this.out.bytes(this.lib.encodeSharedRef(v));
  }

  /**
   * With useBigInt64 the library writes every bigint as 8 bytes and integral numbers beyond 32 bits
   * as floats; msgpack.packb writes the shortest integer, so each integer goes to the library in
   * the form it writes shortest: a number inside the 32-bit forms, a bigint outside them.
   */
  private int(v: number | bigint): void {
    if (typeof v === "bigint") this.lib1(v >= -TWO_31 && v < TWO_32 ? Number(v) : v);
    else this.lib1(v >= -TWO_31 && v < TWO_32 ? v : BigInt(v));
  }

  value(v: PlainValue, hint: NumHint, path: string): void {
    const out = this.out;
    switch (typeof v) {
      case "number":
        // the library's float width is one global switch (forceFloat32), so float fields get their
        // own width here: 0xca for float32 fields (what a device holds), 0xcb for float64
        if (hint === "f32") {
          out.byte(0xca);
          out.float32BE(v);
        } else if (hint === "f64" || !Number.isInteger(v)) {
          out.byte(0xcb);
          out.float64BE(v);
        } else this.int(v);
        return;
      case "bigint":
        this.int(v);
        return;
      case "string":
        if (hasLoneSurrogate(v)) throw new EncodeError("string holds a lone surrogate", this.format, path);
        this.lib1(v);
        return;
      case "boolean":
        this.lib1(v);
        return;
      default:
        if (v === null || v instanceof Uint8Array) this.lib1(v);
        else if (Array.isArray(v)) {
          this.head(0x90, 0xdc, v.length);
          for (let i = 0; i < v.length; i++) this.value(v[i]!, hint, path);
        } else throw new EncodeError("value has no MessagePack form here", this.format, path);
    }
  }
}

export const msgpackDecoder = new Decoder(MSGPACK_OPTIONS);

/** The library's own DecodeError, and the RangeErrors it throws for short or over-long input (Decoder.mjs). */
export const isMsgpackInputError = (e: unknown): boolean =>
  e instanceof MsgpackDecodeError ||
  (e instanceof RangeError && /^(Insufficient data|Extra \d+ of \d+ byte)/.test(e.message));

function compile(layout: Layout): CompiledCodec {
  const keyEncoder = new Encoder(MSGPACK_OPTIONS);
  return compileSelfDescribing(layout, info, {
    sink: new MsgpackSink(),
    encodeKey: (key) => keyEncoder.encode(key),
    mode: "binary",
    read(bytes) {
      checkMsgpack(bytes);
      return normalizeDecoded(
        libraryDecode("msgpack", () => msgpackDecoder.decode(bytes) as PlainValue, isMsgpackInputError),
      );
    },
  });
}

export const msgpackCodec: Codec = { info, compile };
