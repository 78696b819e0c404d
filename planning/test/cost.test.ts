import { describe, expect, it } from "vitest";
import { chargeMessage, estimateCost, paperTable7, PAPER_TABLE7_RULES, roundDecimal } from "../src/cost/cost.ts";
import { parsePlatform, platformById, type Billing, type Platform } from "../src/platforms/catalog.ts";

const platform = (id: string): Platform => {
  const p = platformById(id);
  if (!p) throw new Error(`no platform ${id}`);
  return p;
};
const dist = (bytes: number) => ({ mean: bytes, p95: bytes, max: bytes });
const rockblock: Billing = {
  kind: "per-credit",
  bytesPerCredit: 50,
  minCredits: 1,
  price: { amount: 0.1, currency: "GBP" },
};

describe("paper Table 7", () => {
  const rows = paperTable7();

  it("reproduces every published figure", () => {
    expect(
      rows.map(({ label, bytes, mbPerMonth, tnEur, kbPerMonth, ntnEurShown }) => ({
        label,
        bytes,
        mbPerMonth,
        tnEur,
        kbPerMonth,
        ntnEurShown,
      })),
    ).toEqual([
      { label: "JSON", bytes: 418, mbPerMonth: 478.4, tnEur: 9.57, kbPerMonth: 489882, ntnEurShown: 89648 },
      { label: "Protocol Buffers", bytes: 138, mbPerMonth: 157.9, tnEur: 3.16, kbPerMonth: 161690, ntnEurShown: 29589 },
      { label: "Struct+Zlib", bytes: 127, mbPerMonth: 145.3, tnEur: 2.91, kbPerMonth: 148787, ntnEurShown: 27228 },
    ]);
  });

  it("keeps the NTN cents the table rounds away", () => {
    expect(rows.map((r) => r.ntnEur)).toEqual([89648.41, 29589.27, 27228.02]);
  });

  it("gives the savings the paper quotes (> €62 000/month NTN, ≈ 320 MB/month TN)", () => {
    const [json, pb, sz] = rows;
    expect(json!.ntnEurShown - sz!.ntnEurShown).toBe(62420);
    expect(roundDecimal(json!.mbPerMonth - pb!.mbPerMonth, 1)).toBe(320.5);
  });

  it("states the units that make the figures come out", () => {
    expect(PAPER_TABLE7_RULES).toContain("MB = 2^20 B");
    expect(PAPER_TABLE7_RULES).toContain("KB = 2^10 B");
    expect(PAPER_TABLE7_RULES).toContain("rounded MB × 1024");
  });

  it("does not reproduce with decimal units (why the mode exists)", () => {
    const decimalMb = roundDecimal((1_200_000 * 418) / 1e6, 1);
    expect(decimalMb).toBe(501.6);
    expect(roundDecimal(decimalMb * 0.02, 2)).toBe(10.03);
  });

  it("matches the general model on the TN column and differs by the rounding on NTN", () => {
    const fleet = { devices: 10_000, messagesPerDay: 4, days: 30 };
    const tn = estimateCost({ platform: platform("nbiot-tn"), ...fleet, sizes: dist(418) });
    expect(tn.messages).toBe(1_200_000);
    expect(roundDecimal(tn.mean.volume, 1)).toBe(478.4);
    expect(roundDecimal(tn.mean.cost!, 2)).toBe(9.57);
    const ntn = estimateCost({ platform: platform("astrocast"), ...fleet, sizes: dist(418) });
    expect(ntn.mean.volume).toBe(489843.75);
    expect(roundDecimal(ntn.mean.cost!, 2)).toBe(89641.41);
    expect(ntn.currency).toBe("EUR");
  });
});

