// The stack supervisor through the HostApi and directly: start/stop with chosen ports, health checks,
// restart on crash and on hang, captured logs, live events, and stacks another process runs.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { codecFor, generateSamples, parseLayout, presetById } from "#codecs";
import { spawnOwned } from "#codecs-test/helpers/processes/owned.ts";
import { freePort } from "#services/shared/ports.ts";
import type { EventName } from "../../api/contract.ts";
import { stackOptionsSchema, type StackStatus } from "../../api/stack.ts";
import { stackSupervisorOf } from "../../handlers/stack.ts";
import { call, failure, tempDir, testHost } from "../../test/support.ts";
import { pidAlive, writeState } from "../stateFile.ts";
import { StackSupervisor } from "../supervisor.ts";

const paper = parseLayout(presetById("paper")!.layout);
const samples = generateSamples(paper, 20, 77).map((r) => codecFor(paper, "protobuf").encode(r));

const supervisors: StackSupervisor[] = [];
afterEach(async () => {
  for (const s of supervisors.splice(0)) await s.close();
});

async function ingest(url: string, i: number): Promise<Response> {
  return fetch(url, {
    method: "POST",
    body: samples[i % samples.length] as Uint8Array<ArrayBuffer>,
    headers: {
      "content-type": "application/x-protobuf",
      "x-satpayload-layout": "paper",
      "x-satpayload-message-id": `sup-${i}`,
    },
  });
}

