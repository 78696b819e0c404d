// C99 encoder and decoder of a batch (issue #27): readings (`<msg>_reading_t r[count]`) and the fields
// sent once (`<msg>_once_t`) ⇄ the wire record of the batch's plan ⇄ bytes through the existing Struct
// or bit-packed packer of that wire layout. The delta, keyframe and time arithmetic is written here in
// int64_t from the codec's own plan (codecs/src/batch/plan.ts): units, widths and limits are the plan's
// numbers, never recomputed. Only a float's conversion to units of its precision touches a double
// (sp_round, the runtime's Math.round: no libm).
import type { Layout } from "#codecs";
import { type BatchPlan, type ColumnPlan, type DeltaPlan, resolutionDecimals, type TimePlan } from "#codecs/plans";
import { cHeader, CBody } from "../c/emit.ts";
import { cModel, type CField, type CModel, type CScalar, type CStruct } from "../c/model.ts";
import { cComment, cDouble, cInt } from "../c/names.ts";
import { RUNTIME_HEADER } from "../c/runtime.ts";
import { generatedNote, typesHeader, typesHeaderName } from "../c/typesHeader.ts";
import { bitsNames, generateCBitpacked } from "../cBitpacked.ts";
import { generateCStruct, structNames } from "../cStruct.ts";
import type { ExportFile } from "../types.ts";
import { batchParts, formTitle } from "./parts.ts";

export type CBatchFormat = "bitpacked" | "struct";

/** The three C views of a batch: a reading, the fields sent once, and the wire record the packer writes. */
export interface BatchModels {
  reading: CModel;
  once: CModel;
  wire: CModel;
  /** the wire layout under its C name (`<Message><Form>Wire`) */
  wireLayout: Layout;
}

export function batchModels(layout: Layout, plan: BatchPlan): BatchModels {
  const parts = batchParts(layout, plan);
  const wireLayout = { ...plan.wireLayout, message: `${layout.message}${formTitle(plan.form)}Wire` };
  return { reading: cModel(parts.reading), once: cModel(parts.once), wire: cModel(wireLayout), wireLayout };
}

export function batchNames(models: BatchModels, plan: BatchPlan, format: CBatchFormat) {
  const p = models.reading.prefix.replace(/_reading$/, "");
  const suffix = format === "bitpacked" ? "bits" : "struct";
  const base = `${p}_${plan.form}_${suffix}`;
  const wireNames = format === "bitpacked" ? bitsNames(models.wire) : structNames(models.wire);
  return {
    header: `${base}.h`,
    source: `${base}.c`,
    pack: `pack_${base}`,
    unpack: `unpack_${base}`,
    maxReadings: `${base.toUpperCase()}_MAX_READINGS`,
    maxSize: `${base.toUpperCase()}_MAX_SIZE`,
    wireHeader: wireNames.header,
    wireSource: wireNames.source,
    wirePack: wireNames.pack,
    wireUnpack: wireNames.unpack,
    wireMaxSize: wireNames.maxSize,
  };
}

/** A leaf of a reading in C: its member expression, scalar, length member and the has_ flags on its path. */
interface CLeaf {
  at: string;
  s: CScalar;
  len?: string;
  has: string[];
}

function readingLeaf(st: CStruct, path: readonly (string | number)[], base: string): CLeaf {
  const has: string[] = [];
  let cur = st;
  let at = base;
  for (let i = 0; i < path.length; i++) {
    const key = path[i]!;
    const cf: CField | undefined = cur.fields.find((f) => f.field.key === key);
    if (!cf) throw new Error(`unreachable: no C member for ${path.join(".")}`);
    if (cf.has) has.push(`${at}${cf.has}`);
    const n = cf.node;
    if (n.k === "group") {
      cur = n.struct;
      at = `${at}${cf.member}.`;
      continue;
    }
    if (n.k === "array") {
      const el = path[i + 1];
      if (typeof el !== "number" || i + 2 !== path.length) throw new Error(`unreachable: array leaf ${path.join(".")}`);
      return { at: `${at}${cf.member}[${el}]`, s: n.s, ...(cf.len ? { len: `${at}${cf.len}[${el}]` } : {}), has };
    }
    if (i + 1 !== path.length) throw new Error(`unreachable: scalar inside ${path.join(".")}`);
    return { at: `${at}${cf.member}`, s: n.s, ...(cf.len ? { len: `${at}${cf.len}` } : {}), has };
  }
  throw new Error(`unreachable: ${path.join(".")} is a group`);
}

