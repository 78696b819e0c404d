// nanopb options for the .proto of generateProto(): every string, bytes and repeated field gets the
// static size the layout allows, so nanopb_generator emits plain C structs (no callbacks, no malloc),
// and integers get the narrowest C type their range needs. The bytes are the protobuf codec's;
// exporters/test/c/nanopb.test.ts compiles both with Debian's nanopb and compares.
import { type IssueAt, type Layout, LayoutError } from "#codecs";
import { compileTextTime, type ProtoField, type ProtoMessage, protoModel, type ValueMap } from "#codecs/plans";
import { cHeader } from "./c/emit.ts";
import { cModel } from "./c/model.ts";
import { cSnake, isCKeyword } from "./c/names.ts";
import { pbConverter } from "./c/pbConvert.ts";
import { RUNTIME_HEADER, runtimeFiles } from "./c/runtime.ts";
import { generatedNote, typesHeader, typesHeaderName } from "./c/typesHeader.ts";
import { generateProto } from "./proto.ts";
import type { ExportFile, Exporter } from "./types.ts";

type IntSize = "IS_8" | "IS_16" | "IS_32" | "IS_64";

const VARINT = new Set(["int32", "uint32", "sint32", "int64", "uint64", "sint64"]);

/** Narrowest nanopb int_size whose C type (signed for the signed proto types) holds lo..hi. */
function intSize(type: string, lo: number | bigint, hi: number | bigint): IntSize {
  const l = BigInt(lo);
  const h = BigInt(hi);
  const unsigned = type.startsWith("uint");
  for (const [bits, size] of [
    [8n, "IS_8"],
    [16n, "IS_16"],
    [32n, "IS_32"],
  ] as const) {
    const fits = unsigned ? l >= 0n && h < 1n << bits : l >= -(1n << (bits - 1n)) && h < 1n << (bits - 1n);
    if (fits) return size;
  }
  return "IS_64";
}

function valueRange(v: ValueMap): [number | bigint, number | bigint] | undefined {
  switch (v.kind) {
    case "int":
    case "int64":
      return [v.min, v.max];
    case "fixed":
    case "epoch":
      return [v.rawMin, v.rawMax];
    default:
      return undefined;
  }
}

/** The int_size option of a varint field whose range fits a narrower C type than its proto type's. */
function narrowedIntSize(f: ProtoField): IntSize | undefined {
  const v = f.value;
  if (!v || !VARINT.has(f.type)) return undefined;
  const range = valueRange(v);
  if (!range) return undefined;
  const size = intSize(f.type, range[0], range[1]);
  const natural: IntSize = f.type.endsWith("64") ? "IS_64" : "IS_32";
  return size !== natural ? size : undefined;
}

const fixedLength = (f: ProtoField): boolean => {
  const src = f.source.type;
  const scalar = src.kind === "array" ? src.of : src;
  return scalar.kind === "bytes" && scalar.fixed;
};

/** max_length of a text field (nanopb's char array holds one byte more, the NUL) */
function textLength(f: ProtoField): number | undefined {
  const v = f.value;
  if (v?.kind === "string") return v.maxLength;
  if (v?.kind === "text-time") return compileTextTime(v.format).length;
  return undefined;
}

function fieldOptions(f: ProtoField): string[] {
  const opts: string[] = [];
  const src = f.source.type;
  const repeated = f.label === "repeated";
  const v = f.value;
  if (repeated && src.kind === "array") {
    opts.push(`max_count:${src.maxCount}`);
    // nanopb always sends every element of a fixed_count array, so an optional one keeps its count
    if (src.fixed && f.source.presence === "required") opts.push("fixed_count:true");
  }
  const text = textLength(f);
  if (text !== undefined) opts.push(`max_length:${text}`);
  if (v?.kind === "bytes") {
    opts.push(`max_size:${v.maxLength}`);
    if (fixedLength(f)) opts.push("fixed_length:true");
  }
  const size = narrowedIntSize(f);
  if (size) opts.push(`int_size:${size}`);
  return opts;
}

