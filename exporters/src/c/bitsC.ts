// The bit-packed plan (codecs/src/formats/bitpacked/plan.ts) as C: pack/unpack that write and read the bits of
// docs/design/bitpacked-mapping.md. Widths, grids, tick constants and alphabets are taken from the
// plan and charsets.ts the TypeScript codec runs on; this file only spells them in C.
import type { Alphabet, FieldSpec, ScalarSpec } from "#codecs/plans";
import { CBody, LOOP } from "./emit.ts";
import { fixedCType, fixedRangeCheck } from "./fixedC.ts";
import type { CField, CScalar } from "./model.ts";
import { cDouble, cInt } from "./names.ts";
import { storeTicks, timeSeconds, timeTicks } from "./timeC.ts";

const tryc = (call: string) => `SP_TRY(${call});`;

/** C identifier part of a charset name ("upper-alnum" → "UPPER_ALNUM"). */
const csName = (a: Alphabet) => a.charset.replace(/-/g, "_").toUpperCase();

/** The alphabet tables of every restricted charset the layout uses. */
export function alphabetTables(specs: FieldSpec[]): string[] {
  const used = new Map<string, Alphabet>();
  const visit = (s: ScalarSpec) => {
    if (s.k === "string" && s.alphabet) used.set(s.alphabet.charset, s.alphabet);
  };
  const walk = (fs: FieldSpec[]) => {
    for (const f of fs) {
      if (f.node.k === "group") walk(f.node.fields);
      else visit(f.node.s);
    }
  };
  walk(specs);
  const out: string[] = [];
  for (const a of used.values()) {
    const n = csName(a);
    out.push(`/* ${a.describe}: character code (< 128) -> symbol, -1 outside the charset */`);
    out.push(`static const int8_t SYM_${n}[128] = {${Array.from(a.toSymbol).join(", ")}};`);
    out.push(`/* symbol -> character code, -1 when the symbol is not a character */`);
    out.push(`static const int16_t CHR_${n}[${a.toChar.length}] = {${Array.from(a.toChar).join(", ")}};`, "");
  }
  return out;
}

/** The unsigned offset v − lo as a uint64_t expression, exact for every integer width. */
const offsetOf = (v: string, lo: bigint, signed: boolean) =>
  signed ? `((uint64_t)(int64_t)${v} - (uint64_t)${cInt(lo)})` : `((uint64_t)${v} - ${cInt(lo < 0n ? 0n : lo, true)})`;

function typeLimits(s: CScalar): [bigint, bigint] {
  if (s.k !== "int") return [0n, 0n];
  const b = BigInt(s.bits);
  return s.signed ? [-(1n << (b - 1n)), (1n << (b - 1n)) - 1n] : [0n, (1n << b) - 1n];
}

function rangeCheck(v: string, lo: number, hi: number): string {
  const parts: string[] = [];
  if (Number.isFinite(lo)) parts.push(`${v} >= ${cDouble(lo)}`);
  else if (lo === Infinity) parts.push("0");
  if (Number.isFinite(hi)) parts.push(`${v} <= ${cDouble(hi)}`);
  else if (hi === -Infinity) parts.push("0");
  // NaN fails every comparison; without bounds it is caught by the explicit test
  return parts.length ? `if (!(${parts.join(" && ")})) return SP_ERR_RANGE;` : `if (${v} != ${v}) return SP_ERR_RANGE;`;
}

