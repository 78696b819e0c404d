// --embedded-cse: the decoder and the embedded CSE in one process, a record and its contentInstance
// in one transaction. Checked from outside (the CSE's own HTTP port, the SQLite file read after the
// process is gone) and, for the rollback cases, on the library with injected failures.
import { statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { parseLayout, presetById } from "#codecs";
import { client, encodedSamples, m2mGet, m2mWrite, spawnDecoder, tempDir, waitFor } from "./support.ts";
import { leanClient } from "../../shared/leanHttp.ts";
import { RecordBuffer, type BatchItem } from "../src/buffer/buffer.ts";
import { bufferFileName } from "../src/buffer/schema.ts";
import type { CseTarget } from "../src/config.ts";
import { Checkpointer } from "../src/embedded/checkpointer.ts";
import { InProcessCse } from "../src/embedded/inProcessCse.ts";
import { InProcessWriter } from "../src/embedded/inProcessWriter.ts";
import { deliverLeftovers } from "../src/embedded/leftovers.ts";
import { messageIdOf } from "../src/names.ts";

const tracker = parseLayout(presetById("kineis-tracker")!.layout);
const payloads = encodedSamples("bitpacked", 50, 3, tracker);
const headers = (id: string, device: string) => ({
  "content-type": "application/octet-stream",
  "x-satpayload-format": "bitpacked",
  "x-satpayload-layout": "kineis-tracker",
  "x-satpayload-message-id": id,
  "x-satpayload-device": device,
});
const args = (dataDir: string, extra: string[] = []) => [
  "--data-dir",
  dataDir,
  "--preset",
  "kineis-tracker",
  "--embedded-cse",
  "--cse-port",
  "0",
  ...extra,
];

const m2mPut = async (base: string, p: string, body: unknown) => (await m2mWrite(base, "PUT", p, body)).status;

/** message id → cin name, for records and for instances, read from the file itself */
function recordsAndInstances(file: string): { records: Map<string, string>; instances: Map<string, string> } {
  const db = new Database(file, { readonly: true });
  try {
    const records = new Map(
      (
        db.prepare("SELECT message_id, coalesce(rn, message_id) AS rn FROM records").all() as {
          message_id: string;
          rn: string;
        }[]
      ).map((r) => [r.message_id, r.rn]),
    );
    const rows = db.prepare("SELECT path, attrs FROM resource WHERE ty = 4").all() as { path: string; attrs: string }[];
    const instances = new Map(
      rows.map((r) => {
        const rn = r.path.split("/").at(-1)!;
        return [messageIdOf(rn, (JSON.parse(r.attrs) as { lbl?: string[] }).lbl), rn];
      }),
    );
    expect(instances.size).toBe(rows.length);
    return { records, instances };
  } finally {
    db.close();
  }
}

describe("decoder --embedded-cse", () => {
  it(
    "on start, its writer thread delivers what a forwarding run left pending before the decoder listens, and says so in the decoder's log",
    { timeout: 60_000 },
    async () => {
      const dir = tempDir();
      const old = new RecordBuffer(path.join(dir, bufferFileName(0)));
      old.write(
        ["p1", "p2", "p3"].map((id): BatchItem => ({
          kind: "record",
          record: {
            messageId: id,
            receivedAt: Date.now(),
            layout: "kineis-tracker",
            format: "bitpacked",
            device: "left",
            size: 10,
            jsonSize: 20,
            con: JSON.stringify({ id }),
          },
        })),
      );
      expect(old.pending(10)).toHaveLength(3);
      old.close();
      const d = await spawnDecoder(args(dir));
      // the thread's log line reaches the decoder's own log (stderr: its own pipe, so it may trail the listening line)
      await waitFor(
        "the leftovers' log line",
        () => d.stderr.some((l) => l.includes("delivered 3 record(s) an earlier run had left pending")) || undefined,
        10_000,
      );
      const cse = String(d.listening.cseBaseUrl);
      const cnt = await m2mGet(cse, "decoder/left");
      expect((cnt.json as { "m2m:cnt": { cni: number } })["m2m:cnt"].cni).toBe(3);
      const stats = JSON.parse((await client(d.url).get("/api/stats")).body) as { forwarded: number; backlog: number };
      expect(stats).toMatchObject({ forwarded: 3, backlog: 0 });
      // what arrives next is acknowledged with its instance, in the same container
      expect((await client(d.url).post("/ingest", payloads[0]!, headers("n-1", "left"))).status).toBe(201);
      const after = await m2mGet(cse, "decoder/left");
      expect((after.json as { "m2m:cnt": { cni: number } })["m2m:cnt"].cni).toBe(4);
      await d.stop();
    },
  );

  it(
    "acknowledges a record only with its contentInstance in place, in order, and notifies subscribers",
    { timeout: 60_000 },
    async () => {
      const received: unknown[] = [];
      const hook = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
          res.writeHead(200).end();
        });
      });
      await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
      try {
        const d = await spawnDecoder(args(tempDir()));
        const cse = String(d.listening.cseBaseUrl);
        const c = client(d.url);
        // the first record creates the container; a subscriber then hears about every later one
        expect((await c.post("/ingest", payloads[0]!, headers("a-0", "dev-a"))).status).toBe(201);
        const sub = await fetch(`${cse}/decoder/dev-a`, {
          method: "POST",
          headers: {
            "X-M2M-RI": "s",
            "X-M2M-Origin": "Csubscriber",
            "X-M2M-RVI": "3",
            "Content-Type": "application/json;ty=23",
            Accept: "application/json",
          },
          body: JSON.stringify({
            "m2m:sub": { rn: "watch", nu: [`http://127.0.0.1:${(hook.address() as AddressInfo).port}/n`], nct: 1 },
          }),
        });
        expect(sub.status).toBe(201);
        for (let i = 1; i < 20; i++) {
          const r = await c.post("/ingest", payloads[i]!, headers(`a-${i}`, "dev-a"));
          expect(r.status).toBe(201);
          // acknowledged = already in the CSE: no forwarding delay to wait for
          const la = (await m2mGet(cse, "decoder/dev-a/la")).json as { "m2m:cin": { rn: string; lbl?: string[] } };
          expect(messageIdOf(la["m2m:cin"].rn, la["m2m:cin"].lbl)).toBe(`a-${i}`);
        }
        const cnt = await m2mGet(cse, "decoder/dev-a");
        expect((cnt.json as { "m2m:cnt": { cni: number } })["m2m:cnt"].cni).toBe(20);
        // names sort as the records arrived (Mobius picks la by name): a ULID each, the id in a label
        const cins = (
          (await m2mGet(cse, "decoder/dev-a?rcn=4")).json as {
            "m2m:cnt": { "m2m:cin": { rn: string; lbl?: string[] }[] };
          }
        )["m2m:cnt"]["m2m:cin"];
        expect(cins.every((c) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(c.rn))).toBe(true);
        const byName = [...cins].sort((a, b) => (a.rn < b.rn ? -1 : 1)).map((c) => messageIdOf(c.rn, c.lbl));
        expect(byName).toEqual(Array.from({ length: 20 }, (_, i) => `a-${i}`));
        // a resend of a stored message is a duplicate: no second instance
        expect((await c.post("/ingest", payloads[3]!, headers("a-3", "dev-a"))).status).toBe(200);
        const stats = JSON.parse((await c.get("/api/stats")).body) as {
          records: number;
          forwarded: number;
          backlog: number;
          duplicates: number;
        };
        expect(stats).toMatchObject({ records: 20, forwarded: 20, backlog: 0, duplicates: 1 });
        await waitFor("19 notifications", () => received.length >= 19 || undefined, 20_000);
        const reps = received.map(
          (n) =>
            (n as { "m2m:sgn": { nev: { rep: { "m2m:cin": { rn: string; lbl?: string[] } } } } })["m2m:sgn"].nev.rep[
              "m2m:cin"
            ],
        );
        expect(reps.map((c) => messageIdOf(c.rn, c.lbl))).toEqual(Array.from({ length: 19 }, (_, i) => `a-${i + 1}`));
        await d.stop();
      } finally {
        hook.close();
      }
    },
  );

  it(
    "answers 503 and stores nothing when the CSE refuses the contentInstance; the resend lands once it accepts",
    { timeout: 60_000 },
    async () => {
      const dataDir = tempDir();
      const d = await spawnDecoder(args(dataDir));
      const cse = String(d.listening.cseBaseUrl);
      const c = client(d.url);
      expect((await c.post("/ingest", payloads[0]!, headers("b-0", "dev-b"))).status).toBe(201);
      // the container now holds nothing as large as a record: the CSE refuses (5207 not acceptable)
      expect(await m2mPut(cse, "decoder/dev-b", { "m2m:cnt": { mbs: 4 } })).toBe(200);
      const refused = await c.post("/ingest", payloads[1]!, headers("b-1", "dev-b"));
      expect(refused.status).toBe(503);
      expect(refused.body).toMatch(/the CSE refused b-1/);
      // the other devices' records in the same moments are not held up by it
      expect((await c.post("/ingest", payloads[2]!, headers("c-0", "dev-c"))).status).toBe(201);
      let stats = JSON.parse((await c.get("/api/stats")).body) as { records: number; backlog: number };
      expect(stats).toMatchObject({ records: 2, backlog: 0 });
      expect(await m2mPut(cse, "decoder/dev-b", { "m2m:cnt": { mbs: 100_000 } })).toBe(200);
      expect((await c.post("/ingest", payloads[1]!, headers("b-1", "dev-b"))).status).toBe(201);
      stats = JSON.parse((await c.get("/api/stats")).body) as { records: number; backlog: number };
      expect(stats).toMatchObject({ records: 3, backlog: 0 });
      await d.stop();
      const { records, instances } = recordsAndInstances(path.join(dataDir, bufferFileName(0)));
      expect([...records.keys()].sort()).toEqual(["b-0", "b-1", "c-0"]);
      // b-0's instance went when mbs shrank (the CSE trims a container to its new limits): the CSE's
      // doing, not a lost record; b-1 is there once, after its refused first try
      expect([...instances.keys()].sort()).toEqual(["b-1", "c-0"]);
    },
  );

  it(
    "keeps left-over records the CSE refuses as refused, and delivers them in-process once retried after the fix",
    { timeout: 90_000 },
    async () => {
      const dataDir = tempDir();
      let d = await spawnDecoder(args(dataDir));
      let c = client(d.url);
      expect((await c.post("/ingest", payloads[0]!, headers("t-0", "dev-t"))).status).toBe(201);
      // the container is made too small for any record
      expect(await m2mPut(String(d.listening.cseBaseUrl), "decoder/dev-t", { "m2m:cnt": { mbs: 4 } })).toBe(200);
      await d.stop();
      // records a forwarding run left pending for that container
      const b = new RecordBuffer(path.join(dataDir, bufferFileName(0)));
      b.write(
        [1, 2].map((i) => ({
          kind: "record" as const,
          record: {
            messageId: `t-${i}`,
            receivedAt: Date.now(),
            layout: "kineis-tracker",
            format: "bitpacked",
            device: "dev-t",
            size: 19,
            jsonSize: 60,
            con: JSON.stringify({ left: i }),
          },
        })),
      );
      b.close();
      d = await spawnDecoder(args(dataDir));
      c = client(d.url);
      const cse = String(d.listening.cseBaseUrl);
      let stats = JSON.parse((await c.get("/api/stats")).body) as Record<string, unknown>;
      expect(stats).toMatchObject({ records: 3, delivered: 1, pending: 0, refused: 2 });
      const listed = JSON.parse((await c.get("/api/refused")).body) as {
        refused: { messageId: string; refusal: { status: number; rsc: number } }[];
      };
      expect(listed.refused.map((r) => [r.messageId, r.refusal.status, r.refusal.rsc]).sort()).toEqual([
        ["t-1", 406, 5207],
        ["t-2", 406, 5207],
      ]);
      // new records of that device are refused at ingest (503, not stored), others flow
      expect((await c.post("/ingest", payloads[1]!, headers("u-0", "dev-u"))).status).toBe(201);
      expect(await m2mPut(cse, "decoder/dev-t", { "m2m:cnt": { mbs: 100_000 } })).toBe(200);
      const retried = await c.post("/api/refused/retry", JSON.stringify({ container: "dev-t" }), {
        "content-type": "application/json",
      });
      expect(JSON.parse(retried.body)).toEqual({ retried: 2 });
      // delivered inside the retry: no forwarder runs for an in-process buffer
      stats = JSON.parse((await c.get("/api/stats")).body) as Record<string, unknown>;
      expect(stats).toMatchObject({ records: 4, delivered: 4, pending: 0, refused: 0 });
      const cnt = (await m2mGet(cse, "decoder/dev-t")).json as { "m2m:cnt": { cni: number } };
      expect(cnt["m2m:cnt"].cni).toBe(2);
      await d.stop();
    },
  );

  it(
    "never leaves a record without its contentInstance or one without its record across SIGKILLs under load",
    { timeout: 120_000 },
    async () => {
      const dataDir = tempDir();
      let d = await spawnDecoder(args(dataDir));
      const port = new URL(d.url).port;
      const acked = new Set<string>();
      for (let round = 0; round < 3; round++) {
        const c = leanClient(d.url, 32);
        let n = 0;
        let stop = false;
        const senders = Array.from({ length: 32 }, async (_, s) => {
          while (!stop) {
            const id = `k${round}-${s}-${n++}`;
            try {
              const r = await c.post("/ingest", payloads[n % payloads.length]!, headers(id, `dev-${n % 7}`));
              if (r.status === 201) acked.add(id);
            } catch {
              return;
            }
          }
        });
        const before = acked.size;
        await waitFor("acks in this round", () => acked.size >= before + 300 || undefined, 60_000, 5);
        await d.kill();
        stop = true;
        await Promise.all(senders);
        c.close();
        d = await spawnDecoder([...args(dataDir), "--port", port]);
      }
      await d.stop();
      const { records, instances } = recordsAndInstances(path.join(dataDir, bufferFileName(0)));
      for (const id of acked) expect(records.has(id), `acknowledged ${id} is stored`).toBe(true);
      expect([...instances.entries()].sort()).toEqual([...records.entries()].sort());
      const db = new Database(path.join(dataDir, bufferFileName(0)), { readonly: true });
      expect(db.prepare("SELECT count(*) FROM records WHERE forwarded_at IS NULL").pluck().get()).toBe(0);
      db.close();
    },
  );
});

