// <msg>_to_pb(): the record's C type (<msg>.h) into the struct nanopb generates from the .proto, doing
// in C what the protobuf codec does before writing (formats/protobuf/values.ts): fixed-point and
// epoch values become their raw integers, text timestamps their text, ranges are checked. Firmware
// that fills <msg>_t can then send Protobuf with pb_encode and get the studio's bytes.
import type { Layout } from "#codecs";
import { compileTextTime, type ProtoField, type ProtoMessage, protoModel } from "#codecs/plans";
import { CBody, LOOP } from "./emit.ts";
import { fixedRangeCheck } from "./fixedC.ts";
import type { CField, CModel, CScalar, CStruct } from "./model.ts";
import { cDouble, cInt, cString } from "./names.ts";
import { timeSeconds, timeTicks } from "./timeC.ts";

const tryc = (call: string) => `SP_TRY(${call});`;

/** The C type nanopb gives a message (`package_Outer_Inner`). */
export function nanopbTypeName(pkg: string, path: string[]): string {
  return [pkg, ...path].join("_");
}

/** Layout range test of a float (finite values only, as values.ts checks). */
function checkFloat(v: string, lo: number, hi: number, b: CBody): void {
  const conds: string[] = [];
  if (Number.isFinite(lo)) conds.push(`${v} < ${cDouble(lo)}`);
  if (Number.isFinite(hi)) conds.push(`${v} > ${cDouble(hi)}`);
  if (conds.length) b.line(`if ((${conds.join(" || ")}) && !isinf(${v})) return SP_ERR_RANGE;`);
}

/** Layout range test of an integer; only the bounds narrower than the C type (-Wtype-limits rejects the others). */
function checkInt(v: string, lo: bigint, hi: bigint, bits: number, signed: boolean, b: CBody): void {
  const B = BigInt(bits);
  const [tlo, thi] = signed ? [-(1n << (B - 1n)), (1n << (B - 1n)) - 1n] : [0n, (1n << B) - 1n];
  const w = signed ? `(int64_t)${v}` : `(uint64_t)${v}`;
  const conds: string[] = [];
  if (lo > tlo) conds.push(`${w} < ${signed ? cInt(lo) : cInt(lo, true)}`);
  if (hi < thi) conds.push(`${w} > ${signed ? cInt(hi) : cInt(hi, true)}`);
  if (conds.length) b.line(`if (${conds.join(" || ")}) return SP_ERR_RANGE;`);
}

function convertValue(
  pf: ProtoField,
  cs: CScalar,
  path: string[],
  src: string,
  len: string | undefined,
  dst: string,
  b: CBody,
): void {
  const v = pf.value!;
  switch (v.kind) {
    case "bool":
      b.line(`${dst} = ${src};`);
      return;
    case "enum":
      // the numbers are the layout's values; only the C enum type differs
      b.line(`${dst} = (${nanopbTypeName(path[0]!, [...path.slice(1), pf.typeName!])})${src};`);
      return;
    case "int":
    case "int64": {
      const s = pf.source.type.kind === "array" ? pf.source.type.of : pf.source.type;
      if (s.kind === "int") checkInt(src, BigInt(v.min), BigInt(v.max), s.bits, s.signed, b);
      b.line(`${dst} = ${src};`);
      return;
    }
    case "float":
      checkFloat(src, v.min, v.max, b);
      b.line(`${dst} = ${src};`);
      return;
    case "fixed": {
      // the record holds the raw integer the protobuf field carries: only its range is checked
      if (cs.k !== "fixed") throw new Error("unreachable");
      const check = fixedRangeCheck(cs.f, src);
      if (check) b.line(check);
      b.line(`${dst} = ${src};`);
      return;
    }
    case "epoch": {
      if (cs.k === "time" && cs.ticks) {
        // both derive the decimals from the resolution (resolutionDecimals)
        if (cs.ticks.decimals !== v.decimals) throw new Error("unreachable: ticks of another resolution");
        // int64_t ticks are the raw the protobuf field carries: only ranges are checked
        const d = cs.ticks.decimals > 0 ? `((double)${src} / ${cDouble(10 ** cs.ticks.decimals)})` : `(double)${src}`;
        const conds: string[] = [];
        if (Number.isFinite(v.min)) conds.push(`${d} < ${cDouble(v.min)}`);
        if (Number.isFinite(v.max)) conds.push(`${d} > ${cDouble(v.max)}`);
        conds.push(`(double)${src} < ${cDouble(v.rawMin)}`, `(double)${src} > ${cDouble(v.rawMax)}`);
        b.line(`if (${conds.join(" || ")}) return SP_ERR_RANGE;`);
        b.line(`${dst} = ${src};`);
        return;
      }
      const r = b.local("r", "double r;");
      const conds = [`!isfinite(${src})`];
      if (Number.isFinite(v.min)) conds.push(`${src} < ${cDouble(v.min)}`);
      if (Number.isFinite(v.max)) conds.push(`${src} > ${cDouble(v.max)}`);
      b.line(`if (${conds.join(" || ")}) return SP_ERR_RANGE;`);
      b.line(
        `${r} = ${v.decimals > 0 ? `sp_round(${src} * ${cDouble(10 ** v.decimals)})` : `sp_round(${src} / ${cDouble(v.resolution)})`};`,
      );
      b.line(`if (${r} < ${cDouble(v.rawMin)} || ${r} > ${cDouble(v.rawMax)}) return SP_ERR_RANGE;`);
      b.line(`${dst} = ${v.rawMin < 0 ? "(int64_t)" : "(uint64_t)"}${r};`);
      return;
    }
    case "text-time": {
      const secs = timeSeconds(cs, src);
      const conds = timeTicks(cs) ? [] : [`!isfinite(${src})`];
      if (Number.isFinite(v.min)) conds.push(`${secs} < ${cDouble(v.min)}`);
      if (Number.isFinite(v.max)) conds.push(`${secs} > ${cDouble(v.max)}`);
      if (conds.length) b.line(`if (${conds.join(" || ")}) return SP_ERR_RANGE;`);
      b.line(tryc(`sp_time_write(${cString(v.format)}, ${secs}, (uint8_t *)${dst})`));
      b.line(`${dst}[${compileTextTime(v.format).length}] = '\\0';`);
      return;
    }
    case "string": {
      const n = b.local("n", "size_t n;");
      b.line(`${n} = sp_strnlen(${src}, ${v.maxLength + 1});`);
      b.line(`if (${n} > ${v.maxLength}) return SP_ERR_LENGTH;`);
      b.line(`memcpy(${dst}, ${src}, ${n});`);
      b.line(`${dst}[${n}] = '\\0';`);
      return;
    }
    case "bytes": {
      const s = pf.source.type.kind === "array" ? pf.source.type.of : pf.source.type;
      if (s.kind === "bytes" && s.fixed) {
        b.line(`memcpy(${dst}, ${src}, ${v.maxLength});`);
        return;
      }
      b.line(`if (${len} > ${v.maxLength}) return SP_ERR_LENGTH;`);
      b.line(`${dst}.size = ${len};`);
      b.line(`if (${len}) memcpy(${dst}.bytes, ${src}, ${len});`);
      return;
    }
  }
}