/** A wire column (a variable array at the top of the wire record), or undefined when the plan dropped it. */
function wireColumn(m: CModel, key: string): { member: string; count: string; len?: string; s: CScalar } | undefined {
  const cf = m.root.fields.find((f) => f.field.key === key);
  if (!cf) return undefined;
  if (cf.node.k !== "array" || !cf.count) throw new Error(`unreachable: wire field ${key} is not a column`);
  return { member: `w.${cf.member}`, count: `w.${cf.count}`, ...(cf.len ? { len: `w.${cf.len}` } : {}), s: cf.node.s };
}

function wireScalar(m: CModel, key: string): { member: string; s: CScalar } {
  const cf = m.root.fields.find((f) => f.field.key === key);
  if (!cf || cf.node.k !== "scalar") throw new Error(`unreachable: wire field ${key} is not a scalar`);
  return { member: `w.${cf.member}`, s: cf.node.s };
}

const cType = (s: CScalar): string => {
  switch (s.k) {
    case "int":
      return `${s.signed ? "" : "u"}int${s.bits}_t`;
    case "fixed":
      return `${s.f.signed ? "" : "u"}int${s.f.bits}_t`;
    case "enum":
      return s.e.typeName;
    case "float":
      return s.bits === 32 ? "float" : "double";
    case "time":
      return s.ticks ? "int64_t" : "double";
    default:
      return "";
  }
};

/** dst = src for one scalar of the same kind in two models (enums are distinct C types of equal values). */
function copyScalar(
  s: CScalar,
  dstType: CScalar,
  dst: string,
  src: string,
  b: CBody,
  dstLen?: string,
  srcLen?: string,
) {
  if (s.k === "string" || s.k === "bytes") {
    b.line(`memcpy(${dst}, ${src}, sizeof ${dst});`);
    if (dstLen && srcLen) b.line(`${dstLen} = ${srcLen};`);
    return;
  }
  b.line(`${dst} = ${dstType.k === "enum" ? `(${cType(dstType)})${src}` : src};`);
}

/**
 * The value of a numeric leaf in units of its precision, into the int64_t `u` (the codec's toUnits):
 * integers and fixed-point raws are their units, int64 ticks of the same resolution too; a float (or a
 * double of epoch seconds) is rounded as Math.round to its step. Out of its range: SP_ERR_RANGE.
 */
function toUnits(s: CScalar, v: string, step: number, u: string, b: CBody): void {
  if (s.k === "int" || s.k === "fixed" || (s.k === "time" && s.ticks)) {
    b.line(`${u} = (int64_t)${v};`);
    return;
  }
  const x = b.local("x", "double x;");
  const d = resolutionDecimals(step);
  b.line(`${x} = sp_round(${d > 0 ? `(double)${v} * ${cDouble(10 ** d)}` : `(double)${v} / ${cDouble(step)}`});`);
  // NaN fails both tests; the bounds are the plan's, well inside int64_t
  b.line(`if (!(${x} >= -9.0e15 && ${x} <= 9.0e15)) return SP_ERR_RANGE;`);
  b.line(`${u} = (int64_t)${x};`);
}

/** The leaf's member from units `u` (the codec's fromUnits). */
function fromUnits(s: CScalar, dst: string, step: number, u: string, b: CBody): void {
  if (s.k === "int" || s.k === "fixed" || (s.k === "time" && s.ticks)) {
    b.line(`${dst} = (${cType(s)})${u};`);
    return;
  }
  const d = resolutionDecimals(step);
  const v = d > 0 ? `(double)${u} / ${cDouble(10 ** d)}` : `(double)${u} * ${cDouble(step)}`;
  b.line(`${dst} = ${s.k === "float" && s.bits === 32 ? `(float)(${v})` : v};`);
}

function guards(l: CLeaf, b: CBody): void {
  for (const h of l.has) b.line(`if (!${h}) return SP_ERR_VALUE;`);
}

