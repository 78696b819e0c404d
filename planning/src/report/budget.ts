// The device budget of every fleet cell (format × platform): one message of the cell's mean bytes on air through
// the platform's radio, for a device reading every `intervalSeconds`. The Budget view, the advisor's battery
// objective and the report all read these rows, so they can never disagree.
import type { FormatId } from "#codecs";
import { type FleetCell, convert } from "./fleet.ts";
import { formatMoney } from "./money.ts";
import type { FleetScenario } from "./scenario.ts";
import { BudgetError, deviceBudget, radioChoiceFor, type DeviceBudget, type DeviceModel } from "../budget/index.ts";
import { batterySwapSaving, type BatterySwapPrices } from "../cost/batterySwaps.ts";
import { planFragmentation, type FragmentationPlan } from "../fragmentation/plan.ts";
import { platformById } from "../platforms/catalog.ts";
import type { OverheadFn } from "../transport/platformStack.ts";

export interface BudgetWhatIf {
  /** seconds between two readings */
  intervalSeconds: number;
  device: DeviceModel;
  /** per platform id, the radio constants the user replaced (resolveRadio's overrides, cited back as theirs) */
  radioOverrides?: Readonly<Record<string, Record<string, number>>>;
}

export interface BudgetRow {
  format: FormatId;
  formatLabel: string;
  platformId: string;
  platformName: string;
  /** whole bytes of the mean message on air, transport headers included (the cost model's figure, rounded up) */
  bytesOnAir: number;
  /** messages per record: above 1 when records over the platform's limit are sent in fragments */
  messagesPerRecord: number;
  /** readings one record carries in this format: the layout's batch (issue 27), 1 without one */
  readingsPerMessage: number;
  /** the budget, or the sentence saying why there is none (a message over the data rate's maximum) */
  budget: DeviceBudget | null;
  error: string | null;
}

/**
 * The budget of one message size on one platform, or why there is none; undefined: the platform has no radio.
 * `readingsPerMessage`: readings the message carries (1 unless the layout sends a batch).
 */
export function budgetAt(
  platformId: string,
  bytesOnAir: number,
  w: BudgetWhatIf,
  readingsPerMessage = 1,
): { budget: DeviceBudget; error: null } | { budget: null; error: string } | undefined {
  const choice = radioChoiceFor(platformId);
  if (!choice) return undefined;
  try {
    const { radioOverrides, ...rest } = w;
    const overrides = radioOverrides?.[platformId];
    return {
      budget: deviceBudget({
        choice,
        bytesOnAir,
        readingsPerMessage,
        ...rest,
        ...(overrides && { radioOverrides: overrides }),
      }),
      error: null,
    };
  } catch (e) {
    if (e instanceof BudgetError) return { budget: null, error: e.message };
    throw e;
  }
}

/** How one record travels on a platform: messages per record and the whole bytes of each on air. */
export interface RecordSplit {
  /** above 1 when records over the platform's limit are sent in fragments (the mean count over the sizes) */
  messagesPerRecord: number;
  /** the mean message on air, transport headers (and fragment headers) included, rounded up */
  bytesOnAir: number;
}

/**
 * The record as the cost model sends it (its fragmentation plan, the Cost page's): a record over the platform's limit
 * is its mean number of fragments, each the mean fragment's bytes on air; one that fits is one message of
 * `onAirMean` bytes. The one place the budget splits a record, so the Budget view, the report and `satpayload budget`
 * count the same messages as the fleet cost.
 */
export function recordSplit(plan: FragmentationPlan, onAirMean: number): RecordSplit {
  const split = plan.mode === "fragmented" && plan.fragments.mean > 1;
  const messagesPerRecord = split ? plan.fragments.mean : 1;
  return {
    messagesPerRecord,
    bytesOnAir: Math.ceil(split ? plan.sentBytesPerRecord / messagesPerRecord : onAirMean),
  };
}

/**
 * The budget of a record of `payloadBytes` (a size given, not measured: `satpayload budget --bytes`), split by the
 * cost model's fragmentation like a fleet cell; undefined: the platform has no radio model.
 */
export function sizeBudget(
  platformId: string,
  payloadBytes: number,
  w: BudgetWhatIf,
  opts: { readingsPerMessage?: number; transportOverhead?: OverheadFn } = {},
): (RecordSplit & ({ budget: DeviceBudget; error: null } | { budget: null; error: string })) | undefined {
  const platform = platformById(platformId);
  if (!platform || !radioChoiceFor(platformId)) return undefined;
  const n = payloadBytes;
  const plan = planFragmentation({
    platform,
    sizes: { mean: n, p95: n, max: n, sizes: [n] },
    devices: 1,
    messagesPerDay: 1,
    ...(opts.transportOverhead && { transportOverhead: opts.transportOverhead }),
  });
  const onAir = recordSplit(plan, n + (opts.transportOverhead?.(n) ?? 0));
  return {
    ...onAir,
    ...budgetAt(platformId, onAir.bytesOnAir, w, (opts.readingsPerMessage ?? 1) / onAir.messagesPerRecord)!,
  };
}

