// The hand-computed cases of docs/budget.md (written before the code): the code must give the same numbers.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_TRACKER,
  DEFAULT_TRACKER_SOURCES,
  PLATFORMS,
  checkDeviceModel,
  deviceBudget,
  loraTimeOnAir,
  radioChoiceFor,
  radioModelFor,
  type BudgetInput,
  type RadioChoice,
} from "../src/index.ts";

/** the docs' cadence: one reading every 6 h, one reading a message (4 messages a day), 40 B; a case changes what it names */
const budget = (choice: RadioChoice, change: Partial<Omit<BudgetInput, "choice">> = {}) =>
  deviceBudget({
    choice,
    bytesOnAir: 40,
    readingsPerMessage: 1,
    intervalSeconds: 21_600,
    device: DEFAULT_TRACKER,
    ...change,
  });

describe("docs/budget.md, hand-computed cases", () => {
  it("case 1: LoRaWAN EU868 DR0", () => {
    const b = budget({ platform: "lorawan-eu868-dr0" });
    expect(b.messagesPerDay).toBe(4);
    expect(b.airtimePerMessageS).toBeCloseTo(2.465792, 9);
    expect(b.energyPerMessageJ.tx).toBeCloseTo(0.235976294, 8);
    expect(b.energyPerMessageJ.rx).toBeCloseTo(0.018685624, 8);
    expect(b.energyPerMessageJ.wait).toBeCloseTo(0.00000132, 10);
    expect(b.energyPerMessageJ.total).toBeCloseTo(0.254663239, 8);
    expect(b.airtimePerDayS).toBeCloseTo(9.863168, 8);
    expect(b.energyPerReadingJ.sleep).toBeCloseTo(0.791856, 8);
    expect(b.energyPerReadingJ.sensors).toBeCloseTo(0.2025, 10);
    expect(b.energyPerReadingJ.total).toBeCloseTo(1.249019, 6);
    expect(b.energyPerDayJ * 365.25).toBeCloseTo(1824.817, 3);
    expect(b.batteryLifeYears).toBeCloseTo(12.47, 3);
    expect(b.limits).toEqual([
      expect.objectContaining({ id: "duty-cycle", allowedS: 864, ok: true }),
      expect.objectContaining({ id: "fair-use", allowedS: 30, ok: true }),
    ]);
  });

  it("case 2: LoRaWAN EU868 DR5", () => {
    const b = budget({ platform: "lorawan", region: "EU868", dataRate: 5 });
    expect(b.airtimePerMessageS).toBeCloseTo(0.102656, 9);
    expect(b.energyPerMessageJ.tx).toBeCloseTo(0.009824179, 8);
    expect(b.energyPerMessageJ.rx).toBeCloseTo(0.009634775, 8);
    expect(b.energyPerMessageJ.total).toBeCloseTo(0.019460274, 8);
    expect(b.airtimePerDayS).toBeCloseTo(0.410624, 8);
    expect(b.energyPerReadingJ.total).toBeCloseTo(1.013816, 6);
    expect(b.energyPerDayJ * 365.25).toBeCloseTo(1481.186, 3);
    expect(b.batteryLifeYears).toBeCloseTo(14.827, 3);
  });

  it("case 3: Astrocast", () => {
    const b = budget({ platform: "astrocast" });
    expect([b.fragments, b.bursts]).toEqual([4, 1]);
    expect(b.airtimePerMessageS).toBeCloseTo(1.6, 10);
    expect(b.energyPerMessageJ.tx).toBeCloseTo(1.584, 10);
    expect(b.energyPerMessageJ.rx).toBeCloseTo(0.165, 10);
    expect(b.energyPerMessageJ.wait).toBeCloseTo(0.33, 10);
    expect(b.energyPerMessageJ.total).toBeCloseTo(2.079, 10);
    expect(b.energyPerReadingJ.sleep).toBeCloseTo(1.055592, 8);
    expect(b.energyPerReadingJ.total).toBeCloseTo(3.337092, 8);
    expect(b.energyPerDayJ * 365.25).toBeCloseTo(4875.491, 3);
    expect(b.batteryLifeYears).toBeCloseTo(5.172, 3);
    expect(b.limits).toEqual([]);
  });

  it("the formula's own steps for case 1: 63 symbols of 32.768 ms after a 12.25-symbol preamble", () => {
    const t = loraTimeOnAir({
      sf: 12,
      bandwidthHz: 125_000,
      codingRate: 1,
      preamble: 8,
      explicitHeader: true,
      crc: true,
      lowDataRateOptimize: true,
      payloadBytes: 53,
    });
    expect(t).toBeCloseTo((12.25 + 63) * 0.032768, 12);
  });
});

