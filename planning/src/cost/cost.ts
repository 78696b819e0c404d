// What a fleet's telemetry costs per period on a platform, from the size distribution of its messages.
import { unitBytes, type Billing, type Platform } from "../platforms/catalog.ts";
import type { OverheadFn } from "../transport/platformStack.ts";

/** Sizes of one format's messages; `sizes` (every message) makes credit and fragment counts exact. */
export interface SizeDistribution {
  mean: number;
  p95: number;
  max: number;
  sizes?: ArrayLike<number>;
}

export interface CostInput {
  platform: Platform;
  devices: number;
  messagesPerDay: number;
  /** billing period in days; monthly plans count one plan month per 30 days */
  days?: number;
  sizes: SizeDistribution;
  /** replaces the platform's billing (a contract price, a different plan) */
  billing?: Billing;
  /** reassembly header per fragment; defaults to the platform's, else 0 */
  fragmentHeaderBytes?: number;
  /**
   * every message carries the header, records that fit included: what a receiver needs when it
   * cannot otherwise tell a fragment from a whole record (see planning/src/fragmentation)
   */
  headerOnEveryMessage?: boolean;
  /**
   * bytes a protocol stack adds to every message of a payload size (planning/src/transport): on an IP link
   * they are sent and billed with each message and each fragment; absent for a modem link (raw payload)
   */
  transportOverhead?: OverheadFn;
}

/** One payload as the platform sees it: after fragmentation, what is sent and what is billed. */
export interface MessageCharge {
  fragments: number;
  /** bytes on air, fragment and transport headers included */
  sentBytes: number;
  /** bytes the operator counts (session minimums applied) */
  billedBytes: number;
  /** credits for per-credit billing, otherwise the number of billed messages */
  units: number;
}

export interface CostScenario {
  bytesPerMessage: number;
  fragmentsPerMessage: number;
  /** messages actually transmitted in the period, fragments counted */
  transmissions: number;
  sentBytes: number;
  billedBytes: number;
  /** billedBytes in the billing unit (KB, MB …) */
  volume: number;
  /** credits (per-credit) or billed messages in the period */
  units: number;
  /** undefined when the platform has no public default price and none was given */
  cost: number | undefined;
}

export interface UnitShare {
  units: number;
  share: number;
}

export interface CostResult {
  platformId: string;
  devices: number;
  messagesPerDay: number;
  days: number;
  /** payloads produced in the period: devices × messages/day × days */
  messages: number;
  currency: string | undefined;
  volumeUnit: string;
  unitName: "credits" | "messages";
  mean: CostScenario;
  p95: CostScenario;
  max: CostScenario;
  /** from every message size, when given: the mean cost without the rounding of a mean size */
  exact?: CostScenario & { shareOverLimit: number; unitShares: UnitShare[] };
  warnings: string[];
}

const NO_OVERHEAD: OverheadFn = () => 0;

/**
 * Record bytes one message carries: the largest c with header + c + transport(header + c) ≤ limit. On air a
 * message grows with its payload (strictly), so the search is a bisection; without transport it is limit − header.
 */
export function fragmentRoom(limit: number, headerBytes: number, overhead: OverheadFn = NO_OVERHEAD): number {
  const fits = (c: number) => headerBytes + c + overhead(headerBytes + c) <= limit;
  let lo = 0;
  let hi = Math.max(0, limit - headerBytes);
  if (overhead === NO_OVERHEAD || fits(hi)) return hi;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return fits(lo) ? lo : 0;
}