describe("credits (Iridium SBD via RockBLOCK: 1 credit per 50 bytes started, min 1)", () => {
  const credits = (bytes: number) => chargeMessage(bytes, rockblock, 340).units;
  it.each([
    [0, 1],
    [1, 1],
    [50, 1],
    [51, 2],
    [100, 2],
    [101, 3],
    [340, 7],
  ])("%i bytes cost %i credit(s)", (bytes, expected) => {
    expect(credits(bytes)).toBe(expected);
  });

  it("bills each SBD session of a fragmented payload separately", () => {
    // 400 B over a 340 B limit: sessions of 340 B (7 credits) and 60 B (2 credits)
    expect(chargeMessage(400, rockblock, 340)).toEqual({ fragments: 2, sentBytes: 400, billedBytes: 400, units: 9 });
  });

  it("counts credit-boundary crossings exactly from the observed sizes", () => {
    const sizes = [...Array<number>(88).fill(48), ...Array<number>(12).fill(53)];
    const r = estimateCost({
      platform: platform("iridium-sbd"),
      billing: rockblock,
      devices: 10,
      messagesPerDay: 24,
      days: 30,
      sizes: { mean: 48.6, p95: 53, max: 53, sizes },
    });
    expect(r.unitName).toBe("credits");
    expect(r.exact!.unitShares).toEqual([
      { units: 1, share: 0.88 },
      { units: 2, share: 0.12 },
    ]);
    expect(r.messages).toBe(7200);
    expect(r.exact!.units).toBeCloseTo(7200 * 1.12, 9);
    expect(r.exact!.cost).toBeCloseTo(806.4, 9);
    // the mean size (48.6 B) alone would claim one credit per message
    expect(r.mean.units).toBe(7200);
    expect(r.p95.units).toBe(14400);
  });

  it("prices credits by default with the catalog's estimate", () => {
    const r = estimateCost({ platform: platform("iridium-sbd"), devices: 1, messagesPerDay: 1, sizes: dist(10) });
    expect(r.currency).toBe("EUR");
    // one 10-byte message a day for 30 days: 30 credits at the catalog's price
    expect(r.mean.cost).toBeCloseTo(30 * 0.00894, 12);
    expect(r.warnings.some((w) => w.includes("no public default price"))).toBe(false);
  });
});

describe("fragmentation", () => {
  const perMessage: Billing = { kind: "per-message", price: { amount: 0.05, currency: "EUR" } };
  it.each([
    // size, limit, header, fragments, bytes on air
    [160, 160, 0, 1, 160],
    [161, 160, 0, 2, 161],
    [320, 160, 0, 2, 320],
    [321, 160, 0, 3, 321],
    [160, 160, 2, 1, 160],
    [161, 160, 2, 2, 165],
    [316, 160, 2, 2, 320],
    [317, 160, 2, 3, 323],
    [0, 30, 3, 1, 0],
    [31, 30, 3, 2, 37],
  ])("%i B with a %i B limit and %i B header → %i fragment(s), %i B sent", (size, limit, header, fragments, sent) => {
    const c = chargeMessage(size, perMessage, limit, header);
    expect(c.fragments).toBe(fragments);
    expect(c.sentBytes).toBe(sent);
    expect(c.units).toBe(fragments);
  });

  it.each([
    // every message carries the header (fragmented mode): size, fragments, bytes on air with a 160 B limit
    [0, 1, 2],
    [100, 1, 102],
    [158, 1, 160],
    [159, 2, 163],
    [316, 2, 320],
    [317, 3, 323],
  ])("with a header on every message %i B → %i message(s), %i B sent", (size, fragments, sent) => {
    const c = chargeMessage(size, perMessage, 160, 2, true);
    expect(c.fragments).toBe(fragments);
    expect(c.sentBytes).toBe(sent);
  });

  it("rejects a header that leaves no payload", () => {
    expect(() => chargeMessage(50, perMessage, 12, 12)).toThrow(RangeError);
  });

  it("counts transmissions after fragmentation and uses the platform's header", () => {
    const kineis = parsePlatform({ ...platform("kineis"), fragmentation: { headerBytes: 2 }, billing: perMessage });
    const r = estimateCost({
      platform: kineis,
      devices: 100,
      messagesPerDay: 4,
      days: 30,
      sizes: { mean: 25, p95: 29, max: 60 },
    });
    expect(r.messages).toBe(12_000);
    expect(r.mean.transmissions).toBe(12_000);
    expect(r.max.fragmentsPerMessage).toBe(3); // 60 B at 28 B per fragment
    expect(r.max.sentBytes).toBe(12_000 * 66);
    expect(r.max.cost).toBeCloseTo(1800, 9);
    expect(r.mean.cost).toBeCloseTo(600, 9);
    expect(r.warnings).toContain(
      "messages up to 60 B exceed the 30-byte limit and are sent as fragments (2-byte header each)",
    );
  });

  it("reports the share of observed messages over the limit", () => {
    const r = estimateCost({
      platform: platform("astrocast"),
      devices: 1,
      messagesPerDay: 1,
      days: 1,
      sizes: { mean: 155, p95: 170, max: 170, sizes: [150, 150, 150, 170] },
    });
    expect(r.exact!.shareOverLimit).toBe(0.25);
    expect(r.exact!.fragmentsPerMessage).toBe(1.25);
  });
});

