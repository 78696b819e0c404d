// The fit-to-platform advisor: measures every candidate change, ranks them by bytes saved per bit of declared
// precision given up, and chains the best ones until every sample fits the target.
import { type Field, type FormatId, generateSamples, type Layout, type TypedRecord } from "#codecs";
import type { SizeStats } from "#codecs/analysis";
import { fieldCandidates, type FieldCandidates } from "./candidates.ts";
import { declaredBitsLost } from "./declared.ts";
import { describeTransform } from "./describe.ts";
import { meanBytes, roundTrip, sizeStats } from "./measure.ts";
import { statusMessage } from "./status.ts";
import { applyTransform, recordMapper, restoreValue, valueError } from "./transforms.ts";
import { valueAt } from "./tree.ts";
import {
  AdvisorError,
  type AdvisorLimits,
  type AdvisorPlan,
  type AdvisorResult,
  type PlanStep,
  type PrecisionLoss,
  type Suggestion,
  type Transform,
} from "./types.ts";
import { lossText } from "./units.ts";

export interface AdviseProgress {
  phase: "sampling" | "measuring" | "planning" | "checking";
  done: number;
  total: number;
}

export interface AdviseOptions {
  targetBytes: number;
  /** default bit-packed: the format that can reach the smallest limits */
  format?: FormatId;
  /** samples drawn from the layout when `records` is not given (default 1000, seed 1) */
  samples?: number;
  seed?: number;
  records?: readonly TypedRecord[];
  /** how many samples rank the candidates (default 500); the plan is always checked against all of them */
  rankSamples?: number;
  /** fields the user locked, and the coarsest step each may take */
  limits?: AdvisorLimits;
  onProgress?: (p: AdviseProgress) => void;
}

/** Information changes below this many bits are rounding noise of the entropy sum, not loss. */
const LOSSLESS_BITS = 1e-6;
const MIN_SAVING = 1e-6;

interface Option {
  t: Transform;
  fc: FieldCandidates;
  saved: number;
  lost: number;
}

/** Lossless first (most saved first), then most bytes per bit lost, then most saved. */
function better(dSaved: number, dLost: number, best: { dSaved: number; dLost: number } | null): boolean {
  if (!best) return true;
  const free = dLost <= LOSSLESS_BITS;
  const bestFree = best.dLost <= LOSSLESS_BITS;
  if (free !== bestFree) return free;
  if (free) return dSaved > best.dSaved;
  const r = dSaved / dLost;
  const br = best.dSaved / best.dLost;
  return r !== br ? r > br : dSaved > best.dSaved;
}

/** Applies transforms one after the other to the layout and its records; `each` sees every intermediate state. */
function compose(
  layout: Layout,
  transforms: readonly Transform[],
  records: readonly TypedRecord[],
  each?: (l: Layout, recs: readonly TypedRecord[], i: number) => void,
) {
  let l = layout;
  let recs = records;
  transforms.forEach((t, i) => {
    const map = recordMapper(l, t);
    l = applyTransform(l, t);
    recs = recs.map(map);
    each?.(l, recs, i);
  });
  return { layout: l, records: recs };
}

function boundOf(t: Transform, field: Field): number {
  if (t.kind === "fixed-point") return t.step / 2;
  if (t.kind === "timestamp") {
    const ft = field.type;
    const current = ft.kind === "timestamp" && ft.encoding === "epoch" ? ft.resolution : undefined;
    return current !== undefined && t.resolution <= current ? 0 : t.resolution / 2;
  }
  return 0;
}

