import { describe, expect, it } from "vitest";
import {
  describeDefaultPrice,
  describePrice,
  parsePlatform,
  PlatformError,
  PLATFORMS,
  platformById,
  platformSchema,
  unitBytes,
} from "../src/platforms/catalog.ts";

const get = (id: string) => {
  const p = platformById(id);
  if (!p) throw new Error(`missing ${id}`);
  return p;
};

describe("platform catalog", () => {
  it("has unique ids that pass the custom-platform schema", () => {
    const ids = PLATFORMS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of PLATFORMS) expect(platformSchema.safeParse(p).success, p.id).toBe(true);
  });

  it("holds the limits of the paper's Table 1 and the facts table", () => {
    const limits = Object.fromEntries(PLATFORMS.map((p) => [p.id, [p.uplinkBytes, p.downlinkBytes]]));
    expect(limits).toEqual({
      astrocast: [160, 40],
      "iridium-sbd": [340, 270],
      kineis: [30, undefined],
      "kineis-standard": [19, undefined],
      "orbcomm-og2": [250, undefined],
      sigfox: [12, 8],
      "lorawan-eu868-dr0": [51, 51],
      "lorawan-eu868-dr1": [51, 51],
      "lorawan-eu868-dr2": [51, 51],
      "lorawan-eu868-dr3": [115, 115],
      "lorawan-eu868-dr4": [242, 242],
      "lorawan-eu868-dr5": [242, 242],
      "lorawan-us915-dr0": [11, undefined],
      "lorawan-us915-dr1": [53, undefined],
      "lorawan-us915-dr2": [125, undefined],
      "lorawan-us915-dr3": [242, undefined],
      "lorawan-us915-dr4": [242, undefined],
      swarm: [192, undefined],
      "nbiot-tn": [undefined, undefined],
      "nbiot-ntn": [undefined, undefined],
    });
    expect(get("orbcomm-og2").minUplinkBytes).toBe(6);
    expect(get("sigfox").maxUplinksPerDay).toBe(140);
    expect(get("swarm").status).toBe("discontinued");
  });

  it("prices what the paper states, in binary units, and marks what is estimated from it", () => {
    expect(get("astrocast").billing).toEqual({
      kind: "per-volume",
      unit: { symbol: "KB", base: "binary" },
      price: { amount: 0.183, currency: "EUR" },
    });
    expect(get("nbiot-tn").billing).toEqual({
      kind: "per-volume",
      unit: { symbol: "MB", base: "binary" },
      price: { amount: 0.02, currency: "EUR" },
    });
    // Iridium must not show "no price": the paper's €0.183 per 2^10 B, for one 50-byte credit, marked as an estimate
    expect(get("iridium-sbd").billing).toEqual({
      kind: "per-credit",
      bytesPerCredit: 50,
      minCredits: 1,
      price: { amount: 0.00894, currency: "EUR" },
    });
    expect(Math.abs(0.183 * (50 / 1024) - 0.00894)).toBeLessThan(0.000005);
    expect(get("iridium-sbd").priceBasis?.kind).toBe("estimate");
    expect(get("nbiot-ntn").priceBasis?.kind).toBe("estimate");
    const priced = PLATFORMS.filter((p) => describePrice(p.billing) !== "no public default").map((p) => p.id);
    expect(priced).toEqual(["astrocast", "iridium-sbd", "nbiot-tn", "nbiot-ntn"]);
    expect(describePrice(get("astrocast").billing)).toBe("€0.183/KB (2^10 B)");
    expect(describePrice(get("nbiot-tn").billing)).toBe("€0.02/MB (2^20 B)");
    expect(describeDefaultPrice(get("iridium-sbd"))).toMatch(
      /^€0\.00894\/credit of 50 B · estimate: the paper's NTN rate .* \(2026\)$/,
    );
    expect(describeDefaultPrice(get("astrocast"))).toBe(
      "€0.183/KB (2^10 B) · from the paper: Kumar et al. 2026, Table 7 (NTN rate, measured on Astrocast) (2026)",
    );
    // every default price says where it comes from and when; every platform without one says so
    for (const p of PLATFORMS) {
      if (priced.includes(p.id))
        expect(p.priceBasis, p.id).toMatchObject({ source: expect.any(String), date: expect.stringMatching(/^\d{4}/) });
      else expect(p.notes.join(" "), p.id).toContain("no public default");
    }
  });

  it("cites a source for every entry", () => {
    for (const p of PLATFORMS) {
      expect(p.source, p.id).toMatch(/Kumar et al\. 2026|LoRa Alliance|Sigfox/);
      // a document the reader can look up, never a file of this repository (the report prints the source)
      expect(p.source, p.id).not.toMatch(/\.md\b|docs\//);
    }
    expect(get("astrocast").source).toContain("Table 7");
    expect(get("kineis").source).toContain("Table 1");
  });

  it("converts units with the stated base", () => {
    expect(unitBytes({ symbol: "KB", base: "binary" })).toBe(1024);
    expect(unitBytes({ symbol: "MB", base: "binary" })).toBe(1_048_576);
    expect(unitBytes({ symbol: "MB", base: "decimal" })).toBe(1_000_000);
    expect(unitBytes({ symbol: "GB", base: "decimal" })).toBe(1e9);
    expect(unitBytes({ symbol: "B", base: "decimal" })).toBe(1);
  });
});

describe("custom platforms", () => {
  const custom = {
    id: "my-lte",
    name: "My LTE-M contract",
    network: "cellular",
    uplinkBytes: 1200,
    billing: {
      kind: "monthly-plan",
      fee: { amount: 0.9, currency: "EUR" },
      includedBytes: 1_000_000,
      overageUnit: { symbol: "MB", base: "decimal" },
      overagePrice: { amount: 0.3, currency: "EUR" },
    },
    source: "our contract, 2026",
  };

  it("accepts a valid document and fills defaults", () => {
    const p = parsePlatform(custom);
    expect(p.status).toBe("operational");
    expect(p.notes).toEqual([]);
    expect(describePrice(p.billing)).toBe("€0.9/month incl. 1000000 B");
  });

  it("lists every problem with its path", () => {
    const bad = {
      ...custom,
      id: "My LTE",
      uplinkBytes: -5,
      billing: { kind: "per-credit", bytesPerCredit: 0, minCredits: 1 },
    };
    let err: unknown;
    try {
      parsePlatform(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PlatformError);
    const paths = (err as PlatformError).issues.map((i) => i.path).sort();
    expect(paths).toEqual(["billing.bytesPerCredit", "id", "uplinkBytes"]);
  });

  it("rejects an unknown billing kind and inconsistent limits", () => {
    expect(() => parsePlatform({ ...custom, billing: { kind: "free" } })).toThrow(PlatformError);
    expect(() => parsePlatform({ ...custom, uplinkBytes: 10, minUplinkBytes: 20 })).toThrow(
      "minUplinkBytes must not exceed uplinkBytes",
    );
    expect(() => parsePlatform({ ...custom, uplinkBytes: 10, fragmentation: { headerBytes: 10 } })).toThrow(
      "a fragment header must leave room for payload",
    );
    expect(() =>
      parsePlatform({ ...custom, billing: { ...custom.billing, overagePrice: { amount: 1, currency: "USD" } } }),
    ).toThrow("billing.overagePrice.currency overage must be priced in the fee's currency");
  });
});