function setPresent(l: CLeaf, b: CBody): void {
  for (const h of l.has) b.line(`${h} = true;`);
}

function packColumn(m: BatchModels, lp: ColumnPlan, b: CBody): void {
  const col = wireColumn(m.wire, lp.key)!;
  const l = readingLeaf(m.reading.root, lp.leaf.path, "r[i].");
  b.open("for (i = 0; i < count; i++) {");
  guards(l, b);
  copyScalar(l.s, col.s, `${col.member}[i]`, l.at, b, col.len ? `${col.len}[i]` : undefined, l.len);
  b.close();
  b.line(`${col.count} = (uint16_t)count;`);
}

function packDelta(m: BatchModels, plan: BatchPlan, lp: DeltaPlan, b: CBody): void {
  const l = readingLeaf(m.reading.root, lp.leaf.path, "r[i].");
  const first = wireScalar(m.wire, lp.firstKey);
  const next = wireColumn(m.wire, lp.nextKey);
  const keys = wireColumn(m.wire, lp.keyframeKey);
  const u = b.local("u", "int64_t u;");
  const prev = b.local("prev", "int64_t prev;");
  b.line(
    `/* ${cComment(lp.leaf.name)}: units of ${lp.units.step}, ${lp.units.lo} .. ${lp.units.hi}; differences of at most ${lp.maxDelta} */`,
  );
  b.line(`${prev} = 0;`);
  b.open("for (i = 0; i < count; i++) {");
  guards(l, b);
  toUnits(l.s, l.at, lp.units.step, u, b);
  b.line(`if (${u} < ${cInt(lp.units.lo)} || ${u} > ${cInt(lp.units.hi)}) return SP_ERR_RANGE;`);
  b.line(`if (i == 0) ${first.member} = (${cType(first.s)})${u};`);
  if (keys && plan.keyframeEvery > 0)
    b.line(`else if (i % ${plan.keyframeEvery}u == 0) ${keys.member}[${keys.count}++] = (${cType(keys.s)})${u};`);
  if (next) {
    b.open("else {");
    b.line(`if (${u} - ${prev} < ${cInt(-lp.maxDelta)} || ${u} - ${prev} > ${cInt(lp.maxDelta)}) return SP_ERR_RANGE;`);
    b.line(`${next.member}[${next.count}++] = (${cType(next.s)})(${u} - ${prev});`);
    b.close();
  }
  b.line(`${prev} = ${u};`);
  b.close();
}

/** The time of a reading in ticks of the plan's resolution (the codec's secondsToTicks). */
function timeTicksOf(s: CScalar, v: string, res: number, t: string, b: CBody): void {
  toUnits(s, v, res, t, b);
}

function packTime(m: BatchModels, lp: TimePlan, b: CBody): void {
  const l = readingLeaf(m.reading.root, lp.leaf.path, "r[i].");
  const base = wireScalar(m.wire, lp.baseKey);
  const offs = wireColumn(m.wire, lp.offsetKey);
  const t = b.local("t", "int64_t t;");
  const t0 = b.local("t0", "int64_t t0;");
  b.line(
    `/* ${cComment(lp.leaf.name)}: the first reading's time, then offsets of 0 .. ${lp.maxOffset} ticks of ${lp.resolution} s */`,
  );
  b.line(`${t0} = 0;`);
  b.open("for (i = 0; i < count; i++) {");
  guards(l, b);
  timeTicksOf(l.s, l.at, lp.resolution, t, b);
  b.open("if (i == 0) {");
  copyScalar(l.s, base.s, base.member, l.at, b);
  b.line(`${t0} = ${t};`);
  if (offs) {
    b.reopen("} else {");
    b.line(`if (${t} - ${t0} < 0 || ${t} - ${t0} > ${cInt(lp.maxOffset)}) return SP_ERR_RANGE;`);
    b.line(`${offs.member}[${offs.count}++] = (${cType(offs.s)})(${t} - ${t0});`);
  }
  b.close();
  b.close();
}

