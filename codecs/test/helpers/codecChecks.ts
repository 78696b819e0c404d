// Checks every codec's tests share: round trip with spans tiling the bytes, and decoders that only
// ever throw DecodeError on truncated or mutated input and reject it at a measured rate (a decoder
// that accepted everything would pass a check that only looks at what is thrown).
import { expect } from "vitest";
import { decodeUnlessRejected } from "./expectedErrors.ts";
import { DecodeError } from "../../src/errors.ts";
import type { Codec, CompiledCodec } from "../../src/formats/types.ts";
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

export interface RejectionTally {
  inputs: number;
  /** refused with DecodeError */
  rejected: number;
}

/** Decodes each input: a DecodeError counts as rejected, a record as accepted, anything else throws. */
export function tallyRejections(c: Pick<CompiledCodec, "decode">, inputs: Iterable<Uint8Array>): RejectionTally {
  const t: RejectionTally = { inputs: 0, rejected: 0 };
  for (const b of inputs) {
    t.inputs++;
    if (decodeUnlessRejected(c, b) === undefined) t.rejected++;
  }
  return t;
}

/**
 * At least `share` of the corrupted inputs were rejected. The inputs are seeded, so the rate is the
 * same on every run; the floors sit a few points under the rate measured when each was written.
 */
export function expectRejectedAtLeast(t: RejectionTally, share: number, what: string): void {
  const rate = t.rejected / t.inputs;
  expect(rate, `${what}: ${t.rejected} of ${t.inputs} rejected (${(100 * rate).toFixed(1)} %)`).toBeGreaterThanOrEqual(
    share,
  );
}

/**
 * Every truncation of a few valid encodings is a DecodeError (with `truncationsRejected: false`, for
 * formats where a prefix can be a whole message: a record or a DecodeError); random byte changes give
 * a record or a DecodeError, and at least `rejectsAtLeast` of them a DecodeError.
 */
export function expectOnlyDecodeErrors(
  codec: Codec,
  layout: Layout,
  opts: {
    records: number;
    mutationsPerRecord: number;
    seed: number;
    rejectsAtLeast: number;
    truncationsRejected?: boolean;
  },
): void {
  const c = codec.compile(layout);
  let state = opts.seed >>> 0;
  const rnd = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const mutated: Uint8Array[] = [];
  for (const rec of generateSamples(layout, opts.records, opts.seed)) {
    const good = c.encode(rec);
    for (let n = 0; n < good.length; n++)
      if (opts.truncationsRejected === false) decodeUnlessRejected(c, good.subarray(0, n));
      else expect(() => c.decode(good.subarray(0, n))).toThrow(DecodeError);
    for (let k = 0; k < opts.mutationsPerRecord; k++) {
      const bad = good.slice();
      bad[Math.floor(rnd() * bad.length)] = Math.floor(rnd() * 256);
      mutated.push(bad);
    }
  }
  expectRejectedAtLeast(tallyRejections(c, mutated), opts.rejectsAtLeast, `${codec.info.id} byte mutations`);
}
