// A fleet-cost scenario as the project stores it: fleet size, cadence, period, which formats and platforms to
// compare, the currency, edited prices and exchange rates.
import { z } from "zod";
import { FORMAT_IDS, type FormatId } from "#codecs";
import { budgetSettingsSchema } from "./budgetSettings.ts";
import { PAPER_TABLE7_FLEET } from "../cost/cost.ts";
import { billingSchema, moneySchema, platformById, type Billing } from "../platforms/catalog.ts";
import { OverheadError } from "../transport/overhead.ts";
import { resolveStack } from "../transport/platformStack.ts";
import { STACK_IDS, type StackId } from "../transport/stacks.ts";

export const currencySchema = moneySchema.shape.currency;
export type Currency = z.infer<typeof currencySchema>;

const platformId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*$/)
  .max(64);

export const cadenceSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("per-day"), messagesPerDay: z.number().positive().max(100_000) }),
  /** one message every `minutes` */
  z.object({ kind: z.literal("interval"), minutes: z.number().positive().max(525_600) }),
]);
export type Cadence = z.infer<typeof cadenceSchema>;

export const fleetScenarioSchema = z
  .object({
    name: z.string().min(1).max(80),
    devices: z.number().int().min(0).max(1_000_000_000),
    cadence: cadenceSchema,
    months: z.number().int().min(1).max(120),
    formats: z.array(z.enum(FORMAT_IDS)).min(1).max(FORMAT_IDS.length),
    platforms: z.array(platformId).min(1).max(12),
    currency: currencySchema,
    /** edited prices per platform id: replace the catalog's billing for this scenario */
    billing: z.record(platformId, billingSchema).default({}),
    /** 1 unit of the key currency = rate units of the scenario currency */
    rates: z.partialRecord(currencySchema, z.number().positive().max(1e6)).default({}),
    /** transport stack per platform id (planning/src/transport/platformStack.ts); a platform left out uses its default */
    transport: z.record(platformId, z.enum(STACK_IDS)).default({}),
    /** show the paper's Table 7 beside the general model (its published sizes, its roundings) */
    paperTable7: z.boolean().default(false),
  })
  .refine((s) => new Set(s.formats).size === s.formats.length, { message: "lists a format twice", path: ["formats"] })
  .refine((s) => new Set(s.platforms).size === s.platforms.length, {
    message: "lists a platform twice",
    path: ["platforms"],
  });
export type FleetScenario = z.infer<typeof fleetScenarioSchema>;
export type FleetScenarioInput = z.input<typeof fleetScenarioSchema>;

/** What a project stores: its scenarios and which one is open. */
export const costDocSchema = z
  .object({
    version: z.literal(1),
    active: z.number().int().min(0),
    scenarios: z.array(fleetScenarioSchema).min(1).max(50),
    /** the Budget view's settings (planning/src/report/budgetSettings.ts); absent until the user changes one */
    budget: budgetSettingsSchema.optional(),
  })
  .refine((d) => d.active < d.scenarios.length, { message: "points past the last scenario", path: ["active"] });
export type CostDoc = z.infer<typeof costDocSchema>;

export class ScenarioError extends Error {
  override readonly name = "ScenarioError";
  constructor(readonly issues: { path: string; message: string }[]) {
    super(issues.map((i) => (i.path ? `${i.path} ${i.message}` : i.message)).join("; "));
  }
}

function issuesOf(err: z.ZodError): { path: string; message: string }[] {
  return err.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
}

/** Validates a stored or edited document; unknown platform ids are problems too (a custom one was deleted). */
export function parseCostDoc(input: unknown): CostDoc {
  const r = costDocSchema.safeParse(input);
  if (!r.success) throw new ScenarioError(issuesOf(r.error));
  const unknown: { path: string; message: string }[] = [];
  r.data.scenarios.forEach((s, i) => {
    s.platforms.forEach((p, j) => {
      if (!platformById(p))
        unknown.push({ path: `scenarios.${i}.platforms.${j}`, message: `is not a known platform ("${p}")` });
    });
    for (const [p, stack] of Object.entries(s.transport)) {
      const platform = platformById(p);
      if (!platform)
        unknown.push({ path: `scenarios.${i}.transport.${p}`, message: `is not a known platform ("${p}")` });
      else
        try {
          resolveStack(platform, stack);
        } catch (e) {
          if (!(e instanceof OverheadError)) throw e;
          unknown.push({ path: `scenarios.${i}.transport.${p}`, message: e.message });
        }
    }
  });
  if (unknown.length) throw new ScenarioError(unknown);
  return r.data;
}

export function messagesPerDay(c: Cadence): number {
  return c.kind === "per-day" ? c.messagesPerDay : 1440 / c.minutes;
}

/** the paper's four plus the two fixed-layout formats a tight budget usually ends up with */
export const DEFAULT_FORMATS: FormatId[] = ["json", "protobuf", "struct", "struct-zlib", "sbe", "bitpacked"];

export function defaultScenario(name = "Fleet"): FleetScenario {
  return {
    name,
    devices: 10_000,
    cadence: { kind: "per-day", messagesPerDay: 4 },
    months: 12,
    formats: [...DEFAULT_FORMATS],
    platforms: ["astrocast", "iridium-sbd", "nbiot-tn"],
    currency: "EUR",
    billing: {},
    rates: {},
    transport: {},
    paperTable7: false,
  };
}

/** The paper's Table 7 fleet: 10 000 devices × 4 messages/day, one 30-day month, TN and Astrocast prices in euros. */
export function paperTable7Scenario(): FleetScenario {
  return {
    name: "Paper Table 7",
    devices: PAPER_TABLE7_FLEET.devices,
    cadence: { kind: "per-day", messagesPerDay: PAPER_TABLE7_FLEET.messagesPerDay },
    months: 1,
    formats: ["json", "protobuf", "struct-zlib"],
    platforms: ["nbiot-tn", "astrocast"],
    currency: "EUR",
    billing: {},
    rates: {},
    // Table 7 prices payload bytes only, as if the TN devices sent no headers: the general model does the same here
    transport: { "nbiot-tn": "raw" },
    paperTable7: true,
  };
}

export function defaultCostDoc(): CostDoc {
  return { version: 1, active: 0, scenarios: [defaultScenario()] };
}

/** The transport stack a scenario uses on a platform: its choice, else the platform's default. */
export function stackFor(s: FleetScenario, id: string): StackId | undefined {
  const platform = platformById(id);
  return platform ? resolveStack(platform, s.transport[id]) : undefined;
}

/** The billing a scenario uses for a platform: its edit, else the catalog's. */
export function billingFor(s: FleetScenario, id: string): Billing | undefined {
  return s.billing[id] ?? platformById(id)?.billing;
}
