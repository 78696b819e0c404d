// The stakeholder report as data: every number and sentence the report page prints and the CSV lists.
import type { Field, FieldType, FormatId, Layout } from "#codecs";
import type { SizeStats } from "#codecs/analysis";
import { reportBudget, type BudgetWhatIf, type ReportBudget } from "./budget.ts";
import { evaluateFleet, type FleetResult, type FormatSizesInput } from "./fleet.ts";
import { billingFor, type FleetScenario } from "./scenario.ts";
import { executiveSummary, unpricedPlatforms, type ExecutiveSummary, type UnpricedPlatform } from "./summary.ts";
import { messagesPerDayFor } from "../batch/perMessage.ts";
import type { BatterySwapPrices } from "../cost/batterySwaps.ts";
import { paperTable7, PAPER_TABLE7_RULES, type PaperTable7Row } from "../cost/cost.ts";
import { FRAGMENT_HEADER_BYTES } from "../fragmentation/header.ts";
import { REASSEMBLY_RULE, type FragmentationPlan } from "../fragmentation/plan.ts";
import { describeDefaultPrice, describePrice, PAPER_REFERENCE, platformById } from "../platforms/catalog.ts";
import { layoutStackId } from "../transport/platformStack.ts";

export interface MeasuredFormat extends FormatSizesInput {
  lossy: boolean;
  /** samples that could not be encoded */
  errors: number;
}

export interface ReportInput {
  projectName: string;
  layout: Layout;
  /** the saved version of the layout the report describes; null before its first save */
  layoutVersion?: number | null;
  samples: { count: number; seed: number };
  measured: readonly MeasuredFormat[];
  scenario: FleetScenario;
  /** platforms of the fit table besides the scenario's (the designer's chosen limits) */
  fitPlatforms?: readonly string[];
  /** ISO time, passed in so the same inputs give the same report */
  generatedAt: string;
  /**
   * the device and cadence of the battery-life section (the Budget view's) and the years battery swaps are counted
   * over, at the user's swap prices (default: planning's DEFAULT_SWAP_PRICES); none: the report has no such section
   */
  budget?: BudgetWhatIf & { years: number; prices?: BatterySwapPrices };
}

export interface FitCell {
  platformId: string;
  fitsMax: boolean;
  fitsP95: boolean;
  shareOver: number;
}

export interface ReportModel {
  /** the project's name: what the board knows the work by */
  title: string;
  /** what the document is, under the title */
  subtitle: string;
  generatedAt: string;
  summary: ExecutiveSummary;
  layout: {
    name: string;
    version: number | null;
    description: string | null;
    fieldCount: number;
    fields: { key: string; name: string; type: string; unit: string }[];
  };
  samples: { count: number; seed: number };
  sizes: {
    format: FormatId;
    label: string;
    lossy: boolean;
    stats: SizeStats;
    savingVsJson: number | null;
    errors: number;
  }[];
  fit: {
    platforms: { id: string; name: string; limit: number }[];
    rows: { format: FormatId; label: string; cells: FitCell[] }[];
    unlimited: string[];
  };
  fleet: FleetResult;
  /**
   * the batch choice (issue 27), null when every format sends one reading per message: the
   * readings a device takes a day and, per format, how many ride in one message and what that
   * leaves in messages a day and in wait for the oldest reading
   */
  batch: {
    readingsPerDay: number;
    intervalSeconds: number | null;
    formats: {
      format: FormatId;
      label: string;
      readingsPerMessage: number;
      messagesPerDay: number;
      oldestWaitMinutes: number | null;
    }[];
  } | null;
  /** battery life per format on the recommended platform; null without a device or a platform with a radio */
  budget: ReportBudget | null;
  table7: { rows: PaperTable7Row[]; rules: string } | null;
  fragmentation: { format: FormatId; formatLabel: string; plan: FragmentationPlan }[];
  reassemblyRule: string;
  assumptions: string[];
  sources: { platformId: string; name: string; price: string; edited: boolean; source: string }[];
  /** platforms of the scenario with no cost shown, and why */
  unpriced: UnpricedPlatform[];
  /** the documents the figures come from, in full */
  references: string[];
}

/** per measured format, its readings per message, from the fleet's cells (one per format is enough) */
function batchChoice(fleet: FleetResult, layout: Layout, measured: readonly MeasuredFormat[]): ReportModel["batch"] {
  if (!fleet.batched) return null;
  const interval = layout.batch?.intervalSeconds ?? null;
  const formats = measured
    .filter((m) => m.stats.count > 0 && fleet.scenario.formats.includes(m.format))
    .map((m) => {
      const n = m.readingsPerMessage ?? 1;
      return {
        format: m.format,
        label: m.label,
        readingsPerMessage: n,
        messagesPerDay: messagesPerDayFor(fleet.messagesPerDay, n),
        oldestWaitMinutes: interval === null ? null : (n * interval) / 60,
      };
    });
  return { readingsPerDay: fleet.messagesPerDay, intervalSeconds: interval, formats };
}