export function adviseFit(layout: Layout, opts: AdviseOptions): AdvisorResult {
  const format = opts.format ?? "bitpacked";
  const target = opts.targetBytes;
  if (!Number.isInteger(target) || target < 1)
    throw new AdvisorError(`the target must be a whole number of bytes ≥ 1, got ${target}`);
  const seed = opts.seed ?? 1;
  const progress = opts.onProgress ?? (() => {});
  progress({ phase: "sampling", done: 0, total: 1 });
  const records = opts.records ?? generateSamples(layout, opts.samples ?? 1000, seed);
  if (!records.length) throw new AdvisorError("no samples to measure");
  const base = sizeStats(layout, records, format);
  if (base.stats.count === 0)
    throw new AdvisorError(`the layout cannot be encoded as ${format}: ${base.firstError ?? "every sample failed"}`);
  const rank = records.slice(0, Math.max(1, Math.min(records.length, opts.rankSamples ?? 500)));

  const fcs = fieldCandidates(layout, records, opts.limits);
  const byId = new Map(fcs.map((fc) => [fc.field.id, fc]));
  const baseMean = meanBytes(layout, rank, format) ?? base.stats.mean;

  // ---- every option on its own, on the ranking samples ------------------------------------------
  const options: Option[] = [];
  const total = fcs.reduce((a, fc) => a + fc.options.length, 0);
  let done = 0;
  for (const fc of fcs) {
    for (const t of fc.options) {
      progress({ phase: "measuring", done: done++, total });
      let alone;
      try {
        alone = compose(layout, [t], rank);
      } catch {
        continue;
      }
      const mean = meanBytes(alone.layout, alone.records, format);
      if (mean === undefined) continue;
      options.push({ t, fc, saved: baseMean - mean, lost: declaredBitsLost(fc.field, t) });
    }
  }

  // ---- chain the best marginal change until every sample fits ------------------------------------
  /** every sample fits after these changes: the ranking samples first (cheap), then all of them */
  const fitsWith = (ts: readonly Transform[]): boolean => {
    const onRank = compose(layout, ts, rank);
    const m = sizeStats(onRank.layout, onRank.records, format);
    if (m.failed !== 0 || m.stats.max > target) return false;
    progress({ phase: "checking", done: 0, total: 1 });
    const all = compose(layout, ts, records);
    const full = sizeStats(all.layout, all.records, format);
    return full.failed === 0 && full.stats.max <= target;
  };
  const chain = (usable: readonly Option[]) => {
    const chosen = new Map<string, Option>();
    const picks: string[] = [];
    const planned = () => picks.map((id) => chosen.get(id)!.t);
    let fits = base.stats.max <= target && base.failed === 0;
    for (let iter = 0; !fits && iter < 500; iter++) {
      let best: (Option & { dSaved: number; dLost: number }) | null = null;
      for (const o of usable) {
        const cur = chosen.get(o.fc.field.id);
        const dSaved = o.saved - (cur?.saved ?? 0);
        if (dSaved <= MIN_SAVING) continue;
        const dLost = Math.max(0, o.lost - (cur?.lost ?? 0));
        if (better(dSaved, dLost, best)) best = { ...o, dSaved, dLost };
      }
      if (!best) break;
      chosen.set(best.fc.field.id, best);
      if (!picks.includes(best.fc.field.id)) picks.push(best.fc.field.id);
      progress({ phase: "planning", done: chosen.size, total: fcs.length });
      fits = fitsWith(planned());
    }
    if (fits) {
      // the best ratio can overshoot (a step coarser than the target needs): hand back what is not needed,
      // the costliest field first, keeping each field at the finest step with which every sample still fits
      const lossy = picks
        .filter((id) => chosen.get(id)!.lost > LOSSLESS_BITS)
        .sort((a, b) => chosen.get(b)!.lost - chosen.get(a)!.lost);
      for (const id of lossy) {
        const cur = chosen.get(id)!;
        const finer = usable.filter((o) => o.fc.field.id === id && o.lost < cur.lost).sort((a, b) => a.lost - b.lost);
        for (const o of [null, ...finer]) {
          if (o) chosen.set(id, o);
          else chosen.delete(id);
          const ts = picks.filter((p) => chosen.has(p)).map((p) => chosen.get(p)!.t);
          if (fitsWith(ts)) break;
          chosen.set(id, cur);
          if (o === finer[finer.length - 1]) break;
        }
      }
      for (let i = picks.length - 1; i >= 0; i--) if (!chosen.has(picks[i]!)) picks.splice(i, 1);
    }
    return { chosen, transforms: planned(), fits };
  };
  let chained = chain(options);
  let closest: SizeStats | null = null;
  const partial = !chained.fits;
  if (partial) {
    // out of reach: give up no precision for a target the plan would miss anyway; say how close everything gets
    const all = compose(layout, chained.transforms, records);
    closest = sizeStats(all.layout, all.records, format).stats;
    chained = chain(options.filter((o) => o.lost <= LOSSLESS_BITS));
  }
  const chosen = chained.chosen;
  const planTransforms = chained.transforms;

  // ---- the plan over every sample: sizes after each step, and what it gives up --------------------
  const steps: PlanStep[] = [];
  const planAll = compose(layout, planTransforms, records, (l, recs, i) => {
    steps.push({ suggestionId: suggestionId(planTransforms[i]!), sizes: sizeStats(l, recs, format).stats });
  });
  const planSizes = sizeStats(planAll.layout, planAll.records, format);
  const planDecoded = roundTrip(planAll.layout, planAll.records, format);

  const constants = new Map(
    fcs.filter((fc) => fc.observed[0] !== undefined).map((fc) => [fc.field.id, fc.observed[0]!]),
  );
  const status = statusMessage(layout, planTransforms, constants);
  const statusBack = status ? roundTrip(status.layout, [status.record], format)[0] : undefined;

  const measureLoss = (
    t: Transform,
    fc: FieldCandidates,
    decoded: readonly (TypedRecord | undefined)[],
  ): PrecisionLoss => {
    let measured = 0;
    // a moved value comes back from the status message, the same for every reading
    const moved =
      t.kind === "move-to-status"
        ? statusBack
          ? valueAt(statusBack, [status!.layout.fields.find((f) => f.id === fc.field.id)?.key ?? fc.field.key])
          : fc.observed[0]
        : undefined;
    for (let i = 0; i < records.length; i++) {
      const d = decoded[i];
      if (!d) {
        measured = Infinity;
        continue;
      }
      measured = Math.max(measured, valueError(fc.observed[i], restoreValue(t, valueAt(d, fc.keys), moved)));
    }
    const bound = boundOf(t, fc.field);
    const measuredText = Number.isFinite(measured) ? lossText(fc.field, measured) : "mismatch";
    return {
      field: fc.keys.join("."),
      unit: fc.field.unit ?? "",
      bound,
      measured,
      text: lossText(fc.field, bound),
      measuredText,
    };
  };
  const losses = planTransforms.map((t) => measureLoss(t, byId.get(t.fieldId)!, planDecoded));

  const plan: AdvisorPlan = {
    steps,
    transforms: planTransforms,
    layout: planAll.layout,
    sizes: planSizes.stats,
    fits: planSizes.failed === 0 && planSizes.stats.count > 0 && planSizes.stats.max <= target,
    partial,
    closest,
    losses,
    failed: planSizes.failed,
  };

  // ---- one suggestion per field: its plan change, else its best change on its own ----------------
  const suggestions: Suggestion[] = [];
  for (const fc of fcs) {
    let pick: Option | undefined = chosen.get(fc.field.id);
    if (!pick)
      for (const o of options)
        if (
          o.fc === fc &&
          o.saved > MIN_SAVING &&
          (!pick || better(o.saved, o.lost, { dSaved: pick.saved, dLost: pick.lost }))
        )
          pick = o;
    if (!pick) continue;
    const alone = compose(layout, [pick.t], records);
    const sizes = sizeStats(alone.layout, alone.records, format).stats;
    // a field's error does not depend on the other fields' changes: the plan's measurement holds for it alone
    const inPlan = planTransforms.indexOf(pick.t);
    const loss =
      inPlan >= 0 ? losses[inPlan]! : measureLoss(pick.t, fc, roundTrip(alone.layout, alone.records, format));
    suggestions.push({
      id: suggestionId(pick.t),
      transform: pick.t,
      fieldId: fc.field.id,
      field: fc.keys.join("."),
      ...describeTransform(layout, pick.t, fc.observed),
      bytesSaved: pick.saved,
      infoLostBits: pick.lost,
      bytesPerBit: pick.lost <= LOSSLESS_BITS ? null : pick.saved / pick.lost,
      loss,
      sizes,
      inPlan: inPlan >= 0,
    });
  }
  suggestions.sort((a, b) =>
    better(a.bytesSaved, a.infoLostBits, { dSaved: b.bytesSaved, dLost: b.infoLostBits })
      ? -1
      : better(b.bytesSaved, b.infoLostBits, { dSaved: a.bytesSaved, dLost: a.infoLostBits })
        ? 1
        : 0,
  );

  return {
    format,
    targetBytes: target,
    sampleCount: records.length,
    seed,
    base: base.stats,
    suggestions,
    plan,
    status: status ? { layout: status.layout, sizes: sizeStats(status.layout, [status.record], format).stats } : null,
    bitpacked: format === "bitpacked" ? null : sizeStats(layout, records, "bitpacked").stats,
  };
}

export function suggestionId(t: Transform): string {
  switch (t.kind) {
    case "fixed-point":
      return `${t.kind}:${t.fieldId}:${t.step}`;
    case "timestamp":
      return `${t.kind}:${t.fieldId}:${t.resolution}`;
    default:
      return `${t.kind}:${t.fieldId}`;
  }
}

/** Several changes as one new layout (the designer records it as one undo step). */
export function applyAll(layout: Layout, transforms: readonly Transform[]): Layout {
  return transforms.reduce((l, t) => applyTransform(l, t), layout);
}
