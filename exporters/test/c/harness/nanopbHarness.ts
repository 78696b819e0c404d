// A C main() over nanopb's generated structs, and the matching token lines from protobufjs: protobuf
// values (raw integers, text, bytes, float bits) in field-number order, so nanopb's encoder and
// decoder can be compared with the studio's bytes through a third implementation's reading of them.
import protobuf from "protobufjs";
import type { Layout } from "#codecs";
import { protoModel, type ProtoField, type ProtoMessage } from "#codecs/plans";
import { HARNESS_IO_C } from "./cHarness.ts";
import { f32Bits, f64Bits, hex } from "./tokens.ts";
import { generateProto } from "../../../src/proto.ts";

const SIGNED = new Set(["int32", "sint32", "sfixed32", "int64", "sint64", "sfixed64"]);

const fixedCount = (f: ProtoField) =>
  f.label === "repeated" && f.source.type.kind === "array" && f.source.type.fixed && f.source.presence === "required";
const fixedBytes = (f: ProtoField) => {
  const t = f.source.type.kind === "array" ? f.source.type.of : f.source.type;
  return f.type === "bytes" && t.kind === "bytes" && t.fixed;
};
const maxBytes = (f: ProtoField) => (f.value?.kind === "bytes" ? f.value.maxLength : 0);

function readScalar(f: ProtoField, dst: string, out: string[], ind: string): void {
  out.push(`${ind}if ((t = next_tok(s)) == NULL) return -1;`);
  switch (f.type) {
    case "bool":
      out.push(`${ind}${dst} = t[0] == '1';`);
      return;
    case "float":
      out.push(`${ind}{ uint32_t b = (uint32_t)strtoul(t, NULL, 16); memcpy(&${dst}, &b, 4); }`);
      return;
    case "double":
      out.push(`${ind}{ uint64_t b = strtoull(t, NULL, 16); memcpy(&${dst}, &b, 8); }`);
      return;
    case "string":
      out.push(
        `${ind}{ long n = hex_bytes(t + 1, (uint8_t *)${dst}, sizeof ${dst} - 1); if (n < 0) return -1; ${dst}[n] = '\\0'; }`,
      );
      return;
    case "bytes":
      if (fixedBytes(f)) out.push(`${ind}if (hex_bytes(t + 1, ${dst}, ${maxBytes(f)}) != ${maxBytes(f)}) return -1;`);
      else
        out.push(
          `${ind}{ long n = hex_bytes(t + 1, ${dst}.bytes, ${maxBytes(f)}); if (n < 0) return -1; ${dst}.size = (pb_size_t)n; }`,
        );
      return;
    case "enum":
      out.push(`${ind}${dst} = strtol(t, NULL, 10);`);
      return;
    default:
      out.push(`${ind}${dst} = ${SIGNED.has(f.type) ? "strtoll" : "strtoull"}(t, NULL, 10);`);
      return;
  }
}

function printScalar(f: ProtoField, v: string, out: string[], ind: string): void {
  switch (f.type) {
    case "bool":
      out.push(`${ind}printf(" %d", ${v} ? 1 : 0);`);
      return;
    case "float":
      out.push(`${ind}put_f32(${v});`);
      return;
    case "double":
      out.push(`${ind}put_f64(${v});`);
      return;
    case "string":
      out.push(`${ind}printf(" x"); put_hex((const uint8_t *)${v}, strlen(${v}));`);
      return;
    case "bytes":
      out.push(
        fixedBytes(f)
          ? `${ind}printf(" x"); put_hex(${v}, ${maxBytes(f)});`
          : `${ind}printf(" x"); put_hex(${v}.bytes, ${v}.size);`,
      );
      return;
    case "enum":
      out.push(`${ind}printf(" %ld", (long)${v});`);
      return;
    default:
      out.push(
        SIGNED.has(f.type)
          ? `${ind}printf(" %lld", (long long)${v});`
          : `${ind}printf(" %llu", (unsigned long long)${v});`,
      );
      return;
  }
}

function walk(m: ProtoMessage, base: string, out: string[], ind: string, mode: "read" | "print", depth: number): void {
  for (const f of m.fields) {
    const at = `${base}${f.name}`;
    let inner = ind;
    // nanopb gives every submessage a has_ flag, explicit-presence scalars too
    if (f.message || f.label === "optional") {
      if (mode === "read")
        out.push(`${ind}if ((t = next_tok(s)) == NULL) return -1;`, `${ind}${base}has_${f.name} = t[0] == '1';`);
      else out.push(`${ind}printf(" %d", ${base}has_${f.name} ? 1 : 0);`);
      out.push(`${ind}if (${base}has_${f.name}) {`);
      inner = `${ind}  `;
    }
    if (f.message) walk(f.message, `${at}.`, out, inner, mode, depth);
    else if (f.label === "repeated") {
      const i = `i${depth}`;
      const count = fixedCount(f) ? String((f.source.type as { maxCount: number }).maxCount) : `${base}${f.name}_count`;
      if (!fixedCount(f)) {
        if (mode === "read")
          out.push(
            `${inner}if ((t = next_tok(s)) == NULL) return -1;`,
            `${inner}${count} = (pb_size_t)strtoul(t, NULL, 10);`,
          );
        else out.push(`${inner}printf(" %u", (unsigned)${count});`);
      }
      out.push(`${inner}for (${i} = 0; ${i} < (size_t)${count}; ${i}++) {`);
      if (mode === "read") readScalar(f, `${at}[${i}]`, out, `${inner}  `);
      else printScalar(f, `${at}[${i}]`, out, `${inner}  `);
      out.push(`${inner}}`);
    } else if (mode === "read") readScalar(f, at, out, inner);
    else printScalar(f, at, out, inner);
    if (inner !== ind) out.push(`${ind}}`);
  }
}