describe("budget behaviour beyond the cases", () => {
  it("a batch of 10 readings sends a tenth of the messages and spreads each message over its readings", () => {
    const one = budget({ platform: "astrocast" });
    const ten = budget({ platform: "astrocast" }, { readingsPerMessage: 10, intervalSeconds: 2_160 });
    expect(ten.messagesPerDay).toBeCloseTo(4, 12);
    expect(ten.readingsPerDay).toBeCloseTo(40, 12);
    expect(ten.energyPerReadingJ.radio).toBeCloseTo(one.energyPerMessageJ.total / 10, 12);
  });

  it("a device that never sends still runs out: life is bounded by self-discharge", () => {
    const idle = { ...DEFAULT_TRACKER, sleepMicroamps: 0, readingEnergyMj: { sensors: 0, gnss: 0, mcu: 0 } };
    const b = budget(
      { platform: "iridium-sbd" },
      { bytesOnAir: 0, intervalSeconds: 1e12, device: idle, radioOverrides: { offUa: 0 } },
    );
    // usable 0.8 over 1 % a year: 80 years, never Infinity
    expect(b.batteryLifeYears).toBeCloseTo(DEFAULT_TRACKER.usableFraction / DEFAULT_TRACKER.selfDischargePerYear, 3);
  });

  it("US915 DR0 checks the 400 ms dwell time, and the largest DR0 payload stays inside it", () => {
    const b = budget({ platform: "lorawan-us915-dr0" }, { bytesOnAir: 11, intervalSeconds: 600 });
    const dwell = b.limits.find((l) => l.id === "dwell-time")!;
    expect(dwell.allowedS).toBe(0.4);
    expect(dwell.usedS).toBe(b.airtimePerMessageS);
    expect(dwell.ok).toBe(true);
    expect(b.limits.map((l) => l.id)).toEqual(["fair-use", "dwell-time"]);
  });

  it("a message every minute at EU868 DR0 breaks TTN's 30 s and the 1 % duty cycle", () => {
    const b = budget({ platform: "lorawan-eu868-dr0" }, { intervalSeconds: 60 });
    expect(b.limits.map((l) => [l.id, l.ok])).toEqual([
      ["duty-cycle", false],
      ["fair-use", false],
    ]);
  });

  it("the user's radio values replace the catalog's and are cited as theirs", () => {
    const b = budget({ platform: "astrocast" }, { radioOverrides: { txMa: 600 } });
    expect(b.energyPerMessageJ.tx).toBeCloseTo(2 * 1.584, 10);
    expect(b.radio.kind === "astrocast" && b.radio.txMa).toMatchObject({
      value: 600,
      source: "your input",
      estimate: false,
    });
  });

  it("Iridium: the session grows with the bytes at 2 400 bit/s", () => {
    const at = (n: number) => budget({ platform: "iridium-sbd" }, { bytesOnAir: n });
    expect(at(340).airtimePerMessageS - at(40).airtimePerMessageS).toBeCloseTo((300 * 8) / 2400, 12);
    expect(at(40).energyPerMessageJ.tx).toBeCloseTo((8 + (40 * 8) / 2400) * 0.19 * 5, 12);
  });
});

describe("what the Budget view and the report build on", () => {
  it("a reading sent in 4 fragments: readingsPerMessage 0.25 sends 4 messages a reading", () => {
    const b = budget({ platform: "astrocast" }, { bytesOnAir: 160, readingsPerMessage: 0.25 });
    expect(b.messagesPerDay).toBeCloseTo(16, 12);
    expect(b.energyPerReadingJ.radio).toBeCloseTo(4 * b.energyPerMessageJ.total, 12);
  });

  it("radioChoiceFor: catalog ids with a radio model, undefined for the others", () => {
    expect(radioChoiceFor("lorawan-eu868-dr3")).toEqual({ platform: "lorawan-eu868-dr3" });
    expect(radioChoiceFor("astrocast")).toEqual({ platform: "astrocast" });
    expect(radioChoiceFor("swarm")).toBeUndefined();
    expect(radioChoiceFor("lorawan-us915-dr7")).toBeUndefined();
    const withRadio = PLATFORMS.filter((p) => radioChoiceFor(p.id)).map((p) => p.id);
    expect(withRadio).toEqual(
      expect.arrayContaining(["astrocast", "iridium-sbd", "lorawan-eu868-dr0", "lorawan-us915-dr4"]),
    );
  });

  it("the catalog's LoRaWAN limits equal the radio models' largest payloads", () => {
    for (const p of PLATFORMS.filter((x) => x.id.startsWith("lorawan-"))) {
      const r = radioModelFor(p.id)!;
      expect(r.maxPayloadBytes.value, p.id).toBe(p.uplinkBytes);
    }
  });

  it("every default of the tracker is cited under the path checkDeviceModel reports", () => {
    const bad = Object.fromEntries(Object.keys(DEFAULT_TRACKER_SOURCES).map((path) => [path.split(".").pop()!, -1]));
    const device = { ...bad, readingEnergyMj: bad };
    expect(
      checkDeviceModel(device)
        .map((i) => i.path)
        .sort(),
    ).toEqual(Object.keys(DEFAULT_TRACKER_SOURCES).sort());
    for (const c of Object.values(DEFAULT_TRACKER_SOURCES)) expect(c.source.length).toBeGreaterThan(0);
  });
});
