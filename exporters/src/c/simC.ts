// The firmware's simulated sensors: each field's sample model (constant, uniform, normal, choice,
// walk, counter, template, elements) as a few lines of C filling the record's C type, clamped to the
// layout's range. One block per field, marked where a real sensor reading goes.
import { type Field, intLimits, type Layout, type SampleModel, type ScalarType } from "#codecs";
import { CBody, LOOP } from "./emit.ts";
import { fixedCType } from "./fixedC.ts";
import type { CField, CModel, CScalar, CStruct } from "./model.ts";
import { cComment, cDouble, cInt, cString } from "./names.ts";

interface State {
  walks: number;
  counters: number;
}

/** [lo, hi] a number of this type may take (the layout's range, else the type's, else a sensible span). */
function numberRange(t: ScalarType): [number, number] {
  switch (t.kind) {
    case "int": {
      const [lo, hi] = intLimits(t.bits, t.signed);
      return [Math.max(lo, t.min ?? lo), Math.min(hi, t.max ?? hi)];
    }
    case "float":
      return [t.min ?? -1e6, t.max ?? 1e6];
    case "fixed":
      return [t.min, t.max];
    case "timestamp":
      return [t.min ?? 0, t.max ?? 4102444800];
    default:
      return [0, 1];
  }
}

function defaultModel(t: ScalarType): SampleModel {
  switch (t.kind) {
    case "bool":
      return { kind: "choice", values: [false, true] };
    case "enum":
      return { kind: "choice", values: t.values.map((v) => v.name) };
    case "string":
      return { kind: "template", template: `{alpha:${Math.min(t.maxLength, 8)}}` };
    case "bytes":
      return {
        kind: "constant",
        value: Array.from({ length: t.fixed ? t.maxLength : Math.min(t.maxLength, 8) }, (_, i) => i & 255),
      };
    case "timestamp":
      return { kind: "walk", start: t.min ?? 1767225600, stepMin: 1, stepMax: 600 };
    default: {
      const [lo, hi] = numberRange(t);
      // the full range of a 32- or 64-bit integer is no useful test value
      return { kind: "uniform", min: Math.max(lo, -1000), max: Math.min(hi, 1000) };
    }
  }
}

/** Text cut to at most `max` UTF-8 bytes without splitting a character. */
function fitUtf8(text: string, max: number): string {
  let out = "";
  let n = 0;
  for (const ch of text) {
    const len = new TextEncoder().encode(ch).length;
    if (n + len > max) break;
    out += ch;
    n += len;
  }
  return out;
}

function asNumber(v: unknown): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") return Number(v);
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
}

/** C expression (double) of a number model; walks and counters keep their state in `s`. */
function numberExpr(model: SampleModel, t: ScalarType, st: State, b: CBody): string {
  const [lo, hi] = numberRange(t);
  const dec = (x: string, d: number | undefined) => (d === undefined ? x : `sim_decimals(${x}, ${d})`);
  switch (model.kind) {
    case "constant":
      return cDouble(asNumber(model.value));
    case "uniform":
      return dec(`sim_uniform(&s->rng, ${cDouble(model.min)}, ${cDouble(model.max)})`, model.decimals);
    case "normal": {
      const x = `sim_normal(&s->rng, ${cDouble(model.mean)}, ${cDouble(model.sd)})`;
      const clamped =
        model.min !== undefined || model.max !== undefined
          ? `sim_clamp(${x}, ${cDouble(model.min ?? -Infinity)}, ${cDouble(model.max ?? Infinity)})`
          : x;
      return dec(clamped, model.decimals);
    }
    case "choice": {
      const vals = model.values.map(asNumber);
      const pick = choicePick(model, b);
      return `((const double[]){${vals.map(cDouble).join(", ")}})[${pick}]`;
    }
    case "walk": {
      const k = st.walks++;
      const w = `s->walk[${k}]`;
      b.open(`if (s->walked[${k}]) {`);
      b.line(`${w} += sim_uniform(&s->rng, ${cDouble(model.stepMin)}, ${cDouble(model.stepMax)});`);
      // bounce off the bounds like the studio's walk
      if (model.min !== undefined)
        b.line(`if (${w} < ${cDouble(model.min)}) ${w} = ${cDouble(model.min)} + (${cDouble(model.min)} - ${w});`);
      if (model.max !== undefined)
        b.line(`if (${w} > ${cDouble(model.max)}) ${w} = ${cDouble(model.max)} - (${w} - ${cDouble(model.max)});`);
      b.reopen("} else {");
      b.line(`${w} = ${cDouble(model.start)};`).line(`s->walked[${k}] = 1;`);
      b.close();
      return dec(w, model.decimals);
    }
    case "counter": {
      const k = st.counters++;
      const x = `(${cDouble(model.start)} + ${cDouble(model.step ?? 1)} * (double)s->count[${k}]++)`;
      return model.wrap !== undefined && model.wrap > 0
        ? `(${cDouble(model.start)} + fmod(${x} - ${cDouble(model.start)}, ${cDouble(model.wrap)}))`
        : x;
    }
    default:
      return cDouble((lo + hi) / 2);
  }
}

