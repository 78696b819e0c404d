// A C main() for the generated batch encoder/decoder: "E <cap> <count> <once tokens> <reading tokens>…"
// packs `count` readings, "D <max> <hex>" unpacks into room for `max` readings; it prints "OK <hex>",
// "OK <count> | <once tokens> | <reading tokens> | …" or "ERR <status>", one line per input line.
import { HARNESS_IO_C, walk } from "./cHarness.ts";
import type { CModel } from "../../../src/c/model.ts";

export interface BatchHarnessNames {
  header: string;
  pack: string;
  unpack: string;
  maxReadings: string;
}

function io(m: CModel, name: string): string[] {
  const T = m.root.typeName;
  const read: string[] = [];
  walk(m.root, "v->", read, "  ", "read");
  const print: string[] = [];
  walk(m.root, "v->", print, "  ", "print");
  return [
    `static int read_${name}(char **s, ${T} *v) {`,
    "  char *t;",
    "  size_t i;",
    "  (void)t;",
    "  (void)i;",
    ...read,
    "  return 0;",
    "}",
    "",
    `static void print_${name}(const ${T} *v) {`,
    "  size_t i;",
    "  (void)i;",
    ...print,
    "}",
    "",
  ];
}

export function batchHarness(reading: CModel, once: CModel, n: BatchHarnessNames): string {
  return [
    `#include "${n.header}"`,
    HARNESS_IO_C,
    ...io(once, "once"),
    ...io(reading, "reading"),
    "static char line[1 << 21];",
    "static uint8_t buf[1 << 20];",
    `/* two more than the limit, so a count over it reaches the packer */`,
    `static ${reading.root.typeName} rs[${n.maxReadings} + 2];`,
    "",
    "int main(void) {",
    "  (void)put_f32;",
    "  (void)put_f64;",
    "  while (fgets(line, sizeof line, stdin) != NULL) {",
    `    static ${once.root.typeName} o;`,
    "    char *s = line + 2, *t;",
    "    size_t i, count = 0, cap, max;",
    "    long len;",
    "    int n;",
    "    line[strcspn(line, \"\\r\\n\")] = '\\0';",
    "    memset(&o, 0, sizeof o);",
    "    memset(rs, 0, sizeof rs);",
    "    if (line[0] == 'E') {",
    "      cap = (size_t)strtoul(next_tok(&s), NULL, 10);",
    "      count = (size_t)strtoul(next_tok(&s), NULL, 10);",
    `      if (count > ${n.maxReadings} + 2 || read_once(&s, &o) < 0) { puts("BAD"); continue; }`,
    "      for (i = 0; i < count; i++) if (read_reading(&s, &rs[i]) < 0) break;",
    '      if (i < count || next_tok(&s) != NULL) { puts("BAD"); continue; }',
    `      n = ${n.pack}(&o, rs, count, buf, cap);`,
    '      if (n < 0) { printf("ERR %d\\n", n); continue; }',
    '      printf("OK ");',
    "      put_hex(buf, (size_t)n);",
    "      putchar('\\n');",
    "    } else if (line[0] == 'D') {",
    "      max = (size_t)strtoul(next_tok(&s), NULL, 10);",
    "      t = next_tok(&s);",
    '      len = hex_bytes(t == NULL ? "" : t, buf, sizeof buf);',
    `      if (len < 0 || max > ${n.maxReadings} + 2) { puts("BAD"); continue; }`,
    `      n = ${n.unpack}(len > 0 ? buf : NULL, (size_t)len, &o, rs, max, &count);`,
    '      if (n < 0) { printf("ERR %d\\n", n); continue; }',
    '      if (n != len) { puts("BAD"); continue; }',
    '      printf("OK %lu |", (unsigned long)count);',
    "      print_once(&o);",
    '      for (i = 0; i < count; i++) { printf(" |"); print_reading(&rs[i]); }',
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
