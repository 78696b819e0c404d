// SBE 1.0: a header, the root block at fixed offsets, then groups and var data; SBE's own evolution rules. Ingest names it with the format header.
import { sbeCodec } from "./codec.ts";
import { sbeFindings } from "../../evolution/fixed.ts";
import type { FormatModule } from "../types.ts";

export const sbeFormat: FormatModule = {
  codec: sbeCodec,
  evolution: sbeFindings,
  mediaTypes: [],
  // measured once on the paper preset, relative to the other formats (see FormatModule.workerCost)
  workerCost: 4,
};