function choicePick(model: Extract<SampleModel, { kind: "choice" }>, b: CBody): string {
  const weights = model.weights && model.weights.length === model.values.length ? model.weights : undefined;
  const pick = b.local("pick", "size_t pick;");
  b.line(
    `${pick} = sim_pick(&s->rng, ${weights ? `(const double[]){${weights.map(cDouble).join(", ")}}` : "NULL"}, ${model.values.length});`,
  );
  return pick;
}

function storeNumber(cs: CScalar, t: ScalarType, x: string, dst: string, b: CBody): void {
  const [lo, hi] = numberRange(t);
  const v = b.local("x", "double x;");
  b.line(`${v} = ${x};`);
  switch (cs.k) {
    case "bool":
      b.line(`${dst} = ${v} >= 0.5;`);
      return;
    case "int": {
      b.line(`${v} = sim_clamp(floor(${v} + 0.5), ${cDouble(lo)}, ${cDouble(hi)});`);
      b.line(`${dst} = (${cs.signed ? "" : "u"}int${cs.bits}_t)${v};`);
      return;
    }
    case "float":
      if (t.kind === "float" && (t.min !== undefined || t.max !== undefined))
        b.line(`${v} = sim_clamp(${v}, ${cDouble(lo)}, ${cDouble(hi)});`);
      b.line(`${dst} = ${cs.bits === 32 ? `(float)${v}` : v};`);
      return;
    case "fixed":
      // the member is the raw integer: the value's raw, kept inside the raw range
      b.line(`${v} = sim_clamp(${v}, ${cDouble(lo)}, ${cDouble(hi)});`);
      b.line(
        `${dst} = (${fixedCType(cs.f)})sim_clamp((double)${cs.f.macro}_RAW(${v}), ${cDouble(cs.f.rawMin)}, ${cDouble(cs.f.rawMax)});`,
      );
      return;
    case "time": {
      const bounded = t.kind === "timestamp" && (t.min !== undefined || t.max !== undefined);
      if (bounded) b.line(`${v} = sim_clamp(${v}, ${cDouble(lo)}, ${cDouble(hi)});`);
      const pow = cs.ticks ? 10 ** cs.ticks.decimals : 1;
      b.line(`${dst} = ${cs.ticks ? `(int64_t)floor(${v}${pow > 1 ? ` * ${cDouble(pow)}` : ""} + 0.5)` : v};`);
      return;
    }
    default:
      throw new Error("unreachable");
  }
}

function genScalar(
  cs: CScalar,
  t: ScalarType,
  model: SampleModel,
  dst: string,
  len: string | undefined,
  st: State,
  b: CBody,
): void {
  if (cs.k === "enum") {
    const names = cs.e.values;
    const resolve = (v: unknown) => names.find((e) => e.name === v || e.value === v) ?? names[0]!;
    if (model.kind === "constant") b.line(`${dst} = ${resolve(model.value).constant};`);
    else if (model.kind === "choice") {
      const pick = choicePick(model, b);
      b.line(
        `${dst} = ((const ${cs.e.typeName}[]){${model.values.map((v) => resolve(v).constant).join(", ")}})[${pick}];`,
      );
    } else {
      const pick = b.local("pick", "size_t pick;");
      b.line(`${pick} = sim_pick(&s->rng, NULL, ${names.length});`);
      b.line(`${dst} = ((const ${cs.e.typeName}[]){${names.map((e) => e.constant).join(", ")}})[${pick}];`);
    }
    return;
  }
  if (cs.k === "string") {
    const text = (v: unknown) => cString(fitUtf8(String(v ?? ""), cs.maxLength));
    if (model.kind === "template")
      b.line(`sim_template(&s->rng, ${cString(model.template)}, ${dst}, ${cs.maxLength + 1});`);
    else if (model.kind === "constant") b.line(`strcpy(${dst}, ${text(model.value)});`);
    else if (model.kind === "choice") {
      const pick = choicePick(model, b);
      b.line(`strcpy(${dst}, ((const char *const[]){${model.values.map(text).join(", ")}})[${pick}]);`);
    } else b.line(`sim_template(&s->rng, "{alpha:${Math.min(cs.maxLength, 8)}}", ${dst}, ${cs.maxLength + 1});`);
    return;
  }
  if (cs.k === "bytes") {
    const fit = (v: unknown) => {
      const arr = Array.isArray(v) ? v.map((x) => asNumber(x) & 255) : [];
      const cut = arr.slice(0, cs.maxLength);
      // fixed bytes are always exactly maxLength long
      while (cs.fixed && cut.length < cs.maxLength) cut.push(0);
      return cut;
    };
    const put = (arr: number[]) => {
      if (arr.length) b.line(`memcpy(${dst}, (const uint8_t[]){${arr.join(", ")}}, ${arr.length});`);
      if (len) b.line(`${len} = ${arr.length};`);
    };
    if (model.kind === "choice") {
      const pick = choicePick(model, b);
      model.values.forEach((v, i) => {
        if (i) b.reopen(`} else if (${pick} == ${i}) {`);
        else b.open(`if (${pick} == 0) {`);
        put(fit(v));
      });
      b.close();
      return;
    }
    put(fit(model.kind === "constant" ? model.value : (defaultModel(t) as { value: unknown }).value));
    return;
  }
  storeNumber(
    cs,
    t,
    numberExpr(model.kind === "template" || model.kind === "elements" ? defaultModel(t) : model, t, st, b),
    dst,
    b,
  );
}

