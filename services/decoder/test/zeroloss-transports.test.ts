// Zero loss over MQTT and CoAP: devices (MQTT.js clients, npm coap requests) send bounded runs of
// messages while the decoder is SIGKILLed once and restarted on the same ports; a device resends
// whatever it saw no acknowledgement for. Afterwards every acknowledged message is stored once,
// forwarded, and present exactly once in the CSE (ids read back from the CSE).
import path from "node:path";
import Database from "better-sqlite3";
import coap from "coap";
import mqtt from "mqtt";
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

const TOTAL = 3200;
const DEVICES = 16;
const KILL_AT = 1000;
const tracker = parseLayout(presetById("kineis-tracker")!.layout);
const payloads = encodedSamples("bitpacked", 500, 11, tracker);

interface Harness {
  dataDir: string;
  cseBase: string;
  decoder: () => DecoderProcess;
  /** call on every acknowledgement: SIGKILLs and restarts the decoder once KILL_AT is reached */
  acked: (i: number) => void;
  done: () => Promise<{ ackedIds: Uint8Array; events: string[] }>;
}

/** onKilled runs once the killed decoder is gone, before the new one starts */
async function harness(transportFlags: string[], onKilled: () => void = () => {}): Promise<Harness> {
  const cse = await cseProcess(["--port", "0", "--data-dir", tempDir()]);
  const dataDir = tempDir();
  const args = [
    "--data-dir",
    dataDir,
    "--preset",
    "kineis-tracker",
    "--cse",
    cse.cseBaseUrl,
    "--retry-base-ms",
    "100",
    "--retry-max-ms",
    "1000",
  ];
  let decoder = await spawnDecoder([...args, ...transportFlags.flatMap((f) => [f, "0"])]);
  const fixed = [...args, "--port", new URL(decoder.url).port];
  for (const f of transportFlags)
    fixed.push(f, new URL(String(decoder.listening[f === "--mqtt-port" ? "mqtt" : "coap"])).port);
  const ackedIds = new Uint8Array(TOTAL);
  let count = 0;
  let phase: Promise<void> = Promise.resolve();
  const events: string[] = [];
  return {
    dataDir,
    cseBase: cse.cseBaseUrl,
    decoder: () => decoder,
    acked: (i) => {
      if (ackedIds[i]) return;
      ackedIds[i] = 1;
      if (++count === KILL_AT)
        phase = (async () => {
          await decoder.kill();
          onKilled();
          events.push(`decoder SIGKILLed at ${count} acks`);
          decoder = await spawnDecoder(fixed);
          events.push(`restarted at ${count} acks`);
        })();
    },
    done: async () => {
      await phase;
      return { ackedIds, events };
    },
  };
}

/** every acknowledged id stored once and marked forwarded, and exactly once in the CSE */
async function expectExactlyOnce(h: Harness, ackedIds: Uint8Array, prefix: string): Promise<void> {
  expect(ackedIds.every((a) => a === 1)).toBe(true);
  await waitFor(
    "the backlog to drain into the CSE",
    async () => {
      const s = JSON.parse((await client(h.decoder().url).get("/api/stats")).body) as {
        records: number;
        backlog: number;
      };
      return s.backlog === 0 && s.records === TOTAL ? s : undefined;
    },
    120_000,
    250,
  );
  await h.decoder().stop();
  const db = new Database(path.join(h.dataDir, "buffer-0.sqlite"), { readonly: true });
  try {
    const ids = db.prepare("SELECT message_id FROM records").pluck().all() as string[];
    expect(ids.length).toBe(TOTAL);
    expect(new Set(ids).size).toBe(TOTAL);
    expect(db.prepare("SELECT count(*) FROM records WHERE forwarded_at IS NULL").pluck().get()).toBe(0);
  } finally {
    db.close();
  }
  const inCse: string[] = [];
  for (let d = 0; d < DEVICES; d++) {
    inCse.push(...(await instanceIds(h.cseBase, `decoder/dev-${d}`)));
  }
  expect(inCse.length).toBe(TOTAL);
  const unique = new Set(inCse);
  expect(unique.size).toBe(TOTAL);
  for (let i = 0; i < TOTAL; i++)
    if (!unique.has(`${prefix}-${i}`)) throw new Error(`${prefix}-${i} is missing in the CSE`);
}

