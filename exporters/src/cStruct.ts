// C99 exports of the Struct and Struct+Zlib formats: pack_<msg>() / unpack_<msg>() (and the _zlib
// pair) over the record type of <msg>.h. Bytes are those of codecs/src/formats/struct/codec.ts and
// codecs/src/formats/struct-zlib/codec.ts; exporters/test/c/ compiles them with gcc and proves it both ways.
import type { Layout } from "#codecs";
import { planStruct } from "#codecs/plans";
import { cHeader } from "./c/emit.ts";
import { cModel, type CModel } from "./c/model.ts";
import { RUNTIME_HEADER, runtimeFiles } from "./c/runtime.ts";
import { structFunctions } from "./c/structC.ts";
import { generatedNote, typesHeader, typesHeaderName } from "./c/typesHeader.ts";
import type { ExportFile, Exporter } from "./types.ts";

/** zlib's compressBound(): the most compress2() can produce from n bytes. */
export function zlibBound(n: number): number {
  return n + (n >>> 12) + (n >>> 14) + (n >>> 25) + 13;
}

export function structNames(m: CModel) {
  return {
    header: `${m.prefix}_struct.h`,
    source: `${m.prefix}_struct.c`,
    pack: `pack_${m.prefix}`,
    unpack: `unpack_${m.prefix}`,
    maxSize: `${m.upper}_STRUCT_MAX_SIZE`,
    zlibHeader: `${m.prefix}_struct_zlib.h`,
    zlibSource: `${m.prefix}_struct_zlib.c`,
    zlibPack: `pack_${m.prefix}_zlib`,
    zlibUnpack: `unpack_${m.prefix}_zlib`,
    zlibMaxSize: `${m.upper}_STRUCT_ZLIB_MAX_SIZE`,
  };
}

const STATUS_DOC = [
  " * Both return the message length in bytes, or a negative sp_status (satpayload_rt.h):",
  " * SP_ERR_CAPACITY, SP_ERR_TRUNCATED, SP_ERR_TRAILING, SP_ERR_RANGE, SP_ERR_LENGTH, SP_ERR_VALUE,",
  " * SP_ERR_PADDING, SP_ERR_ARGUMENT. No allocation; safe on any byte order (bytes are shifted, never cast).",
];

function structFiles(layout: Layout, dir: string): { files: ExportFile[]; m: CModel; maxSize: number } {
  const m = cModel(layout);
  const plan = planStruct(layout);
  const n = structNames(m);
  const guard = `${m.upper}_STRUCT_H`;
  const order = plan.little ? "little-endian (<)" : "big-endian (>)";
  const header = [
    ...generatedNote(m, "Struct packer"),
    ...cHeader(
      guard,
      [
        "#include <stddef.h>",
        "#include <stdint.h>",
        "",
        `#include "${typesHeaderName(m)}"`,
        `#include "${RUNTIME_HEADER}"`,
        "",
        `/* The longest message: size output buffers with it. */`,
        `#define ${n.maxSize} ${plan.maxSize}`,
        "",
      ],
      [
        "/* The record as Python's struct.pack writes it: " + order + ", no padding between fields,",
        ` * ${plan.bitmapBytes ? `a ${plan.bitmapBytes}-byte presence bitmap first, ` : ""}${plan.hasAppended ? "strings' bytes appended after the fixed part" : "every value in place"} (satpayload_c.md).`,
        ...STATUS_DOC,
        " */",
        `int ${n.pack}(const ${m.root.typeName} *in, uint8_t *out, size_t cap);`,
        `int ${n.unpack}(const uint8_t *in, size_t len, ${m.root.typeName} *out);`,
      ],
    ),
  ];
  const source = [
    ...generatedNote(m, "Struct packer"),
    `#include "${n.header}"`,
    "",
    "#include <math.h>",
    "#include <string.h>",
    "",
    ...structFunctions(plan, m.root, m.prefix).code,
    "",
  ];
  return {
    m,
    maxSize: plan.maxSize,
    files: [
      ...runtimeFiles(dir),
      typesHeader(m, dir),
      { path: `${dir}${n.header}`, content: header.join("\n"), language: "h" },
      { path: `${dir}${n.source}`, content: source.join("\n"), language: "c" },
    ],
  };
}

