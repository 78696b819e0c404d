// The forwarder against the real embedded CSE: contentInstances in per-device or shared containers,
// in order, idempotent resends, outages (refused connections, HTTP 500, a CSE that lost its tree),
// and resuming after a restart of the decoder from the buffer alone.
import { describe, expect, it } from "vitest";
import { codecFor, toPlain } from "#codecs";
import { observingProxy } from "./proxy.ts";
import {
  byLabel,
  client,
  embeddedCse,
  encodedSamples,
  instanceIds,
  m2mGet,
  paperLayout,
  pool,
  tempDir,
  waitFor,
} from "./support.ts";
import { testWorkers } from "./workers.ts";
import { startCse } from "../../cse/src/server.ts";
import { messageIdOf } from "../src/names.ts";
import type { RunningWorker } from "../src/worker.ts";

const { start: worker, stop, restartWithLostMarks } = testWorkers("paper");

const PROTOBUF = { "content-type": "application/x-protobuf", "x-satpayload-layout": "paper" };

async function ingest(
  w: RunningWorker,
  n: number,
  seed: number,
  prefix: string,
): Promise<{ id: string; device: string; bytes: Uint8Array }[]> {
  const c = client(`http://127.0.0.1:${w.port}`);
  const bodies = encodedSamples("protobuf", n, seed);
  const out: { id: string; device: string; bytes: Uint8Array }[] = [];
  // one at a time: the test checks that the CSE sees them in this order
  for (let i = 0; i < n; i++) {
    const r = await c.post("/ingest", bodies[i]!, { ...PROTOBUF, "x-satpayload-message-id": `${prefix}-${i}` });
    expect(r.status, r.body).toBe(201);
    out.push({ id: `${prefix}-${i}`, device: JSON.parse(r.body).device, bytes: bodies[i]! });
  }
  c.close();
  return out;
}

const drained = (w: RunningWorker, n: number) =>
  waitFor(
    `${n} forwarded`,
    () => w.buffer.counters().forwarded >= n && w.buffer.counters().accepted === w.buffer.counters().forwarded,
    30_000,
  );

/** the container's cin names in name order, as a real Mobius ranks them for la/ol */
async function cinNames(base: string, container: string): Promise<string[]> {
  const r = await m2mGet(base, `decoder/${container}?fu=1&ty=4`);
  expect(r.status).toBe(200);
  return ((r.json as { "m2m:uril": string[] })["m2m:uril"] ?? []).map((u) => u.split("/").at(-1)!).sort();
}

/** the message ids of the container's instances in name order (names: ULIDs, a device's id in its msgid: label) */
const cinIds = (base: string, container: string) => instanceIds(base, `decoder/${container}`);

