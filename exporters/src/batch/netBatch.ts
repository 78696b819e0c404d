// Network-server decoders of a batch (issue #27): the bit-packed or Struct decoder of the batch's wire layout
// (net/runtime.ts, unchanged) followed by a small ES5 step that turns the wire record into the readings:
// columns read across, differences summed from the first reading (keyframes whole), times from the base
// plus offsets. Limits and units are the codec's own plan (codecs/src/batch/plan.ts); the checks are
// the TypeScript decoder's, so a message it refuses is refused here too. data is { once, readings }.
import type { Layout, ScalarType } from "#codecs";
import { type BatchPlan, resolutionDecimals } from "#codecs/plans";
import { decoderProgram, fixedConversion } from "../net/program.ts";
import { decoderSource, type NetworkServer } from "../networkDecoders.ts";

type Obj = { [key: string]: unknown };

/** How units become the leaf's typed value: ÷ 10^d (pw) for a decimal step, else × step (st). */
function unitsValue(t: ScalarType, step: number): Obj {
  const d = resolutionDecimals(step);
  const scale = d > 0 ? { pw: 10 ** d } : { st: step };
  switch (t.kind) {
    case "int":
      return { k: "int" };
    case "fixed":
      return { k: "fixed", x: fixedConversion(t) };
    case "float":
      return { k: t.bits === 32 ? "f32" : "f64", ...scale };
    default:
      return { k: "epoch", ...scale };
  }
}

/** The batch part of the program: what each leaf is on the wire and where it goes in a reading. */
export function batchProgram(layout: Layout, plan: BatchPlan): Obj {
  const leaves = plan.leaves.map((lp) => {
    const at = { p: lp.leaf.path, nm: lp.leaf.name };
    if (lp.kind === "column") return { ...at, t: "c", k: lp.key };
    if (lp.kind === "time") {
      const d = resolutionDecimals(lp.resolution);
      const tt =
        lp.leaf.type.kind === "timestamp" && lp.leaf.type.encoding === "text" ? lp.leaf.type.textFormat : undefined;
      return {
        ...at,
        t: "t",
        b: lp.baseKey,
        o: lp.offsetKey,
        mo: lp.maxOffset,
        ...(d > 0 ? { pw: 10 ** d } : { st: lp.resolution }),
        res: lp.resolution,
        ...(tt !== undefined ? { tf: tt } : {}),
      };
    }
    return {
      ...at,
      t: "d",
      f: lp.firstKey,
      d: lp.nextKey,
      kf: lp.keyframeKey,
      md: lp.maxDelta,
      lo: lp.units.lo,
      hi: lp.units.hi,
      v: unitsValue(lp.leaf.type, lp.units.step),
    };
  });
  return {
    n: plan.maxReadings,
    K: plan.keyframeEvery,
    ...(plan.countKey ? { ck: plan.countKey } : {}),
    once: plan.once.map((f) => f.key),
    ls: leaves,
  };
}