function scalarOf(cf: CField): CScalar {
  if (cf.node.k === "group") throw new Error("unreachable");
  return cf.node.s;
}

/** `path`: the package, then the message names from the root down to `pm`. */
function convertMessage(
  pm: ProtoMessage,
  path: string[],
  st: CStruct,
  inBase: string,
  outBase: string,
  b: CBody,
): void {
  const byId = new Map<string, CField>(st.fields.map((f) => [f.field.id, f]));
  for (const pf of pm.fields) {
    const cf = byId.get(pf.source.id)!;
    const src = `${inBase}${cf.member}`;
    const dst = `${outBase}${pf.name}`;
    const present = cf.has ? `${inBase}${cf.has}` : undefined;
    const n = cf.node;
    if (pf.message && n.k === "group") {
      // nanopb marks every submessage with has_; a required group is always sent
      if (present) b.open(`if (${present}) {`);
      b.line(`${outBase}has_${pf.name} = true;`);
      convertMessage(pf.message, [...path, pf.message.name], n.struct, `${src}.`, `${dst}.`, b);
      if (present) b.close();
      continue;
    }
    if (pf.element && n.k === "array") {
      const el = `${src}[${pf.element.index}]`;
      if (present) b.open(`if (${present}) {`).line(`${outBase}has_${pf.name} = true;`);
      convertValue(pf, scalarOf(cf), path, el, cf.len ? `${inBase}${cf.len}[${pf.element.index}]` : undefined, dst, b);
      if (present) b.close();
      continue;
    }
    if (pf.label === "repeated" && n.k === "array") {
      const i = b.local(LOOP, `size_t ${LOOP};`);
      const count = b.local("count", "size_t count;");
      const fixedCount = n.fixed && !cf.optional;
      b.line(`${count} = ${n.fixed ? n.maxCount : `${inBase}${cf.count}`};`);
      if (!n.fixed) b.line(`if (${count} > ${n.maxCount}) return SP_ERR_LENGTH;`);
      // proto3 cannot mark a repeated field optional: absent is sent as empty, so present-but-empty is refused
      if (present)
        b.line(`if (${present} && ${count} == 0) return SP_ERR_VALUE;`).line(`if (!${present}) ${count} = 0;`);
      if (!fixedCount) b.line(`${dst}_count = (pb_size_t)${count};`);
      b.open(`for (${i} = 0; ${i} < ${count}; ${i}++) {`);
      convertValue(
        pf,
        scalarOf(cf),
        path,
        `${src}[${i}]`,
        cf.len ? `${inBase}${cf.len}[${i}]` : undefined,
        `${dst}[${i}]`,
        b,
      );
      b.close();
      continue;
    }
    if (present) b.open(`if (${present}) {`).line(`${outBase}has_${pf.name} = true;`);
    convertValue(pf, scalarOf(cf), path, src, cf.len ? `${inBase}${cf.len}` : undefined, dst, b);
    if (present) b.close();
  }
}

/** The body of <prefix>_to_pb for the nanopb type `pbType`. */
export function pbConverter(layout: Layout, m: CModel, pbType: string): string[] {
  const model = protoModel(layout);
  const b = new CBody();
  b.line("memset(out, 0, sizeof *out);");
  convertMessage(model.root, [model.package, model.root.name], m.root, "in->", "out->", b);
  b.line("return SP_OK;");
  return b.fn(`int ${m.prefix}_to_pb(const ${m.root.typeName} *in, ${pbType} *out)`);
}
