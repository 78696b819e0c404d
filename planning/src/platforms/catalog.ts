// Message-size limits and billing of the networks a payload is designed for: the one table sizes, fit verdicts and cost use.
import { z } from "zod";

/** Money as it is quoted by the operator; amounts are plain numbers in the currency's main unit (euros, dollars). */
export const moneySchema = z.object({
  amount: z.number().nonnegative(),
  currency: z.enum(["EUR", "USD", "GBP", "CHF"]),
});
export type Money = z.infer<typeof moneySchema>;

/**
 * KB and MB mean different byte counts depending on who bills: the paper's Table 7 only reproduces
 * with binary units (2^10, 2^20), while carriers usually quote decimal ones. The base is therefore
 * always explicit, never assumed.
 */
export const volumeUnitSchema = z.object({
  symbol: z.enum(["B", "KB", "MB", "GB"]),
  base: z.enum(["binary", "decimal"]),
});
export type VolumeUnit = z.infer<typeof volumeUnitSchema>;

const POWERS: Record<VolumeUnit["symbol"], number> = { B: 0, KB: 1, MB: 2, GB: 3 };

export function unitBytes(u: VolumeUnit): number {
  return (u.base === "binary" ? 1024 : 1000) ** POWERS[u.symbol];
}

export const billingSchema = z.discriminatedUnion("kind", [
  /** pay for the bytes sent; each message counts at least minBilledBytes (session minimums) */
  z.object({
    kind: z.literal("per-volume"),
    unit: volumeUnitSchema,
    price: moneySchema.optional(),
    minBilledBytes: z.number().int().nonnegative().optional(),
  }),
  /** a flat price per message whatever its size, up to the platform limit; the volume is reported as at least minBilledBytes */
  z.object({
    kind: z.literal("per-message"),
    price: moneySchema.optional(),
    minBilledBytes: z.number().int().nonnegative().optional(),
  }),
  /** credits per message: ceil(bytes / bytesPerCredit), never fewer than minCredits (RockBLOCK) */
  z.object({
    kind: z.literal("per-credit"),
    bytesPerCredit: z.number().int().positive(),
    minCredits: z.number().int().nonnegative(),
    price: moneySchema.optional(),
  }),
  /** a fee per device and 30-day month that includes some bytes; bytes above it cost overage per unit */
  z.object({
    kind: z.literal("monthly-plan"),
    fee: moneySchema.optional(),
    includedBytes: z.number().nonnegative(),
    overageUnit: volumeUnitSchema,
    overagePrice: moneySchema.optional(),
  }),
]);
export type Billing = z.infer<typeof billingSchema>;

/**
 * Where a default price comes from: an operator's published list, the paper, or an estimate derived from one of
 * those (said as such wherever the price is shown). `date` is when the figure was published or derived.
 */
export const priceBasisSchema = z.object({
  kind: z.enum(["published", "paper", "estimate"]),
  source: z.string().min(1).max(300),
  date: z.string().regex(/^\d{4}(-\d{2}){0,2}$/, "a year, year-month or date"),
});
export type PriceBasis = z.infer<typeof priceBasisSchema>;

/**
 * Splitting a payload that exceeds the limit into several messages: each fragment carries
 * headerBytes of reassembly header, so it holds (uplinkBytes − headerBytes) of payload.
 */
export const fragmentationSchema = z.object({
  headerBytes: z.number().int().nonnegative(),
});
export type Fragmentation = z.infer<typeof fragmentationSchema>;

