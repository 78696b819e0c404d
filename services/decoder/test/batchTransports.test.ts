// Batch messages on every ingest path (issue 27): besides device routes, /ingest (X-Satpayload-Batch),
// /ingest/base64 (the envelope's "batch"), MQTT (the topic's format level `<format>:batch=<form>`)
// and CoAP (Uri-Query batch=<form>) take a message of many readings and store each reading as its
// own record under the same identity rules, forwarded as one contentInstance per reading; bad
// bytes get the transport's refusal with the codec's reason and store nothing.
import { writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import coap from "coap";
import mqtt from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { type BatchForm, batchCodecFor, generateBatches, toPlain } from "#codecs";
import { BATCH_TRACKER_READINGS, batchTracker, batchTrackerInput } from "#codecs-test/fixtures/batchTracker.ts";
import { client, instanceIds, m2mGet, spawnDecoder, tempDir } from "./support.ts";
import { bufferFileName } from "../src/buffer/schema.ts";
import { parseDecoderArgs } from "../src/config.ts";
import { startWorker, type RunningWorker } from "../src/worker.ts";

const READINGS = BATCH_TRACKER_READINGS;
const tracker = batchTracker;

function layoutFile(): string {
  const file = path.join(tempDir(), "batch-tracker.satlayout.json");
  writeFileSync(file, JSON.stringify(batchTrackerInput));
  return file;
}

/** `n` batch messages cut from one seeded series, with the readings each one carries */
function messages(form: BatchForm, n: number, seed: number) {
  const codec = batchCodecFor(tracker, "bitpacked", form, READINGS);
  return generateBatches(tracker, n, READINGS, seed).map((b) => ({
    bytes: codec.encode(b),
    cons: b.readings.map((r) => toPlain(tracker, { ...b.once, ...r }, "json")),
  }));
}

const ids = (messageId: string) => Array.from({ length: READINGS }, (_, i) => `${messageId}~${i}`);

function rowsOf(dataDir: string) {
  const db = new Database(path.join(dataDir, bufferFileName(0)), { readonly: true });
  try {
    return db.prepare("SELECT message_id AS id, device, con FROM records ORDER BY seq").all() as {
      id: string;
      device: string;
      con: string;
    }[];
  } finally {
    db.close();
  }
}

const running: RunningWorker[] = [];
afterEach(async () => {
  for (const w of running.splice(0)) await w.close();
});

describe("batches on /ingest and /ingest/base64", () => {
  it("take a batch named by X-Satpayload-Batch or the envelope's batch, one record per reading, once", async () => {
    const dataDir = tempDir();
    const cfg = parseDecoderArgs(["--data-dir", dataDir, "--layout", layoutFile()]);
    const w = await startWorker(cfg, { index: 0, forwards: [], log: () => {} });
    running.push(w);
    const c = client(`http://127.0.0.1:${w.port}`);
    const [a, b] = messages("delta", 2, 31);
    const h = {
      "content-type": "application/octet-stream",
      "x-satpayload-layout": "batch-tracker",
      "x-satpayload-format": "bitpacked",
      "x-satpayload-device": "truck-7",
    };
    const first = await c.post("/ingest", a!.bytes, {
      ...h,
      "x-satpayload-batch": "delta",
      "x-satpayload-message-id": "h-1",
    });
    expect(first.status, first.body).toBe(201);
    expect(JSON.parse(first.body)).toMatchObject({
      messageId: "h-1",
      device: "truck-7",
      duplicate: false,
      readings: { count: READINGS, stored: READINGS },
    });
    const again = await c.post("/ingest", a!.bytes, {
      ...h,
      "x-satpayload-batch": "delta",
      "x-satpayload-message-id": "h-1",
    });
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toMatchObject({ duplicate: true, readings: { stored: 0 } });

    // a portal's envelope: the form in the envelope; no id, so the readings' times identify it
    const envelope = JSON.stringify({
      layout: "batch-tracker",
      format: "bitpacked",
      batch: "delta",
      device: "truck-7",
      data: Buffer.from(b!.bytes).toString("base64"),
    });
    const viaEnvelope = JSON.parse(
      (await c.post("/ingest/base64", envelope, { "content-type": "application/json" })).body,
    );
    expect(viaEnvelope).toMatchObject({ duplicate: false, readings: { count: READINGS, stored: READINGS } });
    expect(viaEnvelope.messageId).toMatch(/^sha256-[0-9a-f]{32}$/);
    const resent = JSON.parse((await c.post("/ingest/base64", envelope, { "content-type": "application/json" })).body);
    expect(resent).toMatchObject({ messageId: viaEnvelope.messageId, duplicate: true, readings: { stored: 0 } });

    const rows = rowsOf(dataDir);
    expect(rows.map((r) => r.id)).toEqual([...ids("h-1"), ...ids(viaEnvelope.messageId)]);
    expect(rows.map((r) => JSON.parse(r.con))).toEqual([...a!.cons, ...b!.cons]);

    // an unknown form is refused before anything is decoded; bad bytes are a dead letter, no reading
    const wrongForm = await c.post("/ingest", a!.bytes, { ...h, "x-satpayload-batch": "zip" });
    expect(wrongForm.status).toBe(400);
    expect(JSON.parse(wrongForm.body)).toMatchObject({ error: "bad_request" });
    expect(JSON.parse(wrongForm.body).reason).toMatch(/"zip" is not a batch form \(columns or delta/);
    const cut = a!.bytes.subarray(0, 5);
    const bad = await c.post("/ingest", cut, {
      ...h,
      "x-satpayload-batch": "delta",
      "x-satpayload-message-id": "h-cut",
    });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ error: "undecodable" });
    expect(JSON.parse(bad.body).reason).toMatch(/^bitpacked: /);
    expect(rowsOf(dataDir)).toHaveLength(2 * READINGS);
    expect(w.buffer.counters()).toMatchObject({ accepted: 2 * READINGS, dead_letters: 1 });
  });
});

