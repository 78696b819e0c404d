// CBOR as the paper's Python client writes it (cbor2.dumps of the plain record), built with cbor-x.
import { Decoder, Encoder } from "cbor-x";
import { checkCbor } from "./cborCheck.ts";
import { EncodeError } from "../../errors.ts";
import type { Layout } from "../../layout/schema.ts";
import type { PlainValue } from "../../layout/values.ts";
import { hasLoneSurrogate } from "../../text/utf8.ts";
import { libraryDecode } from "../decodeFailure.ts";
import { ByteWriter } from "../selfdescribing/byteWriter.ts";
import { normalizeDecoded } from "../selfdescribing/decoded.ts";
import { compileSelfDescribing, type NumHint, type Sink } from "../selfdescribing/plan.ts";
import type { Codec, CompiledCodec, FormatInfo } from "../types.ts";

/**
 * The options under which cbor-x writes what cbor2 writes: no record extension (tag 105), maps
 * with their exact length, byte strings untagged (cbor-x tags Uint8Array with 64 under Node).
 */
export const CBOR_X_OPTIONS = {
  useRecords: false,
  variableMapSize: true,
  tagUint8Array: false,
  pack: false,
  useFloat32: 0,
} as const;

const info: FormatInfo = {
  id: "cbor",
  label: "CBOR",
  short: "CBOR",
  exports: { networkDecoder: false, kaitai: false, firmware: false },
  selfDescribing: true,
  compressed: false,
  lossy: false,
  implementation:
    "cbor-x 1.6.9 (useRecords: false, variableMapSize: true, tagUint8Array: false) per key and value, byte-identical to Python cbor2.dumps; float fields written by width (0xfa float32, 0xfb float64)",
};

const TWO_32 = 2 ** 32;

/** CBOR's values; CBOR-int writes through it too (cbor-int/codec.ts), so only its keys differ. */
export class CborSink implements Sink {
  readonly out = new ByteWriter();
  private readonly lib = new Encoder(CBOR_X_OPTIONS);

  constructor(readonly format = "cbor") {}

  /**
   * Major type and length in the shortest head, as cbor-x and cbor2 write them; written here
   * because cbor-x has no call for a map or array head on its own, and spans need it separate.
   */
  private head(major: number, n: number): void {
    const out = this.out;
    const m = major << 5;
    if (n < 24) out.byte(m | n);
    else if (n < 0x100) {
      out.byte(m | 24);
      out.byte(n);
    } else if (n < 0x10000) {
      out.byte(m | 25);
      out.byte(n >> 8);
      out.byte(n & 0xff);
    } else {
      out.byte(m | 26);
      out.ensure(4);
      out.view.setUint32(out.pos, n);
      out.pos += 4;
    }
  }

  mapOpen(count: number): void {
    this.head(5, count);
  }

  mapClose(): void {}

  entrySeparator(): void {}

  private lib1(v: unknown): void {
    this.out.bytes(this.lib.encode(v));
  }

  /**
   * cbor-x writes integral numbers beyond 32 bits as floats and every bigint as 8 bytes; cbor2
   * writes the shortest integer, so each integer goes to cbor-x in the form it writes shortest.
   */
  private int(v: number | bigint): void {
    if (typeof v === "number") this.lib1(v >= -TWO_32 && v < TWO_32 ? v : BigInt(v));
    else this.lib1(v >= -TWO_32 && v < TWO_32 ? Number(v) : v);
  }

  /** float32 fields travel as CBOR float32, the 4 bytes a device holds; cbor-x has no per-value width. */
  private float32(x: number): void {
    this.out.byte(0xfa);
    this.out.float32BE(x);
  }

  /** As cbor2 writes a double: NaN and ±Infinity in half precision, everything else in 8 bytes. */
  private float64(x: number): void {
    const out = this.out;
    if (Number.isFinite(x)) {
      out.byte(0xfb);
      out.float64BE(x);
      return;
    }
    out.byte(0xf9);
    out.byte(Number.isNaN(x) ? 0x7e : x > 0 ? 0x7c : 0xfc);
    out.byte(0x00);
  }

  value(v: PlainValue, hint: NumHint, path: string): void {
    switch (typeof v) {
      case "number":
        if (hint === "f32") this.float32(v);
        else if (hint === "f64" || !Number.isInteger(v)) this.float64(v);
        else this.int(v);
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
          this.head(4, v.length);
          for (let i = 0; i < v.length; i++) this.value(v[i]!, hint, path);
        } else throw new EncodeError("value has no CBOR form here", this.format, path);
    }
  }
}

// cbor-x reads a map with number keys as a Map (CBOR-int): intKeys.ts's mapsToRecords turns it plain
export const cborDecoder = new Decoder({ useRecords: false, mapsAsObjects: true });

/**
 * cbor-x reports malformed input as a plain Error with one of these messages (decode.js); checkCbor
 * refuses all of them first, so reaching one means the two disagree, which is still bad input.
 */
const CBOR_X_INPUT =
  /^(Unexpected end of CBOR data|Data read, but end of buffer not reached|Unknown (CBOR )?token|Invalid major type|Unexpected break stop code|Indefinite length not supported|JavaScript does not support arrays|(Array length|Property count|Map size) exceeds)/;

export const isCborXInputError = (e: unknown): boolean =>
  e instanceof Error && e.constructor === Error && CBOR_X_INPUT.test(e.message);

function compile(layout: Layout): CompiledCodec {
  const keyEncoder = new Encoder(CBOR_X_OPTIONS);
  return compileSelfDescribing(layout, info, {
    sink: new CborSink(),
    encodeKey: (key) => keyEncoder.encode(key).slice(),
    mode: "binary",
    read(bytes) {
      checkCbor(bytes);
      return normalizeDecoded(libraryDecode("cbor", () => cborDecoder.decode(bytes) as PlainValue, isCborXInputError));
    },
  });
}

export const cborCodec: Codec = { info, compile };
