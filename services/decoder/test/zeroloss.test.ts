// Zero loss: 100 000 messages into a real decoder process while the CSE is stopped for a while and
// the decoder is killed with SIGKILL once and restarted. Afterwards every acknowledged message is
// stored once, forwarded, and present exactly once in the CSE (count and ids, read from the CSE).
// The same with --embedded-cse (decoder and CSE one process, one transaction): killed twice.
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { parseLayout, presetById } from "#codecs";
import {
  client,
  cseProcess,
  encodedSamples,
  m2mGet,
  spawnDecoder,
  tempDir,
  waitFor,
  type DecoderProcess,
  instanceIds,
} from "./support.ts";
import { leanClient } from "../../shared/leanHttp.ts";

const TOTAL = 100_000;
const DEVICES = 64;
const CONCURRENCY = 64;

/** requests that failed without an answer: cut off while in flight (reset, closed, timed out) or refused at connect */
interface Unanswered {
  interrupted: number;
  refused: number;
}

type Milestone = [number, (acks: number, unanswered: Unanswered) => Promise<void>];

/** Sends z-0 … z-(TOTAL-1), each until acknowledged, running each milestone once that many are. */
async function sendAll(
  url: string,
  milestones: Milestone[],
): Promise<{ sentMs: number; duplicates: number; retries: number; unanswered: Unanswered }> {
  const payloads = encodedSamples("bitpacked", 1000, 5, tracker);
  const acked = new Uint8Array(TOTAL);
  let ackCount = 0;
  let duplicates = 0;
  let retries = 0;
  const unanswered: Unanswered = { interrupted: 0, refused: 0 };
  let phase: Promise<void> = Promise.resolve();
  const c = leanClient(url, CONCURRENCY);
  const send = async (i: number) => {
    const body = payloads[i % payloads.length]!;
    const headers = {
      "content-type": "application/octet-stream",
      "x-satpayload-format": "bitpacked",
      "x-satpayload-layout": "kineis-tracker",
      "x-satpayload-message-id": `z-${i}`,
      "x-satpayload-device": `dev-${i % DEVICES}`,
    };
    for (let attempt = 0; ; attempt++) {
      try {
        const r = await c.post("/ingest", body, headers);
        if (r.status === 201 || r.status === 200) {
          if (r.status === 200) duplicates++;
          acked[i] = 1;
          ackCount++;
          while (milestones.length && ackCount >= milestones[0]![0]) {
            const [, run] = milestones.shift()!;
            const at = ackCount;
            phase = phase.then(() => run(at, unanswered));
          }
          return;
        }
        if (r.status !== 503) throw new Error(`message ${i}: HTTP ${r.status} ${r.body}`);
      } catch (e) {
        if (/HTTP \d+/.test((e as Error).message)) throw e;
        // the decoder is being killed or restarted: the message was not acknowledged, send it again
        if ((e as NodeJS.ErrnoException).code === "ECONNREFUSED") unanswered.refused++;
        else unanswered.interrupted++;
      }
      retries++;
      if (attempt > 2000) throw new Error(`message ${i} never acknowledged`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < TOTAL) await send(next++);
    }),
  );
  await phase;
  c.close();
  expect(milestones).toHaveLength(0);
  expect(ackCount).toBe(TOTAL);
  expect(acked.every((a) => a === 1)).toBe(true);
  return { sentMs: Date.now() - started, duplicates, retries, unanswered };
}

/** stored: exactly the acknowledged ids (all of z-0 …), once each, all marked forwarded */
function expectStored(dataDir: string): void {
  const db = new Database(path.join(dataDir, "buffer-0.sqlite"), { readonly: true });
  try {
    const ids = db.prepare("SELECT message_id FROM records").pluck().all() as string[];
    expect(ids.length).toBe(TOTAL);
    expect(new Set(ids).size).toBe(TOTAL);
    expect(ids.every((id) => /^z-\d+$/.test(id) && Number(id.slice(2)) < TOTAL)).toBe(true);
    expect(db.prepare("SELECT count(*) FROM records WHERE forwarded_at IS NULL").pluck().get()).toBe(0);
  } finally {
    db.close();
  }
}

/** forwarded exactly once: every id once in the CSE, nothing else there (read over the CSE's HTTP) */
async function expectInCse(cseBase: string): Promise<void> {
  const inCse: string[] = [];
  let cni = 0;
  for (let d = 0; d < DEVICES; d++) {
    const cnt = await m2mGet(cseBase, `decoder/dev-${d}`);
    expect(cnt.status).toBe(200);
    cni += (cnt.json as { "m2m:cnt": { cni: number } })["m2m:cnt"].cni;
    inCse.push(...(await instanceIds(cseBase, `decoder/dev-${d}`)));
  }
  expect(cni).toBe(TOTAL);
  expect(inCse.length).toBe(TOTAL);
  const unique = new Set(inCse);
  expect(unique.size).toBe(TOTAL);
  for (let i = 0; i < TOTAL; i++) if (!unique.has(`z-${i}`)) throw new Error(`z-${i} is missing in the CSE`);
}

const tracker = parseLayout(presetById("kineis-tracker")!.layout);

