// Interop with real CSEs: the decoder (as its own process) forwards into ACME (PyPI acmecse) and into
// the embedded CSE; each contentInstance is then read back through that CSE's own oneM2M API.
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codecFor, FORMAT_IDS, toPlain } from "#codecs";
import {
  byLabel,
  client,
  type DecoderProcess,
  embeddedCse,
  encodedSamples,
  m2mGet,
  paperLayout,
  spawnDecoder,
  tempDir,
  waitFor,
} from "./support.ts";
import { startAcme, type RunningAcme } from "../../test-support/acme.ts";
import { messageIdOf } from "../src/names.ts";

interface Peer {
  name: string;
  start(): Promise<{ cseBaseUrl: string; admin: string; stop(): Promise<void> }>;
}

const PEERS: Peer[] = [
  {
    name: "ACME (acmecse, in-memory)",
    start: async () => {
      const acme: RunningAcme = await startAcme({ verifySubscriptions: false });
      return { cseBaseUrl: acme.cseBaseUrl, admin: acme.admin, stop: acme.stop };
    },
  },
  {
    name: "embedded CSE",
    start: async () => {
      const cse = await embeddedCse({ dataDir: tempDir() });
      return { cseBaseUrl: cse.cseBaseUrl, admin: "Sponde", stop: () => cse.close() };
    },
  },
];

for (const peer of PEERS) {
  describe(`decoder → ${peer.name}`, () => {
    let cse: Awaited<ReturnType<Peer["start"]>>;
    let decoder: DecoderProcess & { args: { dataDir: string } };
    const decoderArgs = (dataDir: string) => [
      "--data-dir",
      dataDir,
      "--preset",
      "paper",
      "--cse",
      cse.cseBaseUrl,
      "--retry-base-ms",
      "50",
      "--retry-max-ms",
      "500",
    ];
    const spawnWith = async (dataDir: string) =>
      Object.assign(await spawnDecoder(decoderArgs(dataDir)), { args: { dataDir } });
    beforeAll(async () => {
      cse = await peer.start();
      decoder = await spawnWith(tempDir());
    }, 90_000);
    afterAll(async () => {
      await decoder?.stop();
      await cse?.stop();
    });

    it("forwards a record of every format as an m2m:cin that reads back through the CSE's API", async () => {
      const c = client(decoder.url);
      const sent: { id: string; device: string; plain: unknown }[] = [];
      for (const [i, format] of FORMAT_IDS.entries()) {
        const [bytes] = encodedSamples(format, 1, 40 + i);
        const r = await c.post("/ingest", bytes!, {
          "content-type": "application/octet-stream",
          "x-satpayload-format": format,
          "x-satpayload-layout": "paper",
          "x-satpayload-message-id": `interop-${format}`,
        });
        expect(r.status, r.body).toBe(201);
        const named = toPlain(paperLayout, codecFor(paperLayout, format).decode(bytes!), "json");
        // integer-keyed formats are stored as sent, keyed by the fields' numbers
        const numbers = Object.fromEntries(
          paperLayout.fields.map((f) => [f.key, String(f.options?.protobuf?.number)] as const),
        );
        const plain = format.endsWith("-int")
          ? Object.fromEntries(Object.entries(named).map(([k, v]) => [numbers[k]!, v]))
          : named;
        sent.push({ id: `interop-${format}`, device: JSON.parse(r.body).device, plain });
      }
      await waitFor("everything forwarded", async () => {
        const s = JSON.parse((await c.get("/api/stats")).body);
        return s.forwarded === sent.length && s.backlog === 0 ? s : undefined;
      });
      // each record is found by its message id through the CSE's own discovery by label
      for (const s of sent) {
        const found = await m2mGet(
          cse.cseBaseUrl,
          `decoder/${s.device}?fu=1&ty=4&${byLabel(`msgid:${s.id}`)}`,
          cse.admin,
        );
        const uril = (found.json as { "m2m:uril": string[] })["m2m:uril"];
        expect(uril, JSON.stringify(found.json)).toHaveLength(1);
        const rn = uril[0]!.split("/").at(-1)!;
        // ≤ 45 characters: a ULID of arrival
        expect(rn).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
        const cin = await m2mGet(cse.cseBaseUrl, `decoder/${s.device}/${rn}`, cse.admin);
        expect(cin.status, JSON.stringify(cin.json)).toBe(200);
        expect(cin.json).toMatchObject({
          "m2m:cin": { rn, lbl: [`msgid:${s.id}`], cnf: "application/json:0", con: s.plain },
        });
      }
      const latest = await m2mGet(cse.cseBaseUrl, `decoder/${sent.at(-1)!.device}/la`, cse.admin);
      const la = (latest.json as { "m2m:cin": { rn: string; lbl?: string[] } })["m2m:cin"];
      expect(messageIdOf(la.rn, la.lbl)).toBe(sent.at(-1)!.id);
      const ae = await m2mGet(cse.cseBaseUrl, "decoder", cse.admin);
      expect(ae.json).toMatchObject({ "m2m:ae": { rn: "decoder", api: "Ndecoder" } });
      const stats = JSON.parse((await c.get("/api/stats")).body);
      expect(stats.forwardFailures).toBe(0);
    });

    it("treats the resend of a delivered record (a crash between the CSE's answer and the mark) as delivered: 409/4105, read back equal", async () => {
      // the decoder dies after the CSE stored interop-protobuf but before the buffer said so
      const dataDir = decoder.args.dataDir;
      await decoder.stop();
      const db = new Database(path.join(dataDir, "buffer-0.sqlite"));
      const { device } = db.prepare("SELECT device FROM records WHERE message_id = 'interop-protobuf'").get() as {
        device: string;
      };
      db.prepare("UPDATE records SET forwarded_at = NULL WHERE message_id = 'interop-protobuf'").run();
      db.prepare("UPDATE counters SET value = value - 1 WHERE name = 'forwarded'").run();
      db.close();
      decoder = await spawnWith(dataDir);
      const c = client(decoder.url);
      const s = await waitFor("the resend settled", async () => {
        const st = JSON.parse((await c.get("/api/stats")).body);
        return st.backlog === 0 ? st : undefined;
      });
      expect(s.forwardFailures).toBe(0);
      // the CSE's content came back equal to ours (ACME: as sent; Mobius profile: its own rendering)
      expect(s.conflictsVerified).toBe(1);
      expect(s.repairs).toBe(0);
      const found = await m2mGet(
        cse.cseBaseUrl,
        `decoder/${device}?fu=1&ty=4&${byLabel("msgid:interop-protobuf")}`,
        cse.admin,
      );
      expect((found.json as { "m2m:uril": string[] })["m2m:uril"]).toHaveLength(1);
    });
  });
}
