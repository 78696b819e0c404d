// The forwarder against a CSE that misbehaves the ways a real Mobius did (issue 22), through a
// fault proxy in front of the real embedded CSE: one container that keeps failing must not hold up
// the others (fairness, counted in requests, not timed); a record the CSE refuses for good waits in
// the refused state with the CSE's answer until a retry; a 409 counts as delivered only once the
// instance reads back as ours; and the counters add up: records = delivered + pending + refused.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseLayout, presetById } from "#codecs";
import { observingProxy, type FakeAnswer, type Intercepted } from "./proxy.ts";
import { client, embeddedCse, encodedSamples, instanceIds, m2mGet, m2mWrite, tempDir, waitFor } from "./support.ts";
import { prepareDecoderAe, testWorkers } from "./workers.ts";
import type { RunningCse } from "../../cse/src/server.ts";
import { RecordBuffer } from "../src/buffer/buffer.ts";
import { bufferFileName } from "../src/buffer/schema.ts";
import type { RunningWorker } from "../src/worker.ts";

const tracker = parseLayout(presetById("kineis-tracker")!.layout);
const bodies = encodedSamples("bitpacked", 64, 7, tracker);
const { start: worker, restartWithLostMarks } = testWorkers("kineis-tracker");

/** stores one record of `device` under message id `id` (the tracker layout has no device field) */
async function send(w: RunningWorker, id: string, device: string, i = 0): Promise<void> {
  const c = client(`http://127.0.0.1:${w.port}`);
  const r = await c.post("/ingest", bodies[i % bodies.length]!, {
    "content-type": "application/octet-stream",
    "x-satpayload-format": "bitpacked",
    "x-satpayload-layout": "kineis-tracker",
    "x-satpayload-message-id": id,
    "x-satpayload-device": device,
  });
  c.close();
  expect(r.status, r.body).toBe(201);
}

const api = async <T>(w: RunningWorker, p: string, body?: unknown): Promise<T> => {
  const c = client(`http://127.0.0.1:${w.port}`);
  const r =
    body === undefined ? await c.get(p) : await c.post(p, JSON.stringify(body), { "content-type": "application/json" });
  c.close();
  expect(r.status, r.body).toBe(200);
  return JSON.parse(r.body) as T;
};

interface Stats {
  records: number;
  delivered: number;
  pending: number;
  refused: number;
  repairs: number;
  conflictsVerified: number;
  forwardFailures: number;
  containers: { container: string; refused: number; failing: { attempt: number; lastError: string } | null }[];
}

/** records = delivered + pending + refused, each the count of its rows in the buffer */
function expectCountersAddUp(w: RunningWorker, s: Stats): void {
  const rows = w.buffer.db
    .prepare(
      `SELECT count(*) AS records,
              count(forwarded_at) AS delivered,
              count(refused_at) AS refused,
              sum(forwarded_at IS NULL AND refused_at IS NULL) AS pending
         FROM records`,
    )
    .get() as { records: number; delivered: number; refused: number; pending: number };
  expect({ records: s.records, delivered: s.delivered, pending: s.pending, refused: s.refused }).toEqual(rows);
  expect(s.records).toBe(s.delivered + s.pending + s.refused);
}

/** the embedded CSE behind an observing fault proxy, for the time of `run` */
async function throughProxy(
  run: (cse: RunningCse, proxy: Awaited<ReturnType<typeof observingProxy>>) => Promise<void>,
): Promise<void> {
  const cse = await embeddedCse();
  const proxy = await observingProxy(cse.url);
  try {
    await run(cse, proxy);
  } finally {
    await proxy.close();
  }
}

const POST_TO = (container: string) => (r: Intercepted) =>
  r.method === "POST" && r.path.endsWith(`/decoder/${container}`);

