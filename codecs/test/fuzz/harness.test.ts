// The fuzzer must be able to fail: a decoder that throws anything but DecodeError is reported, also
// when the TypeError comes from inside the shared self-describing decode path.
import { describe, expect, it } from "vitest";
import { fuzzDecoder } from "./harness.ts";
import { DecodeError } from "../../src/errors.ts";
import { parseJson } from "../../src/formats/json/jsonParse.ts";
import { CODECS } from "../../src/formats/registry.ts";
import { ByteWriter } from "../../src/formats/selfdescribing/byteWriter.ts";
import { compileSelfDescribing, type Sink } from "../../src/formats/selfdescribing/plan.ts";
import type { CompiledCodec } from "../../src/formats/types.ts";
import { parseLayout } from "../../src/layout/validate.ts";
import type { PlainRecord, PlainValue } from "../../src/layout/values.ts";
import { paperPreset } from "../../src/presets/paper.ts";
import { generateSamples } from "../../src/samples/generate.ts";
import { Prng } from "../../src/samples/prng.ts";

const layout = parseLayout(paperPreset);
const samples = generateSamples(layout, 20, 5);
const json = CODECS.json.compile(layout);
const valid = samples.map((r) => json.encode(r));

/** A JSON writer just good enough for the paper's all-string record, so the test owns every part. */
class TestJsonSink implements Sink {
  readonly format = "json";
  readonly out = new ByteWriter();
  mapOpen(): void {
    this.out.ascii("{");
  }
  mapClose(): void {
    this.out.ascii("}");
  }
  entrySeparator(i: number): void {
    if (i > 0) this.out.ascii(", ");
  }
  value(v: PlainValue): void {
    this.out.ascii(JSON.stringify(v));
  }
}

const encodeKey = (key: string): Uint8Array => new TextEncoder().encode(`${JSON.stringify(key)}: `);

describe("the fuzz harness", () => {
  it("reports a decoder that throws a TypeError on some inputs", () => {
    const faulty: Pick<CompiledCodec, "decode" | "encode"> = {
      encode: json.encode,
      decode(bytes) {
        if (bytes.length % 5 === 2) throw new TypeError("Cannot read properties of undefined (reading 'x')");
        return json.decode(bytes);
      },
    };
    const t = fuzzDecoder(faulty, valid, new Prng(1), 600);
    expect(t.failures.length).toBeGreaterThan(0);
    expect(t.failures[0]).toMatch(/TypeError: Cannot read properties of undefined/);
  });

  it("reports a TypeError raised inside a self-describing reader (it is not turned into DecodeError)", () => {
    // the bug: a reader that dereferences a key the document may lack
    const buggyRead = (bytes: Uint8Array): PlainValue => {
      const doc = parseJson(bytes) as PlainRecord;
      const lat = (doc as unknown as Record<string, { length: number } | undefined>)["latitude"];
      if (lat!.length > 0) return doc;
      return doc;
    };
    const codec = compileSelfDescribing(layout, CODECS.json.info, {
      sink: new TestJsonSink(),
      encodeKey,
      mode: "json",
      read: buggyRead,
    });
    const t = fuzzDecoder(codec, valid, new Prng(2), 600);
    expect(t.failures.some((f) => f.includes("TypeError"))).toBe(true);
  });

  it("passes a decoder that refuses bad input with DecodeError only", () => {
    const t = fuzzDecoder(json, valid, new Prng(3), 600);
    expect(t.failures).toEqual([]);
    expect(t.rejected).toBeGreaterThan(0);
  });

  it("a bug in a self-describing writer reaches the caller as itself, bad values as EncodeError", () => {
    class ThrowingSink extends TestJsonSink {
      override value(): void {
        throw new TypeError("writer bug");
      }
    }
    const codec = compileSelfDescribing(layout, CODECS.json.info, {
      sink: new ThrowingSink(),
      encodeKey,
      mode: "json",
      read: parseJson,
    });
    expect(() => codec.encode(samples[0]!)).toThrow(TypeError);
    expect(() => json.decode(new TextEncoder().encode("[1]"))).toThrow(DecodeError);
  });
});
