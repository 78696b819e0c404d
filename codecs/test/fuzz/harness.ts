// The decoder fuzzer shared by the CI test (a bounded share) and `npm run fuzz` (≥ 1 M inputs): every
// decoder, fed random and mutated inputs, may only return a record or throw DecodeError, quickly; and
// whatever it accepts must encode again (or be refused with EncodeError) to bytes that decode to the
// same record: decode(encode(decode(x))) = decode(x).
import { isDeepStrictEqual } from "node:util";
import { DecodeError, EncodeError } from "../../src/errors.ts";
import { CODECS, FORMAT_IDS, type FormatId } from "../../src/formats/registry.ts";
import { type CompiledCodec } from "../../src/formats/types.ts";
import type { LayoutInput } from "../../src/layout/schema.ts";
import { parseLayout } from "../../src/layout/validate.ts";
import type { TypedRecord } from "../../src/layout/values.ts";
import { paperPreset } from "../../src/presets/paper.ts";
import { generateSamples } from "../../src/samples/generate.ts";
import { Prng } from "../../src/samples/prng.ts";
import { bytesToHex } from "../../src/text/bytes.ts";
import { everyTypeLayout } from "../fixtures/layouts.ts";

export const FUZZ_SEED = 0x5a7f022;

export const FUZZ_LAYOUTS: ReadonlyArray<readonly [string, LayoutInput]> = [
  ["paper", paperPreset],
  ["every-type", everyTypeLayout],
];

type Mutation = "flip" | "truncate" | "extend" | "overwrite" | "splice" | "random";
const MUTATIONS: Mutation[] = ["flip", "truncate", "extend", "overwrite", "splice", "random"];

/** at most this many failing inputs are kept per decoder: enough to reproduce, short enough to read */
const KEEP_FAILURES = 5;

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

export interface Tally {
  inputs: number;
  decoded: number;
  rejected: number;
  /** accepted inputs whose record the encoder refused (EncodeError): nothing to decode again */
  reencodeRefused: number;
  /** accepted inputs whose record went through encode and decode again and came back equal */
  roundTrips: number;
  slowestMs: number;
  /**
   * inputs that made the decoder (or the re-encode, or the second decode) throw anything but the
   * typed error, or whose record changed on the way round, as hex
   */
  failures: string[];
}

const emptyTally = (): Tally => ({
  inputs: 0,
  decoded: 0,
  rejected: 0,
  reencodeRefused: 0,
  roundTrips: 0,
  slowestMs: 0,
  failures: [],
});

/** JSON that shows what a record holds (bigints, bytes, NaN and −0 included) */
const show = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    typeof x === "bigint"
      ? `${x}n`
      : x instanceof Uint8Array
        ? `0x${bytesToHex(x)}`
        : typeof x === "number" && (Number.isNaN(x) || Object.is(x, -0) || !Number.isFinite(x))
          ? String(Object.is(x, -0) ? "-0" : x)
          : x,
  );

const describe = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

/** Feeds `count` inputs mutated from `valid` to one compiled codec. */
export function fuzzDecoder(
  codec: Pick<CompiledCodec, "decode" | "encode">,
  valid: readonly Uint8Array[],
  rng: Prng,
  count: number,
): Tally {
  const maxLen = 2 * Math.max(16, ...valid.map((v) => v.length));
  const t = emptyTally();
  const fail = (line: string) => {
    if (t.failures.length < KEEP_FAILURES) t.failures.push(line);
  };
  for (let i = 0; i < count; i++) {
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
      else fail(`${kind} ${bytesToHex(input)} → ${describe(e)}`);
    }
    const ms = performance.now() - t0;
    if (ms > t.slowestMs) t.slowestMs = ms;
    if (rec !== undefined) roundTrip(codec, rec, `${kind} ${bytesToHex(input)}`, t, fail);
  }
  return t;
}

/** encode(rec) decodes to rec again, or the encoder refuses rec with EncodeError */
function roundTrip(
  codec: Pick<CompiledCodec, "decode" | "encode">,
  rec: TypedRecord,
  what: string,
  t: Tally,
  fail: (line: string) => void,
): void {
  let again: Uint8Array;
  try {
    again = codec.encode(rec);
  } catch (e) {
    if (e instanceof EncodeError) t.reencodeRefused++;
    else fail(`${what} decoded, then encode threw ${describe(e)}`);
    return;
  }
  let back: TypedRecord;
  try {
    back = codec.decode(again);
  } catch (e) {
    fail(`${what} decoded and encoded to ${bytesToHex(again)}, which decode refused: ${describe(e)}`);
    return;
  }
  if (isDeepStrictEqual(back, rec)) t.roundTrips++;
  else fail(`${what} decoded to ${show(rec)}, encoded to ${bytesToHex(again)}, decoded again to ${show(back)}`);
}

export interface FuzzReport {
  total: number;
  /** accepted inputs, and of them those whose record came back equal after encode + decode */
  decoded: number;
  roundTrips: number;
  slowestMs: number;
  /** one line per layout and format */
  lines: string[];
  failures: string[];
}

export interface FuzzPlan {
  perDecoder: number;
  seed?: number;
  formats?: readonly FormatId[];
  /** called after each batch of inputs, for progress output */
  onProgress?: (done: number, planned: number, label: string) => void;
  /** inputs per progress report */
  batch?: number;
}

/** Every layout × format, `perDecoder` inputs each, from one seeded generator (reproducible). */
export function fuzzAllDecoders(plan: FuzzPlan): FuzzReport {
  const rng = new Prng(plan.seed ?? FUZZ_SEED);
  const formats = plan.formats ?? FORMAT_IDS;
  const planned = FUZZ_LAYOUTS.length * formats.length * plan.perDecoder;
  const batch = plan.batch ?? plan.perDecoder;
  const report: FuzzReport = { total: 0, decoded: 0, roundTrips: 0, slowestMs: 0, lines: [], failures: [] };
  for (const [name, input] of FUZZ_LAYOUTS) {
    const layout = parseLayout(input);
    const samples = generateSamples(layout, 40, 17);
    for (const format of formats) {
      const codec = CODECS[format].compile(layout);
      const valid = samples.map((r) => codec.encode(r));
      const sum = emptyTally();
      for (let done = 0; done < plan.perDecoder; done += batch) {
        const t = fuzzDecoder(codec, valid, rng, Math.min(batch, plan.perDecoder - done));
        sum.inputs += t.inputs;
        sum.decoded += t.decoded;
        sum.rejected += t.rejected;
        sum.reencodeRefused += t.reencodeRefused;
        sum.roundTrips += t.roundTrips;
        sum.slowestMs = Math.max(sum.slowestMs, t.slowestMs);
        sum.failures.push(...t.failures.slice(0, KEEP_FAILURES - sum.failures.length));
        plan.onProgress?.(report.total + sum.inputs, planned, `${name}/${format}`);
      }
      report.total += sum.inputs;
      report.decoded += sum.decoded;
      report.roundTrips += sum.roundTrips;
      report.slowestMs = Math.max(report.slowestMs, sum.slowestMs);
      report.lines.push(
        `${name}/${format}: ${sum.inputs} inputs, ${sum.decoded} decoded (${sum.roundTrips} equal after encode + decode, ${sum.reencodeRefused} refused by encode), ${sum.rejected} DecodeError, slowest ${sum.slowestMs.toFixed(2)} ms`,
      );
      report.failures.push(...sum.failures.map((f) => `${name}/${format}: ${f}`));
    }
  }
  return report;
}