/** How many readings the wire record of one leaf says the message holds. */
function leafCount(m: BatchModels, lp: BatchPlan["leaves"][number]): string {
  const count = (key: string) => wireColumn(m.wire, key)?.count;
  const parts =
    lp.kind === "column"
      ? [count(lp.key)]
      : lp.kind === "time"
        ? ["1", count(lp.offsetKey)]
        : ["1", count(lp.nextKey), count(lp.keyframeKey)];
  return parts
    .filter((p) => p !== undefined)
    .map((p) => (p === "1" ? "1u" : `(size_t)${p}`))
    .join(" + ");
}

function unpackColumn(m: BatchModels, lp: ColumnPlan, b: CBody): void {
  const col = wireColumn(m.wire, lp.key)!;
  const l = readingLeaf(m.reading.root, lp.leaf.path, "r[i].");
  b.open("for (i = 0; i < total; i++) {");
  setPresent(l, b);
  copyScalar(col.s, l.s, l.at, `${col.member}[i]`, b, l.len, col.len ? `${col.len}[i]` : undefined);
  b.close();
}

function unpackDelta(m: BatchModels, plan: BatchPlan, lp: DeltaPlan, b: CBody): void {
  const l = readingLeaf(m.reading.root, lp.leaf.path, "r[i].");
  const first = wireScalar(m.wire, lp.firstKey);
  const next = wireColumn(m.wire, lp.nextKey);
  const keys = wireColumn(m.wire, lp.keyframeKey);
  const u = b.local("u", "int64_t u;");
  const K = plan.keyframeEvery;
  b.line(`/* ${cComment(lp.leaf.name)} */`);
  // every K-th reading is a keyframe: a message of `total` readings holds exactly (total − 1) / K of them
  b.line(
    `if (${keys ? `(size_t)${keys.count}` : "0u"} != ${K > 0 ? `(total - 1u) / ${K}u` : "0u"}) return SP_ERR_LENGTH;`,
  );
  const nd = next ? b.local("nd", "size_t nd;") : undefined;
  const nk = keys && K > 0 ? b.local("nk", "size_t nk;") : undefined;
  if (nd) b.line(`${nd} = 0;`);
  if (nk) b.line(`${nk} = 0;`);
  b.line(`${u} = (int64_t)${first.member};`);
  b.open("for (i = 0; i < total; i++) {");
  if (keys && nk) b.line(`if (i > 0 && i % ${K}u == 0) ${u} = (int64_t)${keys.member}[${nk}++];`);
  if (next) {
    const d = b.local("d", "int64_t d;");
    b.open(`${nk ? "else " : ""}if (i > 0) {`);
    b.line(`${d} = (int64_t)${next.member}[${nd}++];`);
    b.line(`if (${d} < ${cInt(-lp.maxDelta)} || ${d} > ${cInt(lp.maxDelta)}) return SP_ERR_RANGE;`);
    b.line(`${u} += ${d};`);
    b.close();
  }
  b.line(`if (${u} < ${cInt(lp.units.lo)} || ${u} > ${cInt(lp.units.hi)}) return SP_ERR_RANGE;`);
  setPresent(l, b);
  fromUnits(l.s, l.at, lp.units.step, u, b);
  b.close();
}

function unpackTime(m: BatchModels, lp: TimePlan, b: CBody): void {
  const l = readingLeaf(m.reading.root, lp.leaf.path, "r[i].");
  const base = wireScalar(m.wire, lp.baseKey);
  const offs = wireColumn(m.wire, lp.offsetKey);
  const t0 = b.local("t0", "int64_t t0;");
  const off = b.local("off", "int64_t off;");
  b.line(`/* ${cComment(lp.leaf.name)} */`);
  const r0 = readingLeaf(m.reading.root, lp.leaf.path, "r[0].");
  setPresent(r0, b);
  copyScalar(base.s, r0.s, r0.at, base.member, b);
  timeTicksOf(r0.s, r0.at, lp.resolution, t0, b);
  if (!offs) return;
  b.open("for (i = 1; i < total; i++) {");
  b.line(`${off} = (int64_t)${offs.member}[i - 1u];`);
  b.line(`if (${off} < 0 || ${off} > ${cInt(lp.maxOffset)}) return SP_ERR_RANGE;`);
  setPresent(l, b);
  fromUnits(l.s, l.at, lp.resolution, `(${t0} + ${off})`, b);
  b.close();
}

