// A scenario evaluated: every format on every platform, from the measured size distribution, in one currency.
import type { FormatId } from "#codecs";
import type { SizeStats } from "#codecs/analysis";
import { billingFor, messagesPerDay, stackFor, type Currency, type FleetScenario } from "./scenario.ts";
import { messagesPerDayFor } from "../batch/perMessage.ts";
import { estimateCost, type CostResult, type SizeDistribution, type UnitShare } from "../cost/cost.ts";
import { fragmentationMode, planFragmentation, type FragmentationPlan } from "../fragmentation/plan.ts";
import { platformById, type Billing, type Platform } from "../platforms/catalog.ts";
import { onAirStats, overheadFn, stackName, type OverheadFn } from "../transport/platformStack.ts";
import type { StackId } from "../transport/stacks.ts";

/** One format's measured sizes, as the analysis gives them. */
export interface FormatSizesInput {
  format: FormatId;
  label: string;
  stats: SizeStats;
  sizes: ArrayLike<number>;
  /**
   * readings each measured message carries (a batch layout, issue 27); absent: 1. The scenario's
   * cadence then counts readings, and this format sends readings/day ÷ this many messages.
   */
  readingsPerMessage?: number | undefined;
}

export interface MoneyPoint {
  /** in the scenario currency; undefined without a price or exchange rate */
  mean: number | undefined;
  p95: number | undefined;
  max: number | undefined;
  /** over every measured message (credits and fragments counted per message) */
  exact: number | undefined;
}

export interface FleetCell {
  format: FormatId;
  formatLabel: string;
  platformId: string;
  platformName: string;
  /** payload sizes, as the designer measured them */
  sizes: { mean: number; p95: number; max: number };
  /** the transport stack on this platform and what one whole message is on air with its headers */
  stack: StackId;
  stackName: string;
  onAir: { mean: number; p95: number; max: number };
  /** the limit is judged on air: payload + transport headers (equal to the payload on a modem link) */
  limit: number | null;
  fitsMax: boolean;
  fitsP95: boolean;
  /** share of messages over the limit */
  shareOver: number;
  /** per 30-day month, in the scenario currency */
  monthly: MoneyPoint;
  /** monthly × months */
  total: number | undefined;
  /** what the billing counts per month: credits or billed messages, and the billed volume */
  units: number;
  unitName: "credits" | "messages";
  volume: number;
  volumeUnit: string;
  /** how many messages cost 1, 2, … credits (or fragments, for other billings) */
  unitShares: UnitShare[];
  /** transmissions per record (fragments) at the mean */
  fragmentsPerRecord: number;
  /** readings per message in this format (1 without a batch) and the messages a device sends a day */
  readingsPerMessage: number;
  messagesPerDay: number;
  /** monthly exact cost of JSON on the same platform minus this one's (null without JSON or a price) */
  savingVsJson: number | null;
  billingCurrency: string | undefined;
  fragmentation: FragmentationPlan;
  warnings: string[];
}

export interface SeriesPoint {
  x: number;
  /** monthly exact cost per format id */
  values: Partial<Record<FormatId, number | null>>;
}

/** Names the payload in topics and paths; the transport's headers depend on it. */
export interface FleetContext {
  /** the layout's id in topics and paths (`layoutStackId` of its name) */
  layout: string;
}

/** The name CoAP paths and MQTT topics carry when no layout is named (docs/channel.md sizes its table with it). */
export const DEFAULT_STACK_LAYOUT = "device";

export interface FleetResult {
  scenario: FleetScenario;
  /** the scenario's cadence: messages a day, or readings a day when the formats batch them */
  messagesPerDay: number;
  /** messages produced per month (30 days) at one reading per message */
  messagesPerMonth: number;
  /** some measured format carries several readings per message: its cells say how many, and send fewer messages */
  batched: boolean;
  currency: Currency;
  cells: FleetCell[];
  /** monthly cost over fleet size, per platform */
  byFleet: Record<string, SeriesPoint[]>;
  /** monthly cost over the reporting interval (minutes), per platform */
  byInterval: Record<string, SeriesPoint[]>;
  warnings: string[];
}

export const FLEET_SIZES = [1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000];
export const INTERVAL_MINUTES = [5, 10, 15, 30, 60, 120, 240, 360, 720, 1440];
const MONTH_DAYS = 30;

function currencyOf(b: Billing): string | undefined {
  return b.kind === "monthly-plan" ? (b.fee ?? b.overagePrice)?.currency : b.price?.currency;
}

/** Converts an amount in `from` into the scenario currency; undefined when no rate was given. */
export function convert(amount: number | undefined, from: string | undefined, s: FleetScenario): number | undefined {
  if (amount === undefined || from === undefined) return undefined;
  if (from === s.currency) return amount;
  const rate = s.rates[from as Currency];
  return rate === undefined ? undefined : amount * rate;
}

function distribution(f: FormatSizesInput): SizeDistribution {
  return { mean: f.stats.mean, p95: f.stats.p95, max: f.stats.max, sizes: f.sizes };
}

function exactOf(r: CostResult) {
  return r.exact ?? r.mean;
}