const INT_SIZE_BYTES: Record<IntSize, number> = { IS_8: 1, IS_16: 2, IS_32: 4, IS_64: 8 };

/**
 * nanopb_generator's own estimate of a field's bytes in the C struct (its data_size: enums and bools
 * count 4, a count or has_ word 4, each field aligned to 4 or 8). That estimate, not sizeof, is what
 * makes it demand PB_FIELD_32BIT for a message of 64 kB or more, so the options file follows it.
 */
function structBytes(f: ProtoField): number {
  const src = f.source.type;
  const v = f.value;
  const text = textLength(f);
  let size: number;
  let align = 4;
  if (f.message) {
    size = messageBytes(f.message);
    align = 8;
  } else if (text !== undefined) size = text + 1;
  else if (v?.kind === "bytes") size = v.maxLength + (fixedLength(f) ? 0 : 4);
  else {
    const narrowed = narrowedIntSize(f);
    const wide = f.type === "double" || f.type.endsWith("64");
    size = narrowed ? INT_SIZE_BYTES[narrowed] : wide ? 8 : 4;
    if (size >= 8) align = 8;
  }
  if (f.label === "repeated" && src.kind === "array") size *= src.maxCount;
  // a repeated field's count, or the has_ flag of an optional field and of every proto3 submessage
  if (f.label !== "implicit" || f.message) size += 4;
  return Math.ceil(size / align) * align;
}

function messageBytes(m: ProtoMessage): number {
  return m.fields.reduce((n, f) => n + structBytes(f), 0);
}

function messageLines(m: ProtoMessage, scope: string, at: string, out: string[], issues: IssueAt[]): void {
  const name = `${scope}.${m.name}`;
  const where = (f: ProtoField) => `${at}[${m.layoutFields.indexOf(f.source)}]`;
  for (const f of m.fields) if (f.message) messageLines(f.message, name, `${where(f)}.type.fields`, out, issues);
  for (const f of m.fields) {
    // nanopb copies field names into the C struct as they are
    if (isCKeyword(f.name))
      issues.push({
        path: `${where(f)}.key`,
        message: `protobuf field "${f.name}" is a C/C++ keyword, which nanopb would emit as a struct member: rename the key`,
      });
    const opts = fieldOptions(f);
    if (opts.length) out.push(`${name}.${f.name} ${opts.join(" ")}`);
  }
}

function maxNumber(m: ProtoMessage): number {
  return Math.max(0, ...m.fields.map((f) => f.number), ...m.messages.map(maxNumber));
}

/** The .options file nanopb_generator reads next to the .proto of the same base name. */
export function generateNanopbOptions(layout: Layout): string {
  const model = protoModel(layout);
  const out = [
    `// nanopb options for ${model.package}.${model.root.name}: static sizes from the layout, so the generated`,
    "// structs need no callbacks and no malloc. Generated by SatPayload Studio from the layout.",
    "// Use: nanopb_generator.py <file>.proto (finds this file by name), or protoc --nanopb_out=. <file>.proto",
    "",
  ];
  const issues: IssueAt[] = [];
  messageLines(model.root, model.package, "fields", out, issues);
  if (issues.length) throw new LayoutError(issues);
  // nanopb's default build keeps tags and message sizes in 16 bits; a submessage's size counts in its parent's
  const needs = [
    ...(maxNumber(model.root) > 65535 ? ["field numbers above 65535"] : []),
    ...(messageBytes(model.root) >= 65536 ? ["a message of 64 kB or more in C"] : []),
  ];
  if (needs.length)
    out.splice(
      3,
      0,
      `// ${needs.join(" and ")}: compile nanopb (pb_encode.c, pb_decode.c, pb_common.c) and this file with -DPB_FIELD_32BIT.`,
    );
  return `${out.join("\n")}\n`;
}

export function nanopbNames(layout: Layout) {
  const model = protoModel(layout);
  const base = cSnake(layout.message);
  const cType = `${model.package}_${model.root.name}`;
  return {
    proto: `${base}.proto`,
    options: `${base}.options`,
    pbHeader: `${base}.pb.h`,
    pbSource: `${base}.pb.c`,
    cType,
    fields: `${cType}_fields`,
    init: `${cType}_init_zero`,
    maxSize: `${model.package}_${model.root.name}_size`,
  };
}

