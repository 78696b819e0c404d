// <msg>_print(): the record as one line of text ("temperature=21.53 door=C …"), so firmware can show
// what it is about to send next to the bytes.
import { fixedTicks } from "#codecs/plans";
import { CBody, LOOP } from "./emit.ts";
import type { CField, CModel, CScalar, CStruct } from "./model.ts";
import { cString } from "./names.ts";

function value(s: CScalar, v: string, len: string | undefined, b: CBody): void {
  const put = (fmt: string, ...args: string[]) =>
    b.line(`n += fmt_put(out + n, cap - n, ${cString(fmt)}${args.map((a) => `, ${a}`).join("")});`);
  switch (s.k) {
    case "bool":
      put("%s", `${v} ? "true" : "false"`);
      return;
    case "enum":
      b.line(
        `switch (${v}) { ${s.e.values.map((e) => `case ${e.constant}: n += fmt_put(out + n, cap - n, "%s", ${cString(e.name)}); break;`).join(" ")} default: n += fmt_put(out + n, cap - n, "%d", (int)${v}); break; }`,
      );
      return;
    case "int":
      put(s.signed ? "%lld" : "%llu", s.signed ? `(long long)${v}` : `(unsigned long long)${v}`);
      return;
    case "float":
      put(s.bits === 32 ? "%.7g" : "%.17g", `(double)${v}`);
      return;
    case "fixed": {
      // the value in its unit with the decimals of scale and offset (13.7, not 13.699999999999999)
      const t = fixedTicks(s.f);
      const decimals = t.exact ? Math.round(Math.log10(t.pow)) : undefined;
      put(decimals === undefined ? "%.17g" : `%.${decimals}f`, `${s.f.macro}_VALUE(${v})`);
      return;
    }
    case "time":
      if (s.ticks?.decimals) put(`%.${s.ticks.decimals}f`, `(double)${v} / ${10 ** s.ticks.decimals}.0`);
      else if (s.ticks) put("%lld", `(long long)${v}`);
      else put("%.17g", v);
      return;
    case "string":
      put('"%s"', v);
      return;
    case "bytes": {
      const k = b.local("k", "size_t k;");
      b.line(
        `for (${k} = 0; ${k} < (size_t)(${len ?? s.maxLength}); ${k}++) n += fmt_put(out + n, cap - n, "%02X", ${v}[${k}]);`,
      );
      return;
    }
  }
}

function fields(st: CStruct, base: string, prefix: string, b: CBody): void {
  for (const f of st.fields) field(f, base, prefix, b);
}

function field(f: CField, base: string, prefix: string, b: CBody): void {
  const at = `${base}${f.member}`;
  const name = `${prefix}${f.field.key}`;
  if (f.has) b.open(`if (${base}${f.has}) {`);
  const n = f.node;
  if (n.k === "group") fields(n.struct, `${at}.`, `${name}.`, b);
  else {
    b.line(`n += fmt_put(out + n, cap - n, "%s=", ${cString(`${name}`)});`);
    if (n.k === "array") {
      const i = b.local(LOOP, `size_t ${LOOP};`);
      const count = n.fixed ? String(n.maxCount) : `(size_t)${base}${f.count}`;
      b.line(`n += fmt_put(out + n, cap - n, "[");`);
      b.open(`for (${i} = 0; ${i} < ${count}; ${i}++) {`);
      b.line(`if (${i}) n += fmt_put(out + n, cap - n, ",");`);
      value(n.s, `${at}[${i}]`, f.len ? `${base}${f.len}[${i}]` : undefined, b);
      b.close();
      b.line(`n += fmt_put(out + n, cap - n, "]");`);
    } else value(n.s, at, f.len ? `${base}${f.len}` : undefined, b);
    b.line(`n += fmt_put(out + n, cap - n, " ");`);
  }
  if (f.has) b.close();
}

/** A static fmt_put helper and <prefix>_print(rec, out, cap) → length written (truncated to cap). */
export function printCode(m: CModel): string[] {
  const b = new CBody();
  b.line("size_t n = 0;");
  b.line("if (cap == 0) return 0;");
  b.line("out[0] = '\\0';");
  fields(m.root, "rec->", "", b);
  b.line("if (n > 0 && out[n - 1] == ' ') out[--n] = '\\0';");
  b.line("return n;");
  return [
    "/* snprintf that never moves past the end: returns what it wrote */",
    "static size_t fmt_put(char *out, size_t cap, const char *fmt, ...) {",
    "  va_list ap;",
    "  int w;",
    "  if (cap <= 1) return 0;",
    "  va_start(ap, fmt);",
    "  w = vsnprintf(out, cap, fmt, ap);",
    "  va_end(ap);",
    "  if (w < 0) return 0;",
    "  return (size_t)w < cap ? (size_t)w : cap - 1;",
    "}",
    "",
    ...b.fn(`size_t ${m.prefix}_print(const ${m.root.typeName} *rec, char *out, size_t cap)`),
  ];
}
