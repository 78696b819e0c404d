// Checks every codec's tests share: round trip with spans tiling the bytes, and decoders that only
// ever throw DecodeError on truncated or mutated input.
import { expect } from "vitest";
import { DecodeError } from "../../src/errors.ts";
import type { Codec } from "../../src/formats/types.ts";
import type { Layout } from "../../src/layout/schema.ts";
import { generateSamples } from "../../src/samples/generate.ts";

/** decode(encode(r)) equals r, encodeWithSpans gives the same bytes, and its spans tile them in order. */
export function expectRoundTripWithTiledSpans(codec: Codec, layout: Layout, samples: number, seed: number): void {
  const c = codec.compile(layout);
  for (const rec of generateSamples(layout, samples, seed)) {
    const { bytes, spans } = c.encodeWithSpans(rec);
    expect(bytes).toEqual(c.encode(rec));
    let at = 0;
    for (const s of spans) {
      expect([s.start, s.end > s.start]).toEqual([at, true]);
      at = s.end;
    }
    expect(at).toBe(bytes.length);
    expect(c.decode(bytes)).toEqual(rec);
  }
}

/** Every truncation of a few valid encodings is a DecodeError; random byte changes give a record or a DecodeError. */
export function expectOnlyDecodeErrors(
  codec: Codec,
  layout: Layout,
  opts: { records: number; mutationsPerRecord: number; seed: number },
): void {
  const c = codec.compile(layout);
  let state = opts.seed >>> 0;
  const rnd = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (const rec of generateSamples(layout, opts.records, opts.seed)) {
    const good = c.encode(rec);
    for (let n = 0; n < good.length; n++) expect(() => c.decode(good.subarray(0, n))).toThrow(DecodeError);
    for (let k = 0; k < opts.mutationsPerRecord; k++) {
      const bad = good.slice();
      bad[Math.floor(rnd() * bad.length)] = Math.floor(rnd() * 256);
      try {
        c.decode(bad);
      } catch (e) {
        expect(e).toBeInstanceOf(DecodeError);
      }
    }
  }
}
