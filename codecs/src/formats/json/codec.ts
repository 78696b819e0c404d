// JSON as the device (and the paper's Python client) writes it: json.dumps of the plain record.
import { parseJson } from "./jsonParse.ts";
import { jsonNumber, writeJsonString, type JsonSpacing } from "./jsonText.ts";
import { EncodeError } from "../../errors.ts";
import type { Layout } from "../../layout/schema.ts";
import type { PlainValue } from "../../layout/values.ts";
import { ByteWriter } from "../selfdescribing/byteWriter.ts";
import { compileSelfDescribing, type NumHint, type Sink } from "../selfdescribing/plan.ts";
import type { Codec, CompiledCodec, FormatInfo } from "../types.ts";

const info: FormatInfo = {
  id: "json",
  label: "JSON",
  short: "JSON",
  exports: { networkDecoder: false, kaitai: false, firmware: false },
  selfDescribing: true,
  compressed: false,
  lossy: false,
  implementation:
    'built-in writer matching Python json.dumps (python: defaults; compact: separators=(",", ":"), ensure_ascii=False); strict built-in reader',
};

class JsonSink implements Sink {
  readonly format = "json";
  readonly out = new ByteWriter();
  private readonly itemSep: string;

  constructor(private readonly spacing: JsonSpacing) {
    this.itemSep = spacing === "python" ? ", " : ",";
  }

  mapOpen(): void {
    this.out.byte(0x7b);
  }

  mapClose(): void {
    this.out.byte(0x7d);
  }

  entrySeparator(index: number): void {
    if (index > 0) this.out.ascii(this.itemSep);
  }

  value(v: PlainValue, hint: NumHint, path: string): void {
    const out = this.out;
    switch (typeof v) {
      case "string":
        if (!writeJsonString(out, v, this.spacing))
          throw new EncodeError("string holds a lone surrogate", this.format, path);
        return;
      case "number":
        out.ascii(jsonNumber(v, hint));
        return;
      case "bigint":
        out.ascii(v.toString());
        return;
      case "boolean":
        out.ascii(v ? "true" : "false");
        return;
      default:
        if (v === null) out.ascii("null");
        else if (Array.isArray(v)) {
          out.byte(0x5b);
          for (let i = 0; i < v.length; i++) {
            if (i > 0) out.ascii(this.itemSep);
            this.value(v[i]!, hint, path);
          }
          out.byte(0x5d);
        } else throw new EncodeError("value has no JSON form", this.format, path);
    }
  }
}

function compile(layout: Layout): CompiledCodec {
  const spacing = layout.json.spacing;
  const colon = spacing === "python" ? ": " : ":";
  return compileSelfDescribing(layout, info, {
    sink: new JsonSink(spacing),
    encodeKey: (key) => {
      const w = new ByteWriter();
      writeJsonString(w, key, spacing);
      w.ascii(colon);
      return w.take();
    },
    mode: "json",
    read: parseJson,
  });
}

export const jsonCodec: Codec = { info, compile };