const PRELUDE = `${HARNESS_IO_C}
#include <pb_encode.h>
#include <pb_decode.h>
`;

/** The harness for the nanopb code generated from `<base>.proto`. */
export function nanopbHarness(layout: Layout, pbHeader: string, cType: string): string {
  const model = protoModel(layout);
  const read: string[] = [];
  walk(model.root, "v->", read, "  ", "read", 0);
  const print: string[] = [];
  walk(model.root, "v->", print, "  ", "print", 0);
  return [
    `#include "${pbHeader}"`,
    PRELUDE,
    `static int read_rec(char **s, ${cType} *v) {`,
    "  char *t;",
    "  size_t i0;",
    "  (void)t;",
    "  (void)i0;",
    ...read,
    "  return next_tok(s) == NULL ? 0 : -1;",
    "}",
    "",
    `static void print_rec(const ${cType} *v) {`,
    "  size_t i0;",
    "  (void)i0;",
    ...print,
    "}",
    "",
    "static char line[1 << 21];",
    "static uint8_t buf[1 << 20];",
    "",
    "int main(void) {",
    "  (void)put_f32;",
    "  (void)put_f64;",
    "  while (fgets(line, sizeof line, stdin) != NULL) {",
    `    static ${cType} v;`,
    "    char *s = line + 2;",
    "    line[strcspn(line, \"\\r\\n\")] = '\\0';",
    "    memset(&v, 0, sizeof v);",
    "    if (line[0] == 'E') {",
    "      pb_ostream_t os = pb_ostream_from_buffer(buf, sizeof buf);",
    "      if (read_rec(&s, &v) < 0) {",
    '        puts("BAD");',
    "        continue;",
    "      }",
    `      if (!pb_encode(&os, ${cType}_fields, &v)) {`,
    '        printf("ERR %s\\n", PB_GET_ERROR(&os));',
    "        continue;",
    "      }",
    '      printf("OK ");',
    "      put_hex(buf, os.bytes_written);",
    "      putchar('\\n');",
    "    } else if (line[0] == 'D') {",
    "      long len = hex_bytes(s, buf, sizeof buf);",
    "      pb_istream_t is = pb_istream_from_buffer(buf, len < 0 ? 0 : (size_t)len);",
    `      if (len < 0 || !pb_decode(&is, ${cType}_fields, &v)) {`,
    '        printf("ERR %s\\n", len < 0 ? "hex" : PB_GET_ERROR(&is));',
    "        continue;",
    "      }",
    '      printf("OK");',
    "      print_rec(&v);",
    "      putchar('\\n');",
    "    } else {",
    '      puts("BAD");',
    "    }",
    "  }",
    "  return 0;",
    "}",
    "",
  ].join("\n");
}

/** protobufjs's reading of the generated .proto: an implementation that shares no code with the studio's codec. */
export function protobufjsType(layout: Layout): protobuf.Type {
  const model = protoModel(layout);
  const root = protobuf.parse(generateProto(layout), { keepCase: true }).root;
  root.resolveAll();
  return root.lookupType(`${model.package}.${model.root.name}`);
}

type Msg = Record<string, unknown>;
const has = (m: Msg, k: string) => Object.prototype.hasOwnProperty.call(m, k) && m[k] !== null && m[k] !== undefined;

function scalarToken(f: ProtoField, v: unknown): string {
  switch (f.type) {
    case "bool":
      return v ? "1" : "0";
    case "float":
      return f32Bits(v as number);
    case "double":
      return f64Bits(v as number);
    case "string":
      return `x${hex(new TextEncoder().encode(v as string))}`;
    case "bytes":
      return `x${hex(v as Uint8Array)}`;
    default:
      return String(v);
  }
}

function messageTokens(m: ProtoMessage, msg: Msg, out: string[]): void {
  for (const f of m.fields) {
    if (f.message || f.label === "optional") {
      out.push(has(msg, f.name) ? "1" : "0");
      if (!has(msg, f.name)) continue;
    }
    const v = msg[f.name];
    if (f.message) messageTokens(f.message, v as Msg, out);
    else if (f.label === "repeated") {
      const arr = (v as unknown[] | undefined) ?? [];
      if (!fixedCount(f)) out.push(String(arr.length));
      for (const x of arr) out.push(scalarToken(f, x));
    } else out.push(scalarToken(f, v));
  }
}

/** Tokens of the message protobufjs decodes from `bytes` (64-bit integers as exact decimal text). */
export function protobufjsTokens(layout: Layout, type: protobuf.Type, bytes: Uint8Array): string {
  const msg = type.toObject(type.decode(bytes), {
    longs: String,
    enums: Number,
    bytes: Array,
    defaults: true,
    arrays: true,
    oneofs: false,
  }) as Msg;
  const normalise = (m: ProtoMessage, o: Msg, decoded: Msg): Msg => {
    const out: Msg = {};
    for (const f of m.fields) {
      // toObject fills defaults; presence comes from the decoded message itself
      if ((f.message || f.label === "optional") && !has(decoded, f.name)) continue;
      const v = o[f.name];
      if (f.message) out[f.name] = normalise(f.message, v as Msg, decoded[f.name] as Msg);
      else if (f.type === "bytes")
        out[f.name] =
          Array.isArray(v) && f.label === "repeated"
            ? (v as number[][]).map((x) => Uint8Array.from(x))
            : Uint8Array.from(v as number[]);
      else out[f.name] = v;
    }
    return out;
  };
  const tokens: string[] = [];
  messageTokens(
    protoModel(layout).root,
    normalise(protoModel(layout).root, msg, type.decode(bytes) as unknown as Msg),
    tokens,
  );
  return tokens.join(" ");
}