function packScalar(s: ScalarSpec, cs: CScalar, v: string, len: string | undefined, b: CBody): void {
  switch (s.k) {
    case "bool":
      b.line(tryc(`sp_bw_put(w, ${v} ? 1u : 0u, 1)`));
      return;
    case "enum": {
      if (cs.k !== "enum") throw new Error("unreachable");
      const q = b.local("q", "uint64_t q;");
      b.line(
        `switch (${v}) { ${cs.e.values.map((e) => `case ${e.value}: ${q} = ${s.index.get(e.name)}u; break;`).join(" ")} default: return SP_ERR_VALUE; }`,
      );
      b.line(tryc(`sp_bw_put(w, ${q}, ${s.bits})`));
      return;
    }
    case "int":
    case "int64": {
      const lo = BigInt(s.lo);
      const hi = BigInt(s.hi);
      const [tlo, thi] = typeLimits(cs);
      const signed = cs.k === "int" && cs.signed;
      const conds: string[] = [];
      const vv = signed ? `(int64_t)${v}` : `(uint64_t)${v}`;
      if (lo > tlo) conds.push(`${vv} < ${signed ? cInt(lo) : cInt(lo, true)}`);
      if (hi < thi) conds.push(`${vv} > ${signed ? cInt(hi) : cInt(hi, true)}`);
      if (conds.length) b.line(`if (${conds.join(" || ")}) return SP_ERR_RANGE;`);
      b.line(tryc(`sp_bw_put(w, ${offsetOf(v, lo, signed)}, ${s.bits})`));
      return;
    }
    case "quant": {
      const d = b.local("d", "double d;");
      b.line(`${d} = ${timeTicks(cs) ? timeSeconds(cs, v) : `(double)${v}`};`);
      b.line(rangeCheck(d, s.qz.lo, s.qz.hi));
      b.line(`${d} = sp_round((${d} - ${cDouble(s.qz.lo)}) / ${cDouble(s.qz.step)});`);
      b.line(`if (${d} < 0.0) ${d} = 0.0;`);
      b.line(`if (${d} > ${cDouble(s.qz.qMax)}) ${d} = ${cDouble(s.qz.qMax)};`);
      b.line(tryc(`sp_bw_put(w, (uint64_t)${d}, ${s.bits})`));
      return;
    }
    case "fixed": {
      // the member is the raw integer: checked against the raw range, sent as its offset from rawLo
      if (cs.k !== "fixed") throw new Error("unreachable");
      const check = fixedRangeCheck(cs.f, v);
      if (check) b.line(check);
      b.line(tryc(`sp_bw_put(w, ${offsetOf(v, BigInt(s.rawLo), cs.f.signed)}, ${s.bits})`));
      return;
    }
    case "ieee": {
      const d = b.local("d", "double d;");
      b.line(`${d} = ${timeTicks(cs) ? timeSeconds(cs, v) : `(double)${v}`};`);
      b.line(rangeCheck(d, s.min, s.max));
      b.line(`if (!isfinite(${d})) return SP_ERR_RANGE;`);
      if (s.bits === 32) {
        const f = b.local("f", "float f;");
        const u32 = b.local("u32", "uint32_t u32;");
        b.line(`${f} = (float)${d};`).line(`memcpy(&${u32}, &${f}, 4);`);
        b.line(tryc(`sp_bw_put(w, ${u32}, 32)`));
      } else {
        const u = b.local("u", "uint64_t u;");
        b.line(`memcpy(&${u}, &${d}, 8);`);
        b.line(tryc(`sp_bw_put(w, ${u}, 64)`));
      }
      return;
    }
    case "string": {
      const n = b.local("n", "size_t n;");
      const k = b.local("k", "size_t k;");
      b.line(`${n} = sp_strnlen(${v}, ${s.maxLength + 1});`);
      b.line(`if (${n} > ${s.maxLength}) return SP_ERR_LENGTH;`);
      const a = s.alphabet;
      if (a) {
        if (s.fixed && a.pad < 0) b.line(`if (${n} < ${s.maxLength}) return SP_ERR_LENGTH;`);
        if (!s.fixed) b.line(tryc(`sp_bw_put(w, ${n}, ${s.lenBits})`));
        const sym = b.local("sym", "int sym;");
        b.open(`for (${k} = 0; ${k} < ${n}; ${k}++) {`);
        b.line(`${sym} = (uint8_t)${v}[${k}] < 128u ? SYM_${csName(a)}[(uint8_t)${v}[${k}]] : -1;`);
        b.line(`if (${sym} < 0) return SP_ERR_VALUE;`);
        b.line(tryc(`sp_bw_put(w, (uint64_t)${sym}, ${a.bits})`));
        b.close();
        if (s.fixed)
          b.line(`for (${k} = ${n}; ${k} < ${s.maxLength}; ${k}++) SP_TRY(sp_bw_put(w, ${a.pad}u, ${a.bits}));`);
        return;
      }
      b.line(`if (!sp_utf8_valid((const uint8_t *)${v}, ${n})) return SP_ERR_VALUE;`);
      if (!s.fixed) b.line(tryc(`sp_bw_put(w, ${n}, ${s.lenBits})`));
      b.line(`for (${k} = 0; ${k} < ${n}; ${k}++) SP_TRY(sp_bw_put(w, (uint8_t)${v}[${k}], 8));`);
      if (s.fixed) b.line(`for (${k} = ${n}; ${k} < ${s.maxLength}; ${k}++) SP_TRY(sp_bw_put(w, 0u, 8));`);
      return;
    }
    case "bytes": {
      const n = b.local("n", "size_t n;");
      const k = b.local("k", "size_t k;");
      if (s.fixed) b.line(`${n} = ${s.maxLength};`);
      else {
        b.line(`${n} = ${len};`);
        b.line(`if (${n} > ${s.maxLength}) return SP_ERR_LENGTH;`);
        b.line(tryc(`sp_bw_put(w, ${n}, ${s.lenBits})`));
      }
      b.line(`for (${k} = 0; ${k} < ${n}; ${k}++) SP_TRY(sp_bw_put(w, ${v}[${k}], 8));`);
      return;
    }
  }
}

