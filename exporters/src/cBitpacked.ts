// C99 export of the bit-packed format: pack_<msg>_bits() / unpack_<msg>_bits() over the record type
// of <msg>.h, writing the bits of codecs/src/formats/bitpacked/codec.ts (exporters/test/c/ proves it with gcc).
import type { Layout } from "#codecs";
import { bitpackedPlan, layoutSpecs } from "#codecs/plans";
import { alphabetTables, bitsFunctions } from "./c/bitsC.ts";
import { cHeader } from "./c/emit.ts";
import { cModel, type CModel } from "./c/model.ts";
import { RUNTIME_HEADER, runtimeFiles } from "./c/runtime.ts";
import { generatedNote, typesHeader, typesHeaderName } from "./c/typesHeader.ts";
import type { ExportFile, Exporter } from "./types.ts";

export function bitsNames(m: CModel) {
  return {
    header: `${m.prefix}_bits.h`,
    source: `${m.prefix}_bits.c`,
    pack: `pack_${m.prefix}_bits`,
    unpack: `unpack_${m.prefix}_bits`,
    maxSize: `${m.upper}_BITS_MAX_SIZE`,
  };
}

/** Files of the bit-packed export; `dir` prefixes every path. */
export function generateCBitpacked(layout: Layout, dir = ""): ExportFile[] {
  const m = cModel(layout);
  const specs = layoutSpecs(layout);
  const plan = bitpackedPlan(layout);
  const n = bitsNames(m);
  const guard = `${m.upper}_BITS_H`;
  const header = [
    ...generatedNote(m, "bit-packed packer"),
    ...cHeader(
      guard,
      [
        "#include <stddef.h>",
        "#include <stdint.h>",
        "",
        `#include "${typesHeaderName(m)}"`,
        `#include "${RUNTIME_HEADER}"`,
        "",
        `/* Messages take ${plan.minBits === plan.maxBits ? `${plan.maxBits} bits` : `${plan.minBits} to ${plan.maxBits} bits`}; the longest is this many bytes. */`,
        `#define ${n.maxSize} ${plan.maxBytes}`,
        "",
      ],
      [
        "/* DCCL-style bit packing (satpayload_c.md): every value quantised to its range",
        " * and precision, written most significant bit first with no byte alignment, the last byte zero",
        " * padded. Lossy: unpack returns values on the quantisation grid (within half a step).",
        " * Both return the message length in bytes, or a negative sp_status (satpayload_rt.h):",
        " * SP_ERR_CAPACITY, SP_ERR_TRUNCATED, SP_ERR_TRAILING, SP_ERR_RANGE, SP_ERR_LENGTH, SP_ERR_VALUE,",
        " * SP_ERR_PADDING, SP_ERR_ARGUMENT. No allocation; independent of the host's byte order.",
        " */",
        `int ${n.pack}(const ${m.root.typeName} *in, uint8_t *out, size_t cap);`,
        `int ${n.unpack}(const uint8_t *in, size_t len, ${m.root.typeName} *out);`,
      ],
    ),
  ];
  const source = [
    ...generatedNote(m, "bit-packed packer"),
    `#include "${n.header}"`,
    "",
    "#include <math.h>",
    "#include <string.h>",
    "",
    ...alphabetTables(specs),
    ...bitsFunctions(specs, m.root.fields, m.root.typeName, `${m.prefix}_bits`),
    "",
  ];
  return [
    ...runtimeFiles(dir),
    typesHeader(m, dir),
    { path: `${dir}${n.header}`, content: header.join("\n"), language: "h" },
    { path: `${dir}${n.source}`, content: source.join("\n"), language: "c" },
  ];
}

export const cBitpackedExporter: Exporter = {
  id: "c-bitpacked",
  label: "C99 packer: bit-packed",
  description:
    "pack_<msg>_bits() / unpack_<msg>_bits() in C99 writing the DCCL-style bit-packed bytes, with the record's C types and the small runtime.",
  generate: (layout) => generateCBitpacked(layout),
};
