// Every decoder, fed >100 000 random and mutated inputs, may only return a record or throw DecodeError, quickly.
import { describe, expect, it } from "vitest";
import { DecodeError, EncodeError } from "../src/errors.ts";
import { CODECS } from "../src/formats/registry.ts";
import { FORMAT_IDS, type CompiledCodec } from "../src/formats/types.ts";
import type { LayoutInput } from "../src/layout/schema.ts";
import { parseLayout } from "../src/layout/validate.ts";
import { paperPreset } from "../src/presets/paper.ts";
import { generateSamples } from "../src/samples/generate.ts";
import { Prng } from "../src/samples/prng.ts";
import { bytesToHex } from "../src/text/bytes.ts";
import { everyTypeLayout } from "./fixtures/layouts.ts";

const SEED = 0x5a7f022;
const PER_DECODER = 8000;
/** a decode that takes longer than this is treated as a hang in the making */
const MAX_DECODE_MS = 1000;

type Mutation = "flip" | "truncate" | "extend" | "overwrite" | "splice" | "random";
const MUTATIONS: Mutation[] = ["flip", "truncate", "extend", "overwrite", "splice", "random"];

function randomBytes(rng: Prng, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    // extremes are over-represented: lengths and counts of 0x00/0xFF find most bound-check bugs
    const r = rng.next();
    out[i] = r < 0.1 ? 0 : r < 0.2 ? 0xff : rng.int(0, 255);
  }
  return out;
}

function mutate(rng: Prng, kind: Mutation, valid: readonly Uint8Array[], maxLen: number): Uint8Array {
  const base = valid[rng.int(0, valid.length - 1)]!;
  switch (kind) {
    case "flip": {
      const out = base.slice();
      if (!out.length) return randomBytes(rng, rng.int(1, 8));
      const flips = rng.int(1, 4);
      for (let i = 0; i < flips; i++) out[rng.int(0, out.length - 1)]! ^= 1 << rng.int(0, 7);
      return out;
    }
    case "truncate":
      return base.slice(0, base.length ? rng.int(0, base.length - 1) : 0);
    case "extend": {
      const tail = randomBytes(rng, rng.int(1, 16));
      const out = new Uint8Array(base.length + tail.length);
      out.set(base);
      out.set(tail, base.length);
      return out;
    }
    case "overwrite": {
      const out = base.slice();
      if (!out.length) return randomBytes(rng, rng.int(1, 8));
      const n = rng.int(1, 6);
      const at = rng.int(0, out.length - 1);
      out.set(randomBytes(rng, Math.min(n, out.length - at)), at);
      return out;
    }
    case "splice": {
      const other = valid[rng.int(0, valid.length - 1)]!;
      const a = rng.int(0, base.length);
      const b = rng.int(0, other.length);
      const out = new Uint8Array(a + other.length - b);
      out.set(base.subarray(0, a));
      out.set(other.subarray(b), a);
      return out;
    }
    case "random":
      return randomBytes(rng, rng.int(0, maxLen));
  }
}

interface Tally {
  inputs: number;
  decoded: number;
  rejected: number;
  slowestMs: number;
  failures: string[];
}

function fuzzDecoder(codec: CompiledCodec, valid: readonly Uint8Array[], rng: Prng): Tally {
  const maxLen = 2 * Math.max(16, ...valid.map((v) => v.length));
  const t: Tally = { inputs: 0, decoded: 0, rejected: 0, slowestMs: 0, failures: [] };
  for (let i = 0; i < PER_DECODER; i++) {
    const kind = MUTATIONS[i % MUTATIONS.length]!;
    const input = mutate(rng, kind, valid, maxLen);
    t.inputs++;
    const t0 = performance.now();
    let rec;
    try {
      rec = codec.decode(input);
      t.decoded++;
    } catch (e) {
      if (e instanceof DecodeError) t.rejected++;
      else if (t.failures.length < 5) t.failures.push(`${kind} ${bytesToHex(input)} → ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
    }
    const ms = performance.now() - t0;
    if (ms > t.slowestMs) t.slowestMs = ms;
    if (rec !== undefined) {
      // whatever a decoder accepts must be a record the codec itself can handle again
      try {
        codec.encode(rec);
      } catch (e) {
        if (!(e instanceof EncodeError) && t.failures.length < 5) t.failures.push(`${kind} ${bytesToHex(input)} decoded, then encode threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
      }
    }
  }
  return t;
}

const LAYOUTS: Array<[string, LayoutInput]> = [
  ["paper", paperPreset],
  ["every-type", everyTypeLayout],
];

describe("decoder fuzzing", () => {
  it(`throws only DecodeError on ${FORMAT_IDS.length * LAYOUTS.length * PER_DECODER} random and mutated inputs`, () => {
    const rng = new Prng(SEED);
    const lines: string[] = [];
    const failures: string[] = [];
    let total = 0;
    let slowest = 0;
    const started = performance.now();
    for (const [name, input] of LAYOUTS) {
      const layout = parseLayout(input);
      const samples = generateSamples(layout, 40, 17);
      for (const format of FORMAT_IDS) {
        const codec = CODECS[format].compile(layout);
        const valid = samples.map((r) => codec.encode(r));
        const t = fuzzDecoder(codec, valid, rng);
        total += t.inputs;
        slowest = Math.max(slowest, t.slowestMs);
        lines.push(`${name}/${format}: ${t.inputs} inputs, ${t.decoded} decoded, ${t.rejected} DecodeError, slowest ${t.slowestMs.toFixed(2)} ms`);
        failures.push(...t.failures.map((f) => `${name}/${format}: ${f}`));
      }
    }
    console.log(`${lines.join("\n")}\ntotal ${total} inputs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    expect(failures).toEqual([]);
    expect(total).toBeGreaterThanOrEqual(100_000);
    expect(slowest).toBeLessThan(MAX_DECODE_MS);
  });
});
