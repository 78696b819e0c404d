// Names that fit every CSE, proved against the embedded CSE's `mobius` profile, which refuses a
// resource name over 45 characters 500/5000 as a real Mobius did (its lookup.rn is varchar(45)):
// the real forwarder delivers records with long message ids and long device keys into it, each
// findable by its message id; and records an older decoder stored under names up to 155
// characters long still go through — renamed once, the same on a resend, and never a second time
// into a CSE that had taken the old name.
import { createHash } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseLayout, presetById } from "#codecs";
import {
  byLabel,
  client,
  embeddedCse,
  encodedSamples,
  instanceIds,
  m2mGet,
  m2mWrite,
  tempDir,
  waitFor,
} from "./support.ts";
import { prepareDecoderAe, testWorkers } from "./workers.ts";
import { startCse } from "../../cse/src/server.ts";
import { RecordBuffer } from "../src/buffer/buffer.ts";
import { bufferFileName } from "../src/buffer/schema.ts";
import type { RunningWorker } from "../src/worker.ts";

const tracker = parseLayout(presetById("kineis-tracker")!.layout);
const bodies = encodedSamples("bitpacked", 16, 11, tracker);
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const { start: worker, restartWithLostMarks } = testWorkers("kineis-tracker");

const drained = (w: RunningWorker, n: number) =>
  waitFor(
    `${n} delivered`,
    () => (w.buffer.counters().forwarded >= n && w.buffer.pendingCount() === 0) || undefined,
    60_000,
  );

/** the one instance labelled with this message id, found by the CSE's discovery */
async function findById(base: string, container: string, id: string): Promise<string> {
  const r = await m2mGet(base, `decoder/${container}?fu=1&ty=4&${byLabel(`msgid:${id}`)}`);
  const uril = (r.json as { "m2m:uril": string[] })["m2m:uril"];
  expect(uril, `${id} in ${container}`).toHaveLength(1);
  return uril[0]!.split("/").at(-1)!;
}