describe("in-process commit (library)", () => {
  const target: CseTarget = {
    url: "http://127.0.0.1:0/Mobius",
    origin: "Cdecoder",
    rvi: "3",
    ae: "decoder",
    containerMode: "device",
    container: "up",
    mni: undefined,
    mbs: undefined,
  };
  const record = (id: string, device: string): BatchItem => ({
    kind: "record",
    record: {
      messageId: id,
      receivedAt: Date.now(),
      layout: "l",
      format: "json",
      device,
      size: 10,
      jsonSize: 20,
      con: JSON.stringify({ id }),
    },
  });

  /** the buffer at `file` (a new one by default) with the in-process CSE on its connection */
  async function open(file = path.join(tempDir(), bufferFileName(0))) {
    const buffer = new RecordBuffer(file);
    const cse = await InProcessCse.start(
      buffer.db,
      { host: "127.0.0.1", port: 0, profile: undefined, verifySubscriptions: false },
      target,
      () => {},
    );
    const instances = () => buffer.db.prepare("SELECT count(*) FROM resource WHERE ty = 4").pluck().get() as number;
    return { buffer, cse, instances, close: async () => (await cse.close(), buffer.close()) };
  }

  it("rolls the whole batch back, records and instances, when anything but a refusal fails inside it", async () => {
    const { buffer, cse, instances, close } = await open();
    const items = [record("m1", "x"), record("m2", "y"), record("m3", "x")];
    await cse.prepare(["x", "y"]);
    const failing = {
      deliver: (r: Parameters<InProcessCse["deliver"]>[0]) => {
        if (r.messageId === "m3") throw new Error("disk I/O error (injected)");
        cse.deliver(r);
      },
      refused: (e: unknown): e is Error => cse.refused(e),
      leftover: (e: unknown) => cse.leftover(e),
    };
    expect(() => buffer.writeDelivered(items, failing)).toThrow(/injected/);
    cse.settle(false);
    expect(buffer.counters().accepted).toBe(0);
    expect(buffer.messageIds()).toEqual([]);
    expect(instances()).toBe(0);
    // the same batch, nothing injected: all of it, once
    const writer = new InProcessWriter(buffer, cse, true);
    const results = await writer.write(items);
    expect(results.every((r) => r !== undefined && !(r instanceof Error))).toBe(true);
    expect(buffer.messageIds()).toEqual(["m1", "m2", "m3"]);
    expect(instances()).toBe(3);
    expect(buffer.counters().forwarded).toBe(3);
    await close();
  });

  it("undoes a batch message whole, every reading with its instance, when the CSE refuses one reading", async () => {
    const { buffer, cse, instances, close } = await open();
    await cse.prepare(["x"]);
    class Refused extends Error {}
    const refusing = {
      deliver: (r: Parameters<InProcessCse["deliver"]>[0]) => {
        if (r.messageId === "b~1") throw new Refused("refused (injected)");
        cse.deliver(r);
      },
      refused: (e: unknown): e is Error => e instanceof Refused || cse.refused(e),
      leftover: (e: unknown) => cse.leftover(e),
      savepoint: () => cse.savepoint(),
    };
    const readings: BatchItem = {
      kind: "readings",
      records: ["b~0", "b~1", "b~2"].map((id) => (record(id, "x") as Extract<BatchItem, { kind: "record" }>).record),
    };
    const results = buffer.writeDelivered([record("m1", "x"), readings, record("m2", "x")], refusing);
    cse.settle(true);
    expect(results[1]).toBeInstanceOf(Refused);
    // the other senders' records went in; of the message, not even the reading before the refused one
    expect(buffer.messageIds()).toEqual(["m1", "m2"]);
    expect(instances()).toBe(2);
    expect(buffer.counters()).toMatchObject({ accepted: 2, forwarded: 2 });
    // sent again (nothing refused now): the whole message, then a resend stores nothing
    const writer = new InProcessWriter(buffer, cse, true);
    expect((await writer.write([readings]))[0]).toMatchObject({ duplicate: false, stored: 3 });
    expect((await writer.write([readings]))[0]).toMatchObject({ duplicate: true, stored: 0 });
    expect(buffer.messageIds()).toEqual(["m1", "m2", "b~0", "b~1", "b~2"]);
    expect(instances()).toBe(5);
    await close();
  });

  it("undoes a refused record alone, its record with its instance, and keeps the rest of the batch", async () => {
    const { buffer, cse, instances, close } = await open();
    const writer = new InProcessWriter(buffer, cse, true);
    await writer.write([record("r0", "small")]);
    // mni=0: the container takes no instances at all
    const put = await fetch(`${cse.target.url}/decoder/small`, {
      method: "PUT",
      headers: {
        "X-M2M-RI": "u",
        "X-M2M-Origin": "Sponde",
        "X-M2M-RVI": "3",
        "Content-Type": "application/json",
        Accept: "application/json",
      },
      body: JSON.stringify({ "m2m:cnt": { mni: 0 } }),
    });
    expect(put.status).toBe(200);
    const before = instances();
    const results = await writer.write([record("r1", "big"), record("r2", "small"), record("r3", "big")]);
    expect(results[1]).toBeInstanceOf(Error);
    expect((results[1] as Error).message).toMatch(/refused r2/);
    expect(results[0]).toMatchObject({ duplicate: false });
    expect(results[2]).toMatchObject({ duplicate: false });
    expect(buffer.messageIds()).toEqual(["r0", "r1", "r3"]);
    expect(instances()).toBe(before + 2);
    expect(buffer.pending(10)).toEqual([]);
    await close();
  });

  it("checkpoints the WAL into the database file from its own thread, the committing connection never doing it", async () => {
    const file = path.join(tempDir(), bufferFileName(0));
    const buffer = new RecordBuffer(file, { synchronous: "normal" });
    const checkpointer = new Checkpointer(buffer.db, { everyMs: 20, nativeBinding: undefined, log: () => {} });
    await checkpointer.ready;
    expect(buffer.db.pragma("wal_autocheckpoint", { simple: true })).toBe(0);
    const before = statSync(file).size;
    for (let b = 0; b < 20; b++)
      buffer.write(Array.from({ length: 100 }, (_, i) => record(`c${b}-${i}`, `d${i % 10}`)));
    // only the checkpointer copies pages into the main file: it grows once it has run
    await waitFor(
      "the database file to hold the checkpointed pages",
      () => statSync(file).size > before + 64 * 1024 || undefined,
      20_000,
      20,
    );
    await checkpointer.close();
    buffer.close();
  });

  it("delivers what a forwarding run left pending before anything new, and counts an instance already there as delivered once it reads back as ours", async () => {
    const file = path.join(tempDir(), bufferFileName(0));
    const old = new RecordBuffer(file);
    old.write([record("p1", "x"), record("p2", "x"), record("p3", "z")]);
    old.close();
    const { buffer, cse } = await open(file);
    // p1 reached the CSE but its mark did not (the forwarder was killed in between)
    await cse.prepare(["x"]);
    buffer.db.transaction(() =>
      cse.deliver({ seq: 1, messageId: "p1", rn: null, device: "x", con: JSON.stringify({ id: "p1" }) }),
    )();
    cse.settle(true);
    expect(await deliverLeftovers(buffer, cse, () => {})).toBe(3);
    expect(buffer.pending(10)).toEqual([]);
    expect(buffer.db.prepare("SELECT count(*) FROM resource WHERE ty = 4").pluck().get()).toBe(3);
    // p1's taken name was read back: our content, so delivered without a second instance
    expect(buffer.counters()).toMatchObject({ conflicts_verified: 1, repairs: 0, forwarded: 3, refused: 0 });
    await cse.close();
    buffer.close();
  });

  it("sets left-over records the CSE refuses for good aside as refused, and repairs one whose name holds other content", async () => {
    const file = path.join(tempDir(), bufferFileName(0));
    const old = new RecordBuffer(file);
    old.write([record("p1", "shut"), record("p2", "shut"), record("q1", "open"), record("q2", "open")]);
    old.close();
    const { buffer, cse } = await open(file);
    await cse.prepare(["shut", "open"]);
    // "shut" takes no instance at all (mni 0: 406/5207); q1's name already holds someone else's instance
    expect(await m2mPut(cse.target.url, "decoder/shut", { "m2m:cnt": { mni: 0 } })).toBe(200);
    const q1 = buffer.pending(10).find((r) => r.messageId === "q1")!;
    const other = await m2mWrite(
      cse.target.url,
      "POST",
      "decoder/open",
      { "m2m:cin": { rn: q1.rn ?? q1.messageId, con: "not q1" } },
      "Cother",
      4,
    );
    expect(other.status).toBe(201);
    const logged: string[] = [];
    expect(await deliverLeftovers(buffer, cse, (m) => logged.push(m))).toBe(2);
    expect(buffer.pendingCount()).toBe(0);
    expect(buffer.counters()).toMatchObject({ forwarded: 2, refused: 2, repairs: 1 });
    const refused = buffer.refused(10);
    expect(refused.map((r) => r.messageId).sort()).toEqual(["p1", "p2"]);
    expect(refused[0]!.refusal).toMatchObject({ status: 406, rsc: 5207, container: "shut" });
    expect(logged.join("\n")).toMatch(/answered 409 \(exists\) but holds other content/);
    // q1 went in under the next name, labelled with its id; the stranger's instance is untouched
    expect(buffer.db.prepare("SELECT rn FROM records WHERE message_id = 'q1'").pluck().get()).toBe(
      `${q1.messageId}.r1`,
    );
    await cse.close();
    buffer.close();
  });
});
