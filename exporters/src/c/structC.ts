// The Struct plan (codecs/src/formats/struct/structPlan.ts) as C: pack_<msg>() / unpack_<msg>() that write and
// read exactly the bytes of docs/design/struct-mapping.md. Every constant (codes, sizes, scales,
// bits) comes from the plan the TypeScript codec runs on; this file only spells it in C.
import { intLimits, type ScalarType } from "#codecs";
import {
  isAppended,
  type NumericSlot,
  PREFIX_BYTES,
  resolutionDecimals,
  type StructField,
  type StructNode,
  type StructPlan,
} from "#codecs/plans";
import { CBody, LOOP } from "./emit.ts";
import { fixedCType, fixedRangeCheck, SAFE } from "./fixedC.ts";
import type { CField, CNode, CScalar, CStruct } from "./model.ts";
import { cDouble, cInt, cString } from "./names.ts";
import { storeTicks, timeSeconds, timeTicks } from "./timeC.ts";

interface Ctx {
  b: CBody;
  /** bytes of the longest text timestamp: the pack function's scratch buffer */
  timeBuf: number;
}

const tryc = (call: string) => `SP_TRY(${call});`;

function enumCases(s: CScalar, u: string): string {
  if (s.k !== "enum") throw new Error("unreachable");
  return `switch (${u}) { ${s.e.values.map((v) => `case ${v.value}:`).join(" ")} break; default: return SP_ERR_VALUE; }`;
}

// ---- pack ---------------------------------------------------------------------------------------

function packNum(slot: NumericSlot, type: ScalarType, s: CScalar, v: string, c: Ctx): void {
  const { b } = c;
  const size = slot.size;
  switch (type.kind) {
    case "bool":
      b.line(tryc(`sp_wr_uint(w, ${v} ? 1u : 0u, 1)`));
      return;
    case "enum":
      b.line(enumCases(s, v));
      b.line(tryc(`sp_wr_uint(w, (uint64_t)${v}, ${size})`));
      return;
    case "int": {
      // the declared range is the contract (as the TypeScript codec checks it): the C type alone allows more
      const [lo, hi] = intLimits(type.bits, type.signed);
      const below =
        type.min !== undefined && type.min > lo ? `${v} < ${cInt(Math.ceil(type.min), !type.signed)}` : null;
      const above =
        type.max !== undefined && type.max < hi ? `${v} > ${cInt(Math.floor(type.max), !type.signed)}` : null;
      const out = [below, above].filter(Boolean);
      if (out.length) b.line(`if (${out.join(" || ")}) return SP_ERR_RANGE;`);
      b.line(tryc(`sp_wr_uint(w, (uint64_t)${type.signed ? `(int64_t)${v}` : v}, ${size})`));
      return;
    }
    case "float":
      b.line(tryc(`sp_wr_f${type.bits}(w, ${v})`));
      return;
    case "fixed": {
      // the member is the raw integer already: only its range is checked
      if (s.k !== "fixed") throw new Error("unreachable");
      const check = fixedRangeCheck(s.f, v);
      if (check) b.line(check);
      b.line(tryc(`sp_wr_uint(w, (uint64_t)${s.f.signed ? `(int64_t)${v}` : v}, ${size})`));
      return;
    }
    case "timestamp": {
      const sec = s.k === "time" ? s.ticks : undefined;
      if (sec) {
        // integer ticks: the 4-byte slot (whole seconds) takes 1970..2106, the 8-byte one the ticks as they are
        if (slot.code === "I") {
          b.line(`if (${v} < 0 || ${v} > 4294967295ll) return SP_ERR_RANGE;`);
          b.line(tryc(`sp_wr_uint(w, (uint64_t)${v}, 4)`));
        } else {
          b.line(`if (${v} < -9007199254740991ll || ${v} > 9007199254740991ll) return SP_ERR_RANGE;`);
          b.line(tryc(`sp_wr_uint(w, (uint64_t)${v}, 8)`));
        }
        return;
      }
      const r = b.local("r", "double r;");
      const res = type.resolution;
      if (slot.code === "I") {
        b.line(`${r} = ${res === 1 ? `sp_round(${v})` : `sp_round(${v} / ${cDouble(res)}) * ${cDouble(res)}`};`);
        b.line(`if (!(${r} >= 0.0 && ${r} <= 4294967295.0)) return SP_ERR_RANGE;`);
        b.line(tryc(`sp_wr_uint(w, (uint64_t)${r}, 4)`));
      } else {
        b.line(`${r} = sp_round(${v} / ${cDouble(res)});`);
        b.line(`if (!(${r} >= -${SAFE} && ${r} <= ${SAFE})) return SP_ERR_RANGE;`);
        b.line(tryc(`sp_wr_uint(w, (uint64_t)(int64_t)${r}, 8)`));
      }
      return;
    }
    default:
      throw new Error("unreachable");
  }
}

