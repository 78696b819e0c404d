// The fault suite: thousands of exchanges through corrupt, dropped, delayed, noisy, truncated answers and
// unplugged cables, on a virtual clock. Every call must settle within its bound with either the answer the
// module gave to THAT request or a clear error, and the link must work again once the line is clean.
import { describe, expect, it } from "vitest";
import { Prng } from "#codecs";
import { DevkitConnection } from "../src/client/connection.ts";
import { VirtualClock } from "../src/clock.ts";
import {
  BadAnswerError,
  ClosedError,
  CorruptAnswerError,
  DevkitError,
  DisconnectedError,
  ModuleError,
  TimeoutError,
} from "../src/errors.ts";
import { memoryPair, type MemoryPair } from "../src/link/memory.ts";
import { COMMANDS, type CommandDef, type CommandName } from "../src/protocol/commands.ts";
import { parseFrameText } from "../src/protocol/frame.ts";
import { SimulatedDevice, type Exchange } from "../src/sim/device.ts";
import type { FaultSettings } from "../src/sim/faults.ts";

interface Rig {
  clock: VirtualClock;
  conn: DevkitConnection;
  device: SimulatedDevice;
  exchanges: Exchange[];
  sent: string[];
}

/** A device that can be unplugged by a fault and comes back 2 s later; the connection reopens it by itself. */
async function rig(faults: Partial<FaultSettings>): Promise<Rig> {
  const clock = new VirtualClock();
  const exchanges: Exchange[] = [];
  const sent: string[] = [];
  const device = new SimulatedDevice({
    clock,
    rtcAtStart: 280_000_000,
    pass: { auto: true, delayMs: 20_000 },
    onExchange: (e) => exchanges.push(e),
    faults,
  });
  let pair: MemoryPair | null = null;
  let absentUntil = 0;
  device.onUnplug = () => {
    pair?.unplug();
    pair = null;
    absentUntil = clock.now() + 2000;
  };
  const open = async () => {
    if (clock.now() < absentUntil) throw new Error("no such device");
    pair = memoryPair();
    device.attach(pair.device);
    const host = pair.host;
    const write = host.write.bind(host);
    host.write = async (b: Uint8Array) => {
      await write(b);
      sent.push(String.fromCharCode(...b.subarray(1, b.length - 1)));
    };
    return host;
  };
  const conn = await clock.runUntil(DevkitConnection.open({ open, clock, retryMs: 500 }));
  return { clock, conn, device, exchanges, sent };
}

type Call = { name: CommandName; req: unknown };

function workload(rng: Prng, nextId: () => number): Call {
  const r = rng.next();
  if (r < 0.3)
    return {
      name: "PLD_ER",
      req: { id: nextId(), data: Uint8Array.from({ length: rng.int(0, 160) }, () => rng.int(0, 255)) },
    };
  if (r < 0.36) return { name: "PLD_DR", req: {} };
  if (r < 0.42)
    return {
      name: "GEO_WR",
      req: { latE7: rng.int(-950_000_000, 950_000_000), lonE7: rng.int(-1_850_000_000, 1_850_000_000) },
    };
  if (r < 0.47)
    return {
      name: "CFG_WR",
      req: {
        satAck: rng.next() < 0.8,
        geolocation: rng.next() < 0.3,
        ephemeris: true,
        deepSleep: false,
        evtMask: { satAck: true, reset: true, command: true, messagePending: rng.next() < 0.5 },
      },
    };
  const reads: CommandName[] = [
    "RTC_RR",
    "CFG_RR",
    "MST_RR",
    "EVT_RR",
    "PER_RR",
    "MGI_RR",
    "MSN_RR",
    "NCO_RR",
    "LCD_RR",
    "END_RR",
    "SAK_RR",
    "SAK_CR",
    "CMD_RR",
  ];
  return { name: reads[rng.int(0, reads.length - 1)]!, req: {} };
}