/**
 * pack_<msg>_pb(): the record's C type (<msg>.h, shared with the other C packers) converted to
 * nanopb's struct and encoded with pb_encode. The .pb.h/.pb.c come from nanopb_generator at build time.
 */
export function generateNanopbPacker(layout: Layout, dir = ""): ExportFile[] {
  const n = nanopbNames(layout);
  const m = cModel(layout);
  const header = [
    ...generatedNote(m, "Protobuf packer over nanopb"),
    ...cHeader(
      `${m.upper}_PB_PACK_H`,
      [
        "#include <stddef.h>",
        "#include <stdint.h>",
        "",
        `#include "${typesHeaderName(m)}"`,
        `#include "${n.pbHeader}"`,
        `#include "${RUNTIME_HEADER}"`,
        "",
      ],
      [
        `/* The record as nanopb's ${n.cType}: fixed-point and epoch values as their raw integers, text`,
        " * timestamps formatted, layout ranges checked (SP_ERR_RANGE / SP_ERR_LENGTH). Charsets are not checked. */",
        `int ${m.prefix}_to_pb(const ${m.root.typeName} *in, ${n.cType} *out);`,
        "",
        "/* _to_pb, then pb_encode: the Protobuf bytes of the studio. Returns the length, SP_ERR_CAPACITY when",
        ` * cap is too small (${n.maxSize} bytes always suffice) or another negative sp_status. */`,
        `int pack_${m.prefix}_pb(const ${m.root.typeName} *in, uint8_t *out, size_t cap);`,
      ],
    ),
  ];
  const source = [
    ...generatedNote(m, "Protobuf packer over nanopb"),
    `#include "${m.prefix}_pb_pack.h"`,
    "",
    "#include <math.h>",
    "#include <string.h>",
    "",
    "#include <pb_encode.h>",
    "",
    ...pbConverter(layout, m, n.cType),
    "",
    `int pack_${m.prefix}_pb(const ${m.root.typeName} *in, uint8_t *out, size_t cap) {`,
    `  ${n.cType} msg;`,
    "  pb_ostream_t os;",
    "  if (in == NULL || (out == NULL && cap > 0)) return SP_ERR_ARGUMENT;",
    `  SP_TRY(${m.prefix}_to_pb(in, &msg));`,
    "  os = pb_ostream_from_buffer(out, cap);",
    `  if (!pb_encode(&os, ${n.fields}, &msg)) return strcmp(PB_GET_ERROR(&os), "stream full") == 0 ? SP_ERR_CAPACITY : SP_ERR_VALUE;`,
    "  return (int)os.bytes_written;",
    "}",
    "",
  ];
  return [
    ...runtimeFiles(dir),
    typesHeader(m, dir),
    { path: `${dir}${m.prefix}_pb_pack.h`, content: header.join("\n"), language: "h" },
    { path: `${dir}${m.prefix}_pb_pack.c`, content: source.join("\n"), language: "c" },
  ];
}

/** The .proto and its nanopb .options; `dir` prefixes both paths. */
export function generateNanopb(layout: Layout, dir = ""): ExportFile[] {
  const n = nanopbNames(layout);
  return [
    { path: `${dir}${n.proto}`, content: generateProto(layout), language: "proto" },
    { path: `${dir}${n.options}`, content: generateNanopbOptions(layout), language: "text" },
  ];
}

export const nanopbExporter: Exporter = {
  id: "nanopb",
  label: "Protobuf for C (nanopb)",
  description:
    "The proto3 schema plus nanopb .options (max_size/max_count from the layout, int_size from ranges, fixed_length / fixed_count where fixed): nanopb_generator turns them into static C structs with the same bytes as the Protobuf format. Includes pack_<msg>_pb(), which encodes the record's C type through nanopb.",
  generate: (layout) => [...generateNanopb(layout), ...generateNanopbPacker(layout)],
};