function unpackScalar(s: ScalarSpec, cs: CScalar, dst: string, len: string | undefined, b: CBody): void {
  const u = b.local("u", "uint64_t u;");
  switch (s.k) {
    case "bool":
      b.line(tryc(`sp_br_get(r, 1, &${u})`));
      b.line(`${dst} = ${u} == 1u;`);
      return;
    case "enum": {
      if (cs.k !== "enum") throw new Error("unreachable");
      b.line(tryc(`sp_br_get(r, ${s.bits}, &${u})`));
      b.line(`if (${u} >= ${s.names.length}u) return SP_ERR_VALUE;`);
      const byIndex = s.names.map((name) => cs.e.values.find((e) => e.name === name)!.constant);
      b.line(
        `switch (${u}) { ${byIndex.map((c, i) => `case ${i}: ${dst} = ${c}; break;`).join(" ")} default: break; }`,
      );
      return;
    }
    case "int":
    case "int64": {
      const lo = BigInt(s.lo);
      const span = BigInt(s.hi) - lo;
      b.line(tryc(`sp_br_get(r, ${s.bits}, &${u})`));
      if (span < (1n << BigInt(s.bits)) - 1n) b.line(`if (${u} > ${cInt(span, true)}) return SP_ERR_RANGE;`);
      const ct = cs.k === "int" ? `${cs.signed ? "" : "u"}int${cs.bits}_t` : "int64_t";
      const signed = cs.k === "int" && cs.signed;
      const sum = `(uint64_t)${cInt(lo)} + ${u}`;
      b.line(`${dst} = (${ct})${signed ? `sp_sext(${sum}, 64)` : lo === 0n ? u : `(${cInt(lo, true)} + ${u})`};`);
      return;
    }
    case "quant": {
      const q = s.qz;
      const v = b.local("v", "double v;");
      b.line(tryc(`sp_br_get(r, ${s.bits}, &${u})`));
      b.line(`if (${u} > ${cInt(q.qMax, true)}) return SP_ERR_RANGE;`);
      b.line(
        `${v} = ${q.ticks ? `(double)(${cInt(q.loTicks)} + (int64_t)${u} * ${cInt(q.stepTicks)}) / ${cDouble(q.pow)}` : `${cDouble(q.lo)} + (double)${u} * ${cDouble(q.step)}`};`,
      );
      b.line(`if (${v} > ${cDouble(q.hi)}) ${v} = ${cDouble(q.hi)};`);
      if (timeTicks(cs)) storeTicks(cs, v, dst, b);
      else b.line(`${dst} = ${s.float32 ? `(float)${v}` : v};`);
      return;
    }
    case "fixed": {
      if (cs.k !== "fixed") throw new Error("unreachable");
      b.line(tryc(`sp_br_get(r, ${s.bits}, &${u})`));
      b.line(`if (${u} > ${cInt(s.span, true)}) return SP_ERR_RANGE;`);
      b.line(`${dst} = (${fixedCType(cs.f)})(${cInt(s.rawLo)} + (int64_t)${u});`);
      return;
    }
    case "ieee": {
      if (s.bits === 32) {
        const f = b.local("f", "float f;");
        const u32 = b.local("u32", "uint32_t u32;");
        b.line(tryc(`sp_br_get(r, 32, &${u})`));
        b.line(`${u32} = (uint32_t)${u};`).line(`memcpy(&${f}, &${u32}, 4);`);
        b.line(`if (!isfinite(${f})) return SP_ERR_VALUE;`);
        b.line(rangeCheck(`(double)${f}`, s.min, s.max));
        b.line(`${dst} = ${f};`);
      } else {
        const d = b.local("d", "double d;");
        b.line(tryc(`sp_br_get(r, 64, &${u})`));
        b.line(`memcpy(&${d}, &${u}, 8);`);
        b.line(`if (!isfinite(${d})) return SP_ERR_VALUE;`);
        b.line(rangeCheck(d, s.min, s.max));
        if (timeTicks(cs)) storeTicks(cs, d, dst, b);
        else b.line(`${dst} = ${cs.k === "float" && cs.bits === 32 ? `(float)${d}` : d};`);
      }
      return;
    }
    case "string": {
      const n = b.local("n", "size_t n;");
      const k = b.local("k", "size_t k;");
      if (s.fixed) b.line(`${n} = ${s.maxLength};`);
      else {
        b.line(tryc(`sp_br_get(r, ${s.lenBits}, &${u})`));
        b.line(`if (${u} > ${s.maxLength}u) return SP_ERR_LENGTH;`);
        b.line(`${n} = (size_t)${u};`);
      }
      const a = s.alphabet;
      const end = b.local("end", "size_t end;");
      b.line(`${end} = 0;`);
      if (a) {
        const padded = b.local("padded", "bool padded;");
        b.line(`${padded} = false;`);
        b.open(`for (${k} = 0; ${k} < ${n}; ${k}++) {`);
        b.line(tryc(`sp_br_get(r, ${a.bits}, &${u})`));
        if (s.fixed && a.pad >= 0)
          b.open(`if (${u} == ${a.pad}u) {`).line(`${padded} = true;`).line("continue;").close();
        b.line(`if (CHR_${csName(a)}[${u}] < 0 || ${padded}) return SP_ERR_VALUE;`);
        b.line(`${dst}[${end}++] = (char)CHR_${csName(a)}[${u}];`);
        b.close();
        b.line(`${dst}[${end}] = '\\0';`);
        return;
      }
      b.open(`for (${k} = 0; ${k} < ${n}; ${k}++) {`);
      b.line(tryc(`sp_br_get(r, 8, &${u})`));
      if (s.fixed) {
        b.line(`if (${end} == ${k} && ${u} != 0u) ${end}++;`);
        b.line(`else if (${u} != 0u) return SP_ERR_VALUE;`);
      } else {
        b.line(`if (${u} == 0u) return SP_ERR_VALUE;`);
        b.line(`${end}++;`);
      }
      b.line(`${dst}[${k}] = (char)${u};`);
      b.close();
      b.line(`${dst}[${end}] = '\\0';`);
      b.line(`if (!sp_utf8_valid((const uint8_t *)${dst}, ${end})) return SP_ERR_VALUE;`);
      return;
    }
    case "bytes": {
      const n = b.local("n", "size_t n;");
      const k = b.local("k", "size_t k;");
      if (s.fixed) b.line(`${n} = ${s.maxLength};`);
      else {
        b.line(tryc(`sp_br_get(r, ${s.lenBits}, &${u})`));
        b.line(`if (${u} > ${s.maxLength}u) return SP_ERR_LENGTH;`);
        b.line(`${n} = (size_t)${u};`);
      }
      b.open(`for (${k} = 0; ${k} < ${n}; ${k}++) {`);
      b.line(tryc(`sp_br_get(r, 8, &${u})`));
      b.line(`${dst}[${k}] = (uint8_t)${u};`);
      b.close();
      if (len) b.line(`${len} = (uint16_t)${n};`);
      return;
    }
  }
}