describe("forwarder → embedded CSE", () => {
  it("creates the AE and one container per device, and posts each record once as an m2m:cin", async () => {
    const cse = await embeddedCse();
    // a few samples share a container id, so containers hold several instances
    const w = await worker(tempDir(), cse.cseBaseUrl, ["--forward-concurrency", "4"]);
    const sent = await ingest(w, 40, 5, "dev");
    await drained(w, 40);
    const ae = await m2mGet(cse.cseBaseUrl, "decoder");
    expect(ae.status).toBe(200);
    expect(ae.json).toMatchObject({ "m2m:ae": { rn: "decoder", api: "Ndecoder", rr: false } });
    const byDevice = new Map<string, string[]>();
    for (const s of sent) byDevice.set(s.device, [...(byDevice.get(s.device) ?? []), s.id]);
    // sent one after another: in name order the ids come back in sending order
    for (const [device, ids] of byDevice) expect(await cinIds(cse.cseBaseUrl, device)).toEqual(ids);
    const one = sent[7]!;
    const found = await m2mGet(cse.cseBaseUrl, `decoder/${one.device}?fu=1&ty=4&${byLabel(`msgid:${one.id}`)}`);
    const [rn] = (found.json as { "m2m:uril": string[] })["m2m:uril"].map((u) => u.split("/").at(-1)!);
    const cin = await m2mGet(cse.cseBaseUrl, `decoder/${one.device}/${rn}`);
    expect(cin.json).toMatchObject({
      "m2m:cin": {
        rn,
        lbl: [`msgid:${one.id}`],
        cnf: "application/json:0",
        con: toPlain(paperLayout, codecFor(paperLayout, "protobuf").decode(one.bytes), "json"),
      },
    });
    expect(w.buffer.counters().forward_failures).toBe(0);
  });

  it("names cins so that name order is arrival order: the name-largest (Mobius' la) is the newest record", async () => {
    const cse = await embeddedCse();
    const w = await worker(tempDir(), cse.cseBaseUrl, ["--container", "shared"]);
    const c = client(`http://127.0.0.1:${w.port}`);
    const ids: string[] = [];
    // no message ids from the device: the decoder generates them
    for (const body of encodedSamples("protobuf", 40, 21)) {
      const r = await c.post("/ingest", body, PROTOBUF);
      expect(r.status).toBe(201);
      ids.push(JSON.parse(r.body).messageId);
    }
    await drained(w, 40);
    const names = await cinNames(cse.cseBaseUrl, "up");
    expect(names).toEqual(ids);
    expect(names.at(-1)).toBe(ids.at(-1));
    c.close();
  });

  it("keeps the records of a container in order through outages and HTTP 500s, and counts the failures", async () => {
    const cse = await embeddedCse();
    const proxy = await observingProxy(cse.url);
    try {
      const w = await worker(tempDir(), `${proxy.url}/${cse.base}`, [
        "--container",
        "shared",
        "--forward-concurrency",
        "4",
      ]);
      const first = await ingest(w, 20, 8, "o1");
      await drained(w, 20);
      proxy.setMode("refuse");
      const second = await ingest(w, 30, 9, "o2");
      await waitFor(
        "a retry after refused connections",
        () => w.forwarders[0]!.status.state === "retrying" && w.buffer.counters().forward_failures >= 2,
      );
      expect(w.forwarders[0]!.status.lastError).toMatch(/CSE unreachable/);
      const stats = JSON.parse((await client(`http://127.0.0.1:${w.port}`).get("/api/stats")).body);
      expect(stats.backlog).toBeGreaterThan(0);
      expect(stats.buffers[0].forwarder).toMatchObject({ state: "retrying" });
      proxy.setMode("error500");
      // an answer from the CSE is about the container: it backs off alone (the only one here)
      await waitFor(
        "a retry after HTTP 500",
        () =>
          /HTTP 500\/RSC 5000: simulated database error/.test(w.forwarders[0]!.status.failing?.[0]?.lastError ?? "") ||
          undefined,
      );
      expect(w.forwarders[0]!.status.failing?.[0]?.container).toBe("up");
      proxy.setMode("pass");
      await drained(w, 50);
      const order = proxy.seen
        .filter((s) => s.rn !== undefined && (s.status === 201 || s.status === 409))
        .map((s) => messageIdOf(s.rn!, s.lbl));
      // each record reached the CSE in ingest order, a resend only ever repeating the latest one
      const firstSeen = [...new Set(order)];
      expect(firstSeen).toEqual([...first, ...second].map((s) => s.id));
      expect(await cinIds(cse.cseBaseUrl, "up")).toEqual([...first, ...second].map((s) => s.id));
      expect(w.forwarders[0]!.status.state).toBe("idle");
    } finally {
      await proxy.close();
    }
  });

  it("counts 409 (already exists) as delivered once the instance reads back with our content: a resend after a lost acknowledgement is harmless", async () => {
    const cse = await embeddedCse();
    const dataDir = tempDir();
    const w = await worker(dataDir, cse.cseBaseUrl, ["--container", "shared"]);
    await ingest(w, 1, 2, "pre");
    await drained(w, 1);
    // as after a crash between the CSE's answer and the mark: the buffer still says "not delivered"
    const again = await restartWithLostMarks(w, dataDir, cse.cseBaseUrl, ["--container", "shared"]);
    await waitFor(
      "the resend",
      () => (again.buffer.counters().forwarded >= 1 && again.buffer.pendingCount() === 0) || undefined,
    );
    expect(again.buffer.counters().forward_failures).toBe(0);
    expect(again.buffer.counters().conflicts_verified).toBe(1);
    expect(again.buffer.counters().repairs).toBe(0);
    expect(await cinIds(cse.cseBaseUrl, "up")).toEqual(["pre-0"]);
  });

  it("re-creates the AE and containers when the CSE comes back without them", async () => {
    const first = await startCse({ port: 0, log: () => {} });
    const port = first.port;
    const w = await worker(tempDir(), first.cseBaseUrl);
    await ingest(w, 5, 3, "a");
    await drained(w, 5);
    await first.close();
    const sent = await ingest(w, 5, 4, "b");
    await waitFor("retrying while the CSE is gone", () => w.forwarders[0]!.status.state === "retrying" || undefined);
    // an in-memory CSE on the same port: the AE and every container are gone
    const second = await embeddedCse({ port });
    await drained(w, 10);
    for (const s of sent) expect(await cinIds(second.cseBaseUrl, s.device)).toContain(s.id);
  });

  it("resumes forwarding after a restart from what the buffer says was not delivered", async () => {
    const cse = await embeddedCse();
    const proxy = await observingProxy(cse.url);
    const dataDir = tempDir();
    try {
      proxy.setMode("refuse");
      const w = await worker(dataDir, `${proxy.url}/${cse.base}`, ["--container", "shared"]);
      const c = client(`http://127.0.0.1:${w.port}`);
      const bodies = encodedSamples("protobuf", 200, 12);
      await pool(200, 16, async (i) => {
        expect((await c.post("/ingest", bodies[i]!, { ...PROTOBUF, "x-satpayload-message-id": `r-${i}` })).status).toBe(
          201,
        );
      });
      expect(w.buffer.counters().forwarded).toBe(0);
      await stop(w);
      proxy.setMode("pass");
      const again = await worker(dataDir, `${proxy.url}/${cse.base}`, ["--container", "shared"]);
      await drained(again, 200);
      expect((await cinIds(cse.cseBaseUrl, "up")).sort()).toEqual(
        Array.from({ length: 200 }, (_, i) => `r-${i}`).sort(),
      );
    } finally {
      await proxy.close();
    }
  });
});
