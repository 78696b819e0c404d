// The bench's HostApi over the simulated DevKit on a pseudo-terminal: connect, info, configure, send the
// paper preset's Protobuf payload, acks through polling into the database, downlink, reset, Wi-Fi, log.
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { bytesToHex, paperPreset, parseLayout } from "#codecs";
import { designPayload } from "./design.ts";
import type { EventName } from "../api/contract.ts";
import { DB_FILE_NAME } from "../db/open.ts";
import { devkitServiceOf } from "../handlers/devkit.ts";
import type { Host } from "../host.ts";
import { call, failure, tempDir, testHost } from "../test/support.ts";

const opened: Host[] = [];
afterEach(async () => {
  for (const h of opened.splice(0)) await devkitServiceOf(h.events)?.dispose();
});

function bench(dataDir = tempDir()) {
  const host = testHost({ dataDir });
  opened.push(host);
  const seen: { event: EventName; payload: unknown }[] = [];
  host.events.subscribe((event, payload) => seen.push({ event, payload }));
  return { host, seen, dataDir };
}

const config = {
  satAck: true,
  geolocation: false,
  ephemeris: true,
  deepSleep: false,
  evtMask: { satAck: true, reset: true, command: true, messagePending: false },
};

describe("devkit host API (simulated DevKit on a pty)", () => {
  it("lists the simulators first and explains nothing is connected", async () => {
    const { host } = bench();
    const ports = await call(host, "devkit.ports", {});
    expect(ports.ports.slice(0, 2).map((p) => p.id)).toEqual(["sim:astronode-s", "sim:wifi-devkit"]);
    expect(await call(host, "devkit.status", {})).toMatchObject({ state: "disconnected", port: null });
    expect(await failure(host.dispatch("devkit.info", {}))).toMatchObject({
      code: "conflict",
      message: expect.stringMatching(/no DevKit is connected/),
    });
    expect(await failure(host.dispatch("devkit.connect", { port: "/dev/ttyUSB_satpayload_none" }))).toMatchObject({
      code: "conflict",
      message: expect.stringMatching(/does not exist/),
    });
  });

  it("sends the paper preset's Protobuf payload, records it, and marks it acknowledged after a pass", async () => {
    const { host, seen, dataDir } = bench();
    const project = await call(host, "projects.create", { name: "Container", layout: paperPreset });
    const status = await call(host, "devkit.connect", { port: "sim:astronode-s" });
    expect(status).toMatchObject({ state: "ready", simulated: true, productId: 3, productName: "Astronode S" });
    expect(status.simulatorPath).toMatch(/ttyDEVKIT0$/);
    await call(host, "devkit.polling", { enabled: false });

    const info = await call(host, "devkit.info", {});
    expect(info).toMatchObject({ productId: 3, firmware: "2.1.0", productNumber: "ASTRONODE-S" });
    expect(info.guid).toHaveLength(36);
    expect(Date.parse(info.rtc)).toBeGreaterThan(Date.parse("2024-01-01"));

    await call(host, "devkit.configure", { config, position: { lat: 31.86, lon: 28.74 }, save: true });
    // the simulated line runs at 9600 baud and the start-up quirk is off until asked for
    expect(await call(host, "devkit.simSettings", { autoPass: false })).toEqual({
      autoPass: false,
      passDelayMs: 8000,
      lineRate: true,
      firstRequestLost: false,
    });
    const sim = devkitServiceOf(host.events)!.simulator().device;
    expect(sim.baud).toBe(9600);
    expect(await call(host, "devkit.simSettings", { lineRate: false, firstRequestLost: true })).toMatchObject({
      lineRate: false,
      firstRequestLost: true,
    });
    expect([sim.baud, sim.faults.current.firstRequestLost]).toEqual([null, true]);
    expect(await call(host, "devkit.simSettings", { lineRate: true, firstRequestLost: false })).toMatchObject({
      lineRate: true,
      firstRequestLost: false,
    });
    expect(sim.baud).toBe(9600);

    const t = await call(host, "devkit.sendDesign", { projectId: project.id, format: "protobuf", sample: 0, seed: 1 });
    const expected = designPayload(parseLayout(paperPreset), "protobuf", 0, 1);
    expect(t).toMatchObject({
      projectId: project.id,
      layoutVersion: 1,
      format: "protobuf",
      sample: 0,
      seed: 1,
      status: "queued",
      bytes: expected.length,
      port: "sim:astronode-s",
    });
    expect(t.payloadHex).toBe(bytesToHex(expected));
    expect(t.bytes).toBeGreaterThanOrEqual(136);
    expect(t.bytes).toBeLessThanOrEqual(140);

    const tooBig = await failure(
      host.dispatch("devkit.sendDesign", { projectId: project.id, format: "json", sample: 0, seed: 1 }),
    );
    expect(tooBig.code).toBe("bad_request");
    expect(tooBig.message).toMatch(
      /the json payload of sample 0 is 4\d\d bytes: 2\d\d over the Astronode's 160-byte limit/,
    );

    const queue = await call(host, "devkit.queue", {});
    expect(queue.module).toMatchObject({ queued: 1, ackedInQueue: 0 });
    expect(queue.ours.map((x) => x.queueId)).toEqual([t.queueId]);

    expect(await call(host, "devkit.simPass", {})).toEqual({ sent: [t.queueId], downlink: false });
    const polled = await call(host, "devkit.poll", {});
    expect(polled.acked).toEqual([t.queueId]);
    const [row] = await call(host, "devkit.transmissions", { projectId: project.id });
    expect(row).toMatchObject({ id: t.id, status: "acked" });
    expect(Date.parse(row!.ackedAt!)).toBeGreaterThanOrEqual(Date.parse(t.enqueuedAt));
    expect(seen.some((s) => s.event === "devkit.notice" && (s.payload as { kind: string }).kind === "ack")).toBe(true);

    // the row is in the projects database itself, with everything the issue asks for
    const db = new Database(path.join(dataDir, DB_FILE_NAME), { readonly: true });
    try {
      const stored = db
        .prepare(
          "SELECT payload_hex, format, layout_version, queue_id, acked_at FROM devkit_transmissions WHERE id = ?",
        )
        .get(t.id);
      expect(stored).toEqual({
        payload_hex: t.payloadHex,
        format: "protobuf",
        layout_version: 1,
        queue_id: t.queueId,
        acked_at: row!.ackedAt,
      });
    } finally {
      db.close();
    }

    // the log has every frame, decoded, and exports as text and JSON lines
    const log = await call(host, "devkit.log", { limit: 500 });
    expect(log.some((e) => e.dir === "tx" && e.decoded.startsWith("PLD_ER id=" + t.queueId))).toBe(true);
    expect(log.some((e) => e.dir === "rx" && e.decoded === `SAK_RA id=${t.queueId}`)).toBe(true);
    const text = await call(host, "devkit.logExport", { format: "text" });
    expect(text.fileName).toMatch(/^devkit-log-.*\.txt$/);
    expect(text.content).toContain("PLD_ER");
    const jsonl = await call(host, "devkit.logExport", { format: "jsonl" });
    expect(
      jsonl.content
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).seq),
    ).toEqual(log.map((e) => e.seq));
    expect(seen.filter((s) => s.event === "devkit.frame").length).toBe(log.length);
  });

  it("custom hex, dequeue and free; downlink after an uplink; a reset re-writes the configuration", async () => {
    const { host, seen } = bench();
    await call(host, "devkit.connect", { port: "sim:astronode-s" });
    await call(host, "devkit.polling", { enabled: false });
    await call(host, "devkit.simSettings", { autoPass: false });
    await call(host, "devkit.configure", { config: { ...config, deepSleep: true }, save: false });

    expect(await failure(host.dispatch("devkit.enqueueHex", { hex: "zz" }))).toMatchObject({ code: "bad_request" });
    expect((await failure(host.dispatch("devkit.enqueueHex", { hex: "00".repeat(161) }))).message).toMatch(
      /161 bytes: 1 over/,
    );
    const a = await call(host, "devkit.enqueueHex", { hex: "01 02 03" });
    const b = await call(host, "devkit.enqueueHex", { hex: "0x0405" });
    expect(await call(host, "devkit.dequeue", {})).toEqual({ id: a.queueId });
    expect((await call(host, "devkit.transmissions", {})).find((x) => x.id === a.id)?.status).toBe("dequeued");

    expect(await failure(host.dispatch("devkit.simDownlink", { hex: "0102" }))).toMatchObject({ code: "bad_request" });
    await call(host, "devkit.simDownlink", { hex: "0102030405060708" });
    await call(host, "devkit.simPass", {});
    const p = await call(host, "devkit.poll", {});
    expect(p.downlink).toMatchObject({ hex: "0102030405060708", bytes: 8 });
    expect(p.acked).toEqual([b.queueId]);
    expect(await call(host, "devkit.downlinkRead", {})).toMatchObject({ hex: "0102030405060708" });
    await call(host, "devkit.downlinkClear", {});
    expect(await call(host, "devkit.downlinkRead", {})).toBeNull();

    await call(host, "devkit.enqueueHex", { hex: "AA" });
    await call(host, "devkit.free", {});
    expect((await call(host, "devkit.queue", {})).ours).toEqual([]);

    await call(host, "devkit.simReset", {});
    const r = await call(host, "devkit.poll", {});
    expect(r.reset).toBe(true);
    expect((await call(host, "devkit.command", { name: "CFG_RR" })).answer).toMatchObject({ deepSleep: true });
    expect((await call(host, "devkit.command", { name: "EVT_RR" })).answer).toMatchObject({ reset: false });
    expect(seen.some((s) => s.event === "devkit.notice" && (s.payload as { kind: string }).kind === "reset")).toBe(
      true,
    );

    const counters = await call(host, "devkit.counters", {});
    expect(counters.mst).toMatchObject({ lastResetReason: 2 });
    expect(Object.keys(counters.per)).toHaveLength(14);
    expect(
      (await call(host, "devkit.command", { name: "GEO_WR", args: { lat: 95, lon: 0 } }).catch((e) => e)).message,
    ).toMatch(/INVALID_POS/);
    expect(await failure(host.dispatch("devkit.command", { name: "SSC_WR", args: { period: "x" } }))).toMatchObject({
      code: "bad_request",
    });
    expect((await call(host, "devkit.command", { name: "PLD_ER", args: { hex: "0A0B" } })).answer).toMatchObject({
      bytes: 2,
      status: "queued",
    });
    expect(await call(host, "devkit.disconnect", {})).toMatchObject({ state: "disconnected" });
  });

  it("Wi-Fi setup: problems per field before sending; the satellite module refuses the command", async () => {
    const { host } = bench();
    const bad = await failure(host.dispatch("devkit.wifi", { ssid: "Büro", password: "ok", token: "t".repeat(95) }));
    expect(bad.issues?.map((i) => i.path).sort()).toEqual(["ssid", "token"]);
    await call(host, "devkit.connect", { port: "sim:wifi-devkit" });
    expect((await call(host, "devkit.status", {})).productName).toBe("Wi-Fi DevKit");
    expect(await call(host, "devkit.wifi", { ssid: "lab", password: "secret", token: "t".repeat(96) })).toEqual({
      saved: true,
    });
    await call(host, "devkit.connect", { port: "sim:astronode-s" });
    expect(
      (await failure(host.dispatch("devkit.wifi", { ssid: "lab", password: "secret", token: "t".repeat(96) }))).message,
    ).toMatch(/OPCODE_NOT_VALID/);
  });

  it("background polling acknowledges on its own and emits status changes", async () => {
    const { host, seen } = bench();
    await call(host, "devkit.connect", { port: "sim:astronode-s" });
    await call(host, "devkit.polling", { enabled: true, intervalMs: 250 });
    await call(host, "devkit.simSettings", { autoPass: true, passDelayMs: 300 });
    const t = await call(host, "devkit.enqueueHex", { hex: "CAFE" });
    await expect
      .poll(async () => (await call(host, "devkit.transmissions", {})).find((x) => x.id === t.id)?.status, {
        timeout: 10_000,
      })
      .toBe("acked");
    expect(
      seen.filter((s) => s.event === "devkit.status").map((s) => (s.payload as { state: string }).state),
    ).toContain("ready");
  });
});
