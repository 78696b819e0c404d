// The report's executive summary: the paragraph a board reads first. Which format on which platform, and why
// (its bytes, the limits it fits, what the fleet pays a year against the runner-up), with the caveats that qualify
// it. Computed from the report's own figures, so it can never disagree with the tables below it.
import type { FormatId } from "#codecs";
import type { FleetCell, FleetResult } from "./fleet.ts";
import { formatMoney } from "./money.ts";
import type { Currency } from "./scenario.ts";
import { platformById, type Billing } from "../platforms/catalog.ts";

/** A platform of the scenario that has no cost in the scenario's currency, and why. */
export interface UnpricedPlatform {
  platformId: string;
  name: string;
  /** "no-price": the catalog has none (no public price list); "no-rate": priced in a currency with no rate given */
  kind: "no-price" | "no-rate";
  reason: string;
}

export interface SummaryInput {
  fleet: FleetResult;
  sizes: readonly {
    format: FormatId;
    label: string;
    lossy: boolean;
    errors: number;
    stats: { count: number; mean: number; p95: number; max: number };
    savingVsJson: number | null;
  }[];
  fit: {
    platforms: readonly { id: string; name: string; limit: number }[];
    rows: readonly {
      format: FormatId;
      cells: readonly { platformId: string; fitsMax: boolean; shareOver: number }[];
    }[];
  };
  unpriced: readonly UnpricedPlatform[];
  samples: number;
  /** the battery sentence for the pick (the report's budget section), said before the caveats */
  battery?: (pick: { format: FormatId; platformId: string }) => string | null;
}

export interface SummaryPick {
  format: FormatId;
  formatLabel: string;
  platformId: string;
  platformName: string;
  /** twelve 30-day months, in the scenario currency */
  yearly: number;
}

export interface ExecutiveSummary {
  /** one paragraph: the recommendation, its reasons, then the caveats */
  text: string;
  recommendation: (SummaryPick & { runnerUp: SummaryPick | null }) | null;
  caveats: string[];
}

const MONTHS_A_YEAR = 12;

function hasPrice(b: Billing): boolean {
  return b.kind === "monthly-plan" ? (b.fee ?? b.overagePrice) !== undefined : b.price !== undefined;
}

/** The scenario's platforms that show no cost, with the reason a reader is given. */
export function unpricedPlatforms(fleet: FleetResult): UnpricedPlatform[] {
  const s = fleet.scenario;
  return s.platforms.flatMap((id): UnpricedPlatform[] => {
    const cells = fleet.cells.filter((c) => c.platformId === id);
    const p = platformById(id);
    const b = s.billing[id] ?? p?.billing;
    if (!p || !b || cells.length === 0 || cells.some((c) => c.monthly.exact !== undefined)) return [];
    if (!hasPrice(b))
      return [
        {
          platformId: id,
          name: p.name,
          kind: "no-price",
          reason: `${p.name} publishes no price list (it is priced per contract): enter your contract's price to compare it`,
        },
      ];
    const from = cells[0]!.billingCurrency ?? "?";
    return [
      {
        platformId: id,
        name: p.name,
        kind: "no-rate",
        reason: `${p.name} is priced in ${from}: enter the ${from} → ${s.currency} rate to compare it`,
      },
    ];
  });
}

/** Fits in one message first (no fragment to lose or to queue), then the lower bill, then the smaller message. */
function better(a: FleetCell, b: FleetCell): number {
  return (
    Number(b.fitsMax) - Number(a.fitsMax) ||
    a.monthly.exact! - b.monthly.exact! ||
    a.sizes.mean - b.sizes.mean ||
    a.format.localeCompare(b.format)
  );
}

const pick = (c: FleetCell): SummaryPick => ({
  format: c.format,
  formatLabel: c.formatLabel,
  platformId: c.platformId,
  platformName: c.platformName,
  yearly: c.monthly.exact! * MONTHS_A_YEAR,
});