/** Splits a payload over the limit into fragments and bills each one; fractional sizes (a mean) are allowed. */
export function chargeMessage(
  size: number,
  billing: Billing,
  limit: number | undefined,
  headerBytes = 0,
  headerOnEveryMessage = false,
  overhead: OverheadFn = NO_OVERHEAD,
): MessageCharge {
  const whole = size + overhead(size);
  // a stack with its own fragmentation (SCHC) sends what fits whole and splits the rest its way: no studio header
  const own = overhead.fragmenter;
  if (limit === undefined || (whole <= limit && (own !== undefined || !headerOnEveryMessage)))
    return {
      fragments: 1,
      sentBytes: whole,
      billedBytes: billedBytes(billing, whole),
      units: billedUnits(billing, whole),
    };
  if (own) {
    const parts = own.split(whole, limit);
    let sent = 0;
    let billed = 0;
    let units = 0;
    for (const p of parts) {
      sent += p;
      billed += billedBytes(billing, p);
      units += billedUnits(billing, p);
    }
    return { fragments: parts.length, sentBytes: sent, billedBytes: billed, units };
  }
  const perFragment = fragmentRoom(limit, headerBytes, overhead);
  if (perFragment <= 0)
    throw new RangeError(
      `a ${headerBytes}-byte fragment header${overhead === NO_OVERHEAD ? "" : " and the transport's headers"} leave no payload in a ${limit}-byte message`,
    );
  const fragments = Math.max(1, Math.ceil(size / perFragment));
  // every fragment but the last is full: header + perFragment bytes of record, plus the transport's headers
  const full = fragments - 1;
  const fullBytes = headerBytes + perFragment + overhead(headerBytes + perFragment);
  const lastPayload = headerBytes + size - full * perFragment;
  const last = lastPayload + overhead(lastPayload);
  return {
    fragments,
    sentBytes: full * fullBytes + last,
    billedBytes: full * billedBytes(billing, fullBytes) + billedBytes(billing, last),
    units: full * billedUnits(billing, fullBytes) + billedUnits(billing, last),
  };
}

function billedBytes(b: Billing, bytes: number): number {
  return b.kind === "per-volume" || b.kind === "per-message" ? Math.max(bytes, b.minBilledBytes ?? 0) : bytes;
}

/** Credits of one transmitted message, or 1 (the message itself) for every other billing. */
function billedUnits(b: Billing, bytes: number): number {
  return b.kind === "per-credit" ? Math.max(b.minCredits, Math.ceil(bytes / b.bytesPerCredit)) : 1;
}

function periodCost(b: Billing, c: MessageCharge, messages: number, devices: number, days: number): number | undefined {
  switch (b.kind) {
    case "per-volume":
      return b.price ? (messages * c.billedBytes * b.price.amount) / unitBytes(b.unit) : undefined;
    case "per-message":
    case "per-credit":
      return b.price ? messages * c.units * b.price.amount : undefined;
    case "monthly-plan": {
      if (!b.fee) return undefined;
      if (devices === 0) return 0;
      const months = days / 30;
      const perDevice = (messages / devices) * c.billedBytes;
      const over = Math.max(0, perDevice - b.includedBytes * months);
      if (over > 0 && !b.overagePrice) return undefined;
      const overage = over > 0 ? (over / unitBytes(b.overageUnit)) * b.overagePrice!.amount : 0;
      return devices * (b.fee.amount * months + overage);
    }
  }
}

function scenario(
  b: Billing,
  bytes: number,
  c: MessageCharge,
  messages: number,
  devices: number,
  days: number,
): CostScenario {
  const unit = b.kind === "monthly-plan" ? unitBytes(b.overageUnit) : b.kind === "per-volume" ? unitBytes(b.unit) : 1;
  return {
    bytesPerMessage: bytes,
    fragmentsPerMessage: c.fragments,
    transmissions: messages * c.fragments,
    sentBytes: messages * c.sentBytes,
    billedBytes: messages * c.billedBytes,
    volume: (messages * c.billedBytes) / unit,
    units: messages * c.units,
    cost: periodCost(b, c, messages, devices, days),
  };
}

function currencyOf(b: Billing): string | undefined {
  return b.kind === "monthly-plan" ? (b.fee ?? b.overagePrice)?.currency : b.price?.currency;
}

