import { describe, expect, it } from "vitest";
import { figureOfMerit, fomRange, PAPER_TABLE6, PAPER_TABLE6_HALF_STEP } from "../src/fom.ts";

const round1 = (x: number) => Math.round(x * 10) / 10;

describe("Figure of Merit (Kumar et al. 2026, Table 6)", () => {
  it("Protobuf, 4 instances, 2000 devices: 712 × 1 / 1.096 = 649.6", () => {
    expect(round1(figureOfMerit({ rps: 712, successRate: 1, p95Seconds: 1.096 }))).toBe(649.6);
  });

  it("Struct+Zlib, 4 instances: the text's 633.3 needs p95 = 1124.3 ms (Table 5 prints 1124)", () => {
    expect(round1(figureOfMerit({ rps: 712, successRate: 1, p95Seconds: 1.1243 }))).toBe(633.3);
    // with the rounded 1.124 s the same formula gives 633.5, printed 633 in Table 6
    expect(round1(figureOfMerit({ rps: 712, successRate: 1, p95Seconds: 1.124 }))).toBe(633.5);
  });

  it("the text's 649.5 for Protobuf likewise needs p95 = 1096.2 ms", () => {
    expect(round1(figureOfMerit({ rps: 712, successRate: 1, p95Seconds: 1.0962 }))).toBe(649.5);
  });

  it("single-instance rows that the printed inputs reproduce", () => {
    expect(round1(figureOfMerit({ rps: 418, successRate: 1, p95Seconds: 2.1 }))).toBe(199.0);
    expect(round1(figureOfMerit({ rps: 425, successRate: 1, p95Seconds: 1.967 }))).toBe(216.1);
    expect(round1(figureOfMerit({ rps: 496, successRate: 0.98, p95Seconds: 8.9 }))).toBe(54.6);
  });

  it("every Table 6 FoM lies within what its rounded inputs allow", () => {
    for (const row of PAPER_TABLE6) {
      const [lo, hi] = fomRange(row, PAPER_TABLE6_HALF_STEP);
      // the printed whole number stands for [fom − 0.5, fom + 0.5)
      expect(hi, `${row.format} ${row.devices} devices ${row.instances} inst.`).toBeGreaterThanOrEqual(row.fom - 0.5);
      expect(lo, `${row.format} ${row.devices} devices ${row.instances} inst.`).toBeLessThan(row.fom + 0.5);
    }
  });

  it("scales with the reference latency squared", () => {
    expect(figureOfMerit({ rps: 100, successRate: 0.5, p95Seconds: 2, referenceSeconds: 0.5 })).toBe(6.25);
  });

  it("rejects inputs outside their domain", () => {
    expect(() => figureOfMerit({ rps: 1, successRate: 1, p95Seconds: 0 })).toThrow("p95 latency must be > 0 s, got 0");
    expect(() => figureOfMerit({ rps: 1, successRate: 1.2, p95Seconds: 1 })).toThrow(
      "success rate must be within 0..1, got 1.2",
    );
    expect(() => figureOfMerit({ rps: -1, successRate: 1, p95Seconds: 1 })).toThrow("RPS must be ≥ 0, got -1");
  });
});
