// LoRaWAN radio models per region and data rate: the frame each data rate sends, its largest payload, the receive
// windows of a Class A uplink and the SX1276 currents (docs/budget.md, "LoRaWAN").
import { cited, estimate, type Cited } from "./cited.ts";
import { loraNeedsLowDataRateOptimize } from "./loraTimeOnAir.ts";

export type LoraRegion = "EU868" | "US915";
export const LORA_REGIONS: readonly LoraRegion[] = ["EU868", "US915"];

const RP002 = "LoRa Alliance, LoRaWAN Regional Parameters (RP002)";
const LORAWAN_SPEC = "LoRa Alliance, LoRaWAN 1.0.x specification, §4 (MAC frame format)";
const SX1276 = "Semtech, SX1276/77/78/79 datasheet";
const TTN = "The Things Network, Fair Use Policy";

interface Modulation {
  sf: number;
  bandwidthHz: number;
}

/** Uplink data rates: modulation and largest FRMPayload (N, no FOpts), RP002. */
const DATA_RATES: Record<LoraRegion, readonly (Modulation & { maxPayload: number })[]> = {
  EU868: [
    { sf: 12, bandwidthHz: 125_000, maxPayload: 51 },
    { sf: 11, bandwidthHz: 125_000, maxPayload: 51 },
    { sf: 10, bandwidthHz: 125_000, maxPayload: 51 },
    { sf: 9, bandwidthHz: 125_000, maxPayload: 115 },
    { sf: 8, bandwidthHz: 125_000, maxPayload: 242 },
    { sf: 7, bandwidthHz: 125_000, maxPayload: 242 },
    { sf: 7, bandwidthHz: 250_000, maxPayload: 242 },
  ],
  US915: [
    { sf: 10, bandwidthHz: 125_000, maxPayload: 11 },
    { sf: 9, bandwidthHz: 125_000, maxPayload: 53 },
    { sf: 8, bandwidthHz: 125_000, maxPayload: 125 },
    { sf: 7, bandwidthHz: 125_000, maxPayload: 242 },
    { sf: 8, bandwidthHz: 500_000, maxPayload: 242 },
  ],
};

/** US915 RX1 answers an uplink at DR10–DR13 (SF10…SF7 at 500 kHz): DR0→DR10 … DR3 and DR4→DR13 (RP002). */
function rx1Of(region: LoraRegion, dr: number, up: Modulation): Modulation {
  if (region === "EU868") return up; // RX1DROffset 0
  return { sf: 10 - Math.min(dr, 3), bandwidthHz: 500_000 };
}

/** RX2's default data rate: EU868 DR0 (SF12/125 kHz), US915 DR8 (SF12/500 kHz), RP002. */
const RX2: Record<LoraRegion, Modulation> = {
  EU868: { sf: 12, bandwidthHz: 125_000 },
  US915: { sf: 12, bandwidthHz: 500_000 },
};

export interface LorawanRadio {
  kind: "lorawan";
  region: LoraRegion;
  dataRate: number;
  sf: number;
  bandwidthHz: number;
  codingRate: 1 | 2 | 3 | 4;
  preamble: number;
  explicitHeader: boolean;
  crc: boolean;
  lowDataRateOptimize: boolean;
  rx1: Modulation;
  rx2: Modulation;
  maxPayloadBytes: Cited;
  macOverheadBytes: Cited;
  supplyVolts: Cited;
  txMa: Cited;
  rxMa: Cited;
  sleepUa: Cited;
  rxWindowSymbols: Cited;
  receiveDelay2S: Cited;
  fairUseSecondsPerDay: Cited;
  /** EU868: share of the time the sub-band may be used */
  dutyCycle?: Cited;
  /** US915: longest single transmission */
  dwellTimeS?: Cited;
}

export function lorawanDataRates(region: LoraRegion): number[] {
  return DATA_RATES[region].map((_, i) => i);
}

/** The radio model of one region and data rate, or undefined for a data rate the region does not have. */
export function lorawanRadio(region: LoraRegion, dataRate: number): LorawanRadio | undefined {
  const up = DATA_RATES[region][dataRate];
  if (!up) return undefined;
  const eu = region === "EU868";
  return {
    kind: "lorawan",
    region,
    dataRate,
    sf: up.sf,
    bandwidthHz: up.bandwidthHz,
    codingRate: 1,
    preamble: 8,
    explicitHeader: true,
    crc: true,
    lowDataRateOptimize: loraNeedsLowDataRateOptimize(up.sf, up.bandwidthHz),
    rx1: rx1Of(region, dataRate, up),
    rx2: RX2[region],
    maxPayloadBytes: cited(up.maxPayload, "B", `${RP002}, ${region} data rates`, `largest FRMPayload of DR${dataRate}`),
    macOverheadBytes: cited(13, "B", LORAWAN_SPEC, "MHDR 1 + FHDR 7 (no FOpts) + FPort 1 + MIC 4"),
    supplyVolts: cited(3.3, "V", SX1276, "typical VDD of the characterisation tables"),
    txMa: eu
      ? cited(29, "mA", `${SX1276}, IDDT`, "typ., +13 dBm on RFO_HF (EU868 allows 14 dBm EIRP)")
      : cited(120, "mA", `${SX1276}, IDDT`, "typ., +20 dBm on PA_BOOST"),
    rxMa: cited(10.8, "mA", `${SX1276}, IDDR`, "typ., band 1 (862–1020 MHz), LnaBoost off"),
    sleepUa: cited(0.2, "µA", `${SX1276}, IDDSL`, "typ. sleep"),
    rxWindowSymbols: estimate(8, "symbols", "a receive window that finds no downlink: preamble lock plus margin"),
    receiveDelay2S: cited(2, "s", RP002, "RECEIVE_DELAY2 default; the radio sleeps until the windows"),
    fairUseSecondsPerDay: cited(30, "s/day", TTN, "uplink airtime per device per day (and 10 downlinks)"),
    ...(eu
      ? { dutyCycle: cited(0.01, "", `ETSI EN 300 220 as applied by ${RP002}, EU863-870`, "1 % on 868.0–868.6 MHz") }
      : { dwellTimeS: cited(0.4, "s", `${RP002}, US902-928; FCC 47 CFR 15.247`, "400 ms dwell time per uplink") }),
  };
}
