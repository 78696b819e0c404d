// The designer's incremental sizes: one cached column of size contributions per (format, top-level field), summed
// into per-sample totals that are kept and patched (base + delta) when a field's column is replaced, so an edit to
// one field re-measures one column per format. Totals equal measureSizes() exactly (codecs/test/columns.test.ts).
import { recordAt, type SampleColumn, type Values } from "./sampleColumns.ts";
import { describeError, measureOne, type FormatSizes } from "./sizes.ts";
import { summarize } from "./stats.ts";
import { withoutStacks } from "./withoutStacks.ts";
import { codecFor, type FormatId } from "../formats/registry.ts";
import type { FieldSizer } from "../formats/sizer.ts";
import type { CompiledCodec } from "../formats/types.ts";
import type { Layout } from "../layout/schema.ts";
import type { TypedRecord } from "../layout/values.ts";

/** Contributions of one field's values in one format; −1 marks a value the format refuses. */
interface Contribution {
  sizes: Int32Array;
  /** samples [0, filled) are measured */
  filled: number;
}

interface Member {
  contribution: Contribution;
  values: Values;
}

/** One format's running per-sample totals over the columns in `members` (by column sig), for samples [0, upTo). */
interface Totals {
  env: string;
  members: Map<string, Member>;
  upTo: number;
  sum: Float64Array;
  /** refused contributions per sample */
  bad: Int32Array;
  present: Int32Array;
}

export interface ColumnSizes extends FormatSizes {
  /** the first `measured` samples are in: less than the sample count while refining */
  measured: number;
  /** field columns measured for this answer (the rest came from the cache) */
  remeasured: number;
}

/** The layout apart from its fields: a change there (a format option) can change every field's bytes. */
export function layoutEnv(layout: Layout): string {
  return JSON.stringify({ ...layout, fields: null });
}

/**
 * Everything of a layout that can decide a format's bytes for the samples of one generation (seed and count): the
 * layout without what only names things (keys, names, descriptions). The sample values follow from each field's
 * id, presence, type and sample model (sampleColumns.ts), which stay in.
 */
function bytesSignature(layout: Layout): string {
  // only a field's own key, name and description, and the layout's name and description: an enum value's name is
  // what a record holds, so it stays
  const naming = new Set(["key", "name", "description"]);
  return JSON.stringify(layout, function (this: unknown, k: string, v: unknown) {
    const holder = this as Record<string, unknown>;
    const isField = typeof holder.id === "string" && typeof holder.type === "object";
    return naming.has(k) && (isField || holder === layout) && k !== "" ? undefined : v;
  });
}

export class IncrementalSizes {
  private generation = "";
  private n = 0;
  /**
   * by format and layout env, then by column sig: the sig strings are the columns' own (kept per field object by
   * SampleColumns), so a lookup does not hash a fresh key string of the whole field for every format and column
   */
  private contributions = new Map<string, Map<string, Contribution>>();
  private readonly totals = new Map<FormatId, Totals>();
  /** formats with no size-only path: the sizes of the samples measured so far, with what decided them (bytesSignature) */
  private readonly encoded = new Map<FormatId, { sig: string; sizes: Uint32Array }>();

  /**
   * Sizes of samples [0, upTo) in `format`. `columns` are the layout's sample columns for (n, seed),
   * named by `generation`: a new generation (sample count or seed) drops everything cached.
   */
  measure(
    layout: Layout,
    columns: readonly SampleColumn[],
    n: number,
    generation: string,
    format: FormatId,
    upTo = n,
  ): ColumnSizes {
    if (generation !== this.generation) {
      this.generation = generation;
      this.n = n;
      this.contributions.clear();
      this.totals.clear();
      this.encoded.clear();
    }
    const end = Math.min(upTo, n);
    let codec: CompiledCodec;
    try {
      codec = codecFor(layout, format);
    } catch (e) {
      return {
        format,
        sizes: new Uint32Array(0),
        stats: summarize([]),
        errors: end,
        firstError: describeError(e),
        measured: end,
        remeasured: 0,
      };
    }
    const sizer = codec.sizer;
    if (!sizer) {
      // an uncompressed format whose size is no sum of per-field parts (FlatBuffers: alignment padding
      // and shared vtables) has no size-only path: every sample is encoded, as measureSizes does
      return this.encodeAll(layout, columns, format, end);
    }
    const env = layoutEnv(layout);
    const slot = new Map(sizer.keys.map((k, i) => [k, i]));
    const members = new Map<string, Member>();
    const scope = `${format}\u0000${env}`;
    let cached = this.contributions.get(scope);
    if (!cached) this.contributions.set(scope, (cached = new Map()));
    let remeasured = 0;
    for (const col of columns) {
      let c = cached.get(col.sig);
      if (!c) cached.set(col.sig, (c = { sizes: new Int32Array(this.n), filled: 0 }));
      if (c.filled < end) {
        withoutStacks(() => fill(sizer, slot.get(col.field.key)!, col, c, end));
        remeasured++;
      }
      members.set(col.sig, { contribution: c, values: col.values });
    }
    const t = this.sync(format, env, members, end);
    return { ...result(format, sizer, codec, t, columns, end), remeasured };
  }

