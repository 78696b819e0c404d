// The Budget view's settings as the project stores them beside its cost scenarios (the same document, saved the same
// way), so a reopened project shows the same budget and its report uses it: the device, the reading interval, the
// LoRaWAN region, the radio constants the user replaced, the battery-swap prices and horizon.
import { z } from "zod";
import { moneySchema } from "../platforms/catalog.ts";

const number = z.number().finite();

/** A device model as typed: planning's checkDeviceModel judges it (a stored bad value is shown with its error). */
export const storedDeviceSchema = z.object({
  batteryMah: number,
  batteryVolts: number,
  usableFraction: number,
  selfDischargePerYear: number,
  sleepMicroamps: number,
  readingEnergyMj: z.object({ sensors: number, gnss: number, mcu: number }),
});

const platformId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*$/)
  .max(64);

export const budgetSettingsSchema = z.object({
  /** minutes between readings; null follows the open scenario's cadence */
  intervalMinutes: z.number().positive().max(525_600).nullable().default(null),
  region: z.enum(["EU868", "US915"]).default("EU868"),
  /** absent: the default tracker */
  device: storedDeviceSchema.optional(),
  /** per platform id, the radio constants the user replaced (name → value, in the constant's own unit) */
  radio: z
    .record(
      platformId,
      z.record(
        z
          .string()
          .regex(/^[A-Za-z0-9]+$/)
          .max(40),
        number,
      ),
    )
    .default({}),
  /** absent: planning's DEFAULT_SWAP_PRICES */
  swapPrices: z.object({ battery: moneySchema, labour: moneySchema }).optional(),
  swapYears: z.number().int().min(1).max(50).default(10),
});
export type BudgetSettings = z.infer<typeof budgetSettingsSchema>;