function zlibFiles(m: CModel, maxSize: number, dir: string): ExportFile[] {
  const n = structNames(m);
  const guard = `${m.upper}_STRUCT_ZLIB_H`;
  const header = [
    ...generatedNote(m, "Struct+Zlib packer"),
    ...cHeader(
      guard,
      [
        `#include "${n.header}"`,
        "",
        `/* compressBound() of the longest Struct stream: the largest compressed message. */`,
        `#define ${n.zlibMaxSize} ${zlibBound(maxSize)}`,
        "",
      ],
      [
        "/* The Struct stream compressed as the paper's client did: zlib.compress(stream, 9), i.e.",
        " * compress2(out, &outLen, stream, streamLen, 9) - zlib wrapper, deflate level 9, window 15, memLevel 8.",
        " * With zlib 1.2.x the bytes (and sizes) are exactly the studio's. Defining SATPAYLOAD_USE_MINIZ",
        " * uses miniz's zlib-compatible mz_compress2()/mz_uncompress2() instead (e.g. on an ESP32): the",
        " * stream is valid zlib but miniz picks other matches, so sizes can differ by a few bytes.",
        ` * The Struct stream is staged in a ${maxSize}-byte stack buffer; the deflate library allocates its own`,
        " * state (zlib: about 262 KiB while compressing at level 9, about 40 KiB while inflating).",
        " * unpack inflates at most the longest Struct stream (SP_ERR_LENGTH beyond), rejects a broken",
        " * stream or checksum (SP_ERR_DEFLATE) and bytes after it (SP_ERR_TRAILING).",
        " */",
        `int ${n.zlibPack}(const ${m.root.typeName} *in, uint8_t *out, size_t cap);`,
        `int ${n.zlibUnpack}(const uint8_t *in, size_t len, ${m.root.typeName} *out);`,
      ],
    ),
  ];
  const source = [
    ...generatedNote(m, "Struct+Zlib packer"),
    `#include "${n.zlibHeader}"`,
    "",
    "#if defined(SATPAYLOAD_USE_MINIZ)",
    '#include "miniz.h"',
    "typedef mz_ulong sp_zsize;",
    "#define SP_COMPRESS2 mz_compress2",
    "#define SP_UNCOMPRESS2 mz_uncompress2",
    "#define SP_Z_OK MZ_OK",
    "#define SP_Z_BUF_ERROR MZ_BUF_ERROR",
    "#else",
    "#include <zlib.h>",
    "typedef uLong sp_zsize;",
    "#define SP_COMPRESS2 compress2",
    "#define SP_UNCOMPRESS2 uncompress2",
    "#define SP_Z_OK Z_OK",
    "#define SP_Z_BUF_ERROR Z_BUF_ERROR",
    "#endif",
    "",
    `int ${n.zlibPack}(const ${m.root.typeName} *in, uint8_t *out, size_t cap) {`,
    `  uint8_t stream[${n.maxSize}];`,
    "  sp_zsize outLen = (sp_zsize)cap;",
    "  int z;",
    `  int len = ${n.pack}(in, stream, sizeof stream);`,
    "  if (len < 0) return len;",
    "  if (out == NULL) return cap > 0 ? SP_ERR_ARGUMENT : SP_ERR_CAPACITY;",
    "  z = SP_COMPRESS2(out, &outLen, stream, (sp_zsize)len, 9);",
    "  if (z == SP_Z_BUF_ERROR) return SP_ERR_CAPACITY;",
    "  if (z != SP_Z_OK) return SP_ERR_DEFLATE;",
    "  return (int)outLen;",
    "}",
    "",
    `int ${n.zlibUnpack}(const uint8_t *in, size_t len, ${m.root.typeName} *out) {`,
    `  uint8_t stream[${n.maxSize}];`,
    "  sp_zsize streamLen = (sp_zsize)sizeof stream;",
    "  sp_zsize used = (sp_zsize)len;",
    "  int z, rc;",
    "  if (in == NULL || out == NULL) return SP_ERR_ARGUMENT;",
    "  z = SP_UNCOMPRESS2(stream, &streamLen, in, &used);",
    "  /* the buffer holds the longest valid stream: needing more means the stream is not one of ours */",
    "  if (z == SP_Z_BUF_ERROR && streamLen == (sp_zsize)sizeof stream) return SP_ERR_LENGTH;",
    "  if (z != SP_Z_OK) return SP_ERR_DEFLATE;",
    "  if (used != (sp_zsize)len) return SP_ERR_TRAILING;",
    `  rc = ${n.unpack}(stream, (size_t)streamLen, out);`,
    "  return rc < 0 ? rc : (int)len;",
    "}",
    "",
  ];
  return [
    { path: `${dir}${n.zlibHeader}`, content: header.join("\n"), language: "h" },
    { path: `${dir}${n.zlibSource}`, content: source.join("\n"), language: "c" },
  ];
}

/** Files of the Struct export; `dir` prefixes every path ("src/"). */
export function generateCStruct(layout: Layout, dir = ""): ExportFile[] {
  return structFiles(layout, dir).files;
}

/** Files of the Struct+Zlib export: the Struct packer plus the zlib wrapper. */
export function generateCStructZlib(layout: Layout, dir = ""): ExportFile[] {
  const s = structFiles(layout, dir);
  return [...s.files, ...zlibFiles(s.m, s.maxSize, dir)];
}

export const cStructExporter: Exporter = {
  id: "c-struct",
  label: "C99 packer: Struct",
  description:
    "pack_<msg>() / unpack_<msg>() in C99 writing the Struct bytes (Python struct.pack layout), with the record's C types and the small runtime.",
  generate: (layout) => generateCStruct(layout),
};

export const cStructZlibExporter: Exporter = {
  id: "c-struct-zlib",
  label: "C99 packer: Struct+Zlib",
  description:
    "The Struct packer plus pack_<msg>_zlib() / unpack_<msg>_zlib(): zlib compress2(…, 9) as the paper's client (miniz mz_compress2 with SATPAYLOAD_USE_MINIZ).",
  generate: (layout) => generateCStructZlib(layout),
};