function volumeUnitName(b: Billing): string {
  const u =
    b.kind === "per-volume"
      ? b.unit
      : b.kind === "monthly-plan"
        ? b.overageUnit
        : { symbol: "B" as const, base: "binary" as const };
  return u.symbol === "B" ? "B" : `${u.symbol} (${u.base})`;
}

function assertCount(name: string, v: number): void {
  if (!Number.isFinite(v) || v < 0) throw new RangeError(`${name} must be a finite number ≥ 0, got ${v}`);
}

/** Period volume and cost from the mean size, worst cases from p95 and max, and the exact mean when sizes are given. */
export function estimateCost(input: CostInput): CostResult {
  const { platform, devices, messagesPerDay, sizes } = input;
  const days = input.days ?? 30;
  assertCount("devices", devices);
  assertCount("messagesPerDay", messagesPerDay);
  assertCount("days", days);
  for (const k of ["mean", "p95", "max"] as const) assertCount(`sizes.${k}`, sizes[k]);
  const b = input.billing ?? platform.billing;
  const limit = platform.uplinkBytes;
  const header = input.fragmentHeaderBytes ?? platform.fragmentation?.headerBytes ?? 0;
  const always = input.headerOnEveryMessage ?? false;
  const overhead = input.transportOverhead ?? NO_OVERHEAD;
  const messages = devices * messagesPerDay * days;
  const at = (bytes: number) =>
    scenario(b, bytes, chargeMessage(bytes, b, limit, header, always, overhead), messages, devices, days);

  const warnings: string[] = [];
  if (platform.status === "discontinued") warnings.push(`${platform.name} is discontinued`);
  if (platform.maxUplinksPerDay !== undefined && messagesPerDay > platform.maxUplinksPerDay)
    warnings.push(`${messagesPerDay} messages/day exceed ${platform.name}'s ${platform.maxUplinksPerDay} uplinks/day`);
  const maxOnAir = sizes.max + overhead(sizes.max);
  if (limit !== undefined && maxOnAir > limit)
    warnings.push(
      `messages up to ${sizes.max} B${maxOnAir > sizes.max ? ` (${maxOnAir} B on air)` : ""} exceed the ${limit}-byte limit and are sent as ${overhead.fragmenter ? `${overhead.fragmenter.name} fragments (${overhead.fragmenter.headerBytes}-byte header each, the RCS in the last)` : `fragments (${header}-byte header each)`}`,
    );
  if (platform.minUplinkBytes !== undefined && sizes.mean < platform.minUplinkBytes)
    warnings.push(`the mean message is below ${platform.name}'s ${platform.minUplinkBytes}-byte minimum`);
  if (currencyOf(b) === undefined) warnings.push(`${platform.name} has no public default price: volumes only`);

  const result: CostResult = {
    platformId: platform.id,
    devices,
    messagesPerDay,
    days,
    messages,
    currency: currencyOf(b),
    volumeUnit: volumeUnitName(b),
    unitName: b.kind === "per-credit" ? "credits" : "messages",
    mean: at(sizes.mean),
    p95: at(sizes.p95),
    max: at(sizes.max),
    warnings,
  };
  if (sizes.sizes && sizes.sizes.length > 0)
    result.exact = exactScenario(b, sizes.sizes, limit, header, always, overhead, messages, devices, days);
  return result;
}

