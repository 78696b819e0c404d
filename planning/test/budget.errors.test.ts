// Bad inputs to the budget get a BudgetError listing each problem with the path of its field and a sentence for people.
import { describe, expect, it } from "vitest";
import {
  BudgetError,
  DEFAULT_TRACKER,
  airtimeOf,
  checkDeviceModel,
  deviceBudget,
  type BudgetInput,
} from "../src/index.ts";

const base: BudgetInput = {
  choice: { platform: "astrocast" },
  bytesOnAir: 40,
  readingsPerMessage: 1,
  intervalSeconds: 3600,
  device: DEFAULT_TRACKER,
};

function issuesOf(f: () => unknown) {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(BudgetError);
    return (e as BudgetError).issues;
  }
  throw new Error("expected a BudgetError");
}

describe("device model checks", () => {
  it("the default tracker is valid", () => {
    expect(checkDeviceModel(DEFAULT_TRACKER)).toEqual([]);
  });

  it("zero capacity, negative currents and energies, a self-discharge of 0: each at its path", () => {
    expect(
      checkDeviceModel({
        ...DEFAULT_TRACKER,
        batteryMah: 0,
        sleepMicroamps: -1,
        selfDischargePerYear: 0,
        readingEnergyMj: { sensors: 1, gnss: -5, mcu: Number.NaN },
      }),
    ).toEqual([
      { path: "batteryMah", message: "Battery capacity must be above 0 mAh" },
      {
        path: "selfDischargePerYear",
        message: "Self-discharge must be above 0 and below 1 (100 %) a year: every battery loses some charge",
      },
      { path: "sleepMicroamps", message: "Sleep current cannot be negative" },
      { path: "readingEnergyMj.gnss", message: "GNSS energy per reading cannot be negative" },
      { path: "readingEnergyMj.mcu", message: "MCU energy per reading must be a number" },
    ]);
  });

  it("not an object", () => {
    expect(checkDeviceModel(null)).toHaveLength(1);
    expect(checkDeviceModel("x")[0]!.path).toBe("");
  });
});

describe("deviceBudget rejects bad input", () => {
  it("device problems come with device.<field> paths, cadence problems with theirs, all at once", () => {
    expect(
      issuesOf(() =>
        deviceBudget({
          ...base,
          device: { ...DEFAULT_TRACKER, batteryMah: 0 },
          intervalSeconds: 0,
          readingsPerMessage: 0,
        }),
      ).map((i) => i.path),
    ).toEqual(["device.batteryMah", "intervalSeconds", "readingsPerMessage"]);
  });

  it("a payload over the data rate's maximum cannot be sent", () => {
    expect(issuesOf(() => airtimeOf({ platform: "lorawan-eu868-dr0" }, 52))).toEqual([
      { path: "bytesOnAir", message: "52 B is over the 51 B LoRaWAN EU868 DR0 allows: the message cannot be sent" },
    ]);
    expect(airtimeOf({ platform: "lorawan-eu868-dr0" }, 51).seconds).toBeGreaterThan(0);
    expect(issuesOf(() => deviceBudget({ ...base, bytesOnAir: 161 }))[0]!.message).toContain("160 B Astrocast");
    expect(issuesOf(() => deviceBudget({ ...base, bytesOnAir: 2.5 }))[0]!.path).toBe("bytesOnAir");
  });

  it("negative or zero radio values and unknown names are reported at radio.<name>", () => {
    expect(
      issuesOf(() => deviceBudget({ ...base, radioOverrides: { txMa: -3, fragmentBytes: 0, volume: 2 } })),
    ).toEqual([
      { path: "radio.txMa", message: "TX current cannot be negative" },
      { path: "radio.fragmentBytes", message: "Fragment size must be above 0 B" },
      { path: "radio.volume", message: 'This radio has no setting "volume"' },
    ]);
  });

  it("a platform without a radio model, or a data rate the region does not have", () => {
    expect(issuesOf(() => airtimeOf({ platform: "swarm" }, 10))[0]).toEqual({
      path: "platform",
      message: 'There is no radio model for the platform "swarm" yet',
    });
    expect(issuesOf(() => airtimeOf({ platform: "lorawan", region: "US915", dataRate: 5 }, 10))[0]!.message).toBe(
      "There is no radio model for LoRaWAN US915 DR5 yet",
    );
  });
});
