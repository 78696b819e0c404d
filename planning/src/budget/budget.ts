// The device budget: airtime a day against the platform's limits, energy per message and per reading, battery life
// (the model and its hand-computed cases: docs/budget.md).
import { messageOnAir, phaseJoules, radioSleepMicroamps, resolveRadio, type RadioChoice } from "./airtime.ts";
import { checkDeviceModel, type DeviceModel } from "./device.ts";
import { BudgetError, type BudgetIssue } from "./errors.ts";
import type { RadioModel } from "../platforms/radios.ts";

export const SECONDS_PER_DAY = 86_400;
export const DAYS_PER_YEAR = 365.25;
/** joules in one mAh at one volt: 1 mAh = 3.6 C */
const JOULES_PER_MAH_VOLT = 3.6;

export interface BudgetInput {
  choice: RadioChoice;
  /** payload bytes the platform carries per message (LoRaWAN: FRMPayload; the framing is added by the radio model) */
  bytesOnAir: number;
  /** readings a message carries (a batch); 1 without one; below 1 when a reading takes several messages (fragments) */
  readingsPerMessage: number;
  /** seconds between two readings; a message goes every readingsPerMessage readings */
  intervalSeconds: number;
  device: DeviceModel;
  /** the user's values for the radio's constants, by name ("txMa", "fragmentS" …) */
  radioOverrides?: Record<string, number>;
}

export interface BudgetLimit {
  id: "duty-cycle" | "fair-use" | "dwell-time" | "messages-a-day";
  label: string;
  allowedS: number;
  usedS: number;
  ok: boolean;
  source: string;
  /** "messages-a-day" only: the limit in messages (allowedS/usedS say the same in airtime) */
  allowedMessages?: number;
  usedMessages?: number;
}

export interface DeviceBudget {
  messagesPerDay: number;
  readingsPerDay: number;
  airtimePerMessageS: number;
  airtimePerDayS: number;
  fragments?: number;
  bursts?: number;
  frames?: number;
  limits: BudgetLimit[];
  energyPerMessageJ: { tx: number; rx: number; wait: number; total: number };
  energyPerReadingJ: { radio: number; sensors: number; sleep: number; total: number };
  energyPerDayJ: number;
  /** usable battery energy over the load and the self-discharge of a year; finite (self-discharge is above 0) */
  batteryLifeYears: number;
  /** the radio with its cited constants, the user's values in place */
  radio: RadioModel;
}

function checkCadence(i: BudgetInput): BudgetIssue[] {
  const issues: BudgetIssue[] = [];
  if (!Number.isFinite(i.intervalSeconds) || i.intervalSeconds <= 0)
    issues.push({ path: "intervalSeconds", message: "The reading interval must be above 0 seconds" });
  // below 1 when a record takes several messages (fragments): 0.25 = one reading in 4 messages
  if (!Number.isFinite(i.readingsPerMessage) || i.readingsPerMessage <= 0)
    issues.push({ path: "readingsPerMessage", message: "Readings per message must be above 0" });
  return issues;
}

function limitsOf(radio: RadioModel, perMessageS: number, perDayS: number): BudgetLimit[] {
  const limits: BudgetLimit[] = [];
  const add = (id: BudgetLimit["id"], label: string, allowedS: number, usedS: number, source: string) =>
    limits.push({ id, label, allowedS, usedS, ok: usedS <= allowedS, source });
  if (radio.kind === "framed") {
    if (radio.dutyCycle)
      add(
        "duty-cycle",
        `Duty cycle ${radio.dutyCycle.value * 100} % (airtime a day)`,
        radio.dutyCycle.value * SECONDS_PER_DAY,
        perDayS,
        radio.dutyCycle.source,
      );
    const max = radio.maxMessagesPerDay;
    if (max && perMessageS > 0) {
      const used = perDayS / perMessageS;
      limits.push({
        id: "messages-a-day",
        label: `${max.value} messages a day`,
        allowedS: max.value * perMessageS,
        usedS: perDayS,
        ok: used <= max.value + 1e-9,
        source: max.source,
        allowedMessages: max.value,
        usedMessages: used,
      });
    }
    return limits;
  }
  if (radio.kind !== "lorawan") return limits;
  if (radio.dutyCycle)
    add(
      "duty-cycle",
      `Duty cycle ${radio.dutyCycle.value * 100} % (airtime a day)`,
      radio.dutyCycle.value * SECONDS_PER_DAY,
      perDayS,
      radio.dutyCycle.source,
    );
  add(
    "fair-use",
    "The Things Network fair use (airtime a day)",
    radio.fairUseSecondsPerDay.value,
    perDayS,
    radio.fairUseSecondsPerDay.source,
  );
  if (radio.dwellTimeS)
    add("dwell-time", "Dwell time (one uplink)", radio.dwellTimeS.value, perMessageS, radio.dwellTimeS.source);
  return limits;
}

/** The budget of one device sending one format on one platform; a BudgetError lists every bad input with its path. */
export function deviceBudget(i: BudgetInput): DeviceBudget {
  const issues = [
    ...checkDeviceModel(i.device).map((x) => ({ ...x, path: x.path ? `device.${x.path}` : "device" })),
    ...checkCadence(i),
  ];
  if (issues.length) throw new BudgetError(issues);
  const radio = resolveRadio(i.choice, i.radioOverrides);
  const m = messageOnAir(radio, i.bytesOnAir);
  const d = i.device;

  const readingsPerDay = SECONDS_PER_DAY / i.intervalSeconds;
  const messagesPerDay = readingsPerDay / i.readingsPerMessage;
  const tx = phaseJoules(m.phases.tx, m.volts);
  const rx = phaseJoules(m.phases.rx, m.volts);
  const wait = phaseJoules(m.phases.wait, m.volts);
  const message = tx + rx + wait;

  const sleepWatts = d.sleepMicroamps * 1e-6 * d.batteryVolts + radioSleepMicroamps(radio) * 1e-6 * m.volts;
  const perReading = {
    radio: message / i.readingsPerMessage,
    sensors: (d.readingEnergyMj.sensors + d.readingEnergyMj.gnss + d.readingEnergyMj.mcu) / 1000,
    sleep: sleepWatts * i.intervalSeconds,
  };
  const readingTotal = perReading.radio + perReading.sensors + perReading.sleep;
  const energyPerDayJ = readingTotal * readingsPerDay;

  const nominalJ = d.batteryMah * JOULES_PER_MAH_VOLT * d.batteryVolts;
  const batteryLifeYears =
    (nominalJ * d.usableFraction) / (energyPerDayJ * DAYS_PER_YEAR + d.selfDischargePerYear * nominalJ);

  return {
    messagesPerDay,
    readingsPerDay,
    airtimePerMessageS: m.seconds,
    airtimePerDayS: m.seconds * messagesPerDay,
    ...(m.fragments !== undefined && { fragments: m.fragments }),
    ...(m.bursts !== undefined && { bursts: m.bursts }),
    ...(m.frames !== undefined && { frames: m.frames }),
    limits: limitsOf(radio, m.seconds, m.seconds * messagesPerDay),
    energyPerMessageJ: { tx, rx, wait, total: message },
    energyPerReadingJ: { ...perReading, total: readingTotal },
    energyPerDayJ,
    batteryLifeYears,
    radio,
  };
}
