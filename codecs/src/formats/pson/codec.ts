// PSON, the Thinger.io format (seed 001): the plain record in header-byte form, written and read here
// (there is no JavaScript PSON library); wire rules and inferences are in psonWire.ts.
import {
  PSON_ARRAY,
  PSON_BYTES,
  PSON_FALSE,
  PSON_FLOAT32,
  PSON_FLOAT64,
  PSON_MAP,
  PSON_NULL,
  PSON_SIGNED,
  PSON_STRING,
  PSON_TRUE,
  PSON_UNSIGNED,
  readPson,
  writeHeader,
} from "./psonWire.ts";
import { EncodeError } from "../../errors.ts";
import type { Layout } from "../../layout/schema.ts";
import type { PlainValue } from "../../layout/values.ts";
import { utf8Length } from "../../text/bytes.ts";
import { ByteWriter } from "../selfdescribing/byteWriter.ts";
import { compileSelfDescribing, type NumHint, type Sink } from "../selfdescribing/plan.ts";
import type { Codec, CompiledCodec, FormatInfo } from "../types.ts";

const info: FormatInfo = {
  id: "pson",
  label: "PSON",
  short: "PSON",
  exports: { networkDecoder: false, kaitai: false, firmware: false },
  selfDescribing: true,
  compressed: false,
  lossy: false,
  implementation:
    "built-in writer and strict reader of the Thinger.io PSON wire format (Sensors 2021 §3, Table 1); float32 fields as PSON float32, little-endian",
};

class PsonSink implements Sink {
  readonly format = "pson";
  readonly out = new ByteWriter();

  mapOpen(count: number): void {
    writeHeader(this.out, PSON_MAP, count);
  }

  mapClose(): void {}

  entrySeparator(): void {}

  private int(v: number | bigint): void {
    if (v < 0) writeHeader(this.out, PSON_SIGNED, -v);
    else writeHeader(this.out, PSON_UNSIGNED, v);
  }

  value(v: PlainValue, hint: NumHint, path: string): void {
    const out = this.out;
    switch (typeof v) {
      case "number":
        if (hint === "f32") {
          out.byte(PSON_FLOAT32);
          out.float32LE(v);
        } else if (hint === "f64" || !Number.isInteger(v)) {
          out.byte(PSON_FLOAT64);
          out.float64LE(v);
        } else this.int(v);
        return;
      case "bigint":
        this.int(v);
        return;
      case "string":
        writeHeader(out, PSON_STRING, utf8Length(v));
        if (!out.utf8(v)) throw new EncodeError("string holds a lone surrogate", this.format, path);
        return;
      case "boolean":
        out.byte(v ? PSON_TRUE : PSON_FALSE);
        return;
      default:
        if (v === null) out.byte(PSON_NULL);
        else if (v instanceof Uint8Array) {
          writeHeader(out, PSON_BYTES, v.length);
          out.bytes(v);
        } else if (Array.isArray(v)) {
          writeHeader(out, PSON_ARRAY, v.length);
          for (let i = 0; i < v.length; i++) this.value(v[i]!, hint, path);
        } else throw new EncodeError("value has no PSON form here", this.format, path);
    }
  }
}

function encodeKey(key: string): Uint8Array {
  const w = new ByteWriter();
  writeHeader(w, PSON_STRING, utf8Length(key));
  w.utf8(key);
  return w.take();
}

function compile(layout: Layout): CompiledCodec {
  return compileSelfDescribing(layout, info, { sink: new PsonSink(), encodeKey, mode: "binary", read: readPson });
}

export const psonCodec: Codec = { info, compile };
