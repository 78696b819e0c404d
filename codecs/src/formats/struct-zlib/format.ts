// Struct+Zlib: the Struct bytes deflated. Compression changes no field's place, so evolution is Struct's; ingest names it with the format header.
import { structZlibCodec } from "./codec.ts";
import { structFindings } from "../../evolution/fixed.ts";
import type { FormatModule } from "../types.ts";

export const structZlibFormat: FormatModule = {
  codec: structZlibCodec,
  evolution: structFindings,
  mediaTypes: [],
  // measured once on the paper preset, relative to the other formats (see FormatModule.workerCost)
  workerCost: 75,
};
