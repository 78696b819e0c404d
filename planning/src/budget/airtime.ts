// What one message of n bytes costs on a platform's radio: its airtime and its tx / rx / wait phases.
import { BudgetError, type BudgetIssue } from "./errors.ts";
import type { Cited } from "../platforms/cited.ts";
import { loraSymbolSeconds, loraTimeOnAir } from "../platforms/loraTimeOnAir.ts";
import type { FramedRadio } from "../platforms/radioFramed.ts";
import type { LoraRegion, LorawanRadio } from "../platforms/radioLorawan.ts";
import { radioModelFor, type RadioModel } from "../platforms/radios.ts";
import type { AstrocastRadio, IridiumRadio } from "../platforms/radioSatellite.ts";

export interface RadioChoice {
  /** a catalog id ("astrocast", "iridium-sbd", "lorawan-eu868-dr0"), or "lorawan" with region and dataRate */
  platform: string;
  region?: LoraRegion;
  dataRate?: number;
}

/** The choice for a catalog platform id, or undefined when that platform has no radio model (yet). */
export function radioChoiceFor(platformId: string): RadioChoice | undefined {
  return radioModelFor(platformId) ? { platform: platformId } : undefined;
}

/** A phase of a message: how long, at which current. */
export interface Phase {
  seconds: number;
  milliamps: number;
}

export interface MessageOnAir {
  /** seconds transmitting: what a duty cycle or fair-use policy counts */
  seconds: number;
  fragments?: number;
  bursts?: number;
  frames?: number;
  /** bytes the radio sends for the payload (LoRaWAN: PHY payload, framing included) */
  phyBytes?: number;
  phases: { tx: Phase; rx: Phase; wait: Phase };
  /** the radio's supply voltage: phase energy = seconds × mA / 1000 × volts */
  volts: number;
}

/** Names of a radio's constants as people read them, for error messages next to a field. */
export const RADIO_LABELS: Record<string, string> = {
  maxPayloadBytes: "Largest payload",
  macOverheadBytes: "LoRaWAN framing",
  supplyVolts: "Radio supply voltage",
  txMa: "TX current",
  rxMa: "RX current",
  sleepUa: "Radio sleep current",
  rxWindowSymbols: "Receive window length",
  receiveDelay2S: "Receive delay",
  fairUseSecondsPerDay: "Fair-use airtime",
  dutyCycle: "Duty cycle",
  dwellTimeS: "Dwell time",
  fragmentBytes: "Fragment size",
  fragmentOverheadBytes: "Fragment overhead",
  fragmentsPerBurst: "Fragments per burst",
  fragmentS: "Fragment transmit time",
  burstRxS: "Receive time per burst",
  burstWaitS: "Wait per burst",
  waitMa: "Wait current",
  sessionMa: "Session current",
  idleMa: "Idle current",
  offUa: "Off current",
  sessionFixedS: "Session time",
  overheadBytes: "Frame overhead",
  repetitions: "Repetitions",
  gapS: "Gap between repetitions",
  rxS: "Receive time",
  maxMessagesPerDay: "Messages a day",
  bitRate: "Bit rate",
  waitS: "Wait before the session",
};

/** Constants that must be above zero, not just not negative (a divisor or a size). */
const POSITIVE = new Set([
  "supplyVolts",
  "fragmentBytes",
  "fragmentsPerBurst",
  "bitRate",
  "maxPayloadBytes",
  "repetitions",
  "maxMessagesPerDay",
]);

function isCited(v: unknown): v is Cited {
  return typeof v === "object" && v !== null && "value" in v && "source" in v;
}

/**
 * The radio of a choice with the user's values in place of the catalog's; every bad value is reported at
 * `radio.<name>` (a negative current, a zero fragment size, a name the radio does not have).
 */
export function resolveRadio(choice: RadioChoice, overrides: Record<string, number> = {}): RadioModel {
  const base = radioModelFor(choice.platform, choice.region, choice.dataRate);
  if (!base) {
    const what =
      choice.platform === "lorawan"
        ? `LoRaWAN ${choice.region ?? "(no region)"} DR${choice.dataRate ?? "?"}`
        : `the platform "${choice.platform}"`;
    throw new BudgetError([{ path: "platform", message: `There is no radio model for ${what} yet` }]);
  }
  const issues: BudgetIssue[] = [];
  const radio: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    const current = radio[key];
    const label = RADIO_LABELS[key] ?? key;
    if (!isCited(current)) {
      issues.push({ path: `radio.${key}`, message: `This radio has no setting "${key}"` });
    } else if (typeof value !== "number" || !Number.isFinite(value)) {
      issues.push({ path: `radio.${key}`, message: `${label} must be a number` });
    } else if (value < 0) {
      issues.push({ path: `radio.${key}`, message: `${label} cannot be negative` });
    } else if (value === 0 && POSITIVE.has(key)) {
      issues.push({ path: `radio.${key}`, message: `${label} must be above 0 ${current.unit}`.trimEnd() });
    } else {
      radio[key] = {
        ...current,
        value,
        source: "your input",
        basis: `replaces ${current.value} ${current.unit} (${current.source})`.replace("  ", " "),
        estimate: false,
      } satisfies Cited;
    }
  }
  if (issues.length) throw new BudgetError(issues);
  return radio as unknown as RadioModel;
}

