// Network-server decoders of batches (issue #27): each generated script is ES5 under The Things Stack's
// size limit, runs in a bare node:vm context and returns, for bit-packed and Struct batch messages of both forms,
// exactly our decoder's readings (differences summed) and fields sent once as plain JSON; corrupted
// messages are refused wherever our decoder refuses them, and decode identically where it does not.
import vm from "node:vm";
import { parse } from "acorn";
import { describe, expect, it } from "vitest";
import {
  batchCodecFor,
  type BatchRecord,
  DecodeError,
  generateBatches,
  type LayoutInput,
  parseLayout,
  Prng,
} from "#codecs";
import { batchPlanFor } from "#codecs/plans";
import { BATCH_DECODER_FORMATS, batchDecoderSource } from "../../src/batch/netBatch.ts";
import { batchParts } from "../../src/batch/parts.ts";
import { jsonRecord } from "../../src/json/record.ts";
import { NETWORK_SERVERS, type NetworkServer, TTN_MAX_SOURCE_CHARS } from "../../src/networkDecoders.ts";
import { BATCH_LAYOUTS } from "../support/batchLayouts.ts";

type Result = { data?: unknown; errors?: string[]; threw?: string };

const CALL = new vm.Script(
  "__out = JSON.stringify((function () { try { return decodeUplink(__in); } catch (e) { return { threw: String(e && e.message || e) }; } })());",
);

function load(source: string): (bytes: Uint8Array) => Result {
  const ctx = vm.createContext({});
  vm.runInContext(source, ctx, { timeout: 1000 });
  return (bytes) => {
    ctx.__in = { bytes: Array.from(bytes), fPort: 1, variables: {}, recvTime: "2026-01-01T00:00:00Z" };
    CALL.runInContext(ctx, { timeout: 5000 });
    return JSON.parse(ctx.__out as string) as Result;
  };
}

const refused = (server: NetworkServer, r: Result) =>
  server === "chirpstack" ? r.threw !== undefined : (r.errors?.length ?? 0) > 0 || r.threw !== undefined;

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

describe.each(
  BATCH_LAYOUTS.flatMap((l) =>
    (["delta", "columns"] as const).flatMap((form) =>
      BATCH_DECODER_FORMATS.map((format) => [l.name, form, format, l] as const),
    ),
  ),
)("%s, %s form, %s", (_name, form, format, l) => {
  const layout = parseLayout(l.input as LayoutInput);
  const plan = batchPlanFor(layout, form, l.n);
  const parts = batchParts(layout, plan);
  const codec = batchCodecFor(layout, format, form, l.n);
  const want = (b: BatchRecord) =>
    JSON.stringify({
      once: jsonRecord(parts.once, b.once),
      readings: b.readings.map((r) => jsonRecord(parts.reading, r)),
    });

  it("decodes our messages to our readings on every server, and refuses what we refuse", () => {
    const batches = generateBatches(layout, 150, l.n, 11).map((b, j) => ({
      once: b.once,
      readings: b.readings.slice(0, 1 + (j % l.n)),
    }));
    const messages = batches.map((b) => codec.encode(b));
    const rng = new Prng(5);
    for (const server of NETWORK_SERVERS) {
      const source = batchDecoderSource(layout, plan, parts, format, server);
      expect(source.length).toBeLessThanOrEqual(TTN_MAX_SOURCE_CHARS);
      expect(() => parse(source, { ecmaVersion: 5, sourceType: "script" })).not.toThrow();
      const call = load(source);
      messages.forEach((bytes) => {
        const r = call(bytes);
        const got = JSON.stringify(r.data);
        const expected = want(codec.decode(bytes));
        if (got !== expected) expect(`${got} ${JSON.stringify(r.errors ?? r.threw ?? "")}`, hex(bytes)).toBe(expected);
      });
      let rejected = 0;
      for (const bytes of messages.slice(0, 100)) {
        const bad = bytes.slice();
        const cuts = [bytes.slice(0, rng.int(0, bytes.length - 1)), bad];
        const at = rng.int(0, bad.length - 1);
        bad[at] = bad[at]! ^ (1 << rng.int(0, 7));
        for (const b of cuts) {
          let ours: BatchRecord | undefined;
          try {
            ours = codec.decode(b);
          } catch (e) {
            if (!(e instanceof DecodeError)) throw e;
          }
          const r = call(b);
          if (ours === undefined) {
            rejected++;
            if (!refused(server, r)) expect.fail(`${server} accepted ${hex(b)}: ${JSON.stringify(r.data)}`);
          } else expect(JSON.stringify(r.data), `${server} ${hex(b)}`).toBe(want(ours));
        }
      }
      expect(rejected).toBeGreaterThan(100);
    }
  });
});