function genField(f: CField, base: string, st: State, b: CBody): void {
  const src: Field = f.field;
  b.line(
    `/* ${cComment(`${src.name}${src.unit ? ` [${src.unit}]` : ""}`)}: simulated - replace with your sensor reading */`,
  );
  if (f.has) {
    // optional fields are present 80 % of the time, as in the studio's samples
    b.line(`${base}${f.has} = sim_u01(&s->rng) < 0.8;`);
    b.open(`if (${base}${f.has}) {`);
  }
  const n = f.node;
  const at = `${base}${f.member}`;
  if (n.k === "group") genStruct(n.struct, `${at}.`, st, b);
  else if (n.k === "array") {
    const model = src.sample;
    const each = model?.kind === "elements" ? model.each : [model ?? defaultModel(n.type)];
    const count = b.local("count", "size_t count;");
    const i = b.local(LOOP, `size_t ${LOOP};`);
    if (n.fixed) b.line(`${count} = ${n.maxCount};`);
    else {
      const lo = model?.kind === "elements" ? (model.minCount ?? 0) : 0;
      const hi = model?.kind === "elements" ? Math.min(model.maxCount ?? n.maxCount, n.maxCount) : n.maxCount;
      b.line(`${count} = (size_t)sim_int(&s->rng, ${cInt(Math.min(lo, hi))}, ${cInt(hi)});`);
      b.line(`${base}${f.count} = (uint16_t)${count};`);
    }
    b.open(`for (${i} = 0; ${i} < ${count}; ${i}++) {`);
    // one generator per listed element model; the last one repeats
    each.forEach((m, k) => {
      const last = k === each.length - 1;
      if (each.length === 1) b.open("{");
      else if (k === 0) b.open(`if (${i} == 0) {`);
      else b.reopen(last ? "} else {" : `} else if (${i} == ${k}) {`);
      genScalar(n.s, n.type, m, `${at}[${i}]`, f.len ? `${base}${f.len}[${i}]` : undefined, st, b);
    });
    b.close();
    b.close();
  } else genScalar(n.s, n.type, src.sample ?? defaultModel(n.type), at, f.len ? `${base}${f.len}` : undefined, st, b);
  if (f.has) b.close();
}

function genStruct(s: CStruct, base: string, st: State, b: CBody): void {
  for (const f of s.fields) genField(f, base, st, b);
}

export interface SimCode {
  header: string[];
  source: string[];
}

/** <prefix>_sim_t, <prefix>_sim_init() and <prefix>_sim_read() for the record's C type. */
export function simCode(layout: Layout, m: CModel): SimCode {
  const st: State = { walks: 0, counters: 0 };
  const b = new CBody();
  b.line("memset(rec, 0, sizeof *rec);");
  genStruct(m.root, "rec->", st, b);
  const T = `${m.prefix}_sim_t`;
  const header = [
    "typedef struct {",
    "  sim_rng rng;",
    `  double walk[${Math.max(1, st.walks)}];`,
    `  uint8_t walked[${Math.max(1, st.walks)}];`,
    `  uint32_t count[${Math.max(1, st.counters)}];`,
    `} ${T};`,
    "",
    `void ${m.prefix}_sim_init(${T} *s, uint32_t seed);`,
    `/* One simulated reading of every field of "${cComment(layout.name)}". */`,
    `void ${m.prefix}_sim_read(${T} *s, ${m.root.typeName} *rec);`,
  ];
  const source = [
    `void ${m.prefix}_sim_init(${T} *s, uint32_t seed) {`,
    "  memset(s, 0, sizeof *s);",
    "  sim_seed(&s->rng, seed);",
    "}",
    "",
    ...b.fn(`void ${m.prefix}_sim_read(${T} *s, ${m.root.typeName} *rec)`),
  ];
  return { header, source };
}
