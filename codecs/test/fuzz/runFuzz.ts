// `npm run fuzz [-- --inputs N --seed S]`: the full decoder fuzz (default 1 080 000 inputs over every
// layout × format), progress on stderr, exit 1 with the failing inputs (hex) when any decoder threw
// anything but DecodeError or took longer than a second.
import { parseArgs } from "node:util";
import { FUZZ_LAYOUTS, FUZZ_SEED, fuzzAllDecoders } from "./harness.ts";
import { FORMAT_IDS } from "../../src/formats/registry.ts";

const MAX_DECODE_MS = 1000;
const { values } = parseArgs({
  options: { inputs: { type: "string", default: "1080000" }, seed: { type: "string", default: String(FUZZ_SEED) } },
});
const decoders = FUZZ_LAYOUTS.length * FORMAT_IDS.length;
const perDecoder = Math.ceil(Number(values.inputs) / decoders);
if (!(perDecoder > 0)) throw new Error(`--inputs must be a positive number, got ${values.inputs}`);

const started = performance.now();
let lastPrint = 0;
const report = fuzzAllDecoders({
  perDecoder,
  seed: Number(values.seed),
  batch: 5000,
  onProgress(done, planned, label) {
    const now = performance.now();
    if (now - lastPrint < 1000 && done < planned) return;
    lastPrint = now;
    process.stderr.write(
      `${label.padEnd(24)} ${done.toLocaleString("en")} / ${planned.toLocaleString("en")} inputs (${((100 * done) / planned).toFixed(1)} %)\n`,
    );
  },
});
console.log(report.lines.join("\n"));
console.log(
  `total ${report.total} inputs in ${((performance.now() - started) / 1000).toFixed(1)} s, slowest decode ${report.slowestMs.toFixed(2)} ms, seed ${values.seed}`,
);
if (report.failures.length) console.log(`FAILURES:\n${report.failures.join("\n")}`);
process.exitCode = report.failures.length || report.slowestMs >= MAX_DECODE_MS ? 1 : 0;
