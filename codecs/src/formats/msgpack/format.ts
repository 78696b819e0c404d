// MessagePack as @msgpack/msgpack writes it. Keys travel on the wire: the self-describing evolution rules.
import { msgpackCodec } from "./codec.ts";
import { selfDescribingFindings } from "../../evolution/selfDescribing.ts";
import type { FormatModule } from "../types.ts";

export const msgpackFormat: FormatModule = {
  codec: msgpackCodec,
  evolution: (a, b) => selfDescribingFindings(a, b, msgpackCodec.info.short),
  mediaTypes: ["application/msgpack", "application/x-msgpack", "application/vnd.msgpack"],
  // measured once on the paper preset, relative to the other formats (see FormatModule.workerCost)
  workerCost: 12,
};