function packText(
  n: Extract<StructNode, { kind: "text" }>,
  s: CScalar,
  v: string,
  len: string | undefined,
  c: Ctx,
): void {
  const { b } = c;
  const cnt = b.local("n", "size_t n;");
  const p = b.local("p", "const uint8_t *p;");
  if (n.of === "string") {
    b.line(`${cnt} = sp_strnlen(${v}, ${n.maxLength + 1});`);
    b.line(`if (${cnt} > ${n.maxLength}) return SP_ERR_LENGTH;`);
    b.line(`${p} = (const uint8_t *)${v};`);
    b.line(`if (!sp_utf8_valid(${p}, ${cnt})) return SP_ERR_VALUE;`);
  } else if (n.of === "bytes") {
    if (n.exact) b.line(`${cnt} = ${n.maxLength};`);
    else {
      b.line(`${cnt} = ${len};`);
      b.line(`if (${cnt} > ${n.maxLength}) return SP_ERR_LENGTH;`);
    }
    b.line(`${p} = ${v};`);
  } else {
    const t = b.local("tbuf", `uint8_t tbuf[${c.timeBuf}];`);
    b.line(tryc(`sp_time_write(${cString(s.k === "time" ? (s.textFormat ?? "") : "")}, ${timeSeconds(s, v)}, ${t})`));
    b.line(`${cnt} = ${n.maxLength};`);
    b.line(`${p} = ${t};`);
  }
  if (n.mode === "fixed") {
    b.line(tryc(`sp_wr_bytes(w, ${p}, ${cnt})`));
    if (n.of === "string") b.line(tryc(`sp_wr_zeros(w, ${n.maxLength} - ${cnt})`));
    return;
  }
  b.line(tryc(`sp_wr_uint(w, ${cnt}, ${PREFIX_BYTES[n.mode]})`));
  b.line(tryc(isAppended(n.mode) ? `sp_wr_tail(w, ${p}, ${cnt})` : `sp_wr_bytes(w, ${p}, ${cnt})`));
}

function packValue(node: StructNode, type: ScalarType, s: CScalar, v: string, len: string | undefined, c: Ctx): void {
  if (node.kind === "num") packNum(node.slot, type, s, v, c);
  else if (node.kind === "text") packText(node, s, v, len, c);
  else throw new Error("unreachable");
}

function packField(f: StructField, cf: CField, base: string, c: Ctx): void {
  const { b } = c;
  const at = `${base}${cf.member}`;
  const body = () => {
    const node = f.node;
    const cn: CNode = cf.node;
    if (node.kind === "group" && cn.k === "group") {
      node.fields.forEach((sf, i) => packField(sf, cn.struct.fields[i]!, `${at}.`, c));
    } else if (node.kind === "array" && cn.k === "array") {
      const i = b.local(LOOP, `size_t ${LOOP};`);
      const count = b.local("count", "size_t count;");
      if (node.fixed) b.line(`${count} = ${node.maxCount};`);
      else {
        b.line(`${count} = ${base}${cf.count};`);
        b.line(`if (${count} > ${node.maxCount}) return SP_ERR_LENGTH;`);
        b.line(tryc(`sp_wr_uint(w, ${count}, ${node.countCode === "H" ? 2 : 1})`));
      }
      b.open(`for (${i} = 0; ${i} < ${count}; ${i}++) {`);
      packValue(node.elem, cn.type, cn.s, `${at}[${i}]`, cf.len ? `${base}${cf.len}[${i}]` : undefined, c);
      b.close();
    } else if (cn.k === "scalar") packValue(node, cn.type, cn.s, at, cf.len ? `${base}${cf.len}` : undefined, c);
  };
  if (f.bit < 0) return body();
  b.open(`if (${base}${cf.has}) {`);
  b.line(`sp_wr_flag(w, ${f.bit});`);
  body();
  b.close();
}

