// The ingest surface of one in-process worker: every format by content type or header, envelopes,
// every refusal with its status and reason, dead letters, duplicates, durability of acknowledged
// records, group commit, the read API and the event stream.
import http from "node:http";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codecFor, FORMAT_IDS, type FormatId, generateSamples, parseLayout, presetById, toPlain } from "#codecs";
import { openDatabase } from "#host/db/open.ts";
import { ProjectStore } from "#host/db/projects.ts";
import { client, encodedSamples, paperLayout, pool, tempDir } from "./support.ts";
import { parseDecoderArgs } from "../src/config.ts";
import { startWorker, type RunningWorker } from "../src/worker.ts";

const CONTENT_TYPE: Partial<Record<FormatId, string>> = {
  json: "application/json",
  cbor: "application/cbor",
  msgpack: "application/msgpack",
  protobuf: "application/x-protobuf",
};

function headersFor(format: FormatId, extra: Record<string, string> = {}): Record<string, string> {
  const ct = CONTENT_TYPE[format];
  return ct
    ? { "content-type": ct, "x-satpayload-layout": "paper", ...extra }
    : {
        "content-type": "application/octet-stream",
        "x-satpayload-format": format,
        "x-satpayload-layout": "paper",
        ...extra,
      };
}

describe("decoder ingest", () => {
  let dataDir: string;
  let projectsFile: string;
  let store: ProjectStore;
  let projectsDb: Database.Database;
  let projectId: string;
  let w: RunningWorker;
  let c: ReturnType<typeof client>;

  beforeAll(async () => {
    dataDir = tempDir();
    projectsFile = path.join(tempDir(), "projects.sqlite");
    projectsDb = openDatabase(projectsFile);
    store = new ProjectStore(projectsDb);
    projectId = store.create("Tracker copy", parseLayout(presetById("kineis-tracker")!.layout)).id;
    const cfg = parseDecoderArgs([
      "--data-dir",
      dataDir,
      "--preset",
      "all",
      "--projects-db",
      projectsFile,
      "--body-limit",
      "4096",
      "--commit-ms",
      "5",
    ]);
    w = await startWorker(cfg, { index: 0, forwards: [0], log: () => {} });
    c = client(`http://127.0.0.1:${w.port}`);
  });
  afterAll(async () => {
    await w?.close();
    projectsDb?.close();
  });

  it("accepts every format, named by its content type or the format header, and stores the decoded record", async () => {
    for (const format of FORMAT_IDS) {
      const [bytes] = encodedSamples(format, 1, 7);
      const r = await c.post("/ingest", bytes!, headersFor(format, { "x-satpayload-message-id": `fmt-${format}` }));
      expect(r.status, `${format}: ${r.body}`).toBe(201);
      const body = JSON.parse(r.body);
      expect(body).toMatchObject({ messageId: `fmt-${format}`, layout: "paper", format, duplicate: false });
      const expected = toPlain(paperLayout, codecFor(paperLayout, format).decode(bytes!), "json");
      expect(body.device).toBe(expected.iso6346);
      const row = w.buffer.db
        .prepare("SELECT con, size, json_size AS jsonSize FROM records WHERE message_id = ?")
        .get(`fmt-${format}`) as { con: string; size: number; jsonSize: number };
      // integer-keyed formats are stored as sent (keyed by the fields' numbers): by name, the same record
      const named = codecFor(paperLayout, format).document?.named;
      const con = JSON.parse(row.con) as Parameters<NonNullable<typeof named>>[0];
      expect(named ? named(con) : con).toEqual(expected);
      if (named) expect(Object.keys(con as object).every((k) => /^\d+$/.test(k))).toBe(true);
      expect(row.size).toBe(bytes!.length);
      expect(row.jsonSize).toBe(
        format === "json"
          ? bytes!.length
          : codecFor(paperLayout, "json").encode(codecFor(paperLayout, format).decode(bytes!)).length,
      );
    }
  });

  it("takes base64 envelopes as satellite portals deliver them, in both alphabets", async () => {
    const [bytes] = encodedSamples("struct-zlib", 1, 9);
    const b64 = Buffer.from(bytes!).toString("base64");
    const r = await c.post(
      "/ingest/base64",
      JSON.stringify({ layout: "paper", format: "struct-zlib", data: b64, messageId: "env-1" }),
      { "content-type": "application/json" },
    );
    expect(r.status, r.body).toBe(201);
    const url = Buffer.from(bytes!).toString("base64url");
    const r2 = await c.post(
      "/ingest/base64",
      JSON.stringify({ format: "struct-zlib", data: url, messageId: "env-2" }),
      { "content-type": "application/json", "x-satpayload-layout": "paper" },
    );
    expect(r2.status, r2.body).toBe(201);
    const cons = w.buffer.db
      .prepare("SELECT con FROM records WHERE message_id IN ('env-1', 'env-2')")
      .pluck()
      .all() as string[];
    expect(cons[0]).toBe(cons[1]);
  });

  it("resolves layouts by id, by name, from the projects database, and picks up projects created while running", async () => {
    const [tracker] = generateSamples(parseLayout(presetById("kineis-tracker")!.layout), 1, 3);
    const bytes = codecFor(parseLayout(presetById("kineis-tracker")!.layout), "bitpacked").encode(tracker!);
    const headers = { "content-type": "application/octet-stream", "x-satpayload-format": "bitpacked" };
    const byProject = await c.post("/ingest", bytes, {
      ...headers,
      "x-satpayload-layout": projectId,
      "x-satpayload-device": "tracker-7",
    });
    expect(byProject.status, byProject.body).toBe(201);
    // kineis-tracker has no device field: the header names the device
    expect(JSON.parse(byProject.body)).toMatchObject({ layout: projectId, device: "tracker-7" });
    const byName = await c.post("/ingest", bytes, { ...headers, "x-satpayload-layout": "Tracker copy" });
    expect(byName.status, byName.body).toBe(201);
    expect(JSON.parse(byName.body).layout).toBe(projectId);
    // non-ASCII names travel percent-encoded; this one is both the preset's and the copy's layout name
    const accented = await c.post("/ingest", bytes, {
      ...headers,
      "x-satpayload-layout": encodeURIComponent("Asset tracker (Kinéis 30 B)"),
    });
    expect(accented.status).toBe(404);
    expect(JSON.parse(accented.body).reason).toBe(
      `layout name "Asset tracker (Kinéis 30 B)" is ambiguous (ids kineis-tracker, ${projectId}): send the id`,
    );
    const fresh = store.create("Made while running", paperLayout).id;
    expect(
      JSON.parse(
        (
          await c.post("/ingest", encodedSamples("protobuf", 1)[0]!, {
            "content-type": "application/x-protobuf",
            "x-satpayload-layout": "Made while running",
          })
        ).body,
      ).layout,
    ).toBe(fresh);
    const [p] = encodedSamples("protobuf", 1);
    const r = await c.post("/ingest", p!, { "content-type": "application/x-protobuf", "x-satpayload-layout": fresh });
    expect(r.status, r.body).toBe(201);
    // the paper preset and the new project share a name: the name alone is ambiguous
    const amb = await c.post("/ingest", p!, {
      "content-type": "application/x-protobuf",
      "x-satpayload-layout": paperLayout.name,
    });
    expect(amb.status).toBe(404);
    expect(JSON.parse(amb.body).reason).toMatch(/ambiguous/);
  });

  it("refuses what it cannot take, with the status and a reason", async () => {
    const [p] = encodedSamples("protobuf", 1);
    const cases: [string, Promise<{ status: number; body: string }>, number, RegExp][] = [
      [
        "too large",
        c.post("/ingest", new Uint8Array(5000), headersFor("protobuf")),
        413,
        /larger than the limit of 4096/,
      ],
      [
        "too large envelope payload",
        c.post(
          "/ingest/base64",
          JSON.stringify({ layout: "paper", format: "sbe", data: Buffer.alloc(4097).toString("base64") }),
          { "content-type": "application/json" },
        ),
        413,
        /limit/,
      ],
      [
        "unknown content type",
        c.post("/ingest", p!, { "content-type": "text/plain", "x-satpayload-layout": "paper" }),
        415,
        /text\/plain is not a payload format/,
      ],
      [
        "unknown format header",
        c.post("/ingest", p!, {
          "content-type": "application/octet-stream",
          "x-satpayload-format": "avro",
          "x-satpayload-layout": "paper",
        }),
        415,
        /"avro" is not a format/,
      ],
      [
        "octet-stream without format",
        c.post("/ingest", p!, { "content-type": "application/octet-stream", "x-satpayload-layout": "paper" }),
        415,
        /needs the x-satpayload-format header/,
      ],
      [
        "type and header disagree",
        c.post("/ingest", p!, {
          "content-type": "application/cbor",
          "x-satpayload-format": "protobuf",
          "x-satpayload-layout": "paper",
        }),
        415,
        /says cbor but/,
      ],
      [
        "unknown layout",
        c.post("/ingest", p!, { "content-type": "application/x-protobuf", "x-satpayload-layout": "nope" }),
        404,
        /no layout "nope" \(known: paper/,
      ],
      ["no layout named", c.post("/ingest", p!, { "content-type": "application/x-protobuf" }), 400, /name the layout/],
      [
        "bad message id",
        c.post("/ingest", p!, headersFor("protobuf", { "x-satpayload-message-id": "a/b" })),
        400,
        /message id "a\/b" must be/,
      ],
      ["envelope not JSON", c.post("/ingest/base64", "{nope", { "content-type": "application/json" }), 400, /not JSON/],
      [
        "envelope without data",
        c.post("/ingest/base64", JSON.stringify({ format: "cbor" }), { "content-type": "application/json" }),
        400,
        /envelope data/,
      ],
      ["wrong method", c.get("/ingest"), 405, /takes POST/],
      ["unknown path", c.get("/nowhere"), 404, /no endpoint \/nowhere/],
    ];
    for (const [what, p2, status, reason] of cases) {
      const r = await p2;
      expect(r.status, what).toBe(status);
      expect(JSON.parse(r.body).reason, what).toMatch(reason);
    }
  });

  it("answers undecodable bodies 400 with the decoder's message and keeps them as dead letters", async () => {
    const before = w.buffer.counters().dead_letters;
    const [p] = encodedSamples("protobuf", 1);
    const truncated = p!.subarray(0, 40);
    const r = await c.post("/ingest", truncated, headersFor("protobuf", { "x-satpayload-message-id": "dead-1" }));
    expect(r.status).toBe(400);
    let expected = "";
    try {
      codecFor(paperLayout, "protobuf").decode(truncated);
    } catch (e) {
      expected = (e as Error).message;
    }
    expect(JSON.parse(r.body)).toEqual({ error: "undecodable", reason: expected });
    const bad64 = await c.post(
      "/ingest/base64",
      JSON.stringify({ layout: "paper", format: "cbor", data: "!!!not base64" }),
      { "content-type": "application/json" },
    );
    expect(bad64.status).toBe(400);
    expect(JSON.parse(bad64.body).reason).toMatch(/not base64/);
    const rows = w.buffer.db
      .prepare("SELECT message_id AS mid, reason, body, layout, format FROM dead_letters ORDER BY id DESC LIMIT 2")
      .all() as { mid: string | null; reason: string; body: Buffer; layout: string; format: string }[];
    expect(rows[1]).toMatchObject({ mid: "dead-1", reason: expected, layout: "paper", format: "protobuf" });
    expect(Buffer.compare(rows[1]!.body, Buffer.from(truncated))).toBe(0);
    expect(w.buffer.counters().dead_letters).toBe(before + 2);
    expect(w.buffer.db.prepare("SELECT count(*) FROM records WHERE message_id = 'dead-1'").pluck().get()).toBe(0);
  });

  it("stores a message id once: a resend is acknowledged as a duplicate", async () => {
    const [a, b] = encodedSamples("cbor", 2, 11);
    const first = await c.post("/ingest", a!, headersFor("cbor", { "x-satpayload-message-id": "dup-1" }));
    const again = await c.post("/ingest", b!, headersFor("cbor", { "x-satpayload-message-id": "dup-1" }));
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(JSON.parse(again.body)).toMatchObject({ duplicate: true, seq: JSON.parse(first.body).seq });
    expect(w.buffer.db.prepare("SELECT count(*) FROM records WHERE message_id = 'dup-1'").pluck().get()).toBe(1);
  });

  it("acknowledges only committed records and batches concurrent requests into few transactions", async () => {
    const bodies = encodedSamples("protobuf", 400, 21);
    const commitsBefore = w.commit.commits;
    const acked: string[] = [];
    await pool(bodies.length, 64, async (i) => {
      const r = await c.post("/ingest", bodies[i]!, headersFor("protobuf", { "x-satpayload-message-id": `gc-${i}` }));
      expect(r.status).toBe(201);
      acked.push(JSON.parse(r.body).messageId);
    });
    const commits = w.commit.commits - commitsBefore;
    expect(commits).toBeLessThan(bodies.length / 4);
    // a separate connection sees every acknowledged record: they were committed before the answer
    const reader = new Database(w.buffer.file, { readonly: true });
    try {
      const stored = new Set(
        reader.prepare("SELECT message_id FROM records WHERE message_id LIKE 'gc-%'").pluck().all() as string[],
      );
      expect(acked.filter((id) => !stored.has(id))).toEqual([]);
      expect(stored.size).toBe(400);
    } finally {
      reader.close();
    }
    expect(w.buffer.db.pragma("synchronous", { simple: true })).toBe(2);
    expect(w.buffer.db.pragma("journal_mode", { simple: true })).toBe("wal");
  });

  it("serves latest records per device, stats and health", async () => {
    const latest = JSON.parse((await c.get("/api/latest?limit=5")).body).records as {
      device: string;
      receivedAt: number;
      record: Record<string, string>;
    }[];
    expect(latest.length).toBe(5);
    expect(new Set(latest.map((r) => r.device)).size).toBe(5);
    for (let i = 1; i < latest.length; i++)
      expect(latest[i - 1]!.receivedAt).toBeGreaterThanOrEqual(latest[i]!.receivedAt);
    const one = JSON.parse((await c.get(`/api/latest?device=${latest[0]!.device}`)).body).records;
    expect(one).toHaveLength(1);
    expect(one[0].record.iso6346).toBe(latest[0]!.device);
    expect((await c.get("/api/latest?limit=0")).status).toBe(400);

    const stats = JSON.parse((await c.get("/api/stats")).body);
    const db = w.buffer.db;
    const records = db.prepare("SELECT count(*) FROM records").pluck().get() as number;
    const ratio = db.prepare("SELECT avg(CAST(json_size AS REAL) / size) FROM records").pluck().get() as number;
    const devices = db.prepare("SELECT count(DISTINCT device) FROM records").pluck().get() as number;
    const dead = db.prepare("SELECT count(*) FROM dead_letters").pluck().get() as number;
    expect(stats).toMatchObject({
      records,
      uniqueDevices: devices,
      deadLetters: dead,
      backlog: records,
      forwarded: 0,
      duplicates: 1,
    });
    expect(stats.meanCompressionRatio).toBeCloseTo(ratio, 9);
    expect(stats.successRate).toBeCloseTo((records + 1) / (records + 1 + stats.rejected), 9);
    expect(stats.rejected).toBeGreaterThanOrEqual(dead + 10);
    const health = await c.get("/health");
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: "ok", worker: 0, forwardingTo: null });
    expect(health.headers["x-satpayload-instance"]).toBe("decoder/w0");
  });

  it("streams ingested records and stats ticks as Server-Sent Events", async () => {
    const events: { event: string; data: unknown }[] = [];
    const req = http.get(`http://127.0.0.1:${w.port}/api/events`);
    const res = await new Promise<http.IncomingMessage>((resolve) => req.on("response", resolve));
    expect(res.headers["content-type"]).toMatch(/text\/event-stream/);
    let buf = "";
    res.on("data", (chunk: Buffer) => {
      buf += chunk.toString("utf8");
      let i: number;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const frame = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const ev = /^event: (.+)$/m.exec(frame)?.[1];
        const data = /^data: (.+)$/m.exec(frame)?.[1];
        if (ev && data) events.push({ event: ev, data: JSON.parse(data) });
      }
    });
    try {
      await new Promise((r) => setTimeout(r, 300));
      const [bytes] = encodedSamples("msgpack", 1, 99);
      expect(
        (await c.post("/ingest", bytes!, headersFor("msgpack", { "x-satpayload-message-id": "sse-1" }))).status,
      ).toBe(201);
      const until = Date.now() + 10_000;
      while (
        Date.now() < until &&
        !(events.some((e) => e.event === "ingested") && events.filter((e) => e.event === "stats").length >= 2)
      )
        await new Promise((r) => setTimeout(r, 50));
      const ingested = events.find((e) => e.event === "ingested")!.data as {
        count: number;
        records: { messageId: string; record: unknown }[];
      };
      expect(ingested.count).toBe(1);
      expect(ingested.records[0]!.messageId).toBe("sse-1");
      expect(ingested.records[0]!.record).toEqual(
        toPlain(paperLayout, codecFor(paperLayout, "msgpack").decode(bytes!), "json"),
      );
      const stats = events.filter((e) => e.event === "stats").at(-1)!.data as {
        records: number;
        recordsPerSecond: number;
      };
      expect(stats.records).toBe(w.buffer.counters().accepted);
    } finally {
      req.destroy();
    }
  });
});