describe("zero loss over MQTT and CoAP", () => {
  it(
    `MQTT QoS 1: ${TOTAL} messages from ${DEVICES} devices through a SIGKILL, each acknowledged one in the CSE exactly once`,
    { timeout: 240_000 },
    async () => {
      const h = await harness(["--mqtt-port"]);
      const started = Date.now();
      const url = String(h.decoder().listening.mqtt);
      let resends = 0;
      // PUBLISH packets on the wire and connections lost: MQTT.js itself resends unacknowledged QoS 1
      // messages after it reconnects, so the kill shows as more publishes than messages
      let publishes = 0;
      let closes = 0;
      await Promise.all(
        Array.from({ length: DEVICES }, async (_, dev) => {
          const c = await mqtt.connectAsync(url, {
            clientId: `dev-${dev}`,
            reconnectPeriod: 100,
            connectTimeout: 5000,
          });
          c.on("packetsend", (p) => void (p.cmd === "publish" && publishes++));
          c.on("close", () => void closes++);
          const mine = Array.from({ length: TOTAL / DEVICES }, (_, k) => k * DEVICES + dev);
          // a window of 8 unacknowledged messages per device
          let next = 0;
          await Promise.all(
            Array.from({ length: 8 }, async () => {
              while (next < mine.length) {
                const i = mine[next++]!;
                for (let attempt = 0; ; attempt++) {
                  try {
                    await c.publishAsync(
                      `satpayload/dev-${dev}/kineis-tracker/bitpacked/mq-${i}`,
                      Buffer.from(payloads[i % payloads.length]!),
                      { qos: 1 },
                    );
                    h.acked(i);
                    break;
                  } catch {
                    // not acknowledged (the connection went away): send it again once reconnected
                    resends++;
                    if (attempt > 500) throw new Error(`mq-${i} never acknowledged`);
                    await new Promise((r) => setTimeout(r, 50));
                  }
                }
              }
            }),
          );
          await c.endAsync();
        }),
      );
      const { ackedIds, events } = await h.done();
      const ackedS = (Date.now() - started) / 1000;
      await expectExactlyOnce(h, ackedIds, "mq");
      console.log(
        `mqtt zero loss: ${TOTAL} acked in ${ackedS.toFixed(1)} s, all in the CSE after ${((Date.now() - started) / 1000).toFixed(1)} s; ${publishes} PUBLISH packets for ${TOTAL} messages, ${closes} connections lost, ${resends} resends by the test's devices; ${events.join("; ")}`,
      );
      // the SIGKILL cut every device's connection with messages in flight, and those went out again
      expect(closes).toBeGreaterThanOrEqual(DEVICES);
      expect(publishes + resends).toBeGreaterThan(TOTAL);
    },
  );

  it(
    `CoAP confirmable: ${TOTAL} messages through a SIGKILL, each acknowledged one in the CSE exactly once`,
    { timeout: 240_000 },
    async () => {
      // exchanges sent and not yet answered; those open when the decoder died can only be answered
      // by the restarted one (a retransmission by the library or a resend by the device)
      let inFlight = 0;
      let inFlightAtKill = -1;
      const h = await harness(["--coap-port"], () => (inFlightAtKill = inFlight));
      const started = Date.now();
      const port = Number(new URL(String(h.decoder().listening.coap)).port);
      // RFC 7252 retransmission with a shorter first timeout, so a request to the killed process is retried within seconds
      coap.updateTiming({ ackTimeout: 0.5, ackRandomFactor: 1.5, maxRetransmit: 3 });
      const agent = new coap.Agent({ type: "udp4" });
      let resends = 0;
      const post = (i: number) =>
        new Promise<string>((resolve, reject) => {
          inFlight++;
          const req = agent.request({
            hostname: "127.0.0.1",
            port,
            method: "POST",
            pathname: "/ingest",
            query: `layout=kineis-tracker&format=bitpacked&device=dev-${i % DEVICES}&id=co-${i}`,
            confirmable: true,
          });
          // a device gives up on an exchange after 20 s at most, whatever the library does
          const guard = setTimeout(() => reject(new Error("no answer in 20 s")), 20_000);
          req.on("response", (res: coap.IncomingMessage) => {
            clearTimeout(guard);
            resolve(res.code);
          });
          req.on("error", (e: Error) => {
            clearTimeout(guard);
            reject(e);
          });
          req.on("timeout", () => {
            clearTimeout(guard);
            reject(new Error("timeout"));
          });
          req.end(Buffer.from(payloads[i % payloads.length]!));
        }).finally(() => inFlight--);
      let next = 0;
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (next < TOTAL) {
            const i = next++;
            for (let attempt = 0; ; attempt++) {
              const code = await post(i).catch(() => "no answer");
              if (code === "2.01" || code === "2.04") {
                h.acked(i);
                break;
              }
              if (code !== "no answer" && code !== "5.03") throw new Error(`co-${i}: ${code}`);
              resends++;
              if (attempt > 200) throw new Error(`co-${i} never acknowledged`);
              await new Promise((r) => setTimeout(r, 50));
            }
          }
        }),
      );
      agent.close();
      coap.defaultTiming();
      const { ackedIds, events } = await h.done();
      const ackedS = (Date.now() - started) / 1000;
      await expectExactlyOnce(h, ackedIds, "co");
      console.log(
        `coap zero loss: ${TOTAL} acked in ${ackedS.toFixed(1)} s, all in the CSE after ${((Date.now() - started) / 1000).toFixed(1)} s; ${inFlightAtKill} exchanges open when the decoder died, ${resends} resends by the test's devices (the rest retransmitted by the library within its own timeouts); ${events.join("; ")}`,
      );
      // the SIGKILL left exchanges open, unanswered by the process that had them; every one of them
      // was acknowledged afterwards (above) and is in the CSE once. Whether the library's own
      // retransmission or the device's resend carried them depends on how fast the restart was.
      expect(inFlightAtKill).toBeGreaterThan(0);
    },
  );
});
