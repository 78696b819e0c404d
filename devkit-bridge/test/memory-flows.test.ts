// The client against the simulator in memory: module semantics, the quirk, resynchronisation, unplugging.
import { describe, expect, it } from "vitest";
import { memoryRig } from "./support.ts";
import { ClosedError, DisconnectedError, ModuleError, RequestError, TimeoutError } from "../src/errors.ts";
import { ERR } from "../src/protocol/codes.ts";

const bytes = (n: number, fill = 0x41) => new Uint8Array(n).fill(fill);

async function refused(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ModuleError) return e.code;
    throw e;
  }
  throw new Error("expected a ModuleError");
}

describe("client ↔ simulator (memory)", () => {
  it("sends the dummy first after power-up, then talks normally (with the first-request fault on)", async () => {
    const r = memoryRig({ faults: { firstRequestLost: true } });
    const cfg = await r.run(r.client.call("CFG_RR", {}));
    expect(cfg.productId).toBe(3);
    // the first request after power-up went unanswered (quirk), the next probe found the module
    expect(r.exchanges[0]).toMatchObject({ fault: "quirk" });
    expect(r.frames.filter((f) => f.status === "probe" && f.dir === "tx").length).toBeGreaterThanOrEqual(2);
    expect(r.frames.at(-1)).toMatchObject({ dir: "rx", status: "ok" });
    expect(r.frames.at(-1)!.decoded).toMatch(/^CFG_RA productId=3/);
  });

  it("the first-request quirk is a fault: off by default, on after power-up and every reset when set", async () => {
    const off = memoryRig({ pass: { auto: false } });
    await off.run(off.client.call("CFG_RR", {}));
    off.device.reset();
    off.client.markRestarted();
    await off.run(off.client.call("CFG_RR", {}));
    expect(off.exchanges.filter((e) => e.fault === "quirk")).toEqual([]);

    const on = memoryRig({ pass: { auto: false }, faults: { firstRequestLost: true } });
    await on.run(on.client.call("CFG_RR", {}));
    on.device.reset();
    on.client.markRestarted();
    await on.run(on.client.call("CFG_RR", {}));
    expect(on.exchanges.filter((e) => e.fault === "quirk").length).toBe(2);
    // switched off while running: the next restart answers its first request
    on.device.faults.set({ firstRequestLost: false });
    on.device.reset();
    on.client.markRestarted();
    await on.run(on.client.call("CFG_RR", {}));
    expect(on.exchanges.filter((e) => e.fault === "quirk").length).toBe(2);
  });

  it("PER 0x09 counts payloads that leave the queue unacknowledged (PLD_DR, PLD_FR), not acknowledged ones", async () => {
    const r = memoryRig({ pass: { auto: false } });
    for (let id = 1; id <= 4; id++) await r.run(r.client.call("PLD_ER", { id, data: bytes(10) }));
    await r.run(r.client.call("PLD_DR", {})); // 1, never sent: +1
    r.device.model.satellitePass(); // 2, 3, 4 acknowledged, still queued (ack reporting is on)
    for (let id = 5; id <= 6; id++) await r.run(r.client.call("PLD_ER", { id, data: bytes(10) }));
    expect(await r.run(r.client.call("PLD_DR", {}))).toEqual({ id: 2 }); // acknowledged: no count
    await r.run(r.client.call("PLD_FR", {})); // 3, 4 acknowledged; 5, 6 not: +2
    const per = await r.run(r.client.call("PER_RR", {}));
    expect(per).toMatchObject({ queuedMessages: 6, ackedMessages: 3, dequeuedUnacked: 3 });
    await r.run(r.client.call("PER_CR", {}));
    expect(await r.run(r.client.call("PER_RR", {}))).toMatchObject({ dequeuedUnacked: 0 });
  });

  it("paces the line at 9600 baud when asked: a 160-byte PLD_ER takes 332 characters in and 12 out", async () => {
    const charMs = 10_000 / 9600;
    const timed = async (baud: number | null) => {
      const r = memoryRig({ pass: { auto: false }, baud, processingMs: 2 });
      await r.run(r.client.call("CFG_RR", {}));
      const t0 = r.clock.now();
      await r.run(r.client.call("PLD_ER", { id: 7, data: bytes(160) }));
      return r.clock.now() - t0;
    };
    // the request is heard after its last character (≈ 346 ms), the answer leaves at line speed too
    expect(await timed(9600)).toBeCloseTo(332 * charMs + 2 + 12 * charMs, 0);
    expect(await timed(null)).toBeCloseTo(2, 0);
  });

  it("queues 8, refuses the 9th and duplicates, dequeues FIFO, frees all", async () => {
    const r = memoryRig({ pass: { auto: false } });
    for (let id = 1; id <= 8; id++)
      expect(await r.run(r.client.call("PLD_ER", { id, data: bytes(id * 20) }))).toEqual({ id });
    expect(await refused(r.run(r.client.call("PLD_ER", { id: 9, data: bytes(1) })))).toBe(ERR.BUFFER_FULL);
    expect(await r.run(r.client.call("PLD_DR", {}))).toEqual({ id: 1 });
    expect(await refused(r.run(r.client.call("PLD_ER", { id: 2, data: bytes(1) })))).toBe(ERR.DUPLICATE_ID);
    const mst = await r.run(r.client.call("MST_RR", {}));
    expect(mst).toMatchObject({ queued: 7, ackedInQueue: 0 });
    await r.run(r.client.call("PLD_FR", {}));
    expect(await refused(r.run(r.client.call("PLD_DR", {})))).toBe(ERR.BUFFER_EMPTY);
    // too big for the frame: refused before anything is sent, saying by how much
    expect(() => r.client.call("PLD_ER", { id: 1, data: bytes(161) })).toThrow(RequestError);
  });

  it("satellite pass: ack event, SAK read/clear, downlink after the uplink, counters", async () => {
    const r = memoryRig({ pass: { auto: true, delayMs: 60_000 } });
    await r.run(
      r.client.call("CFG_WR", {
        satAck: true,
        geolocation: false,
        ephemeris: true,
        deepSleep: false,
        evtMask: { satAck: true, reset: true, command: true, messagePending: false },
      }),
    );
    r.device.model.injectDownlink(Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8));
    await r.run(r.client.call("PLD_ER", { id: 42, data: bytes(138) }));
    expect((await r.run(r.client.call("NCO_RR", {}))).seconds).toBeLessThanOrEqual(60);
    expect(await r.run(r.client.call("EVT_RR", {}))).toMatchObject({ satAck: false, messagePending: true });
    await r.clock.advance(61_000);
    expect(await r.run(r.client.call("EVT_RR", {}))).toMatchObject({
      satAck: true,
      command: true,
      messagePending: false,
    });
    expect(await r.run(r.client.call("SAK_RR", {}))).toEqual({ id: 42 });
    await r.run(r.client.call("SAK_CR", {}));
    expect(await refused(r.run(r.client.call("SAK_RR", {})))).toBe(ERR.NO_ACK);
    expect(await refused(r.run(r.client.call("SAK_CR", {})))).toBe(ERR.NO_ACK_CLEAR);
    const cmd = await r.run(r.client.call("CMD_RR", {}));
    expect([...cmd.data]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await r.run(r.client.call("CMD_CR", {}));
    expect(await refused(r.run(r.client.call("CMD_RR", {})))).toBe(ERR.NO_COMMAND);
    const per = await r.run(r.client.call("PER_RR", {}));
    expect(per).toMatchObject({ queuedMessages: 1, ackedMessages: 1, sentFragments: 4, cmdDemodSuccesses: 1 });
    const lcd = await r.run(r.client.call("LCD_RR", {}));
    expect(lcd.end! - lcd.start!).toBeGreaterThan(0);
    expect((await r.run(r.client.call("END_RR", {}))).lastMacResult).toBe(1);
    await r.run(r.client.call("PER_CR", {}));
    expect((await r.run(r.client.call("PER_RR", {}))).ackedMessages).toBe(0);
  });

  it("without ack reporting, acknowledged messages leave the queue silently", async () => {
    const r = memoryRig({ pass: { auto: false } });
    await r.run(
      r.client.call("CFG_WR", {
        satAck: false,
        geolocation: false,
        ephemeris: false,
        deepSleep: false,
        evtMask: { satAck: false, reset: false, command: false, messagePending: false },
      }),
    );
    await r.run(r.client.call("PLD_ER", { id: 5, data: bytes(3) }));
    r.device.model.satellitePass();
    expect(await r.run(r.client.call("MST_RR", {}))).toMatchObject({ queued: 0 });
    expect(await refused(r.run(r.client.call("SAK_RR", {})))).toBe(ERR.NO_ACK);
  });

  it("reset: config reverts to the saved one, EVT bit1 until RES_CR, the queue is gone unless the context was saved", async () => {
    const r = memoryRig({ pass: { auto: false }, faults: { firstRequestLost: true } });
    const base = {
      satAck: true,
      geolocation: false,
      ephemeris: true,
      deepSleep: false,
      evtMask: { satAck: true, reset: true, command: true, messagePending: false },
    };
    await r.run(r.client.call("CFG_WR", { ...base, geolocation: true }));
    await r.run(r.client.call("CFG_SR", {}));
    await r.run(r.client.call("CFG_WR", { ...base, deepSleep: true }));
    await r.run(r.client.call("RES_CR", {}));
    await r.run(r.client.call("PLD_ER", { id: 1, data: bytes(2) }));
    await r.run(r.client.call("CTX_SR", {}));
    await r.run(r.client.call("PLD_ER", { id: 2, data: bytes(2) }));
    r.device.reset();
    r.client.markRestarted();
    const evt = await r.run(r.client.call("EVT_RR", {}));
    expect(evt.reset).toBe(true);
    const cfg = await r.run(r.client.call("CFG_RR", {}));
    expect(cfg).toMatchObject({ geolocation: true, deepSleep: false });
    expect(await r.run(r.client.call("MST_RR", {}))).toMatchObject({ queued: 1, lastResetReason: 2 });
    await r.run(r.client.call("RES_CR", {}));
    expect((await r.run(r.client.call("EVT_RR", {}))).reset).toBe(false);
    // the quirk ate the first request after the reset; the client's probes absorbed it
    expect(r.exchanges.some((e) => e.fault === "quirk" && e.index > 0)).toBe(true);
  });

  it("Wi-Fi: product 4 validates, product 3 does not know the command", async () => {
    const s = memoryRig();
    expect(await refused(s.run(s.client.call("WIF_WR", { ssid: "lab", password: "pw", token: "T".repeat(96) })))).toBe(
      ERR.OPCODE_NOT_VALID,
    );
    const w = memoryRig({ productId: 4 });
    expect((await w.run(w.client.call("CFG_RR", {}))).productId).toBe(4);
    expect(
      await refused(w.run(w.client.call("WIF_WR", { ssid: "l\u00e4b", password: "pw", token: "T".repeat(96) }))),
    ).toBe(ERR.FORMAT_NOT_VALID);
    expect(
      await refused(w.run(w.client.call("WIF_WR", { ssid: "lab", password: "tab\there", token: "T".repeat(96) }))),
    ).toBe(ERR.FORMAT_NOT_VALID);
    expect(await refused(w.run(w.client.call("WIF_WR", { ssid: "lab", password: "pw", token: "T".repeat(95) })))).toBe(
      ERR.ARG_NOT_VALID,
    );
    await w.run(w.client.call("WIF_WR", { ssid: "lab", password: "pw", token: "T".repeat(96) }));
    await w.run(w.client.call("CFG_SR", {}));
  });

  it("geolocation limits, search period enum, lengths, the dummy opcode", async () => {
    const r = memoryRig();
    expect(await refused(r.run(r.client.call("GEO_WR", { latE7: 900_000_001, lonE7: 0 })))).toBe(ERR.INVALID_POS);
    await r.run(r.client.call("GEO_WR", { latE7: 465343400, lonE7: 65787470 }));
    expect(await refused(r.run(r.client.call("SSC_WR", { period: 7, force: false })))).toBe(ERR.PERIOD_INVALID);
    await r.run(r.client.call("SSC_WR", { period: 6, force: true }));
    expect(r.device.model.handle(0x00, new Uint8Array(0))).toEqual({
      opcode: 0xff,
      payload: Uint8Array.of(0x21, 0x01),
    });
    expect(r.device.model.handle(0x17, Uint8Array.of(1))).toEqual({ opcode: 0xff, payload: Uint8Array.of(0x11, 0x00) });
    const rtc = await r.run(r.client.call("RTC_RR", {}));
    expect(rtc.seconds).toBeGreaterThanOrEqual(270_000_000);
    expect((await r.run(r.client.call("MGI_RR", {}))).text).toHaveLength(36);
  });

  it("an unplugged device fails the call at once; after replugging the client resynchronises", async () => {
    const r = memoryRig();
    await r.run(r.client.call("RTC_RR", {}));
    r.pair.unplug();
    await expect(r.run(r.client.call("RTC_RR", {}))).rejects.toBeInstanceOf(DisconnectedError);
    r.replug();
    expect((await r.run(r.client.call("MPN_RR", {}))).text).toBe("ASTRONODE-S");
  });

  it("a silent module: every call rejects within its bound, none hangs", async () => {
    const r = memoryRig({ faults: { drop: 1 } });
    const start = r.clock.now();
    await expect(r.run(r.client.call("RTC_RR", {}))).rejects.toBeInstanceOf(TimeoutError);
    expect(r.clock.now() - start).toBeLessThanOrEqual(r.client.worstCaseMs());
    r.client.close();
    await expect(r.run(r.client.call("RTC_RR", {}))).rejects.toBeInstanceOf(ClosedError);
  });
});
