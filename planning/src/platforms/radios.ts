// The radio model of each catalog platform that has one: what a message of n bytes costs on air (docs/budget.md).
import { lorawanRadio, type LoraRegion, type LorawanRadio } from "./radioLorawan.ts";
import { ASTROCAST_RADIO, IRIDIUM_SBD_RADIO, type AstrocastRadio, type IridiumRadio } from "./radioSatellite.ts";

export type RadioModel = LorawanRadio | AstrocastRadio | IridiumRadio;

/** "lorawan-eu868-dr3" → EU868 DR3: the catalog's LoRaWAN ids name region and data rate. */
const LORAWAN_ID = /^lorawan-(eu868|us915)-dr(\d+)$/;

/**
 * The radio of a platform: a catalog id ("astrocast", "lorawan-eu868-dr0"), or "lorawan" with a region and data rate.
 * Undefined when the platform has no radio model (yet) or the data rate does not exist.
 */
export function radioModelFor(platform: string, region?: LoraRegion, dataRate?: number): RadioModel | undefined {
  if (platform === "astrocast") return ASTROCAST_RADIO;
  if (platform === "iridium-sbd") return IRIDIUM_SBD_RADIO;
  if (platform === "lorawan") return region && dataRate !== undefined ? lorawanRadio(region, dataRate) : undefined;
  const m = LORAWAN_ID.exec(platform);
  if (m) return lorawanRadio(m[1]!.toUpperCase() as LoraRegion, Number(m[2]));
  return undefined;
}