function monthlyCost(
  platform: Platform,
  billing: Billing,
  f: FormatSizesInput,
  overhead: OverheadFn,
  devices: number,
  perDay: number,
): CostResult {
  const sizes = distribution(f);
  return estimateCost({
    platform,
    billing,
    sizes,
    devices,
    messagesPerDay: perDay,
    days: MONTH_DAYS,
    transportOverhead: overhead,
    ...fragmentationMode(platform, sizes, overhead),
  });
}

export function evaluateFleet(
  scenario: FleetScenario,
  measured: readonly FormatSizesInput[],
  context: FleetContext = { layout: DEFAULT_STACK_LAYOUT },
): FleetResult {
  const perDay = messagesPerDay(scenario.cadence);
  const warnings: string[] = [];
  const formats = scenario.formats
    .map((id) => measured.find((m) => m.format === id))
    .filter((m): m is FormatSizesInput => m !== undefined && m.stats.count > 0);
  for (const id of scenario.formats)
    if (!formats.some((f) => f.format === id))
      warnings.push(`${id}: no measured sizes (the layout cannot be encoded in it)`);

  const cells: FleetCell[] = [];
  const byFleet: Record<string, SeriesPoint[]> = {};
  const byInterval: Record<string, SeriesPoint[]> = {};
  for (const pid of scenario.platforms) {
    const platform = platformById(pid);
    const billing = billingFor(scenario, pid);
    if (!platform || !billing) {
      warnings.push(`unknown platform "${pid}"`);
      continue;
    }
    const from = currencyOf(billing);
    if (from !== undefined && from !== scenario.currency && scenario.rates[from as Currency] === undefined)
      warnings.push(
        `${platform.name} is priced in ${from}: enter the ${from} → ${scenario.currency} rate to see its cost`,
      );
    const money = (x: number | undefined) => convert(x, from, scenario);
    const stack = stackFor(scenario, pid)!;
    const overheads = new Map<FormatId, OverheadFn>(
      formats.map((f) => [f.format, overheadFn(stack, { layout: context.layout, format: f.format })]),
    );
    for (const f of formats) {
      const overhead = overheads.get(f.format)!;
      const readingsPerMessage = f.readingsPerMessage ?? 1;
      const sent = messagesPerDayFor(perDay, readingsPerMessage);
      const plan = planFragmentation({
        platform,
        billing,
        sizes: distribution(f),
        devices: scenario.devices,
        messagesPerDay: sent,
        days: MONTH_DAYS,
        transportOverhead: overhead,
      });
      const r = plan.cost.fragmented;
      const ex = exactOf(r);
      const limit = platform.uplinkBytes ?? null;
      const exactMonthly = money(ex.cost);
      const onAir = onAirStats(f.stats, f.sizes, overhead);
      cells.push({
        format: f.format,
        formatLabel: f.label,
        platformId: pid,
        platformName: platform.name,
        sizes: { mean: f.stats.mean, p95: f.stats.p95, max: f.stats.max },
        stack,
        stackName: stackName(platform, stack),
        onAir: { mean: onAir.mean, p95: onAir.p95, max: onAir.max },
        limit,
        fitsMax: limit === null || onAir.max <= limit,
        fitsP95: limit === null || onAir.p95 <= limit,
        shareOver: r.exact?.shareOverLimit ?? 0,
        monthly: { mean: money(r.mean.cost), p95: money(r.p95.cost), max: money(r.max.cost), exact: exactMonthly },
        total: exactMonthly === undefined ? undefined : exactMonthly * scenario.months,
        units: ex.units,
        unitName: r.unitName,
        volume: ex.volume,
        volumeUnit: r.volumeUnit,
        unitShares: r.exact?.unitShares ?? [{ units: r.mean.fragmentsPerMessage, share: 1 }],
        fragmentsPerRecord: ex.fragmentsPerMessage,
        readingsPerMessage,
        messagesPerDay: sent,
        savingVsJson: null,
        billingCurrency: from,
        fragmentation: plan,
        warnings: r.warnings,
      });
    }
    const json = cells.find((c) => c.platformId === pid && c.format === "json");
    for (const c of cells)
      if (c.platformId === pid && json && json.monthly.exact !== undefined && c.monthly.exact !== undefined)
        c.savingVsJson = json.monthly.exact - c.monthly.exact;

    const series = (points: number[], at: (x: number) => { devices: number; perDay: number }): SeriesPoint[] =>
      points.map((x) => {
        const { devices, perDay: pd } = at(x);
        const values: SeriesPoint["values"] = {};
        for (const f of formats)
          values[f.format] =
            money(
              exactOf(
                monthlyCost(
                  platform,
                  billing,
                  f,
                  overheads.get(f.format)!,
                  devices,
                  messagesPerDayFor(pd, f.readingsPerMessage ?? 1),
                ),
              ).cost,
            ) ?? null;
        return { x, values };
      });
    byFleet[pid] = series(FLEET_SIZES, (devices) => ({ devices, perDay }));
    byInterval[pid] = series(INTERVAL_MINUTES, (minutes) => ({ devices: scenario.devices, perDay: 1440 / minutes }));
  }
  return {
    scenario,
    messagesPerDay: perDay,
    messagesPerMonth: scenario.devices * perDay * MONTH_DAYS,
    batched: formats.some((f) => (f.readingsPerMessage ?? 1) > 1),
    currency: scenario.currency,
    cells,
    byFleet,
    byInterval,
    warnings,
  };
}
