// Struct: the record as Python's struct.pack would lay it out (docs/design/struct-mapping.md).
import { structDecoder } from "./structDecode.ts";
import { structEncoder, structSizer } from "./structEncode.ts";
import { structPackArgs, type PackArgs } from "./structPack.ts";
import { planStruct, type StructPlan } from "./structPlan.ts";
import type { Layout } from "../../layout/schema.ts";
import type { TypedRecord } from "../../layout/values.ts";
import type { Codec, CompiledCodec, FormatInfo } from "../types.ts";

const info: FormatInfo = {
  id: "struct",
  label: "Struct",
  short: "Struct",
  exports: { networkDecoder: true, kaitai: true, firmware: true },
  selfDescribing: false,
  compressed: false,
  lossy: false,
  implementation: "hand-written DataView packer, byte-identical to Python struct.pack",
};

export interface CompiledStruct extends CompiledCodec {
  readonly plan: StructPlan;
  /** struct.pack(format, *values) arguments that reproduce `encode(rec)` */
  packArgs(rec: TypedRecord): PackArgs;
}

export function compileStruct(layout: Layout): CompiledStruct {
  const plan = planStruct(layout);
  const enc = structEncoder(plan);
  // built on first use: the designer's sizes recompile on every edit and never decode
  let decoder: ReturnType<typeof structDecoder> | null = null;
  const decode = (bytes: Uint8Array) => (decoder ??= structDecoder(plan))(bytes);
  return {
    info,
    layout,
    plan,
    encode: enc.encode,
    encodeWithSpans: enc.encodeWithSpans,
    sizer: structSizer(plan),
    decode,
    packArgs: (rec) => structPackArgs(plan, rec),
  };
}

export const structCodec: Codec = { info, compile: compileStruct };