function packField(f: FieldSpec, cf: CField, base: string, b: CBody): void {
  const at = `${base}${cf.member}`;
  if (f.optional) {
    b.line(tryc(`sp_bw_put(w, ${base}${cf.has} ? 1u : 0u, 1)`));
    b.open(`if (${base}${cf.has}) {`);
  }
  const n = f.node;
  const cn = cf.node;
  if (n.k === "group" && cn.k === "group")
    n.fields.forEach((sf, i) => packField(sf, cn.struct.fields[i]!, `${at}.`, b));
  else if (n.k === "array" && cn.k === "array") {
    const i = b.local(LOOP, `size_t ${LOOP};`);
    const count = b.local("count", "size_t count;");
    if (n.fixed) b.line(`${count} = ${n.maxCount};`);
    else {
      b.line(`${count} = ${base}${cf.count};`);
      b.line(`if (${count} > ${n.maxCount}) return SP_ERR_LENGTH;`);
      b.line(tryc(`sp_bw_put(w, ${count}, ${n.countBits})`));
    }
    b.open(`for (${i} = 0; ${i} < ${count}; ${i}++) {`);
    packScalar(n.s, cn.s, `${at}[${i}]`, cf.len ? `${base}${cf.len}[${i}]` : undefined, b);
    b.close();
  } else if (n.k === "scalar" && cn.k === "scalar")
    packScalar(n.s, cn.s, at, cf.len ? `${base}${cf.len}` : undefined, b);
  if (f.optional) b.close();
}