async function until<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  ms = 60_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("stack through the HostApi", () => {
  it(
    "starts the CSE and 2 decoder replicas on given ports, streams stats and records, keeps logs, and stops",
    { timeout: 120_000 },
    async () => {
      const host = testHost();
      const seen: { event: EventName; payload: unknown }[] = [];
      host.events.subscribe((event, payload) => seen.push({ event, payload }));
      supervisors.push(stackSupervisorOf(host.events)!);
      expect((await call(host, "stack.status", {})).state).toBe("stopped");
      expect((await failure(host.dispatch("stack.up", { replicas: 0 }))).code).toBe("bad_request");
      expect((await failure(host.dispatch("stack.up", { cseUrl: "ftp://x" }))).code).toBe("bad_request");

      const decoderPort = await freePort();
      const up = await call(host, "stack.up", { replicas: 2, decoderPort, container: "shared" });
      expect(up.state).toBe("running");
      expect(up.owner).toBe("app");
      expect(up.endpoints!.ingest).toBe(`http://127.0.0.1:${decoderPort}/ingest`);
      expect(up.endpoints!.container).toMatch(/\/Mobius\/decoder\/up$/);
      expect(up.services.map((s) => [s.name, s.state])).toEqual([
        ["cse", "running"],
        ["decoder", "running"],
      ]);
      // a second up with the same settings is the same stack
      expect((await call(host, "stack.up", { replicas: 2, decoderPort, container: "shared" })).startedAt).toBe(
        up.startedAt,
      );
      expect((await failure(host.dispatch("stack.up", { replicas: 1 }))).code).toBe("conflict");

      for (let i = 0; i < 5; i++) expect((await ingest(up.endpoints!.ingest, i)).status).toBe(201);
      const ingested = await until("a stack.ingested event", () => seen.find((e) => e.event === "stack.ingested"));
      expect((ingested.payload as { records: { messageId: string }[] }).records[0]!.messageId).toMatch(/^sup-/);
      await until("stats with 5 forwarded", () =>
        seen.some((e) => e.event === "stack.stats" && (e.payload as { forwarded: number }).forwarded === 5),
      );
      const latest = await call(host, "stack.latest", { limit: 10 });
      expect(latest.records.length).toBe(5);
      const stats = await call(host, "stack.stats", {});
      expect(stats).toMatchObject({ records: 5, forwarded: 5, backlog: 0 });
      // the record reached the embedded CSE
      const cin = await fetch(`${up.endpoints!.cse}/decoder/up/la`, {
        headers: { "X-M2M-RI": "t", "X-M2M-Origin": "Sponde", "X-M2M-RVI": "3", Accept: "application/json" },
      });
      expect(cin.status).toBe(200);

      await until("both healthy", async () =>
        (await call(host, "stack.status", {})).services.every((s) => s.healthy === true),
      );
      const logs = await call(host, "stack.logs", { limit: 500 });
      expect(logs.lines.some((l) => l.service === "decoder" && /listening on/.test(l.text))).toBe(true);
      expect(logs.lines.some((l) => l.service === "cse" && /started \(pid/.test(l.text))).toBe(true);
      expect(
        (await call(host, "stack.logs", { service: "cse", limit: 500 })).lines.every((l) => l.service === "cse"),
      ).toBe(true);
      expect(seen.some((e) => e.event === "stack.log")).toBe(true);
      expect(existsSync(path.join(up.dir, "logs", "decoder.log"))).toBe(true);
      const state = JSON.parse(readFileSync(path.join(up.dir, "state.json"), "utf8"));
      expect(state).toMatchObject({ pid: process.pid, owner: "app", decoderUrl: `http://127.0.0.1:${decoderPort}` });

      const pids = up.services.map((s) => s.pid!);
      const down = await call(host, "stack.down", {});
      expect(down.state).toBe("stopped");
      expect(down.services.every((s) => s.state === "stopped")).toBe(true);
      for (const pid of pids) expect(pidAlive(pid)).toBe(false);
      expect(existsSync(path.join(up.dir, "state.json"))).toBe(false);
      const states = seen.filter((e) => e.event === "stack.status").map((e) => (e.payload as StackStatus).state);
      expect(states).toContain("starting");
      expect(states.at(-1)).toBe("stopped");
    },
  );
});

describe("host shutdown", () => {
  it("stops the stack when the host closes (the app quits)", { timeout: 120_000 }, async () => {
    const host = testHost();
    const up = await call(host, "stack.up", {});
    // one replica: the embedded CSE runs inside the decoder, a record is in it once acknowledged
    expect(up.services.map((s) => s.name)).toEqual(["decoder"]);
    expect((await ingest(up.endpoints!.ingest, 7)).status).toBe(201);
    // found by its message id (the instance's msgid: label, given twice: the stack's CSE answers
    // as a real Mobius does, where one value matches nothing); named by the ULID of its arrival
    const la = await fetch(`${up.endpoints!.cse}/decoder?fu=1&ty=4&lbl=msgid:sup-7&lbl=msgid:sup-7`, {
      headers: { "X-M2M-RI": "t", "X-M2M-Origin": "Sponde", "X-M2M-RVI": "3", Accept: "application/json" },
    });
    expect(((await la.json()) as { "m2m:uril": string[] })["m2m:uril"].map((u) => u.split("/").at(-1))).toEqual([
      expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
    ]);
    expect(await call(host, "stack.stats", {})).toMatchObject({
      records: 1,
      delivered: 1,
      pending: 0,
      refused: 0,
      forwarded: 1,
      backlog: 0,
    });
    const pids = up.services.map((x) => x.pid!);
    expect(pids.every(pidAlive)).toBe(true);
    await host.close();
    for (const pid of pids) expect(pidAlive(pid)).toBe(false);
    expect(existsSync(path.join(up.dir, "state.json"))).toBe(false);
  });
});

describe("supervision", () => {
  it(
    "restarts a crashed decoder on the same port and a hung CSE after failed health checks",
    { timeout: 120_000 },
    async () => {
      const statuses: StackStatus[] = [];
      const sup = new StackSupervisor({
        dataDir: tempDir(),
        owner: "app",
        timings: { healthEveryMs: 300, unhealthyKillAfter: 3, restartBaseMs: 100 },
        onStatus: (s) => statuses.push(s),
      });
      supervisors.push(sup);
      // the CSE as its own process: this test is about supervising two of them
      const up = await sup.up({ container: "shared", cseInProcess: false });
      const decoder = up.services.find((s) => s.name === "decoder")!;
      process.kill(decoder.pid!, "SIGKILL");
      const back = await until("the decoder restarted", () => {
        const d = sup.status().services.find((s) => s.name === "decoder")!;
        return d.state === "running" && d.pid !== decoder.pid ? d : undefined;
      });
      expect(back.restarts).toBe(1);
      expect(back.url).toBe(decoder.url);
      expect(back.lastExit).toMatch(/SIGKILL/);
      expect(statuses.some((s) => s.state === "degraded")).toBe(true);
      expect((await ingest(up.endpoints!.ingest, 1)).status).toBe(201);

      const cse = sup.status().services.find((s) => s.name === "cse")!;
      // a hung process: alive, never answering
      process.kill(cse.pid!, "SIGSTOP");
      const revived = await until("the hung CSE replaced", () => {
        const c = sup.status().services.find((s) => s.name === "cse")!;
        return c.state === "running" && c.pid !== cse.pid && c.healthy === true ? c : undefined;
      });
      expect(revived.url).toBe(cse.url);
      expect(sup.logs(500, "cse").some((l) => /no healthy answer in 3 checks/.test(l.text))).toBe(true);
      expect(pidAlive(cse.pid!)).toBe(false);
      await until("the record forwarded after the CSE came back", async () => (await sup.stats())?.forwarded === 1);
      await sup.down();
      expect(sup.status().state).toBe("stopped");
    },
  );

  it("reports a stack another process runs, refuses a second one, and stops it when that process is the CLI", async () => {
    const dataDir = tempDir();
    // stands in for a detached `satpayload stack up`: a live process recorded in state.json
    const other = spawnOwned(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], {
      stdio: "ignore",
      stop: (me) => me.signal("SIGKILL"),
    });
    const exited = other.exited;
    try {
      const sup = new StackSupervisor({ dataDir, owner: "app" });
      supervisors.push(sup);
      const endpoints = {
        ingest: "http://127.0.0.1:9/ingest",
        ingestBase64: "",
        latest: "",
        stats: "",
        events: "",
        health: "",
        cse: "",
        container: "",
        routes: [],
      };
      writeState(sup.dir, {
        pid: other.pid!,
        owner: "cli",
        startedAt: new Date().toISOString(),
        options: stackOptionsSchema.parse({}),
        endpoints,
        decoderUrl: "http://127.0.0.1:9",
        cseUrl: null,
      });
      const s = sup.status();
      expect(s).toMatchObject({ state: "running", owner: "cli", ownerPid: other.pid });
      await expect(sup.up({})).rejects.toMatchObject({
        code: "conflict",
        message: expect.stringMatching(/satpayload stack up/),
      });
      await sup.down();
      await exited;
      expect(sup.status().state).toBe("stopped");
    } finally {
      await other.stop();
    }
  });
});