describe("resource names ≤ 45 characters (the mobius profile refuses longer ones as Mobius does)", () => {
  it("delivers records with Astrocast's 36-character GUIDs, 128-character ids and 60-character device keys into the mobius profile", async () => {
    const cse = await embeddedCse();
    expect(cse.profile).toBe("mobius");
    const w = await worker(tempDir(), cse.cseBaseUrl);
    const longKey = (tail: string) => `buoy-fleet-north-atlantic-2026-batch-0042-${tail}`.padEnd(60, "x");
    const sent = [
      { id: "2f6f3a1e-9c4b-4d0e-8a57-0b3c2d1e4f5a", device: "C-0001" },
      { id: "ltc777b472.0.0.1795786530481", device: "C-0001" },
      { id: `m${"9".repeat(127)}`, device: "C-0001" },
      { id: "a1", device: longKey("aaa") },
      { id: "a2", device: longKey("bbb") },
    ];
    const c = client(`http://127.0.0.1:${w.port}`);
    for (const [i, s] of sent.entries()) {
      const r = await c.post("/ingest", bodies[i]!, {
        "content-type": "application/octet-stream",
        "x-satpayload-format": "bitpacked",
        "x-satpayload-layout": "kineis-tracker",
        "x-satpayload-message-id": s.id,
        "x-satpayload-device": s.device,
      });
      expect(r.status, r.body).toBe(201);
    }
    c.close();
    await drained(w, sent.length);
    // nothing was refused or retried: every name fit
    expect(w.buffer.counters()).toMatchObject({ forward_failures: 0, refused: 0 });
    const ae = (await m2mGet(cse.cseBaseUrl, "decoder?fu=1&ty=3")).json as { "m2m:uril": string[] };
    const containers = ae["m2m:uril"].map((u) => u.split("/").at(-1)!).sort();
    expect(containers).toHaveLength(3);
    for (const name of containers) expect(name.length).toBeLessThanOrEqual(45);
    // the two long keys share their first 36 characters but not their container
    const long = containers.filter((n) => n.startsWith("buoy-fleet"));
    expect(long).toHaveLength(2);
    for (const n of long) expect(n).toMatch(/^buoy-fleet-north-atlantic-2026-batch~[0-9a-f]{8}$/);
    for (const s of sent) {
      // a key over 45 characters: its first 36, "~" and 8 hex digits of its SHA-256 (docs/stack.md)
      const container =
        s.device === "C-0001"
          ? "C-0001"
          : `${s.device.slice(0, 36)}~${createHash("sha256").update(s.device).digest("hex").slice(0, 8)}`;
      if (container !== "C-0001") expect(long).toContain(container);
      const rn = await findById(cse.cseBaseUrl, container, s.id);
      expect(rn).toMatch(ULID);
      // the decoder's read API answers the same: the record under its id, its name in the CSE, delivered
      const c2 = client(`http://127.0.0.1:${w.port}`);
      const mine = await c2.get(`/api/record?messageId=${encodeURIComponent(s.id)}`);
      c2.close();
      expect(mine.status, mine.body).toBe(200);
      expect(JSON.parse(mine.body).record).toMatchObject({ messageId: s.id, rn, device: s.device, refusedAt: null });
      expect(JSON.parse(mine.body).record.forwardedAt).toEqual(expect.any(Number));
    }
    // la is the newest record of the container (Mobius picks it by name)
    const la = (await m2mGet(cse.cseBaseUrl, "decoder/C-0001/la")).json as { "m2m:cin": { lbl: string[] } };
    expect(la["m2m:cin"].lbl).toEqual([`msgid:${sent[2]!.id}`]);
    expect(await instanceIds(cse.cseBaseUrl, "decoder/C-0001")).toEqual(sent.slice(0, 3).map((s) => s.id));
  });

  it("forwards records an older decoder stored under names too long for Mobius: renamed once, the same on every resend", async () => {
    const cse = await embeddedCse();
    const dataDir = tempDir();
    const legacy = writeLegacyBuffer(dataDir);
    const w = await worker(dataDir, cse.cseBaseUrl);
    await drained(w, legacy.length);
    expect(w.buffer.counters()).toMatchObject({ forward_failures: 0, refused: 0, repairs: 0 });
    const stored = storedNames(w);
    // a <ULID>-<id> name keeps its ULID; a bare long id gets a ULID of its arrival; a name that fits stays
    expect(stored.get("ltc777b472.0.0.1795786530481")).toBe("01M8EKFQPJZN52Z0PJSYWYZPJK");
    expect(stored.get("d".repeat(60))).toMatch(ULID);
    expect(stored.get("short-one")).toBe("01M8EKFQPJZN52Z0PJSYWYZPJM-short-one");
    expect((await instanceIds(cse.cseBaseUrl, "decoder/old")).sort()).toEqual(legacy.map((l) => l.messageId).sort());
    for (const l of legacy) expect(await findById(cse.cseBaseUrl, "old", l.messageId)).toBe(stored.get(l.messageId));

    // the same names on a resend (every mark lost): 409, read back equal, nothing new in the CSE
    const again = await restartWithLostMarks(w, dataDir, cse.cseBaseUrl);
    await drained(again, legacy.length);
    expect(again.buffer.counters()).toMatchObject({ conflicts_verified: legacy.length, repairs: 0 });
    const cnt = (await m2mGet(cse.cseBaseUrl, "decoder/old")).json as { "m2m:cnt": { cni: number } };
    expect(cnt["m2m:cnt"].cni).toBe(legacy.length);
  });

  it("does not send an old long name's record twice to a CSE that had taken the old name (the standard profile takes 55 characters, as ACME does)", async () => {
    const cse = await startCse({ port: 0, profile: "standard", log: () => {} });
    try {
      const dataDir = tempDir();
      const legacy = writeLegacyBuffer(dataDir);
      // an older decoder delivered the first one under its 55-character name, then lost the mark
      const first = legacy[0]!;
      await prepareDecoderAe(cse.cseBaseUrl, { old: {} });
      const put = await m2mWrite(
        cse.cseBaseUrl,
        "POST",
        "decoder/old",
        { "m2m:cin": { rn: first.rn, cnf: "application/json:0", con: JSON.parse(first.con) } },
        "Cdecoder",
        4,
      );
      expect(put.status).toBe(201);
      const w = await worker(dataDir, cse.cseBaseUrl);
      await drained(w, legacy.length);
      // found under its old name with our content: delivered there, no second instance, name kept
      expect(storedNames(w).get(first.messageId)).toBe(first.rn);
      const cnt = (await m2mGet(cse.cseBaseUrl, "decoder/old")).json as { "m2m:cnt": { cni: number } };
      expect(cnt["m2m:cnt"].cni).toBe(legacy.length);
    } finally {
      await cse.close();
    }
  });
});

interface LegacyRow {
  messageId: string;
  rn: string | null;
  con: string;
}

/**
 * A buffer as a decoder before issue 22 left it: pending records under `<ULID>-<device's id>` (55
 * characters, the issue's name), a bare 60-character id (before the rn column existed) and a
 * `<ULID>-<id>` name that fits, all of device "old".
 */
function writeLegacyBuffer(dataDir: string): LegacyRow[] {
  const rows: LegacyRow[] = [
    {
      messageId: "ltc777b472.0.0.1795786530481",
      rn: "01M8EKFQPJZN52Z0PJSYWYZPJK-ltc777b472.0.0.1795786530481",
      con: "",
    },
    { messageId: "d".repeat(60), rn: null, con: "" },
    { messageId: "short-one", rn: "01M8EKFQPJZN52Z0PJSYWYZPJM-short-one", con: "" },
  ];
  const b = new RecordBuffer(path.join(dataDir, bufferFileName(0)));
  try {
    b.write(
      rows.map((r, i) => {
        r.con = JSON.stringify({ fix: i, lat: 47.1 + i, lon: -3.5 });
        return {
          kind: "record" as const,
          record: {
            messageId: r.messageId,
            rn: r.rn ?? undefined,
            receivedAt: 1_795_786_530_481 + i,
            layout: "kineis-tracker",
            format: "bitpacked",
            device: "old",
            size: 19,
            jsonSize: 60,
            con: r.con,
          },
        };
      }),
    );
  } finally {
    b.close();
  }
  return rows;
}

function storedNames(w: RunningWorker): Map<string, string> {
  return new Map(
    (
      w.buffer.db.prepare("SELECT message_id AS id, coalesce(rn, message_id) AS rn FROM records").all() as {
        id: string;
        rn: string;
      }[]
    ).map((r) => [r.id, r.rn]),
  );
}
