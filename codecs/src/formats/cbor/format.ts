// CBOR (RFC 8949) as cbor-x writes it. Keys travel on the wire: the self-describing evolution rules.
import { cborCodec } from "./codec.ts";
import { selfDescribingFindings } from "../../evolution/selfDescribing.ts";
import type { FormatModule } from "../types.ts";

export const cborFormat: FormatModule = {
  codec: cborCodec,
  evolution: (a, b) => selfDescribingFindings(a, b, cborCodec.info.short),
  mediaTypes: ["application/cbor"],
  // measured once on the paper preset, relative to the other formats (see FormatModule.workerCost)
  workerCost: 16,
};
