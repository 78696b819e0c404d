// Network-server decoders: every generated script is ECMAScript 5 (acorn), fits The Things Stack's
// 40 960-character limit, runs in a bare node:vm context (no require, no Node globals) under
// ChirpStack's 100 ms budget per call, and returns exactly the plain JSON record of our own decoder
// for 1 000 paper samples and 250 of every other test layout, in every format and for every server.
// Corrupted messages must be refused wherever our decoder refuses them.
import vm from "node:vm";
import { parse } from "acorn";
import { describe, expect, it } from "vitest";
import { codecFor, generateSamples, type Layout, Prng } from "#codecs";
import { decodeUnlessRejected, encodeUnlessRefused } from "#codecs-test/helpers/expectedErrors.ts";
import { jsonRecord } from "../../src/json/record.ts";
import {
  DECODER_FORMATS,
  generateNetworkDecoders,
  NETWORK_SERVERS,
  networkDecoderSource,
  TTN_MAX_SOURCE_CHARS,
  type NetworkServer,
} from "../../src/networkDecoders.ts";
import { EXPORT_LAYOUTS } from "../support/layouts.ts";

interface Loaded {
  call(bytes: ArrayLike<number>): { data?: unknown; errors?: string[]; threw?: string };
}

/** far beyond any real call (µs), short enough that a decoder that loops forever fails the test quickly */
const HANG_LIMIT_MS = 5_000;

const CALL = new vm.Script(
  "__out = JSON.stringify((function () { try { return decodeUplink(__in); } catch (e) { return { threw: String(e && e.message || e) }; } })());",
);

function load(source: string, server: NetworkServer): Loaded {
  // a context with nothing but the language's own globals: no require, process, Buffer or timers
  const ctx = vm.createContext({});
  vm.runInContext(source, ctx, { timeout: 1000 });
  expect(vm.runInContext("typeof require + typeof process + typeof Buffer + typeof module", ctx)).toBe(
    "undefinedundefinedundefinedundefined",
  );
  return {
    call(bytes) {
      ctx.__in =
        server === "chirpstack"
          ? { bytes: Array.from(bytes), fPort: 1, variables: {} }
          : { bytes: Array.from(bytes), fPort: 1, recvTime: "2026-01-01T00:00:00Z" };
      // A hang (an endless loop on a corrupted length) must fail, and does: the vm's timeout ends it.
      // Whether a call fits ChirpStack's 100 ms budget is a speed question, measured by
      // `npm run bench:exports`, not asserted here: on a loaded 2-core machine the scheduler alone
      // stalls single calls past any budget that small.
      CALL.runInContext(ctx, { timeout: HANG_LIMIT_MS });
      return JSON.parse(ctx.__out as string) as { data?: unknown; errors?: string[]; threw?: string };
    },
  };
}

function refused(server: NetworkServer, r: ReturnType<Loaded["call"]>): boolean {
  return server === "chirpstack" ? r.threw !== undefined : (r.errors?.length ?? 0) > 0;
}

function accepted(server: NetworkServer, r: ReturnType<Loaded["call"]>): unknown {
  if (r.threw !== undefined) throw new Error(`decoder threw: ${r.threw}`);
  if (server !== "chirpstack" && (r.errors?.length ?? 0) > 0)
    throw new Error(`decoder refused: ${r.errors!.join("; ")}`);
  return r.data;
}

/** Truncations, appended bytes, flipped bits and bytes overwritten: the ways a radio link corrupts a payload. */
function corruptions(bytes: Uint8Array, rng: Prng): Uint8Array[] {
  const out: Uint8Array[] = [
    bytes.slice(0, Math.max(0, bytes.length - 1)),
    bytes.slice(0, rng.int(0, bytes.length)),
    Uint8Array.from([...bytes, rng.int(0, 255)]),
  ];
  for (let k = 0; k < 4; k++) {
    const b = bytes.slice();
    if (b.length === 0) break;
    const at = rng.int(0, b.length - 1);
    b[at] = k % 2 ? b[at]! ^ (1 << rng.int(0, 7)) : rng.int(0, 255);
    out.push(b);
  }
  return out;
}

