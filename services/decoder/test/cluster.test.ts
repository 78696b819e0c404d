// --replicas: N worker processes on one port (node:cluster), one buffer each; stats and latest records
// aggregate across all buffers; a crashed worker is restarted on its own buffer; a later run with
// fewer replicas still forwards what the extra buffers hold.
import http from "node:http";
import { describe, expect, it } from "vitest";
import { observingProxy } from "./proxy.ts";
import { client, embeddedCse, encodedSamples, m2mGet, spawnDecoder, tempDir, waitFor } from "./support.ts";
import { leanClient } from "../../shared/leanHttp.ts";

const HEADERS = { "content-type": "application/x-protobuf", "x-satpayload-layout": "paper" };

async function sendAll(
  url: string,
  prefix: string,
  n: number,
  seed: number,
): Promise<{ buffers: Set<number>; devices: Set<string> }> {
  const bodies = encodedSamples("protobuf", n, seed);
  const c = leanClient(url, 16);
  const buffers = new Set<number>();
  const devices = new Set<string>();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < n) {
        const i = next++;
        const r = await c.post("/ingest", bodies[i]!, { ...HEADERS, "x-satpayload-message-id": `${prefix}-${i}` });
        expect(r.status, r.body).toBe(201);
        const b = JSON.parse(r.body);
        buffers.add(b.buffer);
        devices.add(b.device);
      }
    }),
  );
  c.close();
  return { buffers, devices };
}

async function workerPids(url: string, want: number): Promise<Map<number, number>> {
  // /health is answered by whichever worker took the connection: ask over fresh connections until all answered
  const pids = new Map<number, number>();
  for (let k = 0; k < 100 && pids.size < want; k++) {
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get(`${url}/health`, { agent: false, timeout: 2000 }, (res) => {
          let text = "";
          res.on("data", (d: Buffer) => (text += d.toString("utf8")));
          res.on("end", () => resolve(text));
        })
        .on("timeout", function (this: http.ClientRequest) {
          this.destroy(new Error("no answer"));
        })
        .on("error", reject);
    });
    const h = JSON.parse(body) as { worker: number; pid: number; status: string };
    if (h.status === "ok") pids.set(h.worker, h.pid);
  }
  return pids;
}

describe("replicas", () => {
  it(
    "spreads requests over 2 workers with their own buffers, aggregates stats and latest, and restarts a killed worker",
    { timeout: 120_000 },
    async () => {
      const cse = await embeddedCse();
      const dataDir = tempDir();
      const decoder = await spawnDecoder([
        "--data-dir",
        dataDir,
        "--preset",
        "paper",
        "--replicas",
        "2",
        "--cse",
        cse.cseBaseUrl,
        "--container",
        "shared",
      ]);
      const first = await sendAll(decoder.url, "a", 600, 31);
      expect([...first.buffers].sort()).toEqual([0, 1]);
      const c = client(decoder.url);
      const stats = await waitFor("all forwarded", async () => {
        const s = JSON.parse((await c.get("/api/stats")).body);
        return s.forwarded === 600 ? s : undefined;
      });
      expect(stats).toMatchObject({ records: 600, uniqueDevices: first.devices.size, backlog: 0, deadLetters: 0 });
      expect(stats.buffers.map((b: { index: number }) => b.index)).toEqual([0, 1]);
      expect(stats.buffers[0].records + stats.buffers[1].records).toBe(600);
      expect(stats.buffers[0].records).toBeGreaterThan(0);
      expect(stats.buffers[1].records).toBeGreaterThan(0);
      const latest = JSON.parse((await c.get("/api/latest?limit=1000")).body).records as {
        device: string;
        buffer: number;
      }[];
      expect(latest.length).toBe(first.devices.size);
      expect(new Set(latest.map((r) => r.buffer))).toEqual(new Set([0, 1]));

      const pids = await workerPids(decoder.url, 2);
      expect(pids.size).toBe(2);
      process.kill(pids.get(1)!, "SIGKILL");
      const restarted = await waitFor("worker 1 back with a new pid", async () => {
        const now = await workerPids(decoder.url, 2);
        return now.get(1) !== undefined && now.get(1) !== pids.get(1) ? now : undefined;
      });
      expect(restarted.get(0)).toBe(pids.get(0));
      const second = await sendAll(decoder.url, "b", 200, 32);
      expect(second.buffers.size).toBe(2);
      await waitFor("all 800 forwarded", async () =>
        JSON.parse((await c.get("/api/stats")).body).forwarded === 800 ? true : undefined,
      );
      const cnt = await m2mGet(cse.cseBaseUrl, "decoder/up");
      expect((cnt.json as { "m2m:cnt": { cni: number } })["m2m:cnt"].cni).toBe(800);
      await decoder.stop();
      expect(await decoder.exited).toBe(0);
    },
  );

  it("forwards the backlog of buffers left by a run with more replicas", async () => {
    const cse = await embeddedCse();
    const proxy = await observingProxy(cse.url);
    try {
      proxy.setMode("refuse");
      const dataDir = tempDir();
      const args = [
        "--data-dir",
        dataDir,
        "--preset",
        "paper",
        "--cse",
        `${proxy.url}/${cse.base}`,
        "--container",
        "shared",
        "--retry-base-ms",
        "50",
        "--retry-max-ms",
        "200",
      ];
      const three = await spawnDecoder([...args, "--replicas", "3"]);
      const sent = await sendAll(three.url, "o", 300, 33);
      expect(sent.buffers.size).toBe(3);
      await three.stop();
      proxy.setMode("pass");
      const one = await spawnDecoder([...args, "--replicas", "1"]);
      const c = client(one.url);
      const s = await waitFor("the three buffers drained by one worker", async () => {
        const st = JSON.parse((await c.get("/api/stats")).body);
        return st.forwarded === 300 ? st : undefined;
      });
      expect(s.buffers.map((b: { index: number; backlog: number }) => [b.index, b.backlog])).toEqual([
        [0, 0],
        [1, 0],
        [2, 0],
      ]);
      const cnt = await m2mGet(cse.cseBaseUrl, "decoder/up");
      expect((cnt.json as { "m2m:cnt": { cni: number } })["m2m:cnt"].cni).toBe(300);
      await one.stop();
    } finally {
      await proxy.close();
    }
  });
});