export const platformSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, "lower-case letters, digits and -")
      .max(64),
    name: z.string().min(1).max(128),
    network: z.enum(["satellite", "lpwan", "cellular"]),
    /**
     * What the device hands the network: "modem" — the payload itself, framed by the platform (Astronode,
     * Kinéis, Iridium SBD, Sigfox, LoRaWAN FRMPayload), so the limit and the bill count payload bytes;
     * "ip" — IP datagrams, so a protocol stack's headers travel and are billed with every message, and a
     * limit, when set, is the largest datagram (see planning/src/transport/platformStack.ts).
     */
    link: z.enum(["modem", "ip"]).default("modem"),
    status: z.enum(["operational", "discontinued"]).default("operational"),
    /** largest user payload per uplink message; absent when the protocol sets no practical per-message limit */
    uplinkBytes: z.number().int().positive().optional(),
    /** smallest uplink the service accepts or bills (ORBCOMM's 6 bytes) */
    minUplinkBytes: z.number().int().nonnegative().optional(),
    downlinkBytes: z.number().int().positive().optional(),
    maxUplinksPerDay: z.number().int().positive().optional(),
    /** uplink messages the module holds before the host must wait (Astronode S: 8); each fragment takes one */
    queueSlots: z.number().int().positive().optional(),
    /** average hours from enqueue to delivery on the network (Astrocast: 5–7 h) */
    uplinkLatencyHours: z.object({ min: z.number().nonnegative(), max: z.number().nonnegative() }).optional(),
    billing: billingSchema,
    /** where the default price comes from; built-in platforms with a price always say */
    priceBasis: priceBasisSchema.optional(),
    fragmentation: fragmentationSchema.optional(),
    /** where each number comes from, so the UI can cite it */
    source: z.string().min(1).max(500),
    notes: z.array(z.string().max(500)).default([]),
  })
  .refine((p) => p.uplinkBytes === undefined || p.minUplinkBytes === undefined || p.minUplinkBytes <= p.uplinkBytes, {
    message: "minUplinkBytes must not exceed uplinkBytes",
    path: ["minUplinkBytes"],
  })
  .refine((p) => !p.fragmentation || p.uplinkBytes === undefined || p.fragmentation.headerBytes < p.uplinkBytes, {
    message: "a fragment header must leave room for payload",
    path: ["fragmentation", "headerBytes"],
  })
  .refine(
    (p) =>
      p.billing.kind !== "monthly-plan" ||
      !p.billing.fee ||
      !p.billing.overagePrice ||
      p.billing.fee.currency === p.billing.overagePrice.currency,
    {
      message: "overage must be priced in the fee's currency",
      path: ["billing", "overagePrice", "currency"],
    },
  );
export type Platform = z.infer<typeof platformSchema>;
export type PlatformInput = z.input<typeof platformSchema>;

export interface PlatformIssue {
  path: string;
  message: string;
}

/** A custom platform document is invalid; every problem is listed with its path. */
export class PlatformError extends Error {
  override readonly name = "PlatformError";
  constructor(readonly issues: PlatformIssue[]) {
    super(issues.map((i) => (i.path ? `${i.path} ${i.message}` : i.message)).join("; "));
  }
}

/** Validates a user-defined platform (JSON from a file or the UI). */
export function parsePlatform(input: unknown): Platform {
  const r = platformSchema.safeParse(input);
  if (r.success) return r.data;
  throw new PlatformError(r.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })));
}

const PAPER = "Kumar et al. 2026";
/** The paper every "Kumar et al. 2026" in this catalog cites, as a reference list prints it. */
export const PAPER_REFERENCE =
  'Kumar et al., "Evaluating Binary Serialization Protocols for IoT/M2M Applications over Hybrid Terrestrial and Non-Terrestrial Networks", Telecom 2026, 7(2), 43';
// Sources are named as the documents a reader can look up (the report prints them), never as this repository's files
const REGIONAL_PARAMETERS = "LoRa Alliance, LoRaWAN Regional Parameters (RP002)";
const eur = (amount: number): Money => ({ amount, currency: "EUR" });
const NO_PRICE = "no public default price: enter your contract's";
/** The paper's NTN rate (Table 7): €0.183 per KB of 2^10 B, "commercial LEO IoT class". */
const PAPER_NTN_EUR_PER_KB = 0.183;
const PAPER_PRICE: PriceBasis = { kind: "paper", source: `${PAPER}, Table 7`, date: "2026" };

function lorawan(
  region: "EU868" | "US915",
  dr: number,
  bytes: number,
  extra: Partial<PlatformInput>,
  note: string,
): PlatformInput {
  return {
    id: `lorawan-${region.toLowerCase()}-dr${dr}`,
    name: `LoRaWAN ${region} DR${dr}`,
    network: "lpwan",
    uplinkBytes: bytes,
    billing: { kind: "per-message" },
    source: `${REGIONAL_PARAMETERS}, ${region} data rates`,
    notes: [note, `billed by the network operator (per message or plan): ${NO_PRICE}`],
    ...extra,
  };
}

