// Client ↔ simulator over a real pseudo-terminal (socat) through the serialport binding: the module's
// flows end to end, unplug/replug, and a smaller fault run in real time.
import { afterEach, describe, expect, it } from "vitest";
import { DevkitConnection, type ConnectionState } from "../src/client/connection.ts";
import { realClock } from "../src/clock.ts";
import { CorruptAnswerError, DisconnectedError, ModuleError, TimeoutError } from "../src/errors.ts";
import { openSerial } from "../src/link/serial.ts";
import type { Link } from "../src/link/types.ts";
import { ERR } from "../src/protocol/codes.ts";
import { COMMANDS, type CommandDef } from "../src/protocol/commands.ts";
import { parseFrameText } from "../src/protocol/frame.ts";
import type { Exchange } from "../src/sim/device.ts";
import { startPtySimulator, type PtyOptions, type PtySimulator } from "../src/sim/pty.ts";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup(
  opts: Partial<PtyOptions> = {},
  client: { timeoutMs?: number; probeTimeoutMs?: number } = {},
  wrap?: (l: Link) => Link,
) {
  const sim = await startPtySimulator({ clock: realClock, ...opts });
  cleanup.push(() => sim.close());
  const states: ConnectionState[] = [];
  const conn = await DevkitConnection.open({
    open: async () => (wrap ? wrap(await openSerial(sim.path)) : openSerial(sim.path)),
    retryMs: 100,
    client,
    onState: (s) => states.push(s),
  });
  cleanup.push(() => conn.close());
  return { sim, conn, c: conn.client, states };
}

async function code(p: Promise<unknown>): Promise<number> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ModuleError) return e.code;
    throw e;
  }
  throw new Error("expected the module to refuse");
}

const cfg = {
  satAck: true,
  geolocation: true,
  ephemeris: true,
  deepSleep: false,
  evtMask: { satAck: true, reset: true, command: true, messagePending: false },
};

