// A C main() for the generated packers: reads "E <tokens>" (pack a record), "C <cap> <tokens>"
// (pack into a buffer of cap bytes), "D <hex>" (unpack) from stdin and prints "OK <hex>",
// "OK <tokens>" or "ERR <status>" per line, so one process run checks a whole batch of records.
import { cElementType, type CField, type CModel, type CScalar, type CStruct } from "../../../src/c/model.ts";

/** Token and hex I/O every C harness needs (this one and the nanopb harness). */
export const HARNESS_IO_C = String.raw`#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *next_tok(char **s) {
  char *t;
  while (**s == ' ') (*s)++;
  if (**s == '\0') return NULL;
  t = *s;
  while (**s != '\0' && **s != ' ') (*s)++;
  if (**s != '\0') *(*s)++ = '\0';
  return t;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static long hex_bytes(const char *t, uint8_t *dst, size_t max) {
  size_t n = 0;
  while (t[0] != '\0' && t[1] != '\0') {
    int hi = hexval(t[0]), lo = hexval(t[1]);
    if (hi < 0 || lo < 0 || n >= max) return -1;
    dst[n++] = (uint8_t)(hi * 16 + lo);
    t += 2;
  }
  return t[0] == '\0' ? (long)n : -1;
}

static void put_hex(const uint8_t *p, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) printf("%02x", p[i]);
}

static void put_f32(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  printf(" %08" PRIx32, b);
}

static void put_f64(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  printf(" %016" PRIx64, b);
}
`;

const PRELUDE = HARNESS_IO_C;

/** Integers and fixed-point raws travel as decimal integers, signed or not as their C type. */
const signedInt = (s: CScalar) => (s.k === "fixed" ? s.f.signed : s.k === "int" && s.signed);

function readScalar(s: CScalar, dst: string, len: string | undefined, out: string[], ind: string): void {
  out.push(`${ind}if ((t = next_tok(s)) == NULL) return -1;`);
  switch (s.k) {
    case "bool":
      out.push(`${ind}${dst} = t[0] == '1';`);
      return;
    case "enum":
      out.push(`${ind}${dst} = (${s.e.typeName})strtol(t, NULL, 10);`);
      return;
    case "int":
    case "fixed":
      out.push(`${ind}${dst} = (${cElementType(s)})${signedInt(s) ? "strtoll" : "strtoull"}(t, NULL, 10);`);
      return;
    case "float":
      if (s.bits === 32) out.push(`${ind}{ uint32_t b = (uint32_t)strtoul(t, NULL, 16); memcpy(&${dst}, &b, 4); }`);
      else out.push(`${ind}{ uint64_t b = strtoull(t, NULL, 16); memcpy(&${dst}, &b, 8); }`);
      return;
    case "time":
      if (s.ticks) out.push(`${ind}${dst} = (int64_t)strtoll(t, NULL, 10);`);
      else out.push(`${ind}{ uint64_t b = strtoull(t, NULL, 16); memcpy(&${dst}, &b, 8); }`);
      return;
    case "string":
      out.push(
        `${ind}{ long n = hex_bytes(t + 1, (uint8_t *)${dst}, ${s.maxLength}); if (n < 0) return -1; ${dst}[n] = '\\0'; }`,
      );
      return;
    case "bytes":
      out.push(
        `${ind}{ long n = hex_bytes(t + 1, ${dst}, ${Math.max(1, s.maxLength)}); if (n < 0) return -1;${len ? ` ${len} = (uint16_t)n;` : ""} }`,
      );
      return;
  }
}

function printScalar(s: CScalar, v: string, len: string | undefined, out: string[], ind: string): void {
  switch (s.k) {
    case "bool":
      out.push(`${ind}printf(" %d", ${v} ? 1 : 0);`);
      return;
    case "enum":
      out.push(`${ind}printf(" %ld", (long)${v});`);
      return;
    case "int":
    case "fixed":
      out.push(
        signedInt(s) ? `${ind}printf(" %" PRId64, (int64_t)${v});` : `${ind}printf(" %" PRIu64, (uint64_t)${v});`,
      );
      return;
    case "float":
      out.push(s.bits === 32 ? `${ind}put_f32(${v});` : `${ind}put_f64(${v});`);
      return;
    case "time":
      out.push(s.ticks ? `${ind}printf(" %" PRId64, (int64_t)${v});` : `${ind}put_f64(${v});`);
      return;
    case "string":
      out.push(`${ind}printf(" x"); put_hex((const uint8_t *)${v}, strlen(${v}));`);
      return;
    case "bytes":
      out.push(`${ind}printf(" x"); put_hex(${v}, ${len ?? s.maxLength});`);
      return;
  }
}

/** The reading or printing statements of every member of `st` (one token per value; see tokens.ts). */
export function walk(st: CStruct, base: string, out: string[], ind: string, mode: "read" | "print"): void {
  for (const f of st.fields) field(f, base, out, ind, mode);
}