/**
 * The report's first words on a batch: how many readings a day are priced (the cost scenario's cadence) and,
 * when the layout's batch samples at another rate, that the two differ — the report never says "4 readings a
 * day (one every 15 min)", which cannot both be true.
 */
export function batchCadenceText(b: NonNullable<ReportModel["batch"]>): string {
  const perDay = b.readingsPerDay.toLocaleString("en-US", { maximumFractionDigits: 2 });
  if (b.intervalSeconds === null) return `Each device takes ${perDay} readings a day`;
  const sampled = 86_400 / b.intervalSeconds;
  const every = (b.intervalSeconds / 60).toLocaleString("en-US", { maximumFractionDigits: 2 });
  if (Math.abs(sampled - b.readingsPerDay) < 1e-9)
    return `Each device takes ${perDay} readings a day (one every ${every} min)`;
  const sampledText = sampled.toLocaleString("en-US", { maximumFractionDigits: 2 });
  return (
    `Priced at ${perDay} readings a day per device (the cost scenario's cadence), while the layout's batch ` +
    `samples one every ${every} min, ${sampledText} a day: set the scenario's cadence to ${sampledText} a day to ` +
    `price every reading`
  );
}

function typeText(t: FieldType): string {
  switch (t.kind) {
    case "int":
      return `${t.signed ? "" : "u"}int${t.bits}${t.min !== undefined || t.max !== undefined ? ` ${t.min ?? "…"}–${t.max ?? "…"}` : ""}`;
    case "float":
      return `float${t.bits}${t.precision !== undefined ? ` ±${t.precision / 2}` : ""}`;
    case "fixed":
      return `fixed ${t.scale} (${t.min}–${t.max})`;
    case "timestamp":
      return t.encoding === "text" ? `time "${t.textFormat}"` : `time, ${t.resolution} s`;
    case "string":
      return `string ≤ ${t.maxLength}${t.charset === "utf8" ? "" : ` ${t.charset}`}`;
    case "bytes":
      return `bytes ≤ ${t.maxLength}`;
    case "enum":
      return `enum (${t.values.length})`;
    case "array":
      return `${t.fixed ? "" : "≤ "}${t.maxCount} × ${typeText(t.of)}`;
    case "group":
      return `group (${t.fields.length})`;
    default:
      return "bool";
  }
}

function flatFields(fields: readonly Field[], prefix = ""): ReportModel["layout"]["fields"] {
  return fields.flatMap((f) => {
    const key = prefix ? `${prefix}.${f.key}` : f.key;
    const row = { key, name: f.name, type: typeText(f.type), unit: f.unit ?? "" };
    return f.type.kind === "group" ? [row, ...flatFields(f.type.fields, key)] : [row];
  });
}

const grouped = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 2 });