describe("fault suite (memory, virtual clock)", () => {
  it("10 000+ calls under injected faults: each settles in bounds, answers are never misattributed, the link recovers", async () => {
    const faults: Partial<FaultSettings> = {
      seed: 7,
      corruptAnswer: 0.05,
      corruptRequest: 0.03,
      drop: 0.04,
      delay: 0.08,
      delayMs: [50, 4000],
      noise: 0.1,
      truncate: 0.03,
      disconnect: 0.002,
    };
    const r = await rig(faults);
    const rng = new Prng(11);
    let id = 0;
    const outcomes: Record<string, number> = {};
    const count = (k: string) => (outcomes[k] = (outcomes[k] ?? 0) + 1);
    const CALLS = 10_000;
    let checkedAnswers = 0;

    for (let i = 0; i < CALLS; i++) {
      const call = workload(rng, () => (id = (id + 1) & 0xffff));
      const def = COMMANDS[call.name] as unknown as CommandDef<unknown, unknown>;
      const started = r.clock.now();
      const sentBefore = r.sent.length;
      let value: unknown;
      let error: unknown;
      try {
        value = await r.clock.runUntil(r.conn.client.send(def, call.req), 60_000);
      } catch (e) {
        error = e;
      }
      const took = r.clock.now() - started;
      expect(took, `${call.name} #${i} settled after ${took} ms`).toBeLessThanOrEqual(r.conn.client.worstCaseMs(def));

      if (error === undefined || error instanceof ModuleError) {
        // the answer we got must be the one the module gave to the last frame we sent: ours
        const mine = r.sent.length - 1;
        expect(mine).toBeGreaterThanOrEqual(sentBefore);
        const ex = r.exchanges[mine]!;
        expect(ex.request, `exchange ${mine} is our ${call.name}`).toBe(r.sent[mine]);
        const said = parseFrameText(ex.answer!);
        if (said.kind !== "frame") throw new Error("the simulator produced an unparsable answer");
        if (error instanceof ModuleError) {
          expect(said.frame.opcode).toBe(0xff);
          expect(error.code).toBe(said.frame.payload[0]! | (said.frame.payload[1]! << 8));
          count(`refused ${error.errorName}`);
        } else {
          expect(said.frame.opcode).toBe(def.opcode | 0x80);
          expect(value).toEqual(def.decodeAnswer(said.frame.payload));
          count("answered");
        }
        checkedAnswers++;
      } else if (
        error instanceof TimeoutError ||
        error instanceof CorruptAnswerError ||
        error instanceof DisconnectedError
      ) {
        expect((error as Error).message.length).toBeGreaterThan(20);
        count(error.name);
        if (error instanceof DisconnectedError) await r.clock.advance(3000);
      } else {
        // BadAnswerError would mean a damaged answer passed its CRC; anything else is a bug
        expect.fail(
          `${call.name} #${i} failed unexpectedly: ${error instanceof DevkitError ? error.name : ""} ${String(error)}`,
        );
      }
    }

    const injected = r.exchanges.filter((e) => e.fault !== "none" || e.delayMs > 0 || e.corrupted).length;
    expect(r.exchanges.length).toBeGreaterThanOrEqual(CALLS);
    expect(injected).toBeGreaterThan(CALLS * 0.2);
    expect(outcomes["answered"]).toBeGreaterThan(CALLS * 0.5);
    for (const k of [
      "TimeoutError",
      "CorruptAnswerError",
      "DisconnectedError",
      "refused CRC_NOT_VALID",
      "refused BUFFER_FULL",
      "refused INVALID_POS",
    ])
      expect(outcomes[k], k).toBeGreaterThan(0);
    expect(r.conn.reconnects).toBeGreaterThan(0);
    expect(checkedAnswers).toBeGreaterThan(CALLS * 0.6);

    // a clean line again: the very next calls work
    r.device.faults.set({
      corruptAnswer: 0,
      corruptRequest: 0,
      drop: 0,
      delay: 0,
      noise: 0,
      truncate: 0,
      disconnect: 0,
    });
    await r.clock.advance(5000);
    for (let i = 0; i < 50; i++)
      expect((await r.clock.runUntil(r.conn.client.call("MPN_RR", {}))).text).toBe("ASTRONODE-S");
    // every frame we sent reached the simulator, in order, so the attribution check above was exact
    await r.clock.advance(10_000);
    expect(r.exchanges.map((e) => e.request)).toEqual(r.sent);
    console.log(
      `fault suite: ${CALLS} calls, ${r.exchanges.length} exchanges (${injected} with faults), ${r.conn.reconnects} reconnects`,
      outcomes,
    );
    await r.conn.close();
    await expect(r.conn.client.call("RTC_RR", {})).rejects.toBeInstanceOf(ClosedError);
    expect(BadAnswerError).toBeDefined();
  }, 120_000);
});