function field(f: CField, base: string, out: string[], ind: string, mode: "read" | "print"): void {
  const at = `${base}${f.member}`;
  let inner = ind;
  if (f.has) {
    if (mode === "read")
      out.push(`${ind}if ((t = next_tok(s)) == NULL) return -1;`, `${ind}${base}${f.has} = t[0] == '1';`);
    else out.push(`${ind}printf(" %d", ${base}${f.has} ? 1 : 0);`);
    out.push(`${ind}if (${base}${f.has}) {`);
    inner = `${ind}  `;
  }
  const n = f.node;
  if (n.k === "group") walk(n.struct, `${at}.`, out, inner, mode);
  else if (n.k === "array") {
    const count = n.fixed ? String(n.maxCount) : `${base}${f.count}`;
    if (!n.fixed) {
      if (mode === "read")
        out.push(
          `${inner}if ((t = next_tok(s)) == NULL) return -1;`,
          `${inner}${count} = (uint16_t)strtoul(t, NULL, 10);`,
        );
      else out.push(`${inner}printf(" %u", (unsigned)${count});`);
    }
    out.push(`${inner}for (i = 0; i < (size_t)${count}; i++) {`);
    const len = f.len ? `${base}${f.len}[i]` : undefined;
    if (mode === "read") readScalar(n.s, `${at}[i]`, len, out, `${inner}  `);
    else printScalar(n.s, `${at}[i]`, len, out, `${inner}  `);
    out.push(`${inner}}`);
  } else {
    const len = f.len ? `${base}${f.len}` : undefined;
    if (mode === "read") readScalar(n.s, at, len, out, inner);
    else printScalar(n.s, at, len, out, inner);
  }
  if (f.has) out.push(`${ind}}`);
}

export interface HarnessOptions {
  includes: string[];
  pack: string;
  /** without one, "D" lines print BAD */
  unpack?: string;
}

/** The harness source for one export of the model. */
export function cHarness(m: CModel, o: HarnessOptions): string {
  const T = m.root.typeName;
  const read: string[] = [];
  walk(m.root, "v->", read, "  ", "read");
  const print: string[] = [];
  walk(m.root, "v->", print, "  ", "print");
  return [
    ...o.includes.map((h) => `#include "${h}"`),
    PRELUDE,
    `static int read_rec(char **s, ${T} *v) {`,
    "  char *t;",
    "  size_t i;",
    "  (void)t;",
    "  (void)i;",
    ...read,
    "  return next_tok(s) == NULL ? 0 : -1;",
    "}",
    "",
    `static void print_rec(const ${T} *v) {`,
    "  size_t i;",
    "  (void)i;",
    ...print,
    "}",
    "",
    "static char line[1 << 21];",
    "static uint8_t buf[1 << 20];",
    "",
    "int main(void) {",
    "  /* not every layout has floats */",
    "  (void)put_f32;",
    "  (void)put_f64;",
    "  (void)print_rec;",
    "  (void)hex_bytes;",
    "  while (fgets(line, sizeof line, stdin) != NULL) {",
    `    static ${T} v;`,
    "    char *s = line + 2;",
    "    size_t cap = sizeof buf;",
    "    int n;",
    "    line[strcspn(line, \"\\r\\n\")] = '\\0';",
    "    memset(&v, 0, sizeof v);",
    "    if (line[0] == 'E' || line[0] == 'C') {",
    "      if (line[0] == 'C') cap = (size_t)strtoul(next_tok(&s), NULL, 10);",
    "      if (read_rec(&s, &v) < 0) {",
    '        puts("BAD");',
    "        continue;",
    "      }",
    `      n = ${o.pack}(&v, buf, cap);`,
    "      if (n < 0) {",
    '        printf("ERR %d\\n", n);',
    "        continue;",
    "      }",
    '      printf("OK ");',
    "      put_hex(buf, (size_t)n);",
    "      putchar('\\n');",
    ...(o.unpack
      ? [
          "    } else if (line[0] == 'D') {",
          "      long len = hex_bytes(s, buf, sizeof buf);",
          "      if (len < 0) {",
          '        puts("BAD");',
          "        continue;",
          "      }",
          `      n = ${o.unpack}(len > 0 ? buf : NULL, (size_t)len, &v);`,
          "      if (n < 0) {",
          '        printf("ERR %d\\n", n);',
          "        continue;",
          "      }",
          "      if (n != len) {",
          '        puts("BAD");',
          "        continue;",
          "      }",
          '      printf("OK");',
          "      print_rec(&v);",
          "      putchar('\\n');",
        ]
      : []),
    "    } else {",
    '      puts("BAD");',
    "    }",
    "  }",
    "  return 0;",
    "}",
    "",
  ].join("\n");
}