describe("billing models", () => {
  const base = { devices: 10, messagesPerDay: 4, days: 30 } as const;

  it("per volume uses the stated unit base", () => {
    const decimalMb = parsePlatform({
      ...platform("nbiot-tn"),
      billing: { kind: "per-volume", unit: { symbol: "MB", base: "decimal" }, price: { amount: 1, currency: "EUR" } },
    });
    const r = estimateCost({ platform: decimalMb, ...base, sizes: dist(1000) });
    expect(r.mean.billedBytes).toBe(1_200_000);
    expect(r.mean.volume).toBe(1.2);
    expect(r.mean.cost).toBe(1.2);
    expect(r.volumeUnit).toBe("MB (decimal)");
  });

  it("per volume applies a per-message minimum", () => {
    const min = parsePlatform({
      ...platform("nbiot-tn"),
      billing: {
        kind: "per-volume",
        unit: { symbol: "KB", base: "binary" },
        minBilledBytes: 100,
        price: { amount: 1, currency: "EUR" },
      },
    });
    const r = estimateCost({ platform: min, ...base, sizes: { mean: 10, p95: 90, max: 200 } });
    expect(r.mean.billedBytes).toBe(1200 * 100);
    expect(r.mean.sentBytes).toBe(1200 * 10);
    expect(r.p95.billedBytes).toBe(1200 * 100);
    expect(r.max.billedBytes).toBe(1200 * 200);
    expect(r.mean.cost).toBeCloseTo(120_000 / 1024, 12);
  });

  it("per message ignores size and reports the minimum billed size", () => {
    const sigfox = parsePlatform({
      ...platform("sigfox"),
      billing: { kind: "per-message", minBilledBytes: 12, price: { amount: 0.01, currency: "USD" } },
    });
    const r = estimateCost({ platform: sigfox, ...base, sizes: { mean: 5, p95: 8, max: 12 } });
    expect(r.mean.cost).toBeCloseTo(12, 12);
    expect(r.max.cost).toBeCloseTo(12, 12);
    expect(r.mean.billedBytes).toBe(1200 * 12);
    expect(r.currency).toBe("USD");
  });

  it("a monthly plan charges the fee per device and 30 days plus overage", () => {
    const plan = parsePlatform({
      ...platform("nbiot-tn"),
      billing: {
        kind: "monthly-plan",
        fee: { amount: 1, currency: "EUR" },
        includedBytes: 1000,
        overageUnit: { symbol: "KB", base: "decimal" },
        overagePrice: { amount: 0.5, currency: "EUR" },
      },
    });
    // 120 messages × 10 B = 1200 B per device: 200 B over = 0.2 KB × €0.5
    expect(estimateCost({ platform: plan, ...base, sizes: dist(10) }).mean.cost).toBeCloseTo(11, 12);
    expect(estimateCost({ platform: plan, ...base, days: 60, sizes: dist(10) }).mean.cost).toBeCloseTo(22, 12);
    expect(estimateCost({ platform: plan, ...base, sizes: dist(5) }).mean.cost).toBeCloseTo(10, 12);
  });

  it("a plan with overage but no overage price has no cost", () => {
    const plan = parsePlatform({
      ...platform("nbiot-tn"),
      billing: {
        kind: "monthly-plan",
        fee: { amount: 1, currency: "EUR" },
        includedBytes: 100,
        overageUnit: { symbol: "KB", base: "binary" },
      },
    });
    expect(estimateCost({ platform: plan, ...base, sizes: dist(10) }).mean.cost).toBeUndefined();
  });

  it("warns about daily uplink caps and discontinued services", () => {
    expect(
      estimateCost({ platform: platform("sigfox"), devices: 1, messagesPerDay: 144, sizes: dist(12) }).warnings,
    ).toContain("144 messages/day exceed Sigfox's 140 uplinks/day");
    expect(
      estimateCost({ platform: platform("swarm"), devices: 1, messagesPerDay: 1, sizes: dist(12) }).warnings,
    ).toContain("Swarm is discontinued");
  });

  it("rejects negative or non-finite inputs", () => {
    expect(() =>
      estimateCost({ platform: platform("astrocast"), devices: -1, messagesPerDay: 1, sizes: dist(1) }),
    ).toThrow("devices must be a finite number ≥ 0, got -1");
    expect(() =>
      estimateCost({ platform: platform("astrocast"), devices: 1, messagesPerDay: Number.NaN, sizes: dist(1) }),
    ).toThrow(RangeError);
  });
});