/**
 * One row per cell whose platform has a radio model; a message costs its mean size's airtime and energy, a record
 * the cost model's messages (recordSplit). A record carries the cell's readings per message (a batch layout's count
 * in that format, else 1), so the same cells give the Cost page and the budget.
 */
export function budgetRows(cells: readonly FleetCell[], w: BudgetWhatIf): BudgetRow[] {
  return cells.flatMap((c) => {
    const { messagesPerRecord, bytesOnAir } = recordSplit(c.fragmentation, c.onAir.mean);
    const at = budgetAt(c.platformId, bytesOnAir, w, c.readingsPerMessage / messagesPerRecord);
    if (!at) return [];
    return [
      {
        format: c.format,
        formatLabel: c.formatLabel,
        platformId: c.platformId,
        platformName: c.platformName,
        bytesOnAir,
        messagesPerRecord,
        readingsPerMessage: c.readingsPerMessage,
        ...at,
      },
    ];
  });
}

/** "4.2 years", "7 months", "12 days": battery life in the unit people say it in. */
export function lifeText(years: number): string {
  if (!Number.isFinite(years) || years < 0) return "—";
  if (years >= 2) return `${years.toFixed(years >= 20 ? 0 : 1)} years`;
  const months = years * 12;
  if (months >= 2) return `${months.toFixed(months >= 10 ? 0 : 1)} months`;
  const days = years * 365.25;
  return `${days.toFixed(days >= 10 ? 0 : 1)} day${days.toFixed(1) === "1.0" ? "" : "s"}`;
}

/** The report's budget section: battery life per format on the recommended platform, and the sentence for it. */
export interface ReportBudget {
  platformId: string;
  platformName: string;
  /** why the section is about another platform than the recommended one, when it is */
  why: string | null;
  whatIf: BudgetWhatIf;
  /** the horizon battery swaps are counted over */
  years: number;
  rows: BudgetRow[];
  /** battery swaps avoided by the recommended format against JSON, for the scenario's fleet over `years` */
  saving: { format: FormatId; moreYears: number; saved: number | undefined; currency: string } | null;
  /**
   * "Protobuf instead of JSON on Astrocast: the battery lasts 5.2 years instead of 3.1 years, €1,300,000 saved on
   * battery swaps over 10 years for 10,000 devices."
   */
  sentence: string | null;
}

// the two lives of the sentence in one unit where it reads naturally: "4.7 years instead of 1.2 years"
const years = (y: number) => (y >= 1 ? `${y.toFixed(1)} years` : lifeText(y));
const grouped = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 2 });

/**
 * The budget on the recommendation's platform (else the first of the scenario's platforms that has a radio), per
 * format; the sentence compares the recommended format with JSON there, with what the fleet saves on battery swaps
 * over `years` (planning's swap cost, in the scenario's currency when a rate is given). Null when no platform has a
 * radio.
 */
export function reportBudget(
  cells: readonly FleetCell[],
  scenario: FleetScenario,
  recommendation: { format: FormatId; platformId: string } | null,
  w: BudgetWhatIf,
  horizonYears: number,
  prices?: BatterySwapPrices,
): ReportBudget | null {
  const candidates = [...(recommendation ? [recommendation.platformId] : []), ...scenario.platforms];
  const platformId = candidates.find((id) => radioChoiceFor(id) !== undefined);
  if (!platformId) return null;
  const rows = budgetRows(
    cells.filter((c) => c.platformId === platformId),
    w,
  );
  if (!rows.length) return null;
  const platformName = rows[0]!.platformName;
  const recName = recommendation ? cells.find((c) => c.platformId === recommendation.platformId)?.platformName : null;
  const why =
    recommendation && recommendation.platformId !== platformId
      ? `${recName ?? recommendation.platformId} has no radio model yet: the budget is shown for ${platformName}`
      : null;
  const best = rows.find((r) => r.format === recommendation?.format && r.budget);
  const json = rows.find((r) => r.format === "json" && r.budget);
  let sentence: string | null = null;
  let saving: ReportBudget["saving"] = null;
  if (best && json && best !== json) {
    const s = batterySwapSaving(best.budget!.batteryLifeYears, json.budget!.batteryLifeYears, {
      devices: scenario.devices,
      years: horizonYears,
      ...(prices && { prices }),
    });
    const saved = convert(s.saved, s.currency, scenario);
    saving = { format: best.format, moreYears: s.moreYears, saved, currency: scenario.currency };
    const money =
      saved === undefined
        ? ""
        : saved > 0
          ? `, ${formatMoney(saved, scenario.currency, 0)} saved on battery swaps over ${grouped(horizonYears)} years for ${grouped(scenario.devices)} devices`
          : `, no battery swap saved over ${grouped(horizonYears)} years`;
    sentence = `${best.formatLabel} instead of ${json.formatLabel} on ${platformName}: the battery lasts ${years(best.budget!.batteryLifeYears)} instead of ${years(json.budget!.batteryLifeYears)}${money}.`;
  } else if (best)
    sentence = `${best.formatLabel} on ${platformName}: the battery lasts ${years(best.budget!.batteryLifeYears)}.`;
  return { platformId, platformName, why, whatIf: w, years: horizonYears, rows, saving, sentence };
}