/** Averages the charge of every observed message, so "12 % of messages cost two credits" is counted, not guessed. */
function exactScenario(
  b: Billing,
  all: ArrayLike<number>,
  limit: number | undefined,
  header: number,
  always: boolean,
  overhead: OverheadFn,
  messages: number,
  devices: number,
  days: number,
) {
  const n = all.length;
  let bytes = 0;
  let fragments = 0;
  let sent = 0;
  let billed = 0;
  let units = 0;
  let over = 0;
  const perUnits = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const s = all[i]!;
    const c = chargeMessage(s, b, limit, header, always, overhead);
    bytes += s;
    fragments += c.fragments;
    sent += c.sentBytes;
    billed += c.billedBytes;
    units += c.units;
    if (limit !== undefined && s + overhead(s) > limit) over++;
    perUnits.set(c.units, (perUnits.get(c.units) ?? 0) + 1);
  }
  const mean: MessageCharge = {
    fragments: fragments / n,
    sentBytes: sent / n,
    billedBytes: billed / n,
    units: units / n,
  };
  const unitShares = [...perUnits.entries()]
    .sort((x, y) => x[0] - y[0])
    .map(([u, count]) => ({ units: u, share: count / n }));
  return { ...scenario(b, bytes / n, mean, messages, devices, days), shareOverLimit: over / n, unitShares };
}

/** Half-up rounding that ignores binary noise (478.4 × 0.02 = 9.568000000000001 → 9.57). */
export function roundDecimal(x: number, decimals: number): number {
  const k = 10 ** decimals;
  return Math.round(Number((x * k).toPrecision(12))) / k;
}

export interface PaperFleet {
  devices: number;
  messagesPerDay: number;
  days: number;
}

/** The paper's Table 7 assumptions: 10 000 devices × 4 messages/day × 30 days, TN €0.02/MB, NTN €0.183/KB. */
export const PAPER_TABLE7_FLEET: PaperFleet = { devices: 10_000, messagesPerDay: 4, days: 30 };
export const PAPER_TABLE7_RATES = { tnEurPerMB: 0.02, ntnEurPerKB: 0.183 } as const;
export const PAPER_TABLE7_PAYLOADS = [
  { label: "JSON", bytes: 418 },
  { label: "Protocol Buffers", bytes: 138 },
  { label: "Struct+Zlib", bytes: 127 },
] as const;

/** Which units and roundings make the published figures come out, stated next to every table drawn in this mode. */
export const PAPER_TABLE7_RULES =
  "binary units: MB = 2^20 B, KB = 2^10 B; MB/month rounded to 0.1 MB; KB/month = that rounded MB × 1024, rounded to 1 KB; TN € = rounded MB × €0.02 to the cent; NTN € = rounded KB × €0.183, to the cent and shown to the euro";

export interface PaperTable7Row {
  label: string;
  bytes: number;
  mbPerMonth: number;
  tnEur: number;
  kbPerMonth: number;
  ntnEur: number;
  /** NTN € as the table prints it (whole euros) */
  ntnEurShown: number;
}

/**
 * Table 7 exactly as published. The paper derives KB from the already rounded MB figure, so JSON's
 * 501 600 000 B/month become 489 882 KB (not 489 843.75): the general model (`estimateCost`)
 * gives €89 641.41 on Astrocast where the table prints €89 648.
 */
export function paperTable7(
  payloads: ReadonlyArray<{ label: string; bytes: number }> = PAPER_TABLE7_PAYLOADS,
  fleet: PaperFleet = PAPER_TABLE7_FLEET,
  rates: { tnEurPerMB: number; ntnEurPerKB: number } = PAPER_TABLE7_RATES,
): PaperTable7Row[] {
  const messages = fleet.devices * fleet.messagesPerDay * fleet.days;
  return payloads.map(({ label, bytes }) => {
    const mbPerMonth = roundDecimal((messages * bytes) / 2 ** 20, 1);
    const kbPerMonth = roundDecimal(mbPerMonth * 1024, 0);
    const ntn = kbPerMonth * rates.ntnEurPerKB;
    return {
      label,
      bytes,
      mbPerMonth,
      tnEur: roundDecimal(mbPerMonth * rates.tnEurPerMB, 2),
      kbPerMonth,
      ntnEur: roundDecimal(ntn, 2),
      ntnEurShown: roundDecimal(ntn, 0),
    };
  });
}