/** Copies each field sent once between the once record and the wire record (same C shape, one member each). */
function copyOnce(m: BatchModels, dir: "in" | "out", b: CBody): void {
  for (const cf of m.once.root.fields) {
    const wf = m.wire.root.fields.find((f) => f.field.key === cf.field.key);
    if (!wf) throw new Error(`unreachable: once field ${cf.field.key} not on the wire`);
    const [to, from] = dir === "in" ? ["w.", "once->"] : ["once->", "w."];
    const pairs: [string, string][] = [[cf.member, wf.member]];
    if (cf.has && wf.has) pairs.push([cf.has, wf.has]);
    if (cf.count && wf.count) pairs.push([cf.count, wf.count]);
    if (cf.len && wf.len) pairs.push([cf.len, wf.len]);
    for (const [o, w] of pairs) {
      const [d, s] = dir === "in" ? [`${to}${w}`, `${from}${o}`] : [`${to}${o}`, `${from}${w}`];
      // the two members are declared from the same field by the same mapping: the same size and layout
      b.line(`memcpy(&${d}, &${s}, sizeof ${d});`);
    }
  }
}

function packFunction(m: BatchModels, plan: BatchPlan, n: ReturnType<typeof batchNames>): string[] {
  const b = new CBody();
  const W = m.wire.root.typeName;
  b.local("w", `${W} w;`);
  b.local("i", "size_t i;");
  b.line("if (once == NULL || r == NULL || (out == NULL && cap > 0)) return SP_ERR_ARGUMENT;");
  b.line(`if (count < 1u || count > ${n.maxReadings}) return SP_ERR_LENGTH;`);
  b.line("memset(&w, 0, sizeof w);");
  if (plan.countKey) {
    const c = wireScalar(m.wire, plan.countKey);
    b.line(`${c.member} = (${cType(c.s)})count;`);
  }
  copyOnce(m, "in", b);
  for (const lp of plan.leaves) {
    if (lp.kind === "column") packColumn(m, lp, b);
    else if (lp.kind === "delta") packDelta(m, plan, lp, b);
    else packTime(m, lp, b);
  }
  b.line(`return ${n.wirePack}(&w, out, cap);`);
  return b.fn(
    `int ${n.pack}(const ${m.once.root.typeName} *once, const ${m.reading.root.typeName} *r, size_t count, uint8_t *out, size_t cap)`,
  );
}

function unpackFunction(m: BatchModels, plan: BatchPlan, n: ReturnType<typeof batchNames>): string[] {
  const b = new CBody();
  const W = m.wire.root.typeName;
  b.local("w", `${W} w;`);
  b.local("i", "size_t i;");
  b.local("len_", "int len_;");
  b.local("total", "size_t total;");
  b.line("if ((in == NULL && len > 0) || once == NULL || r == NULL || count == NULL) return SP_ERR_ARGUMENT;");
  b.line("*count = 0;");
  b.line(`len_ = ${n.wireUnpack}(in, len, &w);`);
  b.line("if (len_ < 0) return len_;");
  // the delta form sends the count first; the columns form's count is its first column's length
  const [firstLeaf, ...rest] = plan.leaves;
  const counted = plan.countKey ? wireScalar(m.wire, plan.countKey).member : undefined;
  b.line(`total = ${counted ? `(size_t)${counted}` : firstLeaf ? leafCount(m, firstLeaf) : "0u"};`);
  // every column must tell the same count: a message whose columns disagree is malformed
  for (const lp of counted ? plan.leaves : rest) b.line(`if (${leafCount(m, lp)} != total) return SP_ERR_LENGTH;`);
  b.line(`if (total < 1u || total > ${n.maxReadings}) return SP_ERR_LENGTH;`);
  b.line("if (total > max) return SP_ERR_CAPACITY;");
  b.line("memset(once, 0, sizeof *once);");
  b.line("memset(r, 0, total * sizeof *r);");
  copyOnce(m, "out", b);
  for (const lp of plan.leaves) {
    if (lp.kind === "column") unpackColumn(m, lp, b);
    else if (lp.kind === "delta") unpackDelta(m, plan, lp, b);
    else unpackTime(m, lp, b);
  }
  b.line("*count = total;");
  b.line("return len_;");
  return b.fn(
    `int ${n.unpack}(const uint8_t *in, size_t len, ${m.once.root.typeName} *once, ${m.reading.root.typeName} *r, size_t max, size_t *count)`,
  );
}