const bytes = (x: number) => `${Math.round(x * 10) / 10} B`;
const count = (x: number) => x.toLocaleString("en-US", { maximumFractionDigits: 2 });
const pct = (x: number) => `${Math.round(x * 100)} %`;
const list = (xs: readonly string[]) =>
  xs.length <= 1 ? (xs[0] ?? "") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`;

function fitSentence(input: SummaryInput, format: FormatId): string | null {
  const row = input.fit.rows.find((r) => r.format === format);
  if (!row || input.fit.platforms.length === 0) return null;
  const name = (id: string) => {
    const p = input.fit.platforms.find((x) => x.id === id)!;
    return `${p.name} ${p.limit} B`;
  };
  const fits = row.cells.filter((c) => c.fitsMax).map((c) => name(c.platformId));
  const over = row.cells
    .filter((c) => !c.fitsMax)
    .map((c) => `${name(c.platformId)}, where ${pct(c.shareOver)} of messages are over`);
  if (!over.length) return `Its largest message fits every chosen limit: ${list(fits)}.`;
  if (!fits.length) return `Its largest message fits none of the chosen limits: not ${list(over)}.`;
  return `Its largest message fits ${list(fits)}; not ${list(over)}.`;
}

function caveatsFor(input: SummaryInput, best: FleetCell | undefined, priced: readonly FleetCell[]): string[] {
  const out: string[] = [];
  const s = input.fleet.scenario;
  if (best) {
    const size = input.sizes.find((x) => x.format === best.format);
    if (size?.lossy) out.push(`${best.formatLabel} rounds values to the precision the layout declares.`);
    if (size && size.errors > 0)
      out.push(`${best.formatLabel} could not encode ${count(size.errors)} of ${count(input.samples)} samples.`);
    if (!best.fitsMax)
      out.push(
        `${best.formatLabel} does not fit one ${best.platformName} message: each record is sent as up to ${best.fragmentation.fragments.max} messages.`,
      );
    const platform = platformById(best.platformId);
    if (platform?.priceBasis?.kind === "estimate" && s.billing[best.platformId] === undefined)
      out.push(`The ${best.platformName} price is an estimate: ${platform.priceBasis.source}.`);
    if (platform && platform.network !== "satellite") {
      const satellite = priced.find((c) => platformById(c.platformId)?.network === "satellite");
      if (satellite)
        out.push(
          `${best.platformName} needs ${platform.network === "cellular" ? "cellular" : "network"} coverage; where only satellites reach, the best is ${satellite.formatLabel} on ${satellite.platformName} at ${formatMoney(pick(satellite).yearly, s.currency)} a year.`,
        );
    }
  }
  for (const u of input.unpriced) out.push(`${u.reason}.`);
  out.push(`Sizes are measured on ${count(input.samples)} generated samples, not on field data.`);
  return out;
}

export function executiveSummary(input: SummaryInput): ExecutiveSummary {
  const f = input.fleet;
  const cur: Currency = f.currency;
  const priced = f.cells.filter((c) => c.monthly.exact !== undefined).sort(better);
  const best = priced[0];
  const caveats = caveatsFor(input, best, priced);
  if (!best) {
    const text = `No recommendation yet: none of the chosen platforms has a price in ${cur}. ${caveats.join(" ")}`;
    return { text, recommendation: null, caveats };
  }
  // the runner-up is the best other format on the same platform (same price list, so the bytes make the difference);
  // with one format only, the best other platform
  const runner =
    priced.find((c) => c.platformId === best.platformId && c.format !== best.format) ??
    priced.find((c) => c.format !== best.format) ??
    priced.find((c) => c.platformId !== best.platformId);
  const b = pick(best);
  const r = runner ? pick(runner) : null;
  const size = input.sizes.find((x) => x.format === best.format);
  const sentences: string[] = [`Recommendation: ${best.formatLabel} on ${best.platformName}.`];
  if (size) {
    const json = input.sizes.find((x) => x.format === "json" && x.stats.count > 0);
    const smaller =
      json && size.savingVsJson !== null && size.savingVsJson > 0
        ? `, ${pct(size.savingVsJson / json.stats.mean)} smaller than JSON`
        : "";
    sentences.push(
      `Its messages are ${bytes(size.stats.mean)} on average (p95 ${bytes(size.stats.p95)}, largest ${bytes(size.stats.max)})${smaller}.`,
    );
  }
  const fit = fitSentence(input, best.format);
  if (fit) sentences.push(fit);
  const fleet = `${count(f.scenario.devices)} devices sending ${count(f.messagesPerDay)} messages a day`;
  let cost = `For ${fleet} it costs ${formatMoney(b.yearly, cur)} a year`;
  if (r) {
    const diff = r.yearly - b.yearly;
    const other = `${r.formatLabel}${r.platformId === b.platformId ? "" : ` on ${r.platformName}`} (${formatMoney(r.yearly, cur)})`;
    cost +=
      Math.abs(diff) < 0.005
        ? `, as much as the runner-up, ${other}`
        : diff > 0
          ? `, ${formatMoney(diff, cur)} (${pct(diff / r.yearly)}) less than the runner-up, ${other}`
          : `, ${formatMoney(-diff, cur)} more than ${other}, which does not fit in one message`;
  }
  sentences.push(`${cost}.`);
  const battery = input.battery?.(b);
  if (battery) sentences.push(battery);
  const text = [...sentences, ...(caveats.length ? [`Caveats: ${caveats.join(" ")}`] : [])].join(" ");
  return { text, recommendation: { ...b, runnerUp: r }, caveats };
}
