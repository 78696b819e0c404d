// Bad input at volume: more than 100 000 random and mutated bodies across every codec (and envelopes,
// oversized bodies, wrong types, unknown layouts) against a decoder process. Each is answered 4xx
// with the reason the codec itself gives; undecodable ones become dead letters; the service stays up.
import { describe, expect, it } from "vitest";
import {
  DecodeError,
  decodeAsSent,
  FORMAT_IDS,
  type FormatId,
  type Layout,
  parseLayout,
  presetById,
  Prng,
} from "#codecs";
import { client, encodedSamples, spawnDecoder, tempDir } from "./support.ts";
import { leanClient } from "../../shared/leanHttp.ts";

const BAD_BODIES = 100_000;

interface Case {
  path: string;
  headers: Record<string, string>;
  body: Uint8Array;
  status: number;
  /** the exact reason, when the test can know it (the codec's DecodeError message) */
  reason: string | RegExp;
  dead: boolean;
}

const LAYOUTS: [string, Layout][] = [
  ["paper", parseLayout(presetById("paper")!.layout)],
  ["kineis-tracker", parseLayout(presetById("kineis-tracker")!.layout)],
  ["lorawan-env", parseLayout(presetById("lorawan-env")!.layout)],
];

function mutate(rng: Prng, valid: Uint8Array[], any: Uint8Array[]): Uint8Array {
  const base = valid[rng.nextU32() % valid.length]!;
  const b = Uint8Array.from(base);
  const int = (n: number) => rng.nextU32() % Math.max(1, n);
  switch (int(7)) {
    case 0:
      return b.subarray(0, int(b.length));
    case 1: {
      for (let k = 0, n = 1 + int(3); k < n && b.length; k++) b[int(b.length)]! ^= 1 << int(8);
      return b;
    }
    case 2:
      return Uint8Array.from({ length: int(300) }, () => int(256));
    case 3:
      return Uint8Array.from([...b, ...Array.from({ length: 1 + int(5) }, () => int(256))]);
    case 4: {
      const at = int(b.length);
      for (let k = at; k < Math.min(b.length, at + 1 + int(8)); k++) b[k] = int(256);
      return b;
    }
    case 5:
      // a valid message of another format or layout
      return any[int(any.length)]!;
    default: {
      // text that looks like a record but is not one: wrong keys, types, ranges
      const junk = [
        "{}",
        "[]",
        '{"rssi":"999"}',
        "null",
        '{"door":"X"}',
        '{"a":1}',
        "NaN",
        '"x"',
        '{"acc":"1 2"}',
        "\u00ff\u00fe",
      ];
      return new TextEncoder().encode(junk[int(junk.length)]!);
    }
  }
}

/** the codec's verdict as the decoder asks for it: read as sent, a value outside its declared range refused */
function oracle(layout: Layout, format: FormatId, body: Uint8Array): string | undefined {
  try {
    decodeAsSent(layout, format, body);
    return undefined;
  } catch (e) {
    if (!(e instanceof DecodeError))
      throw new Error(`${format} threw ${(e as Error).name} instead of DecodeError: ${(e as Error).message}`);
    return e.message;
  }
}