export function buildReport(input: ReportInput): ReportModel {
  const { scenario, layout, measured } = input;
  const fleet = evaluateFleet(scenario, measured, { layout: layoutStackId(layout.name) });
  const json = measured.find((m) => m.format === "json" && m.stats.count > 0);

  const fitIds = [...new Set([...scenario.platforms, ...(input.fitPlatforms ?? [])])];
  const known = fitIds.map((id) => platformById(id)).filter((p) => p !== undefined);
  const limited = known.filter((p) => p.uplinkBytes !== undefined).sort((a, b) => a.uplinkBytes! - b.uplinkBytes!);
  const fitRows = measured
    .filter((m) => m.stats.count > 0)
    .map((m) => ({
      format: m.format,
      label: m.label,
      cells: limited.map((p) => {
        let over = 0;
        for (let i = 0; i < m.sizes.length; i++) if (m.sizes[i]! > p.uplinkBytes!) over++;
        return {
          platformId: p.id,
          fitsMax: m.stats.max <= p.uplinkBytes!,
          fitsP95: m.stats.p95 <= p.uplinkBytes!,
          shareOver: m.sizes.length ? over / m.sizes.length : 0,
        };
      }),
    }));

  const perDay = fleet.messagesPerDay;
  const batch = batchChoice(fleet, layout, measured);
  const assumptions = [
    `Sizes come from ${input.samples.count.toLocaleString("en-US")} samples drawn from the layout's sample models (seed ${input.samples.seed}); cost uses every sample's size (the mean), worst cases use p95 and max.`,
    batch
      ? `A month is 30 days: ${grouped(scenario.devices)} devices × ${grouped(perDay)} readings/day, sent ${batch.formats
          .map((f) => `${f.readingsPerMessage} per message in ${f.label} (${grouped(f.messagesPerDay)} messages/day)`)
          .join(
            ", ",
          )}, over ${scenario.months} month${scenario.months === 1 ? "" : "s"}; a message never depends on an earlier one.`
      : `A month is 30 days: ${grouped(scenario.devices)} devices × ${grouped(perDay)} messages/day = ${grouped(fleet.messagesPerMonth)} messages per month, over ${scenario.months} month${scenario.months === 1 ? "" : "s"}.`,
    `A record larger than a platform's limit is sent in fragmented mode: every message of that layout carries a ${FRAGMENT_HEADER_BYTES}-byte header (record id, fragment index and count), and each message is billed on its own.`,
    `KB and MB are binary (2^10, 2^20 bytes) or decimal (10^3, 10^6) exactly as each price states.`,
    `Costs are shown in ${scenario.currency}${
      Object.keys(scenario.rates).length
        ? `; converted at ${Object.entries(scenario.rates)
            .map(([c, r]) => `1 ${c} = ${r} ${scenario.currency}`)
            .join(", ")}`
        : ""
    }.`,
  ];
  const stacks = scenario.platforms.flatMap((id) => {
    const cells = fleet.cells.filter((c) => c.platformId === id);
    if (!cells.length) return [];
    const added = cells.map((c) => c.onAir.mean - c.sizes.mean);
    const lo = Math.min(...added);
    const hi = Math.max(...added);
    return [
      `${cells[0]!.platformName}: ${cells[0]!.stackName}${hi > 0 ? ` (+${grouped(lo)}${hi > lo ? `–${grouped(hi)}` : ""} B per message)` : ""}`,
    ];
  });
  assumptions.push(
    `Bytes on air, which limits and volume prices count: ${stacks.join("; ")}. A modem link carries the raw payload; an IP link sends every message (and every fragment) with its protocol stack's headers, counted from the standards' header formats (IP, UDP, TCP, CoAP, MQTT, DTLS) and checked against real clients.`,
  );
  if (scenario.paperTable7) assumptions.push(`Paper Table 7: ${PAPER_TABLE7_RULES}.`);

  const sources = scenario.platforms.flatMap((id) => {
    const p = platformById(id);
    const b = billingFor(scenario, id);
    if (!p || !b) return [];
    const edited = scenario.billing[id] !== undefined;
    return [
      {
        platformId: id,
        name: p.name,
        price: edited ? `${describePrice(b)} (edited; catalog: ${describeDefaultPrice(p)})` : describeDefaultPrice(p),
        edited,
        source: p.source,
      },
    ];
  });

  const sizes = measured.map((m) => ({
    format: m.format,
    label: m.label,
    lossy: m.lossy,
    stats: m.stats,
    errors: m.errors,
    savingVsJson: json && m.stats.count > 0 && m.format !== "json" ? json.stats.mean - m.stats.mean : null,
  }));
  const fit = {
    platforms: limited.map((p) => ({ id: p.id, name: p.name, limit: p.uplinkBytes! })),
    rows: fitRows,
    unlimited: known.filter((p) => p.uplinkBytes === undefined).map((p) => p.name),
  };
  const unpriced = unpricedPlatforms(fleet);
  const b = input.budget;
  const budgetFor = (pick: { format: FormatId; platformId: string } | null) =>
    b
      ? reportBudget(
          fleet.cells,
          scenario,
          pick,
          {
            intervalSeconds: b.intervalSeconds,
            device: b.device,
            ...(b.radioOverrides && { radioOverrides: b.radioOverrides }),
          },
          b.years,
          b.prices,
        )
      : null;
  // the board reads the battery sentence with the recommendation it qualifies
  const summary = executiveSummary({
    fleet,
    sizes,
    fit,
    unpriced,
    samples: input.samples.count,
    battery: (pick) => budgetFor(pick)?.sentence ?? null,
  });
  const budget = budgetFor(summary.recommendation);

  return {
    title: input.projectName.trim() || layout.name,
    subtitle: "Payload size and fleet cost",
    generatedAt: input.generatedAt,
    summary,
    layout: {
      name: layout.name,
      version: input.layoutVersion ?? null,
      description: layout.description ?? null,
      fieldCount: flatFields(layout.fields).length,
      fields: flatFields(layout.fields),
    },
    samples: input.samples,
    sizes,
    fit,
    fleet,
    batch,
    budget,
    table7: scenario.paperTable7 ? { rows: paperTable7(), rules: PAPER_TABLE7_RULES } : null,
    fragmentation: fleet.cells
      .filter((c) => c.fragmentation.mode === "fragmented" || c.fragmentation.mode === "too-large")
      .map((c) => ({ format: c.format, formatLabel: c.formatLabel, plan: c.fragmentation })),
    // the studio's rule, or SCHC's where a SCHC stack fragments (each scheme in use once)
    reassemblyRule:
      [
        ...new Set(
          fleet.cells
            .filter((c) => c.fragmentation.mode === "fragmented" || c.fragmentation.mode === "too-large")
            .map((c) => c.fragmentation.reassembly),
        ),
      ].join(" ") || REASSEMBLY_RULE,
    assumptions,
    sources,
    unpriced,
    references: [PAPER_REFERENCE],
  };
}
