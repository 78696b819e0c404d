// The paper author's receiver API on our decoder (issue 22, item 5): each endpoint his dashboards call
// answers in the shape they read (paperDashboardReads.ts, written from their script.js), with the
// values of the records a Python sender posted; our own API keeps its names; readers need a key.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { READS } from "./paperDashboardReads.ts";
import { spawnDecoder, tempDir, type DecoderProcess } from "./support.ts";
import { addKey } from "../../shared/credentials.ts";
import { repoRoot } from "../../shared/launch.ts";

const PYTHON = path.join(repoRoot, ".venv/bin/python");
const CLIENTS = path.join(repoRoot, "services/decoder/test/paper-clients");

type Reading = Record<string, string>;

function send(url: string, count: number, seed: number): Promise<{ status: number; sent: Reading }[]> {
  const out = path.join(tempDir("satpayload-paper-api-"), "sent.jsonl");
  return new Promise((resolve, reject) => {
    execFile(
      PYTHON,
      [path.join(CLIENTS, "fidelity_sender.py"), url, "cbor", String(count), out, String(seed)],
      { cwd: CLIENTS, timeout: 120_000 },
      (err, _o, stderr) =>
        err
          ? reject(new Error(`${err.message}\n${stderr}`))
          : resolve(
              readFileSync(out, "utf8")
                .trim()
                .split("\n")
                .map((l) => JSON.parse(l) as { status: number; sent: Reading }),
            ),
    );
  });
}