describe("zero loss", () => {
  it(
    `acknowledged = stored = forwarded exactly once for ${TOTAL} messages through a CSE outage and a SIGKILL`,
    { timeout: 240_000 },
    async () => {
      // small records (19-byte bit-packed fixes), pre-encoded so the sender only sends
      const cseDir = tempDir();
      const dataDir = tempDir();
      let cse: Awaited<ReturnType<typeof cseProcess>> | undefined = await cseProcess([
        "--port",
        "0",
        "--data-dir",
        cseDir,
      ]);
      const csePort = cse.port;
      const cseBase = cse.cseBaseUrl;
      const args = [
        "--data-dir",
        dataDir,
        "--preset",
        "kineis-tracker",
        "--cse",
        cseBase,
        "--retry-base-ms",
        "100",
        "--retry-max-ms",
        "1000",
        "--forward-concurrency",
        "16",
      ];
      let decoder: DecoderProcess = await spawnDecoder(args);
      const port = new URL(decoder.url).port;
      const fixedArgs = [...args, "--port", port];
      const events: string[] = [];
      let cutByKill = -1;
      const started = Date.now();
      const sent = await sendAll(decoder.url, [
        [
          10_000,
          async (acks) => {
            await cse!.stop();
            cse = undefined;
            events.push(`CSE stopped at ${acks} acks`);
          },
        ],
        [
          25_000,
          async (acks, unanswered) => {
            const before = unanswered.interrupted;
            await decoder.kill();
            events.push(`decoder SIGKILLed at ${acks} acks`);
            decoder = await spawnDecoder(fixedArgs);
            cutByKill = unanswered.interrupted - before;
            events.push(`decoder restarted; ${cutByKill} requests cut off in flight`);
          },
        ],
        [
          40_000,
          async (acks) => {
            cse = await cseProcess(["--port", String(csePort), "--data-dir", cseDir]);
            events.push(`CSE restarted at ${acks} acks`);
          },
        ],
      ]);
      // the SIGKILL cut off requests in flight, and each was sent again until acknowledged (above)
      expect(cutByKill).toBeGreaterThan(0);
      expect(sent.retries).toBeGreaterThanOrEqual(sent.unanswered.interrupted + sent.unanswered.refused);

      const stats = await waitFor(
        "the backlog to drain into the CSE",
        async () => {
          const s = JSON.parse((await client(decoder.url).get("/api/stats")).body) as {
            records: number;
            forwarded: number;
            backlog: number;
            forwardFailures: number;
          };
          return s.backlog === 0 && s.records === TOTAL ? s : undefined;
        },
        150_000,
        250,
      );
      const drainedMs = Date.now() - started;
      expect(stats.forwardFailures).toBeGreaterThan(0);
      await decoder.stop();
      expectStored(dataDir);
      await expectInCse(cseBase);
      console.log(
        `zero loss: ${TOTAL} acked in ${(sent.sentMs / 1000).toFixed(1)} s (${Math.round(TOTAL / (sent.sentMs / 1000))}/s), all in the CSE after ${(drainedMs / 1000).toFixed(1)} s; ${sent.retries} resends (${sent.unanswered.interrupted} cut off in flight, ${sent.unanswered.refused} refused while down), ${sent.duplicates} duplicate acks, ${stats.forwardFailures} forward failures; ${events.join("; ")}`,
      );
      await cse?.stop();
    },
  );

  it(
    `--embedded-cse: acknowledged = stored = in the CSE exactly once for ${TOTAL} messages through two SIGKILLs`,
    { timeout: 240_000 },
    async () => {
      const dataDir = tempDir();
      const args = ["--data-dir", dataDir, "--preset", "kineis-tracker", "--embedded-cse", "--cse-port", "0"];
      let decoder: DecoderProcess = await spawnDecoder(args);
      const fixedArgs = [
        ...args.slice(0, -1),
        new URL(String(decoder.listening.cseBaseUrl)).port,
        "--port",
        new URL(decoder.url).port,
      ];
      const events: string[] = [];
      const cutByKill: number[] = [];
      const kill = async (acks: number, unanswered: Unanswered) => {
        const before = unanswered.interrupted;
        await decoder.kill();
        events.push(`SIGKILLed at ${acks} acks`);
        decoder = await spawnDecoder(fixedArgs);
        cutByKill.push(unanswered.interrupted - before);
      };
      const sent = await sendAll(decoder.url, [
        [20_000, kill],
        [60_000, kill],
      ]);
      // each SIGKILL cut off requests in flight, and each was sent again until acknowledged (above)
      expect(cutByKill).toHaveLength(2);
      for (const n of cutByKill) expect(n).toBeGreaterThan(0);
      // nothing to drain: every acknowledged record was in the CSE when it was acknowledged
      const stats = JSON.parse((await client(decoder.url).get("/api/stats")).body) as {
        records: number;
        forwarded: number;
        backlog: number;
      };
      expect(stats).toMatchObject({ records: TOTAL, forwarded: TOTAL, backlog: 0 });
      const cseBase = String(decoder.listening.cseBaseUrl);
      await expectInCse(cseBase);
      await decoder.stop();
      expectStored(dataDir);
      console.log(
        `zero loss, in-process: ${TOTAL} acked in ${(sent.sentMs / 1000).toFixed(1)} s (${Math.round(TOTAL / (sent.sentMs / 1000))}/s), each in the CSE when acknowledged; ${sent.retries} resends (cut off in flight by the kills: ${cutByKill.join(" and ")}; ${sent.unanswered.refused} refused while down), ${sent.duplicates} duplicate acks; ${events.join("; ")}`,
      );
    },
  );
});