const RAW: PlatformInput[] = [
  {
    id: "astrocast",
    name: "Astrocast (Astronode S)",
    network: "satellite",
    uplinkBytes: 160,
    downlinkBytes: 40,
    queueSlots: 8,
    uplinkLatencyHours: { min: 5, max: 7 },
    billing: { kind: "per-volume", unit: { symbol: "KB", base: "binary" }, price: eur(PAPER_NTN_EUR_PER_KB) },
    priceBasis: { ...PAPER_PRICE, source: `${PAPER}, Table 7 (NTN rate, measured on Astrocast)` },
    source: `${PAPER}, Table 1 (limit) and Table 7 (NTN rate €0.183/KB, KB = 2^10 B); Astrocast, Astronode S datasheet and serial command documentation (160 + 8 B uplink, 8-slot queue, 5–7 h average uplink latency)`,
    notes: [
      "Table 1 writes the limit as < 160 B; the Astronode S accepts 160 user bytes (+8 optional geolocation bytes)",
      "downlink is 8 or 40 bytes",
      "the module queues at most 8 uplink messages",
    ],
  },
  {
    id: "iridium-sbd",
    name: "Iridium SBD (9602/9603)",
    network: "satellite",
    uplinkBytes: 340,
    downlinkBytes: 270,
    // RockBLOCK's credit price is not in any source we can cite: the paper's LEO-IoT rate for 50 bytes stands in
    billing: {
      kind: "per-credit",
      bytesPerCredit: 50,
      minCredits: 1,
      price: eur(Number(((PAPER_NTN_EUR_PER_KB * 50) / 1024).toPrecision(3))),
    },
    priceBasis: {
      kind: "estimate",
      source: `the paper's NTN rate (€0.183/KB of 2^10 B, ${PAPER} Table 7) for one 50-byte credit; not a RockBLOCK price: enter your contract's`,
      date: "2026",
    },
    source: `${PAPER}, Table 1 (340 MO / 270 MT); Ground Control, RockBLOCK documentation (credits of 50 bytes)`,
    notes: [
      "RockBLOCK bills 1 credit per 50 bytes started, at least 1 per session",
      "credit price: an estimate from the paper's NTN rate, not RockBLOCK's list price",
    ],
  },
  {
    id: "kineis",
    name: "Kinéis (max)",
    network: "satellite",
    uplinkBytes: 30,
    billing: { kind: "per-message" },
    source: `${PAPER}, Table 1 (30 max / 19 standard)`,
    notes: ["30 bytes is the largest message; 19 bytes is the standard one (see kineis-standard)", NO_PRICE],
  },
  {
    id: "kineis-standard",
    name: "Kinéis (standard)",
    network: "satellite",
    uplinkBytes: 19,
    billing: { kind: "per-message" },
    source: `${PAPER}, Table 1 (30 max / 19 standard)`,
    notes: [NO_PRICE],
  },
  {
    id: "orbcomm-og2",
    name: "ORBCOMM OG2",
    network: "satellite",
    uplinkBytes: 250,
    minUplinkBytes: 6,
    billing: { kind: "per-message" },
    source: `${PAPER}, Table 1 (OG1/OG2: 6–250 typical)`,
    notes: ["6–250 bytes is typical and depends on the message type", NO_PRICE],
  },
  {
    id: "sigfox",
    name: "Sigfox",
    network: "lpwan",
    uplinkBytes: 12,
    downlinkBytes: 8,
    maxUplinksPerDay: 140,
    billing: { kind: "per-message" },
    source: "Sigfox technical overview (12 B uplink, 8 B downlink, 140 uplinks a day)",
    notes: ["at most 140 uplinks per day", NO_PRICE],
  },
  lorawan("EU868", 0, 51, { downlinkBytes: 51 }, "1 % duty cycle"),
  lorawan("EU868", 1, 51, { downlinkBytes: 51 }, "1 % duty cycle"),
  lorawan("EU868", 2, 51, { downlinkBytes: 51 }, "1 % duty cycle"),
  lorawan("EU868", 3, 115, { downlinkBytes: 115 }, "1 % duty cycle"),
  lorawan("EU868", 4, 242, { downlinkBytes: 242 }, "1 % duty cycle; 222 bytes when a repeater may be in the path"),
  lorawan("EU868", 5, 242, { downlinkBytes: 242 }, "1 % duty cycle; 222 bytes when a repeater may be in the path"),
  lorawan("US915", 0, 11, {}, "400 ms dwell time"),
  lorawan("US915", 1, 53, {}, "400 ms dwell time"),
  lorawan("US915", 2, 125, {}, "400 ms dwell time"),
  lorawan("US915", 3, 242, {}, "400 ms dwell time"),
  lorawan("US915", 4, 242, {}, "400 ms dwell time"),
  {
    id: "swarm",
    name: "Swarm",
    network: "satellite",
    status: "discontinued",
    uplinkBytes: 192,
    billing: { kind: "per-message" },
    source: `${PAPER}, Section 2 (discontinued March 2025); Swarm M138 modem product manual (192 B messages)`,
    notes: ["service discontinued in 2025: kept for comparison with older designs", NO_PRICE],
  },
  {
    id: "nbiot-tn",
    name: "Terrestrial NB-IoT / LTE-M",
    network: "cellular",
    link: "ip",
    billing: { kind: "per-volume", unit: { symbol: "MB", base: "binary" }, price: eur(0.02) },
    priceBasis: { ...PAPER_PRICE, source: `${PAPER}, Table 7 (TN rate)` },
    source: `${PAPER}, Table 7 (TN rate €0.02/MB, MB = 2^20 B)`,
    notes: ["no fixed per-message limit: it depends on the protocol stack above the bearer"],
  },
  {
    id: "nbiot-ntn",
    name: "3GPP NB-IoT / LTE-M NTN",
    network: "satellite",
    link: "ip",
    billing: { kind: "per-volume", unit: { symbol: "KB", base: "binary" }, price: eur(PAPER_NTN_EUR_PER_KB) },
    priceBasis: {
      kind: "estimate",
      source: `the paper's NTN rate (${PAPER} Table 7, measured for a LEO IoT service), applied to 3GPP NTN: enter your operator's`,
      date: "2026",
    },
    source: `${PAPER}, Table 1 (protocol-dependent)`,
    notes: ["message size is protocol-dependent", "price: an estimate from the paper's NTN rate"],
  },
];

