// Bit-packed: each value quantised to its bits, no byte alignment; its own evolution rules (a width change moves every later bit). Ingest names it with the format header.
import { bitpackedCodec } from "./codec.ts";
import { bitpackedFindings } from "../../evolution/fixed.ts";
import type { FormatModule } from "../types.ts";

export const bitpackedFormat: FormatModule = {
  codec: bitpackedCodec,
  evolution: bitpackedFindings,
  mediaTypes: [],
  // measured once on the paper preset, relative to the other formats (see FormatModule.workerCost)
  workerCost: 2,
};
