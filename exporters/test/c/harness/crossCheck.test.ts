// The cross-check harness counts only EncodeError as a refused record and only DecodeError as a
// rejected message: a bug in our codec (a TypeError) must fail the batch, not pass as a refusal.
import { describe, expect, it, vi } from "vitest";

const fault = vi.hoisted(() => ({ encode: false, decode: false }));

// the codec registry module itself (not the "#codecs" entry that re-exports it), so every importer sees the fault
vi.mock("#codecs/formats/registry.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("#codecs/formats/registry.ts")>();
  return {
    ...real,
    codecFor: (...args: Parameters<typeof real.codecFor>) => {
      const codec = real.codecFor(...args);
      return {
        ...codec,
        encode: (rec: Parameters<typeof codec.encode>[0]) => {
          if (fault.encode) throw new TypeError("Cannot read properties of undefined (reading 'bits')");
          return codec.encode(rec);
        },
        decode: (bytes: Uint8Array) => {
          if (fault.decode) throw new RangeError("Offset is outside the bounds of the DataView");
          return codec.decode(bytes);
        },
      };
    },
  };
});

const { crossCheck } = await import("./crossCheck.ts");
const { cModel } = await import("../../../src/c/model.ts");
const { EncodeError, paperPreset, parseLayout } = await import("#codecs");
const { decodeUnlessRejected, encodeUnlessRefused } = await import("#codecs-test/helpers/expectedErrors.ts");

const layout = parseLayout(paperPreset);
const opts = { records: 5, seed: 1, truncated: 0, mutations: 0 };

describe("crossCheck", () => {
  it("fails on a TypeError from our encoder instead of counting a refused record", async () => {
    fault.encode = true;
    try {
      // the C side never runs: the batch fails while the TypeScript side prepares it
      await expect(crossCheck(layout, cModel(layout), "struct", "/bin/true", opts)).rejects.toThrow(TypeError);
    } finally {
      fault.encode = false;
    }
  });

  it("fails on a RangeError from our decoder instead of counting a rejected message", async () => {
    fault.decode = true;
    try {
      await expect(crossCheck(layout, cModel(layout), "struct", "/bin/true", opts)).rejects.toThrow(RangeError);
    } finally {
      fault.decode = false;
    }
  });
});

describe("expected errors", () => {
  const refusing = {
    encode: () => {
      throw new EncodeError("value out of range", "struct");
    },
  };
  const crashing = {
    encode: () => {
      throw new TypeError("bug");
    },
    decode: () => {
      throw new TypeError("bug");
    },
  };
  it("an EncodeError is a refusal; anything else propagates", () => {
    expect(encodeUnlessRefused(refusing, {})).toBeUndefined();
    expect(() => encodeUnlessRefused(crashing, {})).toThrow(TypeError);
    expect(() => decodeUnlessRejected(crashing, new Uint8Array(1))).toThrow(TypeError);
  });
});