describe("over a pseudo-terminal with the serialport binding", () => {
  it("configure, 8 enqueued, BUFFER_FULL, DUPLICATE_ID, satellite pass, SAK, downlink, reset event", async () => {
    const { sim, c } = await setup({ pass: { auto: false } });
    expect(sim.path).toMatch(/ttyDEVKIT0$/);
    await c.call("CFG_WR", cfg);
    await c.call("GEO_WR", { latE7: 465343400, lonE7: 65787470 });
    await c.call("CFG_SR", {});
    expect(await c.call("CFG_RR", {})).toMatchObject({ productId: 3, satAck: true, geolocation: true });

    for (let id = 100; id < 108; id++)
      expect(await c.call("PLD_ER", { id, data: new Uint8Array(138).fill(id) })).toEqual({ id });
    expect(await code(c.call("PLD_ER", { id: 108, data: Uint8Array.of(1) }))).toBe(ERR.BUFFER_FULL);
    expect(await c.call("PLD_DR", {})).toEqual({ id: 100 });
    expect(await code(c.call("PLD_ER", { id: 101, data: Uint8Array.of(1) }))).toBe(ERR.DUPLICATE_ID);
    expect(await c.call("MST_RR", {})).toMatchObject({ queued: 7, ackedInQueue: 0 });

    sim.device.model.injectDownlink(new Uint8Array(40).fill(0xab));
    sim.device.model.satellitePass();
    expect(await c.call("EVT_RR", {})).toMatchObject({ satAck: true, command: true, messagePending: false });
    const acked: number[] = [];
    for (;;) {
      try {
        acked.push((await c.call("SAK_RR", {})).id);
      } catch (e) {
        expect((e as ModuleError).code).toBe(ERR.NO_ACK);
        break;
      }
      await c.call("SAK_CR", {});
    }
    expect(acked).toEqual([101, 102, 103, 104, 105, 106, 107]);
    const cmd = await c.call("CMD_RR", {});
    expect(cmd.data).toEqual(new Uint8Array(40).fill(0xab));
    await c.call("CMD_CR", {});
    expect(await code(c.call("CMD_CR", {}))).toBe(ERR.NO_COMMAND_CLEAR);

    // reset pin: RAM config is lost, the saved one is back, EVT bit1 stays until RES_CR
    await c.call("CFG_WR", { ...cfg, geolocation: false });
    sim.device.reset();
    c.markRestarted();
    expect((await c.call("EVT_RR", {})).reset).toBe(true);
    expect((await c.call("CFG_RR", {})).geolocation).toBe(true);
    await c.call("RES_CR", {});
    expect((await c.call("EVT_RR", {})).reset).toBe(false);
  });

  it("runs at the module's 9600 baud by default: a 160-byte PLD_ER is not answered before its 346 ms on the line", async () => {
    const { sim, c } = await setup({ pass: { auto: false } });
    expect(sim.device.baud).toBe(9600);
    await c.call("CFG_RR", {});
    const t0 = performance.now();
    expect(await c.call("PLD_ER", { id: 9, data: new Uint8Array(160).fill(0x5a) })).toEqual({ id: 9 });
    // 332 characters in + 12 out at 10 bits each; only a lower bound, a loaded machine is slower still
    expect(performance.now() - t0).toBeGreaterThanOrEqual(((332 + 12) * 10_000) / 9600 - 1);
    expect(await c.call("PER_RR", {})).toMatchObject({ queuedMessages: 1 });
  });

  it("Wi-Fi DevKit setup: invalid characters rejected by the module, a valid setup saved", async () => {
    const { c } = await setup({ productId: 4 });
    expect((await c.call("CFG_RR", {})).productId).toBe(4);
    expect(await code(c.call("WIF_WR", { ssid: "Büro", password: "pw", token: "T".repeat(96) }))).toBe(
      ERR.FORMAT_NOT_VALID,
    );
    expect(await code(c.call("WIF_WR", { ssid: "lab", password: "new\nline", token: "T".repeat(96) }))).toBe(
      ERR.FORMAT_NOT_VALID,
    );
    await c.call("WIF_WR", { ssid: "lab-net", password: "correct horse", token: "a1".repeat(48) });
    await c.call("CFG_SR", {});
  });

  it("unplugging: calls fail with DisconnectedError, the connection reopens the port by itself", async () => {
    const { sim, conn, c, states } = await setup({ pass: { auto: false } });
    await c.call("RTC_RR", {});
    await sim.unplug();
    await expect.poll(() => conn.state, { timeout: 5000 }).toBe("reconnecting");
    await expect(c.call("RTC_RR", {})).rejects.toBeInstanceOf(DisconnectedError);
    await sim.replug();
    await expect.poll(() => conn.state, { timeout: 5000 }).toBe("ready");
    expect((await c.call("MPN_RR", {})).text).toBe("ASTRONODE-S");
    expect(states).toEqual(["ready", "reconnecting", "ready"]);
    expect(conn.reconnects).toBe(1);
  });

  it("a smaller fault run in real time: answers are attributed exactly, the link recovers", async () => {
    const exchanges: Exchange[] = [];
    const sent: string[] = [];
    const record = (l: Link): Link => {
      const write = l.write.bind(l);
      l.write = async (b: Uint8Array) => {
        await write(b);
        sent.push(String.fromCharCode(...b.subarray(1, b.length - 1)));
      };
      return l;
    };
    const faults = {
      seed: 3,
      corruptAnswer: 0.06,
      corruptRequest: 0.04,
      drop: 0.04,
      delay: 0.06,
      delayMs: [10, 500] as [number, number],
      noise: 0.15,
      truncate: 0.04,
    };
    const { sim, c } = await setup(
      { pass: { auto: false }, faults, onExchange: (e) => exchanges.push(e) },
      { timeoutMs: 250, probeTimeoutMs: 120 },
      record,
    );
    const outcomes: Record<string, number> = {};
    for (let i = 0; i < 150; i++) {
      const def = (i % 3 === 0
        ? COMMANDS.PLD_ER
        : i % 3 === 1
          ? COMMANDS.RTC_RR
          : COMMANDS.PLD_DR) as unknown as CommandDef<unknown, unknown>;
      const req = def === (COMMANDS.PLD_ER as unknown) ? { id: i, data: Uint8Array.of(i & 0xff, 1, 2) } : {};
      try {
        const v = await c.send(def, req);
        const ex = exchanges[sent.length - 1]!;
        expect(ex.request).toBe(sent.at(-1));
        const said = parseFrameText(ex.answer!);
        expect(said.kind === "frame" && def.decodeAnswer(said.frame.payload)).toEqual(v);
        outcomes.answered = (outcomes.answered ?? 0) + 1;
      } catch (e) {
        if (e instanceof ModuleError) {
          const said = parseFrameText(exchanges[sent.length - 1]!.answer!);
          expect(said.kind === "frame" && said.frame.opcode).toBe(0xff);
        } else expect(e instanceof TimeoutError || e instanceof CorruptAnswerError, String(e)).toBe(true);
        outcomes[(e as Error).name] = (outcomes[(e as Error).name] ?? 0) + 1;
      }
      // no bound on the wall time: a loaded machine stretches it; that every call settles within the
      // client's worst case is proven on a virtual clock (faults.test.ts)
    }
    expect(outcomes.answered).toBeGreaterThan(60);
    expect(outcomes.TimeoutError ?? 0).toBeGreaterThan(0);
    sim.device.faults.set({ corruptAnswer: 0, corruptRequest: 0, drop: 0, delay: 0, noise: 0, truncate: 0 });
    await new Promise((r) => setTimeout(r, 700));
    for (let i = 0; i < 10; i++) expect((await c.call("MSN_RR", {})).text).toBe("ASN0000000000042");
  }, 120_000);
});