/** The ES5 step from the decoded wire record to { once, readings } (runs after the format's runtime). */
export const RUNTIME_BATCH = String.raw`
function bnum(v) { if (typeof v === "object") { var n = i64num(v); if (n === undefined) fail("integer beyond 2^53"); return n; } return v; }
function bset(o, path, v) {
  for (var i = 0; i < path.length - 1; i++) { if (o[path[i]] === undefined) o[path[i]] = typeof path[i + 1] === "number" ? [] : {}; o = o[path[i]]; }
  o[path[path.length - 1]] = v;
}
function blen(rec, k) { var a = rec[k]; return a ? a.length : 0; }
function bcount(l, rec) { return l.t === "c" ? blen(rec, l.k) : l.t === "t" ? 1 + blen(rec, l.o) : 1 + blen(rec, l.d) + blen(rec, l.kf); }
function bscale(x, u) { return x.pw ? u / x.pw : u * x.st; }
function bvalue(x, u) {
  switch (x.k) {
    case "int": return u;
    case "fixed": return fixedValue(x.x, u);
    case "f32": return Math.fround(bscale(x, u));
    default: return bscale(x, u);
  }
}
function bdelta(B, l, rec, n, put) {
  var d = rec[l.d] || [], kf = rec[l.kf] || [], nd = 0, nk = 0, u = bnum(rec[l.f]), i, x;
  var keys = B.K > 0 && n > 1 ? Math.floor((n - 1) / B.K) : 0;
  if (kf.length !== keys) fail(l.nm + ": " + kf.length + " keyframes for " + n + " readings");
  for (i = 0; i < n; i++) {
    if (i > 0 && B.K > 0 && i % B.K === 0) u = bnum(kf[nk++]);
    else if (i > 0) {
      x = bnum(d[nd++]);
      if (!(Math.abs(x) <= l.md)) fail(l.nm + ": the difference " + x + " to reading " + (i + 1) + " is past its width");
      u += x;
    }
    if (!(u >= l.lo && u <= l.hi)) fail(l.nm + ": reading " + (i + 1) + " comes out at " + u + " units, outside " + l.lo + ".." + l.hi);
    put(i, bvalue(l.v, u));
  }
}
// a text time (the Struct wire keeps it as text) in ticks of the plan's resolution, exact in integers
function bticks(l, text) {
  var tk = timeTokens(l.tf), i = 0, v = { YYYY: 1970, YY: 70, MM: 1, DD: 1, hh: 0, mm: 0, ss: 0 }, y = 1970, fr = 0, fw = 0, k, t, d;
  for (k = 0; k < tk.length; k++) {
    t = tk[k];
    if (t.k === "lit") { i += t.t.length; continue; }
    d = +text.substr(i, t.w); i += t.w;
    if (t.k === "frac") { fr = d; fw = t.w; } else v[t.k] = d;
    if (t.k === "YYYY") y = d; else if (t.k === "YY") y = 2000 + d;
  }
  var m = v.MM, yy = m <= 2 ? y - 1 : y, era = Math.floor(yy / 400), yoe = yy - era * 400;
  var doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + Math.floor((153 * ((m + 9) % 12) + 2) / 5) + v.DD - 1;
  var whole = (era * 146097 + doe - 719468) * 86400 + v.hh * 3600 + v.mm * 60 + v.ss;
  return l.pw ? whole * l.pw + Math.round((fr * l.pw) / Math.pow(10, fw)) : Math.round((whole + fr / Math.pow(10, fw)) / l.st);
}
function btime(l, rec, n, put) {
  var base = rec[l.b], t0, off, i, v;
  if (typeof base === "string") { t0 = bticks(l, base); put(0, base); }
  else {
    if (typeof base !== "number") fail(l.nm + ": the first reading's time is missing");
    t0 = l.pw ? Math.round(base * l.pw) : Math.round(base / l.st);
    put(0, l.tf !== undefined ? formatTime(base, l.tf, l.res) : base);
  }
  for (i = 1; i < n; i++) {
    off = bnum(rec[l.o][i - 1]);
    if (!(off >= 0 && off <= l.mo)) fail(l.nm + ": reading " + (i + 1) + "'s offset " + off + " is outside 0.." + l.mo);
    v = bscale(l, t0 + off);
    put(i, l.tf !== undefined ? formatTime(v, l.tf, l.res) : v);
  }
}
function batch(rec) {
  var B = P.B, once = {}, readings = [], n, i, j, l, m;
  for (i = 0; i < B.once.length; i++) if (rec[B.once[i]] !== undefined) once[B.once[i]] = rec[B.once[i]];
  n = B.ck !== undefined ? bnum(rec[B.ck]) : B.ls.length ? bcount(B.ls[0], rec) : 0;
  if (!(n >= 1)) fail("the message holds no reading");
  if (n > B.n) fail(n + " readings; a message of this batch holds at most " + B.n);
  for (j = 0; j < B.ls.length; j++) { m = bcount(B.ls[j], rec); if (m !== n) fail("the message says " + n + " readings, but " + B.ls[j].nm + " has " + m); }
  for (i = 0; i < n; i++) readings.push({});
  for (j = 0; j < B.ls.length; j++) {
    l = B.ls[j];
    var put = (function (p) { return function (k, v) { bset(readings[k], p, v); }; })(l.p);
    if (l.t === "c") for (i = 0; i < n; i++) put(i, rec[l.k][i]);
    else if (l.t === "t") btime(l, rec, n, put);
    else bdelta(B, l, rec, n, put);
  }
  var out = [];
  for (i = 0; i < n; i++) out.push(output(P.rfs, readings[i]));
  return { once: output(P.ofs, once), readings: out };
}
`;

/** The wire formats batch messages have network decoders for. */
export const BATCH_DECODER_FORMATS = ["bitpacked", "struct"] as const;
export type BatchDecoderFormat = (typeof BATCH_DECODER_FORMATS)[number];

/**
 * The decoder of one batch form's bytes in one format for one server: `layout` is the user's, `plan` the
 * form's, `reading` / `once` the layouts of a reading and of the fields sent once (their text forms).
 */
export function batchDecoderSource(
  layout: Layout,
  plan: BatchPlan,
  parts: { reading: Layout; once: Layout },
  format: BatchDecoderFormat,
  server: NetworkServer,
): string {
  const wire = decoderProgram(plan.wireLayout, format) as { fs: Obj[] } & Obj;
  // bit-packed: the time base is summed with offsets, so it is decoded as epoch seconds and formatted per
  // reading later (Struct carries a text time as its text, which the runtime turns into ticks)
  const bases = new Set(plan.leaves.flatMap((lp) => (lp.kind === "time" ? [lp.baseKey] : [])));
  const fs =
    format === "bitpacked"
      ? wire.fs.map((f) => (bases.has(f.k as string) ? { ...f, s: { k: "epoch" }, r: 0 } : f))
      : wire.fs;
  const program = {
    ...wire,
    fs,
    B: batchProgram(layout, plan),
    rfs: (decoderProgram(parts.reading, "bitpacked") as { fs: unknown }).fs,
    ofs: (decoderProgram(parts.once, "bitpacked") as { fs: unknown }).fs,
  };
  return decoderSource(layout, format, server, {
    program,
    extra: RUNTIME_BATCH,
    result: "batch(rec)",
    what: [
      `${layout.package}.${layout.message}, many readings per message (${plan.form} form, up to ${plan.maxReadings}),`,
      `in the ${format === "bitpacked" ? "bit-packed" : "Struct"} format.`,
    ],
    data: "{ once: the fields sent once, readings: [each reading, oldest first] }",
  });
}
