// SBE: FIX Simple Binary Encoding 1.0, little-endian, as mapped in docs/design/sbe-mapping.md.
import { sbeDecoder } from "./sbeDecode.ts";
import { sbeEncoder, sbeSizer } from "./sbeEncode.ts";
import { planSbe, type SbePlan } from "./sbePlan.ts";
import type { Layout } from "../../layout/schema.ts";
import type { Codec, CompiledCodec, FormatInfo } from "../types.ts";

const info: FormatInfo = {
  id: "sbe",
  label: "SBE",
  short: "SBE",
  exports: { networkDecoder: true, kaitai: false, firmware: false },
  selfDescribing: false,
  compressed: false,
  lossy: false,
  implementation:
    "hand-written SBE 1.0 codec (8-byte header, little-endian root block, uint16 group and var-data lengths)",
};

export interface CompiledSbe extends CompiledCodec {
  readonly plan: SbePlan;
}

export function compileSbe(layout: Layout): CompiledSbe {
  const plan = planSbe(layout);
  const enc = sbeEncoder(plan);
  let decoder: ReturnType<typeof sbeDecoder> | null = null;
  return {
    info,
    layout,
    plan,
    encode: enc.encode,
    encodeWithSpans: enc.encodeWithSpans,
    sizer: sbeSizer(plan),
    // built on first use: the designer's sizes recompile on every edit and never decode
    decode: (bytes) => (decoder ??= sbeDecoder(plan))(bytes),
  };
}

export const sbeCodec: Codec = { info, compile: compileSbe };
