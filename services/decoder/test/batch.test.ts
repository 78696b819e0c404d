// Batch routes (issue 27): a message carrying many readings is stored as one record per reading
// (the once-fields with that reading), exactly once however often it is resent, and forwarded to
// the CSE as one contentInstance per reading in reading order; bad batch bytes store no reading.
import { writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { type BatchForm, batchCodecFor, generateBatches, parseLayout, presetById, toPlain } from "#codecs";
import { BATCH_TRACKER_READINGS, batchTracker, batchTrackerInput } from "#codecs-test/fixtures/batchTracker.ts";
import { parseRouteSpec, RouteSpecError, routeSpec } from "#contracts/decoder/routes.ts";
import { readingsPerMessage } from "#planning";
import { client, instanceIds, m2mGet, spawnDecoder, tempDir } from "./support.ts";
import { bufferFileName } from "../src/buffer/schema.ts";
import { parseDecoderArgs } from "../src/config.ts";
import { MAX_RESOURCE_NAME } from "../src/names.ts";
import { startWorker, type RunningWorker } from "../src/worker.ts";

const READINGS = BATCH_TRACKER_READINGS;
const tracker = batchTracker;

function layoutFile(): string {
  const file = path.join(tempDir(), "batch-tracker.satlayout.json");
  writeFileSync(file, JSON.stringify(batchTrackerInput));
  return file;
}

/** `n` batch messages cut from one seeded series, with the readings each one carries */
function messages(form: BatchForm, n: number, seed = 5) {
  const codec = batchCodecFor(tracker, "bitpacked", form, READINGS);
  return generateBatches(tracker, n, READINGS, seed).map((b) => ({ batch: b, bytes: codec.encode(b) }));
}

/** what each reading's record must hold: the layout's JSON text of once-fields + that reading */
const expectedCons = (b: ReturnType<typeof messages>[number]["batch"]) =>
  b.readings.map((r) => toPlain(tracker, { ...b.once, ...r }, "json"));

const running: RunningWorker[] = [];
afterEach(async () => {
  for (const w of running.splice(0)) await w.close();
});

async function decoder(extra: string[] = []) {
  const dataDir = tempDir();
  const cfg = parseDecoderArgs([
    ...extra,
    "--data-dir",
    dataDir,
    "--layout",
    layoutFile(),
    "--route",
    "/fixes=batch-tracker:bitpacked:raw:batch=delta",
    "--route",
    "/fixes-columns=batch-tracker:bitpacked:raw:batch=columns",
  ]);
  const w = await startWorker(cfg, { index: 0, forwards: [], log: () => {} });
  running.push(w);
  const rows = () => {
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
  };
  return { w, c: client(`http://127.0.0.1:${w.port}`), rows, file: path.join(dataDir, bufferFileName(0)) };
}

const headers = (extra: Record<string, string> = {}) => ({
  "content-type": "application/octet-stream",
  "x-satpayload-device": "truck-7",
  ...extra,
});

describe("a batch route's spec", () => {
  it("takes batch=columns|delta among the trailing settings, in any order, and prints it back", () => {
    const r = parseRouteSpec("/f=Tracker: v2:bitpacked:raw:batch=delta:precision=refuse");
    expect(r).toMatchObject({
      layout: "Tracker: v2",
      format: "bitpacked",
      body: "raw",
      batch: "delta",
      precision: "refuse",
    });
    expect(parseRouteSpec("/f=t:cbor:range=flag:batch=columns")).toMatchObject({ batch: "columns", range: "flag" });
    expect(parseRouteSpec(routeSpec(r))).toEqual(r);
    expect(parseRouteSpec("/f=t:cbor")).not.toHaveProperty("batch");
    expect(() => parseRouteSpec("/f=t:cbor:batch=zip")).toThrow(/batch must be columns or delta, not "zip"/);
    expect(() => parseRouteSpec("/f=t:cbor:batch=delta:batch=columns")).toThrow(RouteSpecError);
  });
});

describe("batch routes", () => {
  it("stores each reading of a message as its own record, in reading order, once however often it is resent", async () => {
    const { c, w, rows } = await decoder();
    const [m] = messages("delta", 1);
    const first = await c.post("/fixes", m!.bytes, headers({ "x-satpayload-message-id": "pass-1" }));
    expect(first.status, first.body).toBe(200);
    expect(JSON.parse(first.body)).toMatchObject({
      messageId: "pass-1",
      device: "truck-7",
      duplicate: false,
      readings: { count: READINGS, stored: READINGS },
    });
    const stored = rows();
    expect(stored.map((r) => r.id)).toEqual(Array.from({ length: READINGS }, (_, i) => `pass-1~${i}`));
    expect(stored.map((r) => JSON.parse(r.con))).toEqual(expectedCons(m!.batch));
    expect(new Set(stored.map((r) => r.device))).toEqual(new Set(["truck-7"]));
    // the reading's own time (key "t", epoch seconds), advancing by the layout's interval
    const times = stored.map((r) => Number((JSON.parse(r.con) as { t: unknown }).t));
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual(Array(READINGS - 1).fill(900));

    // a resend after a lost answer stores nothing more
    const again = await c.post("/fixes", m!.bytes, headers({ "x-satpayload-message-id": "pass-1" }));
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toMatchObject({ duplicate: true, readings: { count: READINGS, stored: 0 } });
    expect(rows()).toHaveLength(READINGS);
    expect(w.buffer.counters()).toMatchObject({ accepted: READINGS, duplicates: READINGS });
  });

  it("recognises a resent message without an id by its bytes (its readings carry their time), in both forms", async () => {
    const { c, rows } = await decoder();
    const [a, b] = messages("columns", 2, 9);
    const one = JSON.parse((await c.post("/fixes-columns", a!.bytes, headers())).body);
    expect(one).toMatchObject({ duplicate: false, readings: { stored: READINGS } });
    expect(one.messageId).toMatch(/^sha256-[0-9a-f]{32}$/);
    const resent = JSON.parse((await c.post("/fixes-columns", a!.bytes, headers())).body);
    expect(resent).toMatchObject({ messageId: one.messageId, duplicate: true, readings: { stored: 0 } });
    // another device sending the same bytes is another message
    const other = JSON.parse(
      (await c.post("/fixes-columns", a!.bytes, headers({ "x-satpayload-device": "truck-8" }))).body,
    );
    expect(other.messageId).not.toBe(one.messageId);
    const next = JSON.parse((await c.post("/fixes-columns", b!.bytes, headers())).body);
    expect(next).toMatchObject({ duplicate: false, readings: { stored: READINGS } });
    expect(rows()).toHaveLength(3 * READINGS);
    expect(
      rows()
        .slice(-READINGS)
        .map((r) => JSON.parse(r.con)),
    ).toEqual(expectedCons(b!.batch));
  });

  it("refuses bad batch bytes with the reason, stores no reading and keeps the message as a dead letter", async () => {
    const { c, w, rows } = await decoder();
    const [m] = messages("delta", 1);
    const truncated = m!.bytes.subarray(0, Math.floor(m!.bytes.length / 2));
    const r = await c.post("/fixes", truncated, headers({ "x-satpayload-message-id": "cut" }));
    expect(r.status).toBe(400);
    const body = JSON.parse(r.body) as { error: string; reason: string };
    expect(body.error).toBe("undecodable");
    expect(body.reason).toMatch(/^bitpacked: /);
    // a single-record message of the same layout is not a batch either
    expect((await c.post("/fixes", new Uint8Array([1, 2, 3]), headers())).status).toBe(400);
    expect(rows()).toEqual([]);
    expect(w.buffer.counters()).toMatchObject({ accepted: 0, dead_letters: 2 });
  });
});

describe("a batch message in the buffer", () => {
  it("is stored all or none: a reading that fails mid-way leaves no reading, and the resend stores them all", async () => {
    // two records per commit: before, a message's readings were spread over several commits
    const { c, rows, file } = await decoder(["--commit-max", "2"]);
    const [m] = messages("delta", 1, 21);
    const db = new Database(file);
    try {
      // a constraint the fourth reading breaks, as a full disk or a crash would stop the write there
      db.exec(
        "CREATE TRIGGER fail_reading BEFORE INSERT ON records WHEN NEW.message_id = 'pass-9~3' " +
          "BEGIN SELECT RAISE(ABORT, 'injected: reading 4 refused'); END",
      );
      const failed = await c.post("/fixes", m!.bytes, headers({ "x-satpayload-message-id": "pass-9" }));
      expect(failed.status, failed.body).toBeGreaterThanOrEqual(500);
      expect(rows()).toEqual([]);
      db.exec("DROP TRIGGER fail_reading");
    } finally {
      db.close();
    }
    const retried = await c.post("/fixes", m!.bytes, headers({ "x-satpayload-message-id": "pass-9" }));
    expect(retried.status, retried.body).toBe(200);
    expect(JSON.parse(retried.body)).toMatchObject({
      duplicate: false,
      readings: { count: READINGS, stored: READINGS },
    });
    expect(rows().map((r) => r.id)).toEqual(Array.from({ length: READINGS }, (_, i) => `pass-9~${i}`));
  });
});

describe("the paper tracker through Astrocast's portal", () => {
  it("one Astrocast message per pass, pushed by the portal, becomes one record per reading; its retry none", async () => {
    const layout = parseLayout(presetById("paper-tracker")!.layout);
    const n = readingsPerMessage(layout, "bitpacked", "delta");
    const [b] = generateBatches(layout, 1, n, 3);
    const bytes = batchCodecFor(layout, "bitpacked", "delta", n).encode(b!);
    expect(bytes.length).toBeLessThanOrEqual(160);
    const dataDir = tempDir();
    const cfg = parseDecoderArgs([
      "--data-dir",
      dataDir,
      "--preset",
      "paper-tracker",
      "--route",
      "/astrocast-pass=paper-tracker:bitpacked:envelope:batch=delta",
    ]);
    const w = await startWorker(cfg, { index: 0, forwards: [], log: () => {} });
    running.push(w);
    const c = client(`http://127.0.0.1:${w.port}`);
    const push = JSON.stringify({
      messageGuid: "0b9e1c52-7d0f-4d6e-9a57-3f5d2c1b8a90",
      deviceGuid: "c984ff2b-e4d0-417f-8ea3-11d74a55d251",
      createdDate: "2026-11-29T08:00:00Z",
      receivedDate: "2026-11-29T08:00:04Z",
      data: Buffer.from(bytes).toString("base64"),
    });
    const first = await c.post("/astrocast-pass", push, { "content-type": "application/json" });
    expect(first.status, first.body).toBe(200);
    const body = JSON.parse(first.body);
    // the container's own id (a once-field) names the device, as for single records
    expect(body).toMatchObject({ duplicate: false, readings: { count: n, stored: n } });
    expect(body.device).toBe(String(b!.once[layout.fields.find((f) => f.id === "iso6346")!.key]));
    const again = await c.post("/astrocast-pass", push, { "content-type": "application/json" });
    expect(JSON.parse(again.body)).toMatchObject({ duplicate: true, readings: { count: n, stored: 0 } });
    expect(w.buffer.counters()).toMatchObject({ accepted: n, duplicates: n });
  });
});

describe("batch routes into the CSE", () => {
  it(
    "forwards one contentInstance per reading, in reading order, each with its reading's time and a name ≤ 45",
    { timeout: 60_000 },
    async () => {
      const d = await spawnDecoder([
        "--data-dir",
        tempDir(),
        "--layout",
        layoutFile(),
        "--route",
        "/fixes=batch-tracker:bitpacked:raw:batch=delta",
        "--embedded-cse",
        "--cse-port",
        "0",
      ]);
      const c = client(d.url);
      const sent = messages("delta", 2, 11);
      for (const [i, m] of sent.entries())
        expect((await c.post("/fixes", m.bytes, headers({ "x-satpayload-message-id": `pass-${i}` }))).status).toBe(200);
      const cse = String(d.listening.cseBaseUrl);
      const ids = await instanceIds(cse, "decoder/truck-7");
      expect(ids).toEqual(sent.flatMap((_, i) => Array.from({ length: READINGS }, (_, k) => `pass-${i}~${k}`)));
      const all = await m2mGet(cse, "decoder/truck-7?rcn=4");
      const cins = (all.json as { "m2m:cnt": { "m2m:cin": { rn: string; con: unknown }[] } })["m2m:cnt"]["m2m:cin"];
      cins.sort((a, b) => (a.rn < b.rn ? -1 : 1));
      expect(cins.every((x) => x.rn.length <= MAX_RESOURCE_NAME)).toBe(true);
      expect(cins.map((x) => x.con)).toEqual(sent.flatMap((m) => expectedCons(m.batch)));
      await d.stop();
    },
  );
});
