// JSON: the device's json.dumps text. Keys travel on the wire, so evolution follows the self-describing rules.
import { jsonCodec } from "./codec.ts";
import { selfDescribingFindings } from "../../evolution/selfDescribing.ts";
import type { FormatModule } from "../types.ts";

export const jsonFormat: FormatModule = {
  codec: jsonCodec,
  evolution: (a, b) => selfDescribingFindings(a, b, jsonCodec.info.short),
  mediaTypes: ["application/json"],
  // measured once on the paper preset, relative to the other formats (see FormatModule.workerCost)
  workerCost: 20,
};
