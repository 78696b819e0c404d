// PSON (thinger.io's compact binary JSON). Keys travel on the wire: the self-describing evolution rules; no registered media type, so ingest names it with the format header.
import { psonCodec } from "./codec.ts";
import { selfDescribingFindings } from "../../evolution/selfDescribing.ts";
import type { FormatModule } from "../types.ts";

export const psonFormat: FormatModule = {
  codec: psonCodec,
  evolution: (a, b) => selfDescribingFindings(a, b, psonCodec.info.short),
  mediaTypes: [],
  // measured once on the paper preset, relative to the other formats (see FormatModule.workerCost)
  workerCost: 10,
};