// ---- unpack -------------------------------------------------------------------------------------

function unpackNum(slot: NumericSlot, type: ScalarType, s: CScalar, dst: string, c: Ctx): void {
  const { b } = c;
  const u = b.local("u", "uint64_t u;");
  const size = slot.size;
  if (type.kind === "float") {
    b.line(tryc(`sp_rd_f${type.bits}(r, &${dst})`));
    return;
  }
  b.line(tryc(`sp_rd_uint(r, ${size}, &${u})`));
  switch (type.kind) {
    case "bool":
      b.line(`if (${u} > 1u) return SP_ERR_VALUE;`);
      b.line(`${dst} = ${u} == 1u;`);
      return;
    case "enum":
      b.line(enumCases(s, u));
      b.line(`${dst} = (${s.k === "enum" ? s.e.typeName : ""})${u};`);
      return;
    case "int": {
      const ct = `${type.signed ? "" : "u"}int${type.bits}_t`;
      b.line(`${dst} = (${ct})${type.signed ? `sp_sext(${u}, ${type.bits})` : u};`);
      return;
    }
    case "fixed": {
      if (s.k !== "fixed") throw new Error("unreachable");
      const f = s.f;
      const raw = b.local("raw", "int64_t raw;");
      if (f.signed) b.line(`${raw} = sp_sext(${u}, ${size * 8});`);
      else {
        b.line(`if (${u} > ${cInt(Math.max(0, f.rawMax), true)}) return SP_ERR_RANGE;`);
        b.line(`${raw} = (int64_t)${u};`);
      }
      b.line(`if (${raw} < ${cInt(f.rawMin)} || ${raw} > ${cInt(f.rawMax)}) return SP_ERR_RANGE;`);
      b.line(`${dst} = (${fixedCType(f)})${raw};`);
      return;
    }
    case "timestamp": {
      const sec = s.k === "time" ? s.ticks : undefined;
      if (slot.code === "I") {
        b.line(`${dst} = ${sec ? "(int64_t)" : "(double)"}${u};`);
        return;
      }
      const raw = b.local("raw", "int64_t raw;");
      b.line(`${raw} = sp_sext(${u}, 64);`);
      b.line(`if (${raw} < -9007199254740991ll || ${raw} > 9007199254740991ll) return SP_ERR_RANGE;`);
      if (sec) {
        b.line(`${dst} = ${raw};`);
        return;
      }
      const res = type.resolution;
      const decimals = resolutionDecimals(res);
      const divisor = decimals > 0 ? 10 ** decimals : 0;
      b.line(`${dst} = ${divisor ? `(double)${raw} / ${cDouble(divisor)}` : `(double)${raw} * ${cDouble(res)}`};`);
      return;
    }
    default:
      throw new Error("unreachable");
  }
}

function unpackText(
  n: Extract<StructNode, { kind: "text" }>,
  s: CScalar,
  dst: string,
  len: string | undefined,
  c: Ctx,
): void {
  const { b } = c;
  const cnt = b.local("n", "size_t n;");
  const p = b.local("p", "const uint8_t *p;");
  const finish = () => {
    if (n.of === "string") {
      b.line(`if (!sp_utf8_valid(${p}, ${cnt}) || memchr(${p}, 0, ${cnt}) != NULL) return SP_ERR_VALUE;`);
      b.line(`if (${cnt}) memcpy(${dst}, ${p}, ${cnt});`);
      b.line(`${dst}[${cnt}] = '\\0';`);
    } else if (n.of === "bytes") {
      b.line(`if (${cnt}) memcpy(${dst}, ${p}, ${cnt});`);
      if (len) b.line(`${len} = (uint16_t)${cnt};`);
    } else {
      b.line(`if (${cnt} != ${n.maxLength}) return SP_ERR_VALUE;`);
      const fmt = cString(s.k === "time" ? (s.textFormat ?? "") : "");
      if (timeTicks(s)) {
        const secs = b.local("secs", "double secs;");
        b.line(tryc(`sp_time_read(${fmt}, ${p}, &${secs})`));
        storeTicks(s, secs, dst, b);
      } else b.line(tryc(`sp_time_read(${fmt}, ${p}, &${dst})`));
    }
  };
  if (n.mode === "fixed") {
    b.line(tryc(`sp_rd_take(r, ${n.maxLength}, &${p})`));
    if (n.of === "string") {
      const k = b.local("k", "size_t k;");
      b.line(`${cnt} = 0;`);
      b.line(`while (${cnt} < ${n.maxLength} && ${p}[${cnt}] != 0) ${cnt}++;`);
      b.line(`for (${k} = ${cnt}; ${k} < ${n.maxLength}; ${k}++) if (${p}[${k}] != 0) return SP_ERR_VALUE;`);
    } else b.line(`${cnt} = ${n.maxLength};`);
    finish();
    return;
  }
  const u = b.local("u", "uint64_t u;");
  b.line(tryc(`sp_rd_uint(r, ${PREFIX_BYTES[n.mode]}, &${u})`));
  b.line(`if (${u} > ${n.maxLength}u) return SP_ERR_LENGTH;`);
  b.line(`${cnt} = (size_t)${u};`);
  if (isAppended(n.mode)) {
    b.line(tryc(`sp_rd_tail(r, ${cnt}, &${p})`));
    b.open(`if (${p} != NULL) {`);
    finish();
    b.close();
  } else {
    b.line(tryc(`sp_rd_take(r, ${cnt}, &${p})`));
    finish();
  }
}