function checkPayload(bytes: number, max: number, what: string): void {
  if (!Number.isInteger(bytes) || bytes < 0)
    throw new BudgetError([{ path: "bytesOnAir", message: "The payload must be a whole number of bytes, 0 or more" }]);
  if (bytes > max)
    throw new BudgetError([
      { path: "bytesOnAir", message: `${bytes} B is over the ${max} B ${what} allows: the message cannot be sent` },
    ]);
}

function lorawanMessage(r: LorawanRadio, bytes: number): MessageOnAir {
  checkPayload(bytes, r.maxPayloadBytes.value, `LoRaWAN ${r.region} DR${r.dataRate}`);
  const phyBytes = bytes + r.macOverheadBytes.value;
  const seconds = loraTimeOnAir({ ...r, payloadBytes: phyBytes });
  const windows =
    r.rxWindowSymbols.value *
    (loraSymbolSeconds(r.rx1.sf, r.rx1.bandwidthHz) + loraSymbolSeconds(r.rx2.sf, r.rx2.bandwidthHz));
  return {
    seconds,
    phyBytes,
    phases: {
      tx: { seconds, milliamps: r.txMa.value },
      rx: { seconds: windows, milliamps: r.rxMa.value },
      wait: { seconds: r.receiveDelay2S.value, milliamps: r.sleepUa.value / 1000 },
    },
    volts: r.supplyVolts.value,
  };
}

/** Fragments of an Astronode message: f fragments carry fragmentBytes × f − overhead bytes (docs/budget.md). */
export function astrocastFragments(r: AstrocastRadio, bytes: number): { fragments: number; bursts: number } {
  const fragments = Math.max(1, Math.ceil((bytes + r.fragmentOverheadBytes.value) / r.fragmentBytes.value));
  return { fragments, bursts: Math.ceil(fragments / r.fragmentsPerBurst.value) };
}

function astrocastMessage(r: AstrocastRadio, bytes: number): MessageOnAir {
  checkPayload(bytes, r.maxPayloadBytes.value, "Astrocast");
  const { fragments, bursts } = astrocastFragments(r, bytes);
  const seconds = fragments * r.fragmentS.value;
  return {
    seconds,
    fragments,
    bursts,
    phases: {
      tx: { seconds, milliamps: r.txMa.value },
      rx: { seconds: bursts * r.burstRxS.value, milliamps: r.rxMa.value },
      wait: { seconds: bursts * r.burstWaitS.value, milliamps: r.waitMa.value },
    },
    volts: r.supplyVolts.value,
  };
}

function iridiumMessage(r: IridiumRadio, bytes: number): MessageOnAir {
  checkPayload(bytes, r.maxPayloadBytes.value, "an Iridium SBD message");
  const seconds = r.sessionFixedS.value + (bytes * 8) / r.bitRate.value;
  return {
    seconds,
    phases: {
      tx: { seconds, milliamps: r.sessionMa.value },
      rx: { seconds: 0, milliamps: 0 },
      wait: { seconds: r.waitS.value, milliamps: r.idleMa.value },
    },
    volts: r.supplyVolts.value,
  };
}

const FAMILY: Record<FramedRadio["family"], string> = {
  sigfox: "a Sigfox message",
  kineis: "a Kinéis message",
  orbcomm: "an ORBCOMM message",
  cellular: "the budget's IP datagram",
};

function framedMessage(r: FramedRadio, bytes: number): MessageOnAir {
  checkPayload(bytes, r.maxPayloadBytes.value, FAMILY[r.family]);
  const frames = r.repetitions.value;
  const seconds = (frames * (bytes + r.overheadBytes.value) * 8) / r.bitRate.value;
  return {
    seconds,
    ...(frames > 1 && { frames }),
    phases: {
      tx: { seconds, milliamps: r.txMa.value },
      rx: { seconds: r.rxS.value, milliamps: r.rxMa.value },
      wait: { seconds: r.waitS.value + (frames - 1) * r.gapS.value, milliamps: r.waitMa.value },
    },
    volts: r.supplyVolts.value,
  };
}

/** One message of `bytes` payload bytes on a resolved radio. */
export function messageOnAir(radio: RadioModel, bytes: number): MessageOnAir {
  switch (radio.kind) {
    case "lorawan":
      return lorawanMessage(radio, bytes);
    case "astrocast":
      return astrocastMessage(radio, bytes);
    case "iridium-sbd":
      return iridiumMessage(radio, bytes);
    case "framed":
      return framedMessage(radio, bytes);
  }
}

/** Airtime of one message (and its fragments, bursts or frames where the platform has them). */
export function airtimeOf(
  choice: RadioChoice,
  bytesOnAir: number,
): { seconds: number; fragments?: number; bursts?: number; frames?: number } {
  const m = messageOnAir(resolveRadio(choice), bytesOnAir);
  return {
    seconds: m.seconds,
    ...(m.fragments !== undefined && { fragments: m.fragments }),
    ...(m.bursts !== undefined && { bursts: m.bursts }),
    ...(m.frames !== undefined && { frames: m.frames }),
  };
}

/** Joules of a phase at a supply voltage. */
export function phaseJoules(p: Phase, volts: number): number {
  return p.seconds * (p.milliamps / 1000) * volts;
}

/** The radio's sleep current in µA, whatever the kind calls it. */
export function radioSleepMicroamps(r: RadioModel): number {
  return r.kind === "iridium-sbd" ? r.offUa.value : r.sleepUa.value;
}