function unpackField(f: FieldSpec, cf: CField, base: string, b: CBody): void {
  const at = `${base}${cf.member}`;
  if (f.optional) {
    const u = b.local("u", "uint64_t u;");
    b.line(tryc(`sp_br_get(r, 1, &${u})`));
    b.line(`${base}${cf.has} = ${u} == 1u;`);
    b.open(`if (${base}${cf.has}) {`);
  }
  const scalar = (s: ScalarSpec, cs: CScalar, dst: string, len: string | undefined) => unpackScalar(s, cs, dst, len, b);
  const n = f.node;
  const cn = cf.node;
  if (n.k === "group" && cn.k === "group")
    n.fields.forEach((sf, i) => unpackField(sf, cn.struct.fields[i]!, `${at}.`, b));
  else if (n.k === "array" && cn.k === "array") {
    const i = b.local(LOOP, `size_t ${LOOP};`);
    const count = b.local("count", "size_t count;");
    if (n.fixed) b.line(`${count} = ${n.maxCount};`);
    else {
      const u = b.local("u", "uint64_t u;");
      b.line(tryc(`sp_br_get(r, ${n.countBits}, &${u})`));
      b.line(`if (${u} > ${n.maxCount}u) return SP_ERR_LENGTH;`);
      b.line(`${count} = (size_t)${u};`);
      b.line(`${base}${cf.count} = (uint16_t)${count};`);
    }
    b.open(`for (${i} = 0; ${i} < ${count}; ${i}++) {`);
    scalar(n.s, cn.s, `${at}[${i}]`, cf.len ? `${base}${cf.len}[${i}]` : undefined);
    b.close();
  } else if (n.k === "scalar" && cn.k === "scalar") scalar(n.s, cn.s, at, cf.len ? `${base}${cf.len}` : undefined);
  if (f.optional) b.close();
}

/** put_/get_ helpers and pack_<name> / unpack_<name>, following the plan field by field. */
export function bitsFunctions(specs: FieldSpec[], fields: CField[], typeName: string, name: string): string[] {
  const put = new CBody();
  specs.forEach((f, i) => packField(f, fields[i]!, "in->", put));
  put.line("return SP_OK;");
  const get = new CBody();
  specs.forEach((f, i) => unpackField(f, fields[i]!, "out->", get));
  get.line("return sp_br_finish(r);");
  return [
    ...put.fn(`static int put_${name}(const ${typeName} *in, sp_bw *w)`),
    "",
    ...get.fn(`static int get_${name}(sp_br *r, ${typeName} *out)`),
    "",
    `int pack_${name}(const ${typeName} *in, uint8_t *out, size_t cap) {`,
    "  sp_bw w;",
    "  if (in == NULL || (out == NULL && cap > 0)) return SP_ERR_ARGUMENT;",
    "  sp_bw_init(&w, out, cap);",
    `  SP_TRY(put_${name}(in, &w));`,
    "  return (int)sp_bw_bytes(&w);",
    "}",
    "",
    `int unpack_${name}(const uint8_t *in, size_t len, ${typeName} *out) {`,
    "  static const uint8_t empty[1] = {0};",
    "  sp_br r;",
    "  if ((in == NULL && len > 0) || out == NULL) return SP_ERR_ARGUMENT;",
    "  if (in == NULL) in = empty;",
    "  memset(out, 0, sizeof *out);",
    "  sp_br_init(&r, in, len);",
    `  SP_TRY(get_${name}(&r, out));`,
    "  return (int)len;",
    "}",
  ];
}