describe("forwarding through CSE faults", () => {
  it(
    "one container that keeps failing backs off alone: every other container is forwarded within one round of turns, and its own records keep their order",
    { timeout: 120_000 },
    async () => {
      await throughProxy(async (cse, proxy) => {
        const stuck: FakeAnswer = { status: 500, rsc: 5000, dbg: "simulated: this container's table is locked" };
        proxy.setFault((r) => (POST_TO("stuck")(r) ? stuck : undefined));
        // one lane at a time: the hardest case for fairness
        const w = await worker(tempDir(), `${proxy.url}/${cse.base}`, ["--forward-concurrency", "1"]);
        // the failing container's records are the oldest: the old forwarder always read them first
        for (let i = 0; i < 40; i++) await send(w, `stuck-${i}`, "stuck", i);
        for (let d = 0; d < 20; d++) await send(w, `ok-${d}`, `ok-${d}`, d);
        const attemptsAtStuck = () => proxy.seen.filter((s) => s.faked).length;
        const afterIngest = attemptsAtStuck();
        // count-bounded, not timed: either the others arrive or the failing container has been tried 30 more times
        await waitFor(
          "the other 20 containers forwarded, or 30 more attempts at the failing one",
          () => w.buffer.counters().forwarded >= 20 || attemptsAtStuck() - afterIngest >= 30 || undefined,
          60_000,
          10,
        );
        expect(w.buffer.counters().forwarded).toBe(20);
        // round-robin: between two turns of the failing lane every other ready lane has its turn, so
        // it is tried at most twice more (one may be running when the last record is committed)
        expect(attemptsAtStuck() - afterIngest).toBeLessThanOrEqual(3);
        for (let d = 0; d < 20; d++) expect(await instanceIds(cse.cseBaseUrl, `decoder/ok-${d}`)).toEqual([`ok-${d}`]);

        // it backs off alone: no CSE-wide retry, the one container listed with its error
        const st = w.forwarders[0]!.status;
        expect(st.attempt).toBe(0);
        expect(st.failing?.map((f) => f.container)).toEqual(["stuck"]);
        expect(st.failing?.[0]?.lastError).toMatch(/HTTP 500\/RSC 5000: simulated: this container's table is locked/);
        const stats = await api<Stats>(w, "/api/stats");
        expect(stats.containers).toEqual([
          expect.objectContaining({
            container: "stuck",
            refused: 0,
            failing: expect.objectContaining({ attempt: expect.any(Number) }),
          }),
        ]);
        expect(stats.pending).toBe(40);
        expectCountersAddUp(w, stats);

        // new records of healthy containers keep flowing while it fails
        await send(w, "ok-late", "ok-0");
        await waitFor("a new record of a healthy container", () => w.buffer.counters().forwarded >= 21 || undefined);

        // fixed: its records arrive, strictly in their order
        proxy.setFault(undefined);
        await waitFor("the failing container drained", () => w.buffer.pendingCount() === 0 || undefined, 60_000);
        const created = proxy.seen.filter((s) => !s.faked && s.status === 201 && s.path.endsWith("/decoder/stuck"));
        expect(created.map((s) => s.lbl?.[0])).toEqual(Array.from({ length: 40 }, (_, i) => `msgid:stuck-${i}`));
        expect(await instanceIds(cse.cseBaseUrl, "decoder/stuck")).toEqual(
          Array.from({ length: 40 }, (_, i) => `stuck-${i}`),
        );
        await waitFor(
          "the container no longer listed as failing",
          () => w.forwarders[0]!.status.failing?.length === 0 || undefined,
        );
      });
    },
  );

  it(
    "a record the CSE refuses for good waits, refused, with the CSE's answer; its container goes on; a retry after the fix delivers it",
    { timeout: 120_000 },
    async () => {
      await throughProxy(async (cse, proxy) => {
        // a container too small for any record: the real CSE refuses each one 406/5207 (larger than mbs)
        await prepareDecoderAe(cse.cseBaseUrl, { tiny: { mbs: 10 } });
        // and one record in the middle of a container refused 400/4000 (a schema check, say)
        proxy.setFault((r) =>
          r.method === "POST" && r.lbl?.includes("msgid:mid-2")
            ? { status: 400, rsc: 4000, dbg: "simulated: con does not match the container's schema" }
            : undefined,
        );
        const w = await worker(tempDir(), `${proxy.url}/${cse.base}`);
        await send(w, "tiny-0", "tiny", 0);
        await send(w, "tiny-1", "tiny", 1);
        for (let i = 0; i < 5; i++) await send(w, `mid-${i}`, "mid", i);
        await send(w, "ok-0", "ok", 0);
        let stats = await waitFor("nothing pending", async () => {
          const s = await api<Stats>(w, "/api/stats");
          return s.pending === 0 ? s : undefined;
        });
        expect(stats).toMatchObject({ records: 8, delivered: 5, pending: 0, refused: 3, forwardFailures: 0 });
        expectCountersAddUp(w, stats);
        // the refused records are listed with the CSE's own answers
        const listed = await api<{
          refused: {
            messageId: string;
            refusal: { status: number; rsc: number; reason: string; container: string; rn: string };
          }[];
        }>(w, "/api/refused");
        const byId = new Map(listed.refused.map((r) => [r.messageId, r.refusal]));
        expect([...byId.keys()].sort()).toEqual(["mid-2", "tiny-0", "tiny-1"]);
        expect(byId.get("tiny-0")).toMatchObject({ status: 406, rsc: 5207, container: "tiny" });
        expect(byId.get("tiny-0")!.reason).toMatch(/mbs|larger/i);
        expect(byId.get("mid-2")).toMatchObject({
          status: 400,
          rsc: 4000,
          container: "mid",
          reason: "simulated: con does not match the container's schema",
        });
        expect(byId.get("mid-2")!.rn).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
        expect(stats.containers.map((c) => [c.container, c.refused])).toEqual([
          ["tiny", 2],
          ["mid", 1],
        ]);
        // the container went on past its refused record, in order
        expect(await instanceIds(cse.cseBaseUrl, "decoder/mid")).toEqual(["mid-0", "mid-1", "mid-3", "mid-4"]);
        expect(await instanceIds(cse.cseBaseUrl, "decoder/ok")).toEqual(["ok-0"]);
        // never dropped: they wait however long nobody retries them
        expect(w.buffer.pendingCount()).toBe(0);

        // the user widens the container and lifts the check, then retries one container, then the rest
        expect(
          (await m2mWrite(cse.cseBaseUrl, "PUT", "decoder/tiny", { "m2m:cnt": { mbs: 1_000_000 } }, "Cdecoder")).status,
        ).toBe(200);
        proxy.setFault(undefined);
        expect(await api<{ retried: number }>(w, "/api/refused/retry", { container: "tiny" })).toEqual({ retried: 2 });
        await waitFor("tiny delivered", () => w.buffer.counters().forwarded >= 7 || undefined);
        expect(await instanceIds(cse.cseBaseUrl, "decoder/tiny")).toEqual(["tiny-0", "tiny-1"]);
        expect((await api<Stats>(w, "/api/stats")).refused).toBe(1);
        expect(await api<{ retried: number }>(w, "/api/refused/retry", {})).toEqual({ retried: 1 });
        stats = await waitFor("everything delivered", async () => {
          const s = await api<Stats>(w, "/api/stats");
          return s.delivered === 8 ? s : undefined;
        });
        expect(stats).toMatchObject({ records: 8, delivered: 8, pending: 0, refused: 0, containers: [] });
        expectCountersAddUp(w, stats);
        // delivered late, but its name (the ULID of its arrival) puts it in its place for Mobius' la/ol
        expect(await instanceIds(cse.cseBaseUrl, "decoder/mid")).toEqual(["mid-0", "mid-1", "mid-2", "mid-3", "mid-4"]);
        // a retry of nothing is no error, a malformed one is refused with its reason
        expect(await api<{ retried: number }>(w, "/api/refused/retry", {})).toEqual({ retried: 0 });
        const bad = await client(`http://127.0.0.1:${w.port}`).post("/api/refused/retry", JSON.stringify({ seq: 3 }), {
          "content-type": "application/json",
        });
        expect(bad.status).toBe(400);
        expect(JSON.parse(bad.body).reason).toMatch(/seq and buffer go together/);
      });
    },
  );

  /**
   * A container under steady load: every instance the CSE is sent for it brings one more record of
   * it (its lane never runs dry, so the forwarder never forgets it). Its first record was refused;
   * once the cause is gone, `retry` puts it back to pending. Count-bound, not timed: the retried
   * record must reach the CSE before 300 more load records have.
   */
  async function retriedUnderLoad(retry: (w: RunningWorker, dataDir: string) => Promise<void>): Promise<void> {
    const dataDir = tempDir();
    await throughProxy(async (cse, proxy) => {
      let refusing = true;
      let loading = false;
      let load = 0;
      let limit = Infinity;
      const sends: Promise<void>[] = [];
      let w: RunningWorker | undefined;
      proxy.setFault((r) => {
        if (!POST_TO("hot")(r) || r.rn === undefined) return undefined;
        if (refusing && r.lbl?.includes("msgid:first"))
          return { status: 400, rsc: 4000, dbg: "simulated: con does not match the container's schema" };
        if (loading && load < limit) sends.push(send(w!, `load-${load}`, "hot", load++));
        return undefined;
      });
      w = await worker(dataDir, `${proxy.url}/${cse.base}`);
      const forwardedAt = (id: string) =>
        w!.buffer.db.prepare("SELECT forwarded_at FROM records WHERE message_id = ?").pluck().get(id) as number | null;
      await send(w, "first", "hot");
      await waitFor("the first record refused", () => w!.buffer.counters().refused === 1 || undefined);
      refusing = false;
      loading = true;
      for (let i = 0; i < 20; i++) await send(w, `backlog-${i}`, "hot", i);
      await waitFor("the load running", () => load >= 40 || undefined);
      await retry(w, dataDir);
      limit = load + 300;
      const outcome = await waitFor("the retried record delivered, or 300 more load records", () =>
        forwardedAt("first") !== null
          ? "delivered"
          : load >= limit
            ? "still pending after 300 load records"
            : undefined,
      );
      loading = false;
      await Promise.all(sends);
      expect(outcome).toBe("delivered");
      const stats = await waitFor("nothing pending", async () => {
        const s = await api<Stats>(w!, "/api/stats");
        return s.pending === 0 ? s : undefined;
      });
      expect(stats).toMatchObject({ refused: 0, delivered: stats.records });
      expectCountersAddUp(w, stats);
      // marks in flight when the lane went back to the retried record were not resent
      expect(stats.conflictsVerified).toBe(0);
      expect((await instanceIds(cse.cseBaseUrl, "decoder/hot")).length).toBe(stats.records);
    });
  }

  it(
    "a record retried while its container's lane is busy under steady load is delivered at the lane's next turn",
    { timeout: 120_000 },
    async () => {
      await retriedUnderLoad(async (w) => {
        expect(await api<{ retried: number }>(w, "/api/refused/retry", {})).toEqual({ retried: 1 });
      });
    },
  );

  it(
    "a record another worker puts back to pending (its own connection to this buffer) is delivered while the container is under steady load",
    { timeout: 120_000 },
    async () => {
      await retriedUnderLoad(async (_w, dataDir) => {
        // what BufferSet.retry does for a buffer another replica writes
        const other = new RecordBuffer(path.join(dataDir, bufferFileName(0)));
        try {
          expect(other.retryRefused({})).toBe(1);
        } finally {
          other.close();
        }
      });
    },
  );

  it(
    "counts a 409 as delivered only once the instance reads back as ours: a name row without its instance and a name holding other content are repaired under the next name",
    { timeout: 120_000 },
    async () => {
      const dataDir = tempDir();
      await throughProxy(async (cse, proxy) => {
        proxy.setMode("refuse");
        const w = await worker(dataDir, `${proxy.url}/${cse.base}`);
        for (let i = 0; i < 5; i++) await send(w, `v-${i}`, "v", i);
        const rn = (id: string) =>
          w.buffer.db
            .prepare("SELECT coalesce(rn, message_id) FROM records WHERE message_id = ?")
            .pluck()
            .get(id) as string;
        const [taken, ghost] = [rn("v-1"), rn("v-3")];
        // another content already sits under v-1's name …
        await prepareDecoderAe(cse.cseBaseUrl, { v: {} });
        const stranger = { rn: taken, cnf: "application/json:0", con: { someone: "else" } };
        expect((await m2mWrite(cse.cseBaseUrl, "POST", "decoder/v", { "m2m:cin": stranger }, "Cother", 4)).status).toBe(
          201,
        );
        // … and for v-3 the CSE answers as a crashed Mobius did: the name exists, the instance does not
        let ghostAnswered = false;
        proxy.setFault((r) => {
          if (r.method !== "POST" || r.rn !== ghost || ghostAnswered) return undefined;
          ghostAnswered = true;
          return { status: 409, rsc: 4105, dbg: "resource is already exist" };
        });
        proxy.setMode("pass");
        await waitFor("all five settled", () => w.buffer.pendingCount() === 0 || undefined, 60_000);
        expect(w.buffer.counters()).toMatchObject({ forwarded: 5, repairs: 2, conflicts_verified: 0, refused: 0 });
        // each 409 was followed by a read of that very name before anything was counted
        const reads = proxy.seen.filter((s) => s.method === "GET").map((s) => s.path.split("/").at(-1));
        expect(reads).toEqual(expect.arrayContaining([taken, ghost]));
        // repaired under the next name, which sorts right after the original: la is still the newest
        expect(rn("v-1")).toBe(`${taken}.r1`);
        expect(rn("v-3")).toBe(`${ghost}.r1`);
        expect(await instanceIds(cse.cseBaseUrl, "decoder/v")).toEqual(["v-0", taken, "v-1", "v-2", "v-3", "v-4"]);
        const la = (await m2mGet(cse.cseBaseUrl, "decoder/v/la")).json as { "m2m:cin": { lbl: string[] } };
        expect(la["m2m:cin"].lbl).toEqual(["msgid:v-4"]);
        const repaired = (await m2mGet(cse.cseBaseUrl, `decoder/v/${ghost}.r1`)).json as {
          "m2m:cin": { con: unknown; lbl: string[] };
        };
        expect(repaired["m2m:cin"].lbl).toEqual(["msgid:v-3"]);
        expect(repaired["m2m:cin"].con).toEqual(
          JSON.parse(w.buffer.db.prepare("SELECT con FROM records WHERE message_id = 'v-3'").pluck().get() as string),
        );
        const stats = await api<Stats>(w, "/api/stats");
        expect(stats).toMatchObject({ delivered: 5, repairs: 2, conflictsVerified: 0 });
        expectCountersAddUp(w, stats);

        // a resend of them all (every mark lost): each 409 now reads back equal — verified, no new instance
        const again = await restartWithLostMarks(w, dataDir, `${proxy.url}/${cse.base}`);
        await waitFor("the resend settled", () => again.buffer.pendingCount() === 0 || undefined, 60_000);
        expect(again.buffer.counters()).toMatchObject({ forwarded: 5, repairs: 2, conflicts_verified: 5 });
        expect(
          ((await m2mGet(cse.cseBaseUrl, "decoder/v")).json as { "m2m:cnt": { cni: number } })["m2m:cnt"].cni,
        ).toBe(6);
      });
    },
  );

  it(
    "a taken name the CSE will not let us read back (disableRetrieval) is refused with its answer, not retried for ever ahead of its container",
    { timeout: 120_000 },
    async () => {
      const dataDir = tempDir();
      await throughProxy(async (cse, proxy) => {
        const w = await worker(dataDir, `${proxy.url}/${cse.base}`);
        await send(w, "d-0", "d", 0);
        await waitFor("d-0 delivered", () => w.buffer.counters().forwarded === 1 || undefined);
        // the container's owner hides its instances: a GET of one is 405/4005 from now on
        const disr = await m2mWrite(cse.cseBaseUrl, "PUT", "decoder/d", { "m2m:cnt": { disr: true } }, "Cdecoder");
        expect(disr.status, JSON.stringify(disr.json)).toBe(200);
        // its mark lost: the resend answers 409 and the read-back is refused
        const again = await restartWithLostMarks(w, dataDir, `${proxy.url}/${cse.base}`);
        await send(again, "d-1", "d", 1);
        const refusedReads = () => proxy.seen.filter((s) => s.method === "GET" && s.status === 405).length;
        const outcome = await waitFor("nothing pending, or 10 refused read-backs", () =>
          again.buffer.pendingCount() === 0
            ? "settled"
            : refusedReads() >= 10
              ? "still retrying the read-back"
              : undefined,
        );
        expect(outcome).toBe("settled");
        const stats = await api<Stats>(again, "/api/stats");
        expect(stats).toMatchObject({ records: 2, delivered: 1, pending: 0, refused: 1, conflictsVerified: 0 });
        expectCountersAddUp(again, stats);
        const [r] = (
          await api<{ refused: { messageId: string; refusal: { status: number; rsc: number; reason: string } }[] }>(
            again,
            "/api/refused",
          )
        ).refused;
        expect(r).toMatchObject({ messageId: "d-0", refusal: { status: 405, rsc: 4005 } });
        expect(r!.refusal.reason).toMatch(/taken/);
        expect(r!.refusal.reason).toMatch(/disableRetrieval/);
        // the container went on: its next record was delivered
        expect(again.buffer.byMessageId("d-1")?.forwardedAt).not.toBeNull();
      });
    },
  );

  it(
    "keeps records = delivered + pending + refused, and the CSE's instances = delivered, through refusals, retries and conflicts",
    { timeout: 120_000 },
    async () => {
      const dataDir = tempDir();
      await throughProxy(async (cse, proxy) => {
        let flaky = 0;
        proxy.setFault((r) => {
          if (POST_TO("bad")(r)) return { status: 403, rsc: 4103, dbg: "simulated: no privilege" };
          if (POST_TO("flaky")(r) && r.rn !== undefined && flaky++ < 4)
            return { status: 500, rsc: 5000, dbg: "[create_action] create resource error" };
          return undefined;
        });
        const w = await worker(dataDir, `${proxy.url}/${cse.base}`);
        for (let i = 0; i < 12; i++) await send(w, `n-${i}`, ["good", "bad", "flaky"][i % 3]!, i);
        let stats = await waitFor("nothing pending", async () => {
          const s = await api<Stats>(w, "/api/stats");
          return s.pending === 0 ? s : undefined;
        });
        expect(stats).toMatchObject({ records: 12, delivered: 8, refused: 4 });
        expect(stats.forwardFailures).toBeGreaterThanOrEqual(4);
        expectCountersAddUp(w, stats);
        const inCse = async () =>
          (
            await Promise.all(
              ["good", "bad", "flaky"].map((c) => instanceIds(cse.cseBaseUrl, `decoder/${c}`).catch(() => [])),
            )
          ).flat();
        expect((await inCse()).sort()).toEqual(["n-0", "n-2", "n-3", "n-5", "n-6", "n-8", "n-9", "n-11"].sort());

        // marks lost for everything (a crash): resends answer 409 and are verified
        proxy.setFault(undefined);
        const again = await restartWithLostMarks(w, dataDir, `${proxy.url}/${cse.base}`);
        stats = await waitFor("the resends settled", async () => {
          const s = await api<Stats>(again, "/api/stats");
          return s.pending === 0 ? s : undefined;
        });
        expect(stats).toMatchObject({ records: 12, delivered: 8, refused: 4, conflictsVerified: 8 });
        expectCountersAddUp(again, stats);
        expect(await api<{ retried: number }>(again, "/api/refused/retry", {})).toEqual({ retried: 4 });
        stats = await waitFor("the retried delivered", async () => {
          const s = await api<Stats>(again, "/api/stats");
          return s.pending === 0 && s.refused === 0 ? s : undefined;
        });
        expect(stats).toMatchObject({ records: 12, delivered: 12, pending: 0, refused: 0 });
        expectCountersAddUp(again, stats);
        const all = await inCse();
        expect(all.length).toBe(stats.delivered);
        expect(new Set(all).size).toBe(12);
      });
    },
  );
});