function unpackValue(
  node: StructNode,
  type: ScalarType,
  s: CScalar,
  dst: string,
  len: string | undefined,
  c: Ctx,
): void {
  if (node.kind === "num") unpackNum(node.slot, type, s, dst, c);
  else if (node.kind === "text") unpackText(node, s, dst, len, c);
  else throw new Error("unreachable");
}

function unpackField(f: StructField, cf: CField, base: string, c: Ctx): void {
  const { b } = c;
  const at = `${base}${cf.member}`;
  const body = () => {
    const node = f.node;
    const cn = cf.node;
    if (node.kind === "group" && cn.k === "group")
      node.fields.forEach((sf, i) => unpackField(sf, cn.struct.fields[i]!, `${at}.`, c));
    else if (node.kind === "array" && cn.k === "array") {
      const i = b.local(LOOP, `size_t ${LOOP};`);
      const count = b.local("count", "size_t count;");
      if (node.fixed) b.line(`${count} = ${node.maxCount};`);
      else {
        const u = b.local("u", "uint64_t u;");
        b.line(tryc(`sp_rd_uint(r, ${node.countCode === "H" ? 2 : 1}, &${u})`));
        b.line(`if (${u} > ${node.maxCount}u) return SP_ERR_LENGTH;`);
        b.line(`${count} = (size_t)${u};`);
        b.line(`${base}${cf.count} = (uint16_t)${count};`);
      }
      b.open(`for (${i} = 0; ${i} < ${count}; ${i}++) {`);
      unpackValue(node.elem, cn.type, cn.s, `${at}[${i}]`, cf.len ? `${base}${cf.len}[${i}]` : undefined, c);
      b.close();
    } else if (cn.k === "scalar") unpackValue(node, cn.type, cn.s, at, cf.len ? `${base}${cf.len}` : undefined, c);
  };
  if (f.bit < 0) return body();
  b.line(`${base}${cf.has} = sp_rd_flag(r, ${f.bit});`);
  b.open(`if (${base}${cf.has}) {`);
  body();
  if (f.bitEnd > f.bit + 1) {
    b.reopen("} else {");
    // an absent group's own optional members cannot be present
    for (let bit = f.bit + 1; bit < f.bitEnd; bit++) b.line(`if (sp_rd_flag(r, ${bit})) return SP_ERR_PADDING;`);
  }
  b.close();
}

/** Byte length of the longest text timestamp of the layout (the pack function's scratch buffer). */
function longestTime(fields: StructField[]): number {
  let n = 0;
  const walk = (node: StructNode) => {
    if (node.kind === "text" && node.of === "time") n = Math.max(n, node.maxLength);
    else if (node.kind === "array") walk(node.elem);
    else if (node.kind === "group") node.fields.forEach((f) => walk(f.node));
  };
  fields.forEach((f) => walk(f.node));
  return n;
}

export interface StructFunctions {
  /** static helpers and the two public functions, in order */
  code: string[];
}

