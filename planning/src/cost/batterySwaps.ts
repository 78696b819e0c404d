// What replacing batteries costs a fleet over a number of years: the battery and a technician's visit per swap.
// The battery life comes from the device budget (planning/src/budget); docs/budget.md, "Fleet cost: battery swaps".
import type { Money } from "../platforms/catalog.ts";
import { estimate, type Cited } from "../platforms/cited.ts";

export interface BatterySwapPrices {
  /** the battery itself */
  battery: Money;
  /** a technician at the device: travel and time, per swap */
  labour: Money;
}

/** Defaults for a battery swap, in euros: both estimates for the user to replace with their own. */
export const DEFAULT_SWAP_SOURCES: { battery: Cited; labour: Cited } = {
  battery: estimate(5, "EUR", "one Li-SOCl2 AA cell (LS 14500 class) bought by the thousand"),
  labour: estimate(60, "EUR", "one technician visit to a device in the field (travel and an hour), per swap"),
};

export const DEFAULT_SWAP_PRICES: BatterySwapPrices = {
  battery: { amount: DEFAULT_SWAP_SOURCES.battery.value, currency: "EUR" },
  labour: { amount: DEFAULT_SWAP_SOURCES.labour.value, currency: "EUR" },
};

export interface BatterySwapInput {
  /** one battery's life from the device budget, in years (above 0) */
  batteryLifeYears: number;
  devices: number;
  /** the horizon the fleet is costed over */
  years: number;
  prices?: BatterySwapPrices;
}

export interface BatterySwapCost {
  /** swaps per device within the horizon: the first battery ships with the device, one swap each time it runs out */
  swapsPerDevice: number;
  swaps: number;
  /** battery + labour per swap */
  perSwap: number;
  total: number;
  currency: Money["currency"];
}

export class SwapCostError extends Error {
  override readonly name = "SwapCostError";
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Battery swaps of a fleet over `years`: floor(years / life) per device (a battery that runs out exactly at the horizon
 * is replaced), × devices, × (battery + labour). Both prices must share a currency.
 */
export function batterySwapCost(i: BatterySwapInput): BatterySwapCost {
  const prices = i.prices ?? DEFAULT_SWAP_PRICES;
  if (!(i.batteryLifeYears > 0)) throw new SwapCostError("batteryLifeYears", "Battery life must be above 0 years");
  if (!Number.isInteger(i.devices) || i.devices < 0)
    throw new SwapCostError("devices", "Devices must be a whole number, 0 or more");
  if (!(i.years >= 0) || !Number.isFinite(i.years)) throw new SwapCostError("years", "Years must be 0 or more");
  if (prices.battery.currency !== prices.labour.currency)
    throw new SwapCostError("prices.labour.currency", "Battery and labour must be priced in the same currency");
  if (prices.battery.amount < 0 || prices.labour.amount < 0)
    throw new SwapCostError("prices", "A price cannot be negative");
  // a tiny tolerance so that 10 years over a 5-year battery counts 2 swaps despite floating point
  const swapsPerDevice = Math.floor(i.years / i.batteryLifeYears + 1e-9);
  const perSwap = prices.battery.amount + prices.labour.amount;
  const swaps = swapsPerDevice * i.devices;
  return { swapsPerDevice, swaps, perSwap, total: swaps * perSwap, currency: prices.battery.currency };
}

/**
 * Two formats side by side: "Protobuf instead of JSON: N more years of battery, M saved per fleet" — the saving is
 * the other format's swap cost minus this one's (negative when this one costs more).
 */
export function batterySwapSaving(
  thisLifeYears: number,
  otherLifeYears: number,
  fleet: Omit<BatterySwapInput, "batteryLifeYears">,
): { moreYears: number; saved: number; currency: Money["currency"] } {
  const mine = batterySwapCost({ ...fleet, batteryLifeYears: thisLifeYears });
  const theirs = batterySwapCost({ ...fleet, batteryLifeYears: otherLifeYears });
  return { moreYears: thisLifeYears - otherLifeYears, saved: theirs.total - mine.total, currency: mine.currency };
}