  /**
   * A format with no size-only path: every sample encoded, as measureSizes does. Names never reach such a format's
   * bytes, so after an edit of keys, names or descriptions only (typing in the inspector) the sizes measured so far
   * are kept and only samples not measured yet are encoded; a 2 000-field layout took 7 s per keystroke to its final
   * bars. A refusal names a field, which a rename would make wrong: a result with one is not kept.
   */
  private encodeAll(layout: Layout, columns: readonly SampleColumn[], format: FormatId, end: number): ColumnSizes {
    const sig = bytesSignature(layout);
    const kept = this.encoded.get(format);
    const from = kept?.sig === sig ? Math.min(kept.sizes.length, end) : 0;
    const records = Array.from({ length: end - from }, (_, i) => recordAt(columns, from + i));
    const fresh = measureOne(layout, records, format);
    if (fresh.errors > 0) {
      this.encoded.delete(format);
      if (from === 0) return { ...fresh, measured: end, remeasured: columns.length };
      // the refusal's sample number counts from the first sample, as a full measurement gives it
      const full = measureOne(
        layout,
        Array.from({ length: end }, (_, i) => recordAt(columns, i)),
        format,
      );
      return { ...full, measured: end, remeasured: columns.length };
    }
    const sizes = new Uint32Array(end);
    if (from > 0) sizes.set(kept!.sizes.subarray(0, from));
    sizes.set(fresh.sizes, from);
    if (!kept || kept.sig !== sig || end > kept.sizes.length) this.encoded.set(format, { sig, sizes });
    return {
      format,
      sizes,
      stats: summarize(sizes),
      errors: 0,
      measured: end,
      remeasured: from === end ? 0 : columns.length,
    };
  }

  /** Forgets contributions no format's current columns use (call once per request, after every format). */
  prune(): void {
    const used = new Map<string, ReadonlyMap<string, Member>>();
    for (const [format, t] of this.totals) used.set(`${format}\u0000${t.env}`, t.members);
    for (const [scope, cached] of this.contributions) {
      const members = used.get(scope);
      if (!members) this.contributions.delete(scope);
      else for (const sig of cached.keys()) if (!members.has(sig)) cached.delete(sig);
    }
  }

  private sync(format: FormatId, env: string, members: Map<string, Member>, upTo: number): Totals {
    let t = this.totals.get(format);
    const removed: Member[] = [];
    const added: Member[] = [];
    if (t && t.env === env && upTo >= t.upTo) {
      for (const [k, m] of t.members) if (!members.has(k)) removed.push(m);
      for (const [k, m] of members) if (!t.members.has(k)) added.push(m);
    }
    // a format option, a shorter prefix, or more changed columns than kept: start from zero
    if (!t || t.env !== env || upTo < t.upTo || removed.length + added.length >= members.size) {
      t = {
        env,
        members: new Map(),
        upTo: 0,
        sum: new Float64Array(this.n),
        bad: new Int32Array(this.n),
        present: new Int32Array(this.n),
      };
      removed.length = 0;
      added.length = 0;
      added.push(...members.values());
      this.totals.set(format, t);
    }
    // base + delta over the samples already summed, then every column over the samples that are new
    for (const m of removed) apply(t, m, -1, 0, t.upTo);
    for (const m of added) apply(t, m, 1, 0, t.upTo);
    if (upTo > t.upTo) for (const m of members.values()) apply(t, m, 1, t.upTo, upTo);
    t.members = members;
    t.upTo = upTo;
    return t;
  }
}

function fill(sizer: FieldSizer, index: number, col: SampleColumn, c: Contribution, end: number): void {
  if (sizer.column) {
    sizer.column(col.values, index, c.filled, end, c.sizes);
    c.filled = end;
    return;
  }
  // the sizer reads only its own field's key, so one reused holder stands in for the record
  const holder: TypedRecord = {};
  const key = col.field.key;
  const values = col.values;
  const out = c.sizes;
  for (let i = c.filled; i < end; i++) {
    const v = values[i];
    if (v === undefined) delete holder[key];
    else holder[key] = v;
    try {
      out[i] = sizer.field(holder, index);
    } catch {
      // as measureSizes: one unrepresentable sample must not hide the sizes of the others
      out[i] = -1;
    }
  }
  c.filled = end;
}

function apply(t: Totals, m: Member, sign: 1 | -1, from: number, to: number): void {
  const sizes = m.contribution.sizes;
  const values = m.values;
  const { sum, bad, present } = t;
  for (let i = from; i < to; i++) {
    const s = sizes[i]!;
    if (s < 0) bad[i]! += sign;
    else sum[i]! += sign * s;
    if (values[i] !== undefined) present[i]! += sign;
  }
}

function result(
  format: FormatId,
  sizer: FieldSizer,
  codec: CompiledCodec,
  t: Totals,
  columns: readonly SampleColumn[],
  end: number,
): FormatSizes & { measured: number } {
  const sizes = new Uint32Array(end);
  let ok = 0;
  let firstErrorSample = -1;
  for (let i = 0; i < end; i++) {
    if (t.bad[i]! > 0) {
      if (firstErrorSample < 0) firstErrorSample = i;
      continue;
    }
    sizes[ok++] = sizer.total(t.sum[i]!, t.present[i]!);
  }
  const kept = ok === end ? sizes : sizes.slice(0, ok);
  const out: FormatSizes & { measured: number } = {
    format,
    sizes: kept,
    stats: summarize(kept),
    errors: end - ok,
    measured: end,
  };
  if (firstErrorSample >= 0) {
    // the message encode() gives for that sample, which names the first refused field in wire order
    out.firstErrorSample = firstErrorSample;
    let encoded = false;
    try {
      codec.encode(recordAt(columns, firstErrorSample));
      encoded = true;
    } catch (e) {
      out.firstError = describeError(e);
    }
    // the size-only path and encode() disagree: a bug, not bad input
    if (encoded) throw new Error(`${format}: the size-only path refused sample ${firstErrorSample}, which encodes`);
  }
  return out;
}
