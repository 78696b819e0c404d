// The CI share of the decoder fuzzer (`npm run fuzz` runs ≥ 1 M inputs with the same harness). The
// slowest decode is printed, not asserted: a wall-clock bound fails on a busy machine; `npm run fuzz`
// judges it (a hang would also end this test at vitest's timeout).
import { describe, expect, it } from "vitest";
import { FUZZ_LAYOUTS, fuzzAllDecoders } from "./harness.ts";
import { FORMAT_IDS } from "../../src/formats/types.ts";

const PER_DECODER = 8000;

describe("decoder fuzzing", () => {
  it(`throws only DecodeError on ${FORMAT_IDS.length * FUZZ_LAYOUTS.length * PER_DECODER} random and mutated inputs; what decodes encodes to bytes that decode to it again`, () => {
    const started = performance.now();
    const report = fuzzAllDecoders({ perDecoder: PER_DECODER });
    console.log(
      `${report.lines.join("\n")}\ntotal ${report.total} inputs in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    expect(report.failures).toEqual([]);
    expect(report.total).toBeGreaterThanOrEqual(100_000);
    // the re-decode oracle ran: accepted inputs came back equal after encode + decode
    expect(report.roundTrips).toBeGreaterThan(0);
  });
});