function samplesFor(layout: Layout, format: (typeof DECODER_FORMATS)[number], n: number): Uint8Array[] {
  const codec = codecFor(layout, format);
  const out: Uint8Array[] = [];
  for (const s of generateSamples(layout, n, 17)) {
    const b = encodeUnlessRefused(codec, s);
    if (b) out.push(b);
  }
  return out;
}

describe("network-server decoders", () => {
  it("are ES5 scripts under The Things Stack's size limit, one per server and format", () => {
    for (const { name, layout } of EXPORT_LAYOUTS) {
      const files = generateNetworkDecoders(layout);
      expect(files.map((f) => f.path).sort(), name).toEqual(
        DECODER_FORMATS.flatMap((f) => [
          `network/chirpstack-v4/${layout.message}-${f}.js`,
          `network/ts013/${layout.message}-${f}.js`,
          `network/ttn-v3/${layout.message}-${f}.js`,
        ]).sort(),
      );
      for (const f of files) {
        expect(f.content.length, `${name} ${f.path}`).toBeLessThanOrEqual(TTN_MAX_SOURCE_CHARS);
        expect(
          () => parse(f.content, { ecmaVersion: 5, sourceType: "script" }),
          `${name} ${f.path} is not ES5`,
        ).not.toThrow();
      }
    }
  });

  for (const { name, layout } of EXPORT_LAYOUTS) {
    const n = name === "paper" ? 1000 : 250;
    for (const format of DECODER_FORMATS) {
      it(`${name} (${format}): ${n} samples decode to our JSON record on every server; corrupted ones are refused where we refuse them`, () => {
        const codec = codecFor(layout, format);
        const decoders = NETWORK_SERVERS.map((s) => [s, load(networkDecoderSource(layout, format, s), s)] as const);
        const messages = samplesFor(layout, format, n);
        expect(messages.length).toBeGreaterThan(n * 0.8);
        for (const bytes of messages) {
          const want = JSON.stringify(jsonRecord(layout, codec.decode(bytes)));
          for (const [server, d] of decoders) {
            const got = JSON.stringify(accepted(server, d.call(bytes)));
            // expect() per call costs more than the decode; it runs only to report a difference
            if (got !== want) expect(got, `${server} ${Buffer.from(bytes).toString("hex")}`).toBe(want);
          }
        }
        const rng = new Prng(99);
        let refusedCount = 0;
        let acceptedCount = 0;
        for (const bytes of messages.slice(0, 80)) {
          for (const bad of corruptions(bytes, rng)) {
            const ours = decodeUnlessRejected(codec, bad);
            const want = ours === undefined ? undefined : JSON.stringify(jsonRecord(layout, ours));
            for (const [server, d] of decoders) {
              const r = d.call(bad);
              const at = `${server} ${Buffer.from(bad).toString("hex")}`;
              if (want === undefined) {
                if (!refused(server, r)) expect.fail(`${at} was accepted: ${JSON.stringify(r.data)}`);
              } else if (JSON.stringify(accepted(server, r)) !== want)
                expect(JSON.stringify(accepted(server, r)), at).toBe(want);
            }
            if (want === undefined) refusedCount++;
            else acceptedCount++;
          }
        }
        // most corruptions are refused; the rest (a flipped bit in a float) still decode, identically
        expect(refusedCount).toBeGreaterThan(80);
        expect(acceptedCount + refusedCount).toBeGreaterThan(80 * 5);
      });
    }
  }

  it("refuses input that is not bytes", () => {
    const layout = EXPORT_LAYOUTS[0]!.layout;
    const ttn = load(networkDecoderSource(layout, "struct", "ttn"), "ttn");
    expect(ttn.call([1, 2, 300]).errors).toEqual(["input.bytes[2] is not a byte"]);
    expect(ttn.call([]).errors?.length).toBe(1);
  });
});
