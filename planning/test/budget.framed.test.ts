// Sigfox, Kinéis, ORBCOMM and NB-IoT / LTE-M: frames of payload + overhead at a bit rate, repeated where the
// platform repeats; Sigfox's duty cycle and 140 messages a day; the transport's headers on an IP bearer.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_TRACKER,
  PLATFORMS,
  SIGFOX_RADIO,
  airtimeOf,
  deviceBudget,
  overheadFn,
  radioModelFor,
  sizeBudget,
  type Cited,
} from "../src/index.ts";

const device = DEFAULT_TRACKER;

describe("framed radios", () => {
  it("Sigfox: 12 B sent 3 times as 26-byte frames at 100 bit/s = 6.24 s on air", () => {
    expect(airtimeOf({ platform: "sigfox" }, 12)).toEqual({ seconds: (3 * (12 + 14) * 8) / 100, frames: 3 });
    expect(() => airtimeOf({ platform: "sigfox" }, 13)).toThrow("13 B is over the 12 B a Sigfox message allows");
  });

  it("Sigfox: a message every 10 minutes breaks the 1 % duty cycle and the 140 messages a day", () => {
    const b = deviceBudget({
      choice: { platform: "sigfox" },
      bytesOnAir: 12,
      readingsPerMessage: 1,
      intervalSeconds: 600,
      device,
    });
    expect(b.limits).toEqual([
      expect.objectContaining({ id: "duty-cycle", allowedS: 864, ok: false }),
      expect.objectContaining({ id: "messages-a-day", allowedMessages: 140, ok: false }),
    ]);
    expect(b.limits[1]!.usedMessages).toBeCloseTo(144, 9);
    const hourly = deviceBudget({
      choice: { platform: "sigfox" },
      bytesOnAir: 12,
      readingsPerMessage: 1,
      intervalSeconds: 3600,
      device,
    });
    expect(hourly.limits.every((l) => l.ok)).toBe(true);
  });

  it("Sigfox's energy: 3 frames at the TX current and two gaps at the wait current", () => {
    const b = deviceBudget({
      choice: { platform: "sigfox" },
      bytesOnAir: 12,
      readingsPerMessage: 1,
      intervalSeconds: 3600,
      device,
    });
    const r = SIGFOX_RADIO;
    expect(b.energyPerMessageJ.tx).toBeCloseTo(6.24 * (r.txMa.value / 1000) * r.supplyVolts.value, 12);
    expect(b.energyPerMessageJ.wait).toBeCloseTo(2 * r.gapS.value * (r.waitMa.value / 1000) * r.supplyVolts.value, 12);
  });

  it("NB-IoT: the transport's headers travel with the payload (CoAP CON / UDP / IPv4 by default)", () => {
    const coap = overheadFn("coap-con", { layout: "device", format: "protobuf" });
    const w = { intervalSeconds: 3600, device };
    const withStack = sizeBudget("nbiot-tn", 40, w, { transportOverhead: coap })!;
    const bare = sizeBudget("nbiot-tn", 40, w)!;
    expect(withStack.bytesOnAir).toBe(40 + coap(40));
    expect(coap(40)).toBeGreaterThan(0);
    expect(withStack.budget!.airtimePerMessageS).toBeGreaterThan(bare.budget!.airtimePerMessageS);
  });

  it("every operational catalog platform has a radio model, and every constant of it is cited", () => {
    for (const p of PLATFORMS.filter((x) => x.status === "operational")) {
      const r = radioModelFor(p.id);
      expect(r, p.id).toBeDefined();
      const constants = Object.values(r!).filter(
        (v): v is Cited => typeof v === "object" && v !== null && "source" in v,
      );
      expect(constants.length, p.id).toBeGreaterThan(3);
      for (const c of constants) {
        expect(c.source.length, `${p.id} ${c.unit}`).toBeGreaterThan(0);
        expect(c.date).toMatch(/^\d{4}(-\d{2}){0,2}$/);
        expect(typeof c.estimate).toBe("boolean");
      }
      if (p.uplinkBytes !== undefined) expect(r!.maxPayloadBytes.value, p.id).toBe(p.uplinkBytes);
    }
    expect(radioModelFor("swarm")).toBeUndefined();
  });
});
