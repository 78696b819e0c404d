// A bug inside the protobuf decoder (here a TypeError injected into its field loop) must reach the
// caller as itself, not as "DecodeError protobuf: …"; malformed bytes still give DecodeError.
import { describe, expect, it, vi } from "vitest";

const fault = vi.hoisted(() => ({ on: false }));

vi.mock("../../src/formats/protobuf/decode.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/formats/protobuf/decode.ts")>();
  return {
    ...real,
    readFields: (...args: Parameters<typeof real.readFields>) => {
      if (fault.on) throw new TypeError("Cannot read properties of undefined (reading 'slot')");
      return real.readFields(...args);
    },
  };
});

const { DecodeError } = await import("../../src/errors.ts");
const { CODECS } = await import("../../src/formats/registry.ts");
const { parseLayout } = await import("../../src/layout/validate.ts");
const { paperPreset } = await import("../../src/presets/paper.ts");
const { generateSamples } = await import("../../src/samples/generate.ts");

describe("protobuf decode errors", () => {
  const layout = parseLayout(paperPreset);
  const codec = CODECS.protobuf.compile(layout);
  const bytes = codec.encode(generateSamples(layout, 1, 3)[0]!);

  it("lets a TypeError from the decoder through", () => {
    fault.on = true;
    try {
      expect(() => codec.decode(bytes)).toThrow(TypeError);
    } finally {
      fault.on = false;
    }
  });

  it("maps truncated input to DecodeError", () => {
    expect(() => codec.decode(bytes.subarray(0, bytes.length - 1))).toThrow(DecodeError);
  });
});