/** The built-in platforms, validated once at load so a typo in the table fails every test. */
export const PLATFORMS: readonly Platform[] = RAW.map(parsePlatform);

export function platformById(id: string): Platform | undefined {
  return PLATFORMS.find((p) => p.id === id);
}

/** The catalog's default price with where it comes from: "€0.183/KB (2^10 B) · paper: …, Table 7 (2026)". */
export function describeDefaultPrice(p: Platform): string {
  const price = describePrice(p.billing);
  if (!p.priceBasis) return price;
  const { kind, source, date } = p.priceBasis;
  return `${price} · ${kind === "estimate" ? "estimate" : kind === "paper" ? "from the paper" : "published price"}: ${source} (${date})`;
}

/** "€0.183/KB (binary)" or "no public default" — how a default price is shown next to a platform. */
export function describePrice(b: Billing): string {
  const money = (m: Money | undefined) => (m ? `${SYMBOL[m.currency]}${m.amount}` : undefined);
  const unit = (u: VolumeUnit) =>
    `${u.symbol}${u.symbol === "B" ? "" : u.base === "binary" ? ` (2^${POWERS[u.symbol] * 10} B)` : ` (10^${POWERS[u.symbol] * 3} B)`}`;
  switch (b.kind) {
    case "per-volume":
      return b.price ? `${money(b.price)}/${unit(b.unit)}` : "no public default";
    case "per-message":
      return b.price ? `${money(b.price)}/message` : "no public default";
    case "per-credit":
      return b.price ? `${money(b.price)}/credit of ${b.bytesPerCredit} B` : "no public default";
    case "monthly-plan":
      return b.fee ? `${money(b.fee)}/month incl. ${b.includedBytes} B` : "no public default";
  }
}

const SYMBOL: Record<Money["currency"], string> = { EUR: "€", USD: "$", GBP: "£", CHF: "CHF " };