function buildCases(): { cases: Case[]; undecodable: number } {
  const rng = new Prng("bad-input");
  const valid = new Map<string, Uint8Array[]>();
  const any: Uint8Array[] = [];
  for (const [id, layout] of LAYOUTS)
    for (const f of FORMAT_IDS) {
      const v = encodedSamples(f, 40, 3, layout);
      valid.set(`${id}/${f}`, v);
      any.push(...v.slice(0, 5));
    }
  const cases: Case[] = [];
  let undecodable = 0;
  let i = 0;
  while (undecodable < BAD_BODIES) {
    const [layoutId, layout] = LAYOUTS[i % LAYOUTS.length]!;
    const format = FORMAT_IDS[Math.floor(i / LAYOUTS.length) % FORMAT_IDS.length]!;
    i++;
    const body = mutate(rng, valid.get(`${layoutId}/${format}`)!, any);
    const reason = oracle(layout, format, body);
    // a mutation that still decodes is a valid record, not bad input: leave it out
    if (reason === undefined) continue;
    undecodable++;
    if (i % 10 === 0) {
      // the same bytes as a portal's base64 envelope
      const env = JSON.stringify({ layout: layoutId, format, data: Buffer.from(body).toString("base64") });
      cases.push({
        path: "/ingest/base64",
        headers: { "content-type": "application/json" },
        body: new TextEncoder().encode(env),
        status: 400,
        reason,
        dead: true,
      });
    } else {
      cases.push({
        path: "/ingest",
        headers: {
          "content-type": "application/octet-stream",
          "x-satpayload-format": format,
          "x-satpayload-layout": layoutId,
        },
        body,
        status: 400,
        reason,
        dead: true,
      });
    }
  }
  // requests refused before decoding: never dead letters
  const some = valid.get("paper/protobuf")![0]!;
  for (let k = 0; k < 300; k++) {
    switch (k % 6) {
      case 0:
        cases.push({
          path: "/ingest",
          headers: { "content-type": "application/x-protobuf", "x-satpayload-layout": "paper" },
          body: new Uint8Array(70_000),
          status: 413,
          reason: /larger than the limit/,
          dead: false,
        });
        break;
      case 1:
        cases.push({
          path: "/ingest",
          headers: { "content-type": "image/png", "x-satpayload-layout": "paper" },
          body: some,
          status: 415,
          reason: /image\/png is not a payload format/,
          dead: false,
        });
        break;
      case 2:
        cases.push({
          path: "/ingest",
          headers: {
            "content-type": "application/octet-stream",
            "x-satpayload-format": `fmt${k}`,
            "x-satpayload-layout": "paper",
          },
          body: some,
          status: 415,
          reason: /is not a format/,
          dead: false,
        });
        break;
      case 3:
        cases.push({
          path: "/ingest",
          headers: { "content-type": "application/x-protobuf", "x-satpayload-layout": `layout-${k}` },
          body: some,
          status: 404,
          reason: /no layout/,
          dead: false,
        });
        break;
      case 4:
        cases.push({
          path: "/ingest/base64",
          headers: { "content-type": "application/json" },
          body: Uint8Array.from({ length: 1 + (k % 50) }, (_, j) => (j * 37 + k) % 256),
          status: 400,
          reason: /envelope/,
          dead: false,
        });
        break;
      default:
        cases.push({
          path: "/ingest",
          headers: {
            "content-type": "application/x-protobuf",
            "x-satpayload-layout": "paper",
            "x-satpayload-message-id": `bad id ${k}`,
          },
          body: some,
          status: 400,
          reason: /message id/,
          dead: false,
        });
    }
  }
  // shuffle so every kind is spread over the run
  for (let k = cases.length - 1; k > 0; k--) {
    const j = rng.nextU32() % (k + 1);
    [cases[k], cases[j]] = [cases[j]!, cases[k]!];
  }
  return { cases, undecodable };
}

describe("bad input", () => {
  it(
    `answers ${BAD_BODIES} undecodable bodies across codecs 4xx with the codec's reason, keeps them as dead letters and stays up`,
    // 54–68 s under a 2-CPU burner, over 240 s at load 20 (two engineers' builds beside the run);
    // the timeout bounds a hang only
    { timeout: 600_000 },
    async () => {
      const { cases, undecodable } = buildCases();
      expect(undecodable).toBe(BAD_BODIES);
      const decoder = await spawnDecoder(["--data-dir", tempDir(), "--preset", "all"]);
      const c = leanClient(decoder.url, 32);
      const wrong: string[] = [];
      const byStatus = new Map<number, number>();
      let next = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (next < cases.length) {
            const k = next++;
            const t = cases[k]!;
            const r = await c.post(t.path, t.body, t.headers);
            byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + 1);
            let reason = "";
            try {
              reason = (JSON.parse(r.body) as { reason: string }).reason;
            } catch {
              reason = `(not JSON: ${r.body.slice(0, 80)})`;
            }
            const ok =
              r.status === t.status && (typeof t.reason === "string" ? reason === t.reason : t.reason.test(reason));
            if (!ok && wrong.length < 10)
              wrong.push(
                `#${k} ${t.path} ${JSON.stringify(t.headers)}: expected ${t.status} ${t.reason}, got ${r.status} ${reason}`,
              );
          }
        }),
      );
      c.close();
      expect(wrong).toEqual([]);
      const dead = cases.filter((t) => t.dead).length;
      const health = await client(decoder.url).get("/health");
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body).pid).toBe(decoder.child.pid);
      const stats = JSON.parse((await client(decoder.url).get("/api/stats")).body);
      expect(stats).toMatchObject({ records: 0, deadLetters: dead, rejected: cases.length, successRate: 0 });
      expect(decoder.stderr.filter((l) => /failed|internal/i.test(l))).toEqual([]);
      console.log(
        `bad input: ${cases.length} requests (${dead} undecodable bodies → dead letters); statuses ${JSON.stringify(Object.fromEntries(byStatus))}`,
      );
      await decoder.stop();
      expect(await decoder.exited).toBe(0);
    },
  );
});
