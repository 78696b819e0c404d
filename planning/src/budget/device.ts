// The device around the radio: battery, sleep current and the energy of one reading, with the default tracker's
// cited values and the checks that give a clear message next to each field (docs/budget.md).
import type { BudgetIssue } from "./errors.ts";
import { cited, estimate, type Cited } from "../platforms/cited.ts";

export interface DeviceModel {
  batteryMah: number;
  batteryVolts: number;
  /** share of the nominal capacity the device can use (cut-off voltage, cold, pulse loads), 0–1 */
  usableFraction: number;
  /** share of the nominal capacity lost a year whatever the load, above 0 */
  selfDischargePerYear: number;
  /** the device without its radio (MCU stopped with its clock, sensors off, regulator), at the battery voltage */
  sleepMicroamps: number;
  /** energy of one reading, in millijoules */
  readingEnergyMj: { sensors: number; gnss: number; mcu: number };
}

/** The fields of a device model by the paths checkDeviceModel reports ("readingEnergyMj.gnss"). */
export type DeviceField =
  | "batteryMah"
  | "batteryVolts"
  | "usableFraction"
  | "selfDischargePerYear"
  | "sleepMicroamps"
  | "readingEnergyMj.sensors"
  | "readingEnergyMj.gnss"
  | "readingEnergyMj.mcu";

const LS14500 = "Saft, LS 14500 datasheet (Li-SOCl2, AA)";

/** Where each default comes from, by the paths of checkDeviceModel (the Budget view and the report cite these). */
export const DEFAULT_TRACKER_SOURCES: Record<DeviceField, Cited> = {
  batteryMah: cited(2600, "mAh", LS14500, "nominal capacity"),
  batteryVolts: cited(3.6, "V", LS14500, "nominal voltage"),
  usableFraction: estimate(0.8, "", "cut-off at 3.0 V, pulse loads"),
  selfDischargePerYear: cited(0.01, "/year", LS14500, "< 1 % after 1 year at +20 °C, taken at 1 %"),
  sleepMicroamps: estimate(10, "µA", "low-power MCU in stop mode with its clock, sensors off"),
  "readingEnergyMj.sensors": estimate(0.5, "mJ", "a temperature / humidity / acceleration read"),
  "readingEnergyMj.gnss": estimate(200, "mJ", "hot-start fix of about 5 s at about 12 mA, 3.3 V (u-blox M10 class)"),
  "readingEnergyMj.mcu": estimate(2, "mJ", "wake, encode, talk to the radio"),
};

const S = DEFAULT_TRACKER_SOURCES;
export const DEFAULT_TRACKER: DeviceModel = {
  batteryMah: S.batteryMah.value,
  batteryVolts: S.batteryVolts.value,
  usableFraction: S.usableFraction.value,
  selfDischargePerYear: S.selfDischargePerYear.value,
  sleepMicroamps: S.sleepMicroamps.value,
  readingEnergyMj: {
    sensors: S["readingEnergyMj.sensors"].value,
    gnss: S["readingEnergyMj.gnss"].value,
    mcu: S["readingEnergyMj.mcu"].value,
  },
};

type Rule = (v: number) => string | undefined;
const above0 =
  (label: string, unit: string): Rule =>
  (v) =>
    v > 0 ? undefined : `${label} must be above 0 ${unit}`.trimEnd();
const notNegative =
  (label: string): Rule =>
  (v) =>
    v >= 0 ? undefined : `${label} cannot be negative`;

const RULES: [path: string, get: (d: Record<string, unknown>) => unknown, label: string, rule: Rule][] = [
  ["batteryMah", (d) => d.batteryMah, "Battery capacity", above0("Battery capacity", "mAh")],
  ["batteryVolts", (d) => d.batteryVolts, "Battery voltage", above0("Battery voltage", "V")],
  [
    "usableFraction",
    (d) => d.usableFraction,
    "Usable fraction",
    (v) => (v > 0 && v <= 1 ? undefined : "Usable fraction must be above 0 and at most 1 (100 %)"),
  ],
  [
    "selfDischargePerYear",
    (d) => d.selfDischargePerYear,
    "Self-discharge",
    (v) =>
      v > 0 && v < 1
        ? undefined
        : "Self-discharge must be above 0 and below 1 (100 %) a year: every battery loses some charge",
  ],
  ["sleepMicroamps", (d) => d.sleepMicroamps, "Sleep current", notNegative("Sleep current")],
  ...(["sensors", "gnss", "mcu"] as const).map((k): [string, (d: Record<string, unknown>) => unknown, string, Rule] => {
    const label = {
      sensors: "Sensor energy per reading",
      gnss: "GNSS energy per reading",
      mcu: "MCU energy per reading",
    }[k];
    return [
      `readingEnergyMj.${k}`,
      (d) =>
        typeof d.readingEnergyMj === "object" && d.readingEnergyMj
          ? (d.readingEnergyMj as Record<string, unknown>)[k]
          : undefined,
      label,
      notNegative(label),
    ];
  }),
];

/** Every problem of a device model, each with its path ("batteryMah", "readingEnergyMj.gnss"); empty when valid. */
export function checkDeviceModel(d: unknown): BudgetIssue[] {
  if (typeof d !== "object" || d === null || Array.isArray(d))
    return [{ path: "", message: "A device model must be an object with battery, sleep current and reading energy" }];
  const issues: BudgetIssue[] = [];
  for (const [path, get, label, rule] of RULES) {
    const v = get(d as Record<string, unknown>);
    if (typeof v !== "number" || !Number.isFinite(v)) {
      issues.push({ path, message: `${label} must be a number` });
      continue;
    }
    const message = rule(v);
    if (message) issues.push({ path, message });
  }
  return issues;
}