/**
 * Files of the C batch encoder/decoder of one form in one format: the runtime, the reading, once and
 * wire types, the wire packer, and `<msg>_<form>_<bits|struct>.h/.c`; `dir` prefixes every path.
 */
export function generateCBatch(layout: Layout, plan: BatchPlan, format: CBatchFormat, dir = ""): ExportFile[] {
  const m = batchModels(layout, plan);
  const n = batchNames(m, plan, format);
  const packer = format === "bitpacked" ? generateCBitpacked(m.wireLayout, dir) : generateCStruct(m.wireLayout, dir);
  const guard = `${n.header.replace(/\.h$/, "").toUpperCase()}_H`;
  const what = `batch ${plan.form} form, ${format === "bitpacked" ? "bit-packed" : "Struct"}`;
  const K = plan.keyframeEvery;
  const header = [
    ...generatedNote(m.reading, `${what} encoder and decoder`),
    ...cHeader(
      guard,
      [
        "#include <stddef.h>",
        "#include <stdint.h>",
        "",
        `#include "${typesHeaderName(m.reading)}"`,
        `#include "${typesHeaderName(m.once)}"`,
        `#include "${RUNTIME_HEADER}"`,
        "",
        `/* Readings one message carries at most (the batch's readings per message). */`,
        `#define ${n.maxReadings} ${plan.maxReadings}`,
        `/* The longest message: size output buffers with it. */`,
        `#define ${n.maxSize} ${n.wireMaxSize}`,
        "",
      ],
      [
        `/* Many readings in one message (satpayload_c.md, "Batches"): r[0 .. count-1] oldest first, and`,
        ` * the fields sent once per message. ${plan.form === "delta" ? `The ${cComment("delta")} form sends each number's first reading whole,` : "The columns form sends each per-reading value as one array."}`,
        ...(plan.form === "delta"
          ? [
              ` * the next ones as differences in units of its precision${K > 0 ? `, every ${K}th reading whole again` : ""},`,
              " * and the time as the first reading's plus offsets. A message never depends on another.",
            ]
          : []),
        ` * ${n.pack} returns the message length or a negative sp_status: SP_ERR_LENGTH (count 0 or over`,
        ` * ${n.maxReadings}), SP_ERR_RANGE (a value outside its range, a change larger than the declared rate`,
        " * allows, a time before the first or too far after it), SP_ERR_VALUE (an optional value missing),",
        " * SP_ERR_CAPACITY, SP_ERR_ARGUMENT, and the packer's own.",
        ` * ${n.unpack} fills *count readings (at most max) and returns the bytes read, or: SP_ERR_TRUNCATED,`,
        " * SP_ERR_TRAILING, SP_ERR_LENGTH (columns that disagree on the count, a count over the limit),",
        " * SP_ERR_RANGE (a difference past its width, a value summed outside its range), SP_ERR_CAPACITY",
        " * (more readings than max) and the unpacker's own. On an error no reading is to be used.",
        " */",
        `int ${n.pack}(const ${m.once.root.typeName} *once, const ${m.reading.root.typeName} *r, size_t count, uint8_t *out, size_t cap);`,
        `int ${n.unpack}(const uint8_t *in, size_t len, ${m.once.root.typeName} *once, ${m.reading.root.typeName} *r, size_t max, size_t *count);`,
      ],
    ),
  ];
  const source = [
    ...generatedNote(m.reading, `${what} encoder and decoder`),
    `#include "${n.header}"`,
    "",
    "#include <string.h>",
    "",
    `#include "${n.wireHeader}"`,
    "",
    ...packFunction(m, plan, n),
    "",
    ...unpackFunction(m, plan, n),
    "",
  ];
  return [
    ...packer,
    typesHeader(m.reading, dir),
    typesHeader(m.once, dir),
    { path: `${dir}${n.header}`, content: header.join("\n"), language: "h" },
    { path: `${dir}${n.source}`, content: source.join("\n"), language: "c" },
  ];
}
