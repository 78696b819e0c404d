// fuzzAllDecoders, the aggregation CI runs, must report injected faults: a decoder that throws a
// TypeError on some inputs, and an encoder that silently changes a value (caught only by the
// re-decode oracle, decode(encode(decode(x))) = decode(x)). Each fault is reported for its format
// and layout, the untouched format stays clean.
import { describe, expect, it, vi } from "vitest";
import type { TypedRecord } from "../../src/layout/values.ts";

vi.mock("../../src/formats/registry.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/formats/registry.ts")>();
  type Codecs = typeof real.CODECS;
  /** a float field of the paper (temperature) or of the every-type layout (f32), half a degree off */
  const nudge = (rec: TypedRecord): TypedRecord => {
    for (const key of ["temperature", "f32"])
      if (typeof rec[key] === "number") return { ...rec, [key]: (rec[key] as number) + 0.5 };
    return rec;
  };
  const codecs: Codecs = {
    ...real.CODECS,
    struct: {
      ...real.CODECS.struct,
      compile: (layout) => {
        const c = real.CODECS.struct.compile(layout);
        return { ...c, encode: (rec: TypedRecord) => c.encode(nudge(rec)) };
      },
    },
    cbor: {
      ...real.CODECS.cbor,
      compile: (layout) => {
        const c = real.CODECS.cbor.compile(layout);
        return {
          ...c,
          decode: (bytes: Uint8Array) => {
            if (bytes.length % 7 === 3) throw new TypeError("Cannot read properties of undefined (reading 'major')");
            return c.decode(bytes);
          },
        };
      },
    },
  };
  return { ...real, CODECS: codecs };
});

const { fuzzAllDecoders } = await import("./harness.ts");

describe("fuzzAllDecoders with injected faults", () => {
  const report = () => fuzzAllDecoders({ perDecoder: 600, formats: ["struct", "cbor", "protobuf"] });

  it("reports the encoder that changes a value on the way round, for both layouts", () => {
    const r = report();
    const struct = r.failures.filter((f) => f.includes("/struct:"));
    expect(struct.length).toBeGreaterThan(0);
    expect(struct.every((f) => /decoded to .* decoded again to /.test(f))).toBe(true);
    expect(r.failures.some((f) => f.startsWith("paper/struct:"))).toBe(true);
    expect(r.failures.some((f) => f.startsWith("every-type/struct:"))).toBe(true);
  });

  it("reports the decoder that throws a TypeError, and leaves the sound format clean", () => {
    const r = report();
    expect(r.failures.some((f) => f.includes("/cbor:") && f.includes("TypeError: Cannot read properties"))).toBe(true);
    expect(r.failures.filter((f) => f.includes("/protobuf:"))).toEqual([]);
    expect(r.roundTrips).toBeGreaterThan(0);
  });
});
