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

function checkCadence(i: Omit<BudgetInput, "bytesOnAir">): BudgetIssue[] {
  const issues: BudgetIssue[] = [];
  if (!Number.isFinite(i.intervalSeconds) || i.intervalSeconds <= 0)
    issues.push({ path: "intervalSeconds", message: "The reading interval must be above 0 seconds" });
  // below 1 when a record takes several messages (fragments): 0.25 = one reading in 4 messages
  if (!Number.isFinite(i.readingsPerMessage) || i.readingsPerMessage <= 0)
    issues.push({ path: "readingsPerMessage", message: "Readings per message must be above 0" });
  return issues;
}

/**
 * What one record costs on air: its messages (fragments), their airtime and energy, averaged over the records measured
 * when there are several sizes. A record that fits is one message.
 */
export interface RecordOnAir {
  /** mean messages per record */
  messages: number;
  /** seconds on air per record */
  airtimeS: number;
  /** joules per record, by phase */
  tx: number;
  rx: number;
  wait: number;
  /** the longest single message: what a dwell time limits */
  longestMessageS: number;
  fragments?: number;
  bursts?: number;
  frames?: number;
}

function limitsOf(radio: RadioModel, longestMessageS: number, perDayS: number, messagesPerDay: number): BudgetLimit[] {
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
    if (max && messagesPerDay > 0) {
      limits.push({
        id: "messages-a-day",
        label: `${max.value} messages a day`,
        allowedS: (max.value * perDayS) / messagesPerDay,
        usedS: perDayS,
        ok: messagesPerDay <= max.value + 1e-9,
        source: max.source,
        allowedMessages: max.value,
        usedMessages: messagesPerDay,
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
    add("dwell-time", "Dwell time (one uplink)", radio.dwellTimeS.value, longestMessageS, radio.dwellTimeS.source);
  return limits;
}

/** Every problem of the device and the cadence, with paths; throws them all at once. */
export function checkBudgetInput(i: Omit<BudgetInput, "bytesOnAir">): void {
  const issues = [
    ...checkDeviceModel(i.device).map((x) => ({ ...x, path: x.path ? `device.${x.path}` : "device" })),
    ...checkCadence(i),
  ];
  if (issues.length) throw new BudgetError(issues);
}

/** The budget from what a record costs on air: the arithmetic of deviceBudget (a record's split is the cost model's: report/budget.ts recordSplit). */
export function budgetOf(i: Omit<BudgetInput, "bytesOnAir">, radio: RadioModel, r: RecordOnAir): DeviceBudget {
  const d = i.device;
  const readingsPerDay = SECONDS_PER_DAY / i.intervalSeconds;
  const recordsPerDay = readingsPerDay / i.readingsPerMessage;
  const messagesPerDay = recordsPerDay * r.messages;
  const airtimePerDayS = recordsPerDay * r.airtimeS;

  const sleepWatts =
    d.sleepMicroamps * 1e-6 * d.batteryVolts + radioSleepMicroamps(radio) * 1e-6 * radio.supplyVolts.value;
  const perReading = {
    radio: (r.tx + r.rx + r.wait) / i.readingsPerMessage,
    sensors: (d.readingEnergyMj.sensors + d.readingEnergyMj.gnss + d.readingEnergyMj.mcu) / 1000,
    sleep: sleepWatts * i.intervalSeconds,
  };
  const readingTotal = perReading.radio + perReading.sensors + perReading.sleep;
  const energyPerDayJ = readingTotal * readingsPerDay;

  const nominalJ = d.batteryMah * JOULES_PER_MAH_VOLT * d.batteryVolts;
  const batteryLifeYears =
    (nominalJ * d.usableFraction) / (energyPerDayJ * DAYS_PER_YEAR + d.selfDischargePerYear * nominalJ);

  const perMessage = (x: number) => x / r.messages;
  return {
    messagesPerDay,
    readingsPerDay,
    airtimePerMessageS: perMessage(r.airtimeS),
    airtimePerDayS,
    ...(r.fragments !== undefined && { fragments: r.fragments }),
    ...(r.bursts !== undefined && { bursts: r.bursts }),
    ...(r.frames !== undefined && { frames: r.frames }),
    limits: limitsOf(radio, r.longestMessageS, airtimePerDayS, messagesPerDay),
    energyPerMessageJ: {
      tx: perMessage(r.tx),
      rx: perMessage(r.rx),
      wait: perMessage(r.wait),
      total: perMessage(r.tx + r.rx + r.wait),
    },
    energyPerReadingJ: { ...perReading, total: readingTotal },
    energyPerDayJ,
    batteryLifeYears,
    radio,
  };
}

/** One message on a resolved radio as a record of one message. */
export function singleMessage(radio: RadioModel, bytes: number): RecordOnAir {
  const m = messageOnAir(radio, bytes);
  return {
    messages: 1,
    airtimeS: m.seconds,
    tx: phaseJoules(m.phases.tx, m.volts),
    rx: phaseJoules(m.phases.rx, m.volts),
    wait: phaseJoules(m.phases.wait, m.volts),
    longestMessageS: m.seconds,
    ...(m.fragments !== undefined && { fragments: m.fragments }),
    ...(m.bursts !== undefined && { bursts: m.bursts }),
    ...(m.frames !== undefined && { frames: m.frames }),
  };
}

/** The budget of one device sending one format on one platform; a BudgetError lists every bad input with its path. */
export function deviceBudget(i: BudgetInput): DeviceBudget {
  checkBudgetInput(i);
  const radio = resolveRadio(i.choice, i.radioOverrides);
  return budgetOf(i, radio, singleMessage(radio, i.bytesOnAir));
}
