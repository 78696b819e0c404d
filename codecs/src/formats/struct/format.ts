// Struct: Python struct.pack, fields at fixed offsets; evolution follows the fixed-layout rules. Ingest names it with the format header.
import { structCodec } from "./codec.ts";
import { structFindings } from "../../evolution/fixed.ts";
import type { FormatModule } from "../types.ts";

export const structFormat: FormatModule = {
  codec: structCodec,
  evolution: structFindings,
  mediaTypes: [],
  // measured once on the paper preset, relative to the other formats (see FormatModule.workerCost)
  workerCost: 4,
};