/** a confirmable CoAP POST with the npm client; the answer's code and JSON body */
function coapPost(port: number, pathname: string, query: string, payload: Uint8Array) {
  return new Promise<{ code: string; body: Record<string, unknown> }>((resolve, reject) => {
    const agent = new coap.Agent({ type: "udp4" });
    const req = agent.request({ hostname: "127.0.0.1", port, method: "POST", pathname, query, confirmable: true });
    req.setOption("Content-Format", "application/octet-stream");
    // the agent closes its socket itself once no request is outstanding
    req.on("response", (res: coap.IncomingMessage) => {
      resolve({ code: res.code, body: JSON.parse(res.payload.toString()) as Record<string, unknown> });
    });
    req.on("error", reject);
    req.end(Buffer.from(payload));
  });
}

describe("batches over MQTT and CoAP", () => {
  it(
    "store each reading once and forward one contentInstance per reading; bad bytes are refused with the reason",
    { timeout: 90_000 },
    async () => {
      const dataDir = tempDir();
      const d = await spawnDecoder([
        "--data-dir",
        dataDir,
        "--layout",
        layoutFile(),
        "--embedded-cse",
        "--cse-port",
        "0",
        "--mqtt-port",
        "0",
        "--coap-port",
        "0",
      ]);
      try {
        const mqttUrl = String(d.listening.mqtt);
        const coapPort = Number(new URL(String(d.listening.coap)).port);
        const [m, k, cols] = [...messages("delta", 2, 41), ...messages("columns", 1, 43)];

        const device = await mqtt.connectAsync(mqttUrl, { clientId: "truck-7", reconnectPeriod: 0 });
        await device.subscribeAsync("satpayload-errors/truck-7", { qos: 0 });
        const topic = "satpayload/truck-7/batch-tracker/bitpacked:batch=delta/mq-1";
        // QoS 1: the PUBACK comes after the commit, so the readings are in once publishAsync resolves
        await device.publishAsync(topic, Buffer.from(m!.bytes), { qos: 1 });
        await device.publishAsync(topic, Buffer.from(m!.bytes), { qos: 1 });
        expect(rowsOf(dataDir).map((r) => r.id)).toEqual(ids("mq-1"));
        // the columns form, no message id: recognised by its bytes on the resend
        const colsTopic = "satpayload/truck-7/batch-tracker/bitpacked:batch=columns";
        await device.publishAsync(colsTopic, Buffer.from(cols!.bytes), { qos: 1 });
        await device.publishAsync(colsTopic, Buffer.from(cols!.bytes), { qos: 1 });
        expect(rowsOf(dataDir)).toHaveLength(2 * READINGS);

        // bad bytes: acknowledged (final, as a 400), the reason on the client's error topic, nothing stored
        const notices: { error: string; reason: string; topic: string }[] = [];
        device.on("message", (_t, p) => notices.push(JSON.parse(p.toString())));
        await device.publishAsync(topic.replace("mq-1", "mq-cut"), Buffer.from(m!.bytes.subarray(0, 5)), { qos: 1 });
        await device.publishAsync("satpayload/truck-7/batch-tracker/bitpacked:batch=zip", Buffer.from(m!.bytes), {
          qos: 1,
        });
        await expect.poll(() => notices.length, { timeout: 10_000 }).toBe(2);
        expect(notices[0]).toMatchObject({ error: "undecodable" });
        expect(notices[0]!.reason).toMatch(/^bitpacked: /);
        expect(notices[1]).toMatchObject({ error: "bad_request" });
        expect(notices[1]!.reason).toMatch(/"zip" is not a batch form/);
        await device.endAsync();

        const query = "layout=batch-tracker&format=bitpacked&batch=delta&device=truck-7&id=co-1";
        const created = await coapPost(coapPort, "/ingest", query, k!.bytes);
        expect(created.code).toBe("2.01");
        expect(created.body).toMatchObject({ messageId: "co-1", readings: { count: READINGS, stored: READINGS } });
        const repeated = await coapPost(coapPort, "/ingest", query, k!.bytes);
        expect(repeated.code).toBe("2.04");
        expect(repeated.body).toMatchObject({ duplicate: true, readings: { stored: 0 } });
        const refused = await coapPost(coapPort, "/ingest", query.replace("co-1", "co-cut"), k!.bytes.subarray(0, 5));
        expect(refused.code).toBe("4.00");
        expect(refused.body).toMatchObject({ error: "undecodable" });
        expect(String(refused.body.reason)).toMatch(/^bitpacked: /);

        const rows = rowsOf(dataDir);
        const colsId = rows[READINGS]!.id.replace(/~0$/, "");
        expect(colsId).toMatch(/^sha256-/);
        expect(rows.map((r) => r.id)).toEqual([...ids("mq-1"), ...ids(colsId), ...ids("co-1")]);
        expect(rows.map((r) => JSON.parse(r.con))).toEqual([...m!.cons, ...cols!.cons, ...k!.cons]);
        expect(new Set(rows.map((r) => r.device))).toEqual(new Set(["truck-7"]));

        // in the CSE: one instance per reading, in reading order, each the reading
        const cse = String(d.listening.cseBaseUrl);
        expect(await instanceIds(cse, "decoder/truck-7")).toEqual(rows.map((r) => r.id));
        const all = await m2mGet(cse, "decoder/truck-7?rcn=4");
        const cins = (all.json as { "m2m:cnt": { "m2m:cin": { rn: string; con: unknown }[] } })["m2m:cnt"]["m2m:cin"];
        cins.sort((x, y) => (x.rn < y.rn ? -1 : 1));
        expect(cins.map((x) => x.con)).toEqual([...m!.cons, ...cols!.cons, ...k!.cons]);
      } finally {
        await d.stop();
      }
    },
  );
});
