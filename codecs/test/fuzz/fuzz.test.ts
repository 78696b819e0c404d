// The CI share of the decoder fuzzer (`npm run fuzz` runs ≥ 1 M inputs with the same harness), one
// test per format so no single synchronous stretch grows long on a busy machine. The slowest decode
// is printed, not asserted: a wall-clock bound fails on a busy machine; `npm run fuzz` judges it (a
// hang would also end this test at vitest's timeout).
import { describe, expect, it } from "vitest";
import { FUZZ_LAYOUTS, FUZZ_SEED, fuzzAllDecoders } from "./harness.ts";
import { FORMAT_IDS } from "../../src/formats/registry.ts";

const PER_DECODER = 8000;

describe(`decoder fuzzing: ${FORMAT_IDS.length * FUZZ_LAYOUTS.length * PER_DECODER} random and mutated inputs`, () => {
  it.each(FORMAT_IDS.map((f, i) => [f, i] as const))(
    "%s throws only DecodeError; what decodes encodes to bytes that decode to it again",
    (format, i) => {
      const started = performance.now();
      const report = fuzzAllDecoders({ perDecoder: PER_DECODER, formats: [format], seed: FUZZ_SEED + i });
      console.log(`${report.lines.join("\n")}\n${format}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
      expect(report.failures).toEqual([]);
      expect(report.total).toBe(FUZZ_LAYOUTS.length * PER_DECODER);
      // the re-decode oracle ran: accepted inputs came back equal after encode + decode
      expect(report.roundTrips).toBeGreaterThan(0);
    },
  );
});