const get = async (base: string, p: string, key?: string) => {
  const r = await fetch(`${base}${p}`, key ? { headers: { authorization: `Bearer ${key}` } } : {});
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

let decoder: DecoderProcess;
/** in the order sent (sequentially: each answered before the next left) */
let sent: Reading[] = [];

beforeAll(async () => {
  decoder = await spawnDecoder([
    "--data-dir",
    tempDir(),
    "--preset",
    "paper",
    "--embedded-cse",
    "--cse-port",
    "0",
    "--route",
    "/container-data=paper:cbor",
  ]);
  const answers = await send(`${decoder.url}/container-data`, 60, 21);
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  sent = answers.map((a) => a.sent);
}, 180_000);

const devices = () => new Set(sent.map((r) => r.iso6346));

describe("the paper author's dashboard API", () => {
  it("/api/containers?limit=100: every record newest first, in both dashboards' shapes", async () => {
    const r = await get(decoder.url, "/api/containers?limit=100");
    expect(r.status).toBe(200);
    const { containers } = READS.containers.parse(r.body);
    expect(containers.length).toBe(60);
    expect(r.body.count).toBe(60);
    const newestFirst = [...sent].reverse();
    containers.forEach((c, i) => {
      const s = newestFirst[i]!;
      // dashboard-maritime reads the record as sent; the thesis dashboard its flat columns
      expect(c.data).toEqual(s);
      expect(c.containerId).toBe(s.iso6346);
      expect([c.iso6346, c.latitude, c.bat_soc, c.ble_m]).toEqual([s.iso6346, s.latitude, s["bat-soc"], s["ble-m"]]);
      expect(c.sent_to_mobius).toBe(1);
    });
    expect(READS.containers.parse((await get(decoder.url, "/api/containers?limit=5")).body).containers).toHaveLength(5);
  });

  it("/api/containers/:id and /history: one container's newest record and its records newest first", async () => {
    const id = sent.at(-1)!.iso6346!;
    const mine = sent.filter((r) => r.iso6346 === id).reverse();
    const one = await get(decoder.url, `/api/containers/${id}`);
    expect(one.status).toBe(200);
    const parsed = READS.container.parse(one.body);
    expect(parsed.container.latitude).toBe(mine[0]!.latitude);
    expect(parsed.history.map((h) => h.data)).toEqual(mine);
    const hist = READS.history.parse((await get(decoder.url, `/api/containers/${id}/history?limit=50`)).body);
    expect(hist.history.map((h) => h.time)).toEqual(mine.map((r) => r.time));
    expect((await get(decoder.url, `/api/containers/${id}/history?limit=1`)).body.history).toHaveLength(1);
    const none = await get(decoder.url, "/api/containers/LMCU9999999");
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ error: "not_found", reason: "no record of container LMCU9999999" });
  });

  it("/api/stats: his names from our counters beside ours, which keep theirs", async () => {
    const r = await get(decoder.url, "/api/stats");
    const his = READS.stats.parse(r.body);
    expect(his.database).toMatchObject({ total_records: 60, unique_containers: devices().size, sent_to_mobius: 60 });
    expect(his.database.avg_compression).toBeGreaterThan(1);
    expect([his.totalRequests, his.successfulWrites, his.writeQueue.queueLength, his.inbound.queueSize]).toEqual([
      60, 60, 0, 0,
    ]);
    expect(r.body).toMatchObject({ records: 60, uniqueDevices: devices().size, forwarded: 60, backlog: 0 });
  });

  it("/api/activity?minutes=120: distinct containers per 5-minute slot and in the window", async () => {
    const r = READS.activity.parse((await get(decoder.url, "/api/activity?minutes=120")).body);
    expect(r.totalContainersInPeriod).toBe(devices().size);
    const times = r.activity.map((a) => Date.parse(a.hour));
    expect(times.length).toBeGreaterThanOrEqual(24);
    times.slice(1).forEach((t, i) => expect(t - times[i]!).toBe(5 * 60_000));
    // everything arrived within the last minutes: in the newest slot or two, each at most all containers
    expect(r.activity.slice(0, -2).every((a) => a.count === 0)).toBe(true);
    expect(Math.max(...r.activity.map((a) => a.count))).toBeLessThanOrEqual(devices().size);
    expect(r.activity.reduce((n, a) => n + a.count, 0)).toBeGreaterThanOrEqual(devices().size);
    expect((await get(decoder.url, "/api/activity?hours=1")).body.timeRange).toBe("60 minutes");
    expect((await get(decoder.url, "/api/activity?minutes=abc")).status).toBe(400);
  });

  it("/api/search?q=: containers by id or latest msisdn; empty q finds nothing", async () => {
    const target = sent.at(-1)!;
    const byId = READS.search.parse((await get(decoder.url, `/api/search?q=${target.iso6346!.slice(-4)}`)).body);
    expect(byId.containers.map((c) => c.iso6346)).toContain(target.iso6346);
    const hit = byId.containers.find((c) => c.iso6346 === target.iso6346)!;
    expect(hit.record_count).toBe(sent.filter((r) => r.iso6346 === target.iso6346).length);
    const byMsisdn = READS.search.parse((await get(decoder.url, `/api/search?q=${target.msisdn}`)).body);
    expect(byMsisdn.containers.map((c) => c.iso6346)).toContain(target.iso6346);
    expect((await get(decoder.url, "/api/search?q=")).body).toEqual({ containers: [] });
  });

  it("/health answers without a key, with a timestamp", async () => {
    const r = await get(decoder.url, "/health");
    expect(r.status).toBe(200);
    expect(Date.parse(String(r.body.timestamp))).not.toBeNaN();
  });
});

describe("the dashboard API is behind the reader key", () => {
  it("no key: 401; a fleet key: 403; a reader key: his shapes", async () => {
    const dir = tempDir();
    const keys = path.join(dir, "keys.json");
    const fleet = addKey(keys, { role: "fleet" }).token;
    const reader = addKey(keys, { role: "reader" }).token;
    const d = await spawnDecoder(["--data-dir", dir, "--preset", "paper", "--auth", "on", "--keys", keys]);
    const paths = [
      "/api/containers?limit=100",
      "/api/containers/LMCU0000001",
      "/api/containers/LMCU0000001/history",
      "/api/activity?minutes=120",
      "/api/search?q=LMCU",
      "/api/stats",
    ];
    for (const p of paths) {
      expect((await get(d.url, p)).status, p).toBe(401);
      expect((await get(d.url, p, fleet)).status, p).toBe(403);
    }
    expect(READS.containers.parse((await get(d.url, paths[0]!, reader)).body).containers).toEqual([]);
    expect((await get(d.url, paths[1]!, reader)).status).toBe(404);
    expect(READS.stats.parse((await get(d.url, "/api/stats", reader)).body).database.total_records).toBe(0);
    expect(READS.activity.parse((await get(d.url, paths[3]!, reader)).body).totalContainersInPeriod).toBe(0);
    expect((await get(d.url, "/health")).status).toBe(200);
    await d.stop();
  }, 120_000);
});