/** pack_<name> / unpack_<name> over `root`, following `plan` field by field. */
export function structFunctions(plan: StructPlan, root: CStruct, name: string): StructFunctions {
  const little = plan.little;
  const timeBuf = Math.max(1, longestTime(plan.fields));
  const type = root.typeName;

  const put = new CBody();
  const pc: Ctx = { b: put, timeBuf };
  if (plan.bitmapBytes) put.line(tryc(`sp_wr_zeros(w, ${plan.bitmapBytes})`));
  plan.fields.forEach((f, i) => packField(f, root.fields[i]!, "in->", pc));
  put.line("return SP_OK;");

  const get = new CBody();
  const gc: Ctx = { b: get, timeBuf };
  if (plan.bitmapBytes) {
    const p = get.local("p", "const uint8_t *p;");
    get.line(tryc(`sp_rd_take(r, ${plan.bitmapBytes}, &${p})`));
    const unused = plan.optionalCount % 8 ? 0xff & ~((1 << (plan.optionalCount % 8)) - 1) : 0;
    if (unused) get.line(`if (${p}[${plan.bitmapBytes - 1}] & 0x${unused.toString(16)}u) return SP_ERR_PADDING;`);
  }
  plan.fields.forEach((f, i) => unpackField(f, root.fields[i]!, "out->", gc));
  get.line("return SP_OK;");

  const L = little ? "true" : "false";
  const pack = plan.hasAppended
    ? [
        `int pack_${name}(const ${type} *in, uint8_t *out, size_t cap) {`,
        "  sp_wr w;",
        "  size_t head;",
        "  if (in == NULL || (out == NULL && cap > 0)) return SP_ERR_ARGUMENT;",
        "  /* first pass: validate and measure, so the appended strings know where they start */",
        `  sp_wr_init(&w, NULL, 0, ${L}, true);`,
        `  SP_TRY(put_${name}(in, &w));`,
        "  head = w.pos;",
        "  if (head + w.tail > cap) return SP_ERR_CAPACITY;",
        `  sp_wr_init(&w, out, cap, ${L}, false);`,
        "  w.tail = head;",
        `  SP_TRY(put_${name}(in, &w));`,
        "  return (int)w.tail;",
        "}",
      ]
    : [
        `int pack_${name}(const ${type} *in, uint8_t *out, size_t cap) {`,
        "  sp_wr w;",
        "  if (in == NULL || (out == NULL && cap > 0)) return SP_ERR_ARGUMENT;",
        `  sp_wr_init(&w, out, cap, ${L}, false);`,
        `  SP_TRY(put_${name}(in, &w));`,
        "  return (int)w.pos;",
        "}",
      ];
  const unpack = plan.hasAppended
    ? [
        `int unpack_${name}(const uint8_t *in, size_t len, ${type} *out) {`,
        "  static const uint8_t empty[1] = {0};",
        "  sp_rd r;",
        "  size_t head;",
        "  if ((in == NULL && len > 0) || out == NULL) return SP_ERR_ARGUMENT;",
        "  if (in == NULL) in = empty;",
        "  memset(out, 0, sizeof *out);",
        "  /* first pass: the in-place part, counting the appended bytes it announces */",
        `  sp_rd_init(&r, in, len, ${L}, true);`,
        `  SP_TRY(get_${name}(&r, out));`,
        "  head = r.pos;",
        "  if (r.tail > len - head) return SP_ERR_TRUNCATED;",
        `  sp_rd_init(&r, in, len, ${L}, false);`,
        "  r.tail = head;",
        `  SP_TRY(get_${name}(&r, out));`,
        "  if (r.tail != len) return SP_ERR_TRAILING;",
        "  return (int)len;",
        "}",
      ]
    : [
        `int unpack_${name}(const uint8_t *in, size_t len, ${type} *out) {`,
        "  static const uint8_t empty[1] = {0};",
        "  sp_rd r;",
        "  if ((in == NULL && len > 0) || out == NULL) return SP_ERR_ARGUMENT;",
        "  if (in == NULL) in = empty;",
        "  memset(out, 0, sizeof *out);",
        `  sp_rd_init(&r, in, len, ${L}, false);`,
        `  SP_TRY(get_${name}(&r, out));`,
        "  if (r.pos != len) return SP_ERR_TRAILING;",
        "  return (int)len;",
        "}",
      ];
  return {
    code: [
      ...put.fn(`static int put_${name}(const ${type} *in, sp_wr *w)`),
      "",
      ...get.fn(`static int get_${name}(sp_rd *r, ${type} *out)`),
      "",
      ...pack,
      "",
      ...unpack,
    ],
  };
}
