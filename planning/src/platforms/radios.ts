// The radio model of each catalog platform that has one: what a message of n bytes costs on air (docs/budget.md).
import {
  CELLULAR_NTN_RADIO,
  CELLULAR_TN_RADIO,
  KINEIS_RADIO,
  KINEIS_STANDARD_RADIO,
  ORBCOMM_RADIO,
  SIGFOX_RADIO,
  type FramedRadio,
} from "./radioFramed.ts";
import { lorawanRadio, type LoraRegion, type LorawanRadio } from "./radioLorawan.ts";
import { ASTROCAST_RADIO, IRIDIUM_SBD_RADIO, type AstrocastRadio, type IridiumRadio } from "./radioSatellite.ts";

export type RadioModel = LorawanRadio | AstrocastRadio | IridiumRadio | FramedRadio;

const BY_ID: Record<string, RadioModel> = {
  astrocast: ASTROCAST_RADIO,
  "iridium-sbd": IRIDIUM_SBD_RADIO,
  sigfox: SIGFOX_RADIO,
  kineis: KINEIS_RADIO,
  "kineis-standard": KINEIS_STANDARD_RADIO,
  "orbcomm-og2": ORBCOMM_RADIO,
  "nbiot-tn": CELLULAR_TN_RADIO,
  "nbiot-ntn": CELLULAR_NTN_RADIO,
};

/** "lorawan-eu868-dr3" → EU868 DR3: the catalog's LoRaWAN ids name region and data rate. */
const LORAWAN_ID = /^lorawan-(eu868|us915)-dr(\d+)$/;

/**
 * The radio of a platform: a catalog id ("astrocast", "lorawan-eu868-dr0"), or "lorawan" with a region and data rate.
 * Undefined when the platform has no radio model (yet) or the data rate does not exist.
 */
export function radioModelFor(platform: string, region?: LoraRegion, dataRate?: number): RadioModel | undefined {
  if (Object.hasOwn(BY_ID, platform)) return BY_ID[platform];
  if (platform === "lorawan") return region && dataRate !== undefined ? lorawanRadio(region, dataRate) : undefined;
  const m = LORAWAN_ID.exec(platform);
  if (m) return lorawanRadio(m[1]!.toUpperCase() as LoraRegion, Number(m[2]));
  return undefined;
}
