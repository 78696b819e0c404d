// The fit-to-platform advisor: measures every candidate change, ranks them by bytes saved per bit of declared
// precision given up, and chains the best ones until every sample fits the target.
import { CODECS, type Field, FORMAT_IDS, type FormatId, generateSamples, type Layout, type TypedRecord } from "#codecs";
import type { SizeStats } from "#codecs/analysis";
import { fieldCandidates, type FieldCandidates } from "./candidates.ts";
import { declaredBitsLost, declaredStep, droppedBits } from "./declared.ts";
import { describeTransform } from "./describe.ts";
import { meanBytes, roundTrip, sizeStats } from "./measure.ts";
import { statusMessage } from "./status.ts";
import { applyTransform, recordMapper, restoreValue, valueError } from "./transforms.ts";
import { findField, valueAt } from "./tree.ts";
import {
  AdvisorError,
  type AdvisorLimits,
  type AdvisorPlan,
  type BudgetPlan,
  type DeployedLayout,
  type AdvisorResult,
  type PlanStep,
  type PrecisionLoss,
  type Suggestion,
  type Transform,
} from "./types.ts";
import { lossText } from "./units.ts";
import { wireVerdict } from "./wire.ts";

export interface AdviseProgress {
  phase: "sampling" | "measuring" | "planning" | "checking" | "describing";
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
  /** the version marked deployed, when it is not the current layout: the plan is checked against it as well */
  deployed?: DeployedLayout;
  onProgress?: (p: AdviseProgress) => void;
}

/** Information changes below this many bits are rounding noise of the entropy sum, not loss. */
const LOSSLESS_BITS = 1e-6;
const MIN_SAVING = 1e-6;
/** bytes of slack on the estimated mean before a full check is skipped: the estimate is a sum of separate savings */
const SKIP_MARGIN = 1;

interface Option {
  t: Transform;
  fc: FieldCandidates;
  saved: number;
  lost: number;
}

/**
 * A field takes one change of its value and, independently, one of its key: the plan may round a JSON field and
 * shorten its key, but never rounds it twice.
 */
function slotOf(t: Transform): string {
  return t.kind === "short-key" ? `${t.fieldId}#key` : t.fieldId;
}

/** Changes that leave data out: the field removed, or an array cut shorter than the samples fill it. */
function dropsData(t: Transform, fc: FieldCandidates): boolean {
  return fc.drops.includes(t);
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
    // a text time ("hhmmss.s") keeps its tenths at 0.1 s: nothing is rounded at the resolution it declares
    const current = declaredStep(field);
    return current !== undefined && t.resolution <= current * (1 + 1e-9) ? 0 : t.resolution / 2;
  }
  return 0;
}

/**
 * The advice in two stages: `result` without the byte-budget plan (its `plan.budgetPending` says whether one is
 * still to be worked out), and `budget()`, which works it out. The budget chain re-plans with removals among the
 * levers and costs several times the rest (the paper preset in CBOR at 30 B: ~12 s of ~16 s), so the page shows
 * the advice first and the budget when it is ready.
 */
export function adviseStaged(
  layout: Layout,
  opts: AdviseOptions,
): { result: AdvisorResult; budget: () => BudgetPlan | null } {
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

  const fcs = fieldCandidates(layout, records, opts.limits, { keys: CODECS[format].info.selfDescribing });
  const byId = new Map(fcs.map((fc) => [fc.field.id, fc]));
  const baseMean = meanBytes(layout, rank, format) ?? base.stats.mean;

  // ---- every option on its own, on the ranking samples ------------------------------------------
  const options: Option[] = [];
  const dropOptions: Option[] = [];
  const total = fcs.reduce((a, fc) => a + fc.options.length + fc.drops.length, 0);
  let done = 0;
  for (const fc of fcs) {
    for (const t of [...fc.options, ...fc.drops]) {
      progress({ phase: "measuring", done: done++, total });
      let alone;
      try {
        alone = compose(layout, [t], rank);
      } catch {
        continue;
      }
      const mean = meanBytes(alone.layout, alone.records, format);
      if (mean === undefined) continue;
      const saved = baseMean - mean;
      if (dropsData(t, fc))
        dropOptions.push({ t, fc, saved, lost: droppedBits(layout, alone.layout, fc.field.id, saved) });
      else options.push({ t, fc, saved, lost: declaredBitsLost(fc.field, t) });
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
  const compressed = CODECS[format].info.compressed;
  /** data left out goes last: a key renamed or a step changed first still finds its field */
  const ordered = (os: readonly Option[]): Transform[] => [
    ...os.filter((o) => !dropsData(o.t, o.fc)).map((o) => o.t),
    ...os.filter((o) => dropsData(o.t, o.fc)).map((o) => o.t),
  ];
  const chain = (usable: readonly Option[]) => {
    const chosen = new Map<string, Option>();
    const picks: string[] = [];
    const planned = () => ordered(picks.map((id) => chosen.get(id)!));
    let fits = base.stats.max <= target && base.failed === 0;
    for (let iter = 0; !fits && iter < 500; iter++) {
      let best: (Option & { dSaved: number; dLost: number }) | null = null;
      for (const o of usable) {
        const cur = chosen.get(slotOf(o.t));
        const dSaved = o.saved - (cur?.saved ?? 0);
        if (dSaved <= MIN_SAVING) continue;
        const dLost = Math.max(0, o.lost - (cur?.lost ?? 0));
        if (better(dSaved, dLost, best)) best = { ...o, dSaved, dLost };
      }
      if (!best) break;
      chosen.set(slotOf(best.t), best);
      if (!picks.includes(slotOf(best.t))) picks.push(slotOf(best.t));
      progress({ phase: "planning", done: chosen.size, total: fcs.length });
      // the largest message is never under the mean: while the savings so far cannot bring the mean under the
      // target, encoding every sample again is not needed (savings add up in formats that do not compress)
      const mean = baseMean - [...chosen.values()].reduce((sum, o) => sum + o.saved, 0);
      if (!compressed && mean > target + SKIP_MARGIN) continue;
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
        const finer = usable.filter((o) => slotOf(o.t) === id && o.lost < cur.lost).sort((a, b) => a.lost - b.lost);
        for (const o of [null, ...finer]) {
          if (o) chosen.set(id, o);
          else chosen.delete(id);
          const ts = ordered(picks.filter((p) => chosen.has(p)).map((p) => chosen.get(p)!));
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
  // what the byte budget costs when data may go as well: the same chain, with removals among the levers
  const budgetPlan = (): BudgetPlan | null => {
    if (!partial || !dropOptions.length) return null;
    const withDrops = chain([...options, ...dropOptions]);
    if (!withDrops.fits) return null;
    const b = compose(layout, withDrops.transforms, records);
    const sizes = sizeStats(b.layout, b.records, format);
    const picked = [...withDrops.chosen.values()];
    return {
      transforms: withDrops.transforms,
      layout: b.layout,
      sizes: sizes.stats,
      fits: sizes.failed === 0 && sizes.stats.max <= target,
      left: picked.filter((o) => dropsData(o.t, o.fc)).map((o) => o.fc.field.name),
      rounded: picked.filter((o) => !dropsData(o.t, o.fc) && o.lost > LOSSLESS_BITS).map((o) => o.fc.field.name),
      bitsLost: picked.reduce((sum, o) => sum + o.lost, 0),
      wire: wireVerdict(layout, b.layout, format),
    };
  };
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
    /** the records decoded after the change, worked out only where an error is measured */
    decode: () => readonly (TypedRecord | undefined)[],
    decodedLayout: Layout,
  ): PrecisionLoss => {
    if (dropsData(t, fc)) {
      const text = t.kind === "remove-field" ? "not sent" : "last values not sent";
      return {
        field: fc.keys.join("."),
        unit: fc.field.unit ?? "",
        bound: Infinity,
        measured: Infinity,
        text,
        measuredText: text,
      };
    }
    // the decoded records carry the field under its key in the new layout (a shortened key)
    const keys = findField(decodedLayout.fields, fc.field.id)?.keys ?? fc.keys;
    const decoded = decode();
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
      measured = Math.max(measured, valueError(fc.observed[i], restoreValue(t, valueAt(d, keys), moved)));
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
  const losses = planTransforms.map((t) => measureLoss(t, byId.get(t.fieldId)!, () => planDecoded, planAll.layout));

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
    wire: wireVerdict(layout, planAll.layout, format),
    deployedWire: opts.deployed
      ? {
          ...wireVerdict(opts.deployed.layout, planAll.layout, format),
          version: opts.deployed.version,
          label: opts.deployed.label,
        }
      : null,
    budget: null,
    budgetPending: partial && dropOptions.length > 0,
  };

  // ---- one suggestion per field (and per key): its plan change, else its best change on its own --------
  const suggest = (pick: Option): Suggestion => {
    const fc = pick.fc;
    const alone = compose(layout, [pick.t], records);
    const sizes = sizeStats(alone.layout, alone.records, format).stats;
    // a field's error does not depend on the other fields' changes: the plan's measurement holds for it alone
    const inPlan = planTransforms.indexOf(pick.t);
    const loss =
      inPlan >= 0
        ? losses[inPlan]!
        : measureLoss(pick.t, fc, () => roundTrip(alone.layout, alone.records, format), alone.layout);
    return {
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
      wire: wireVerdict(layout, alone.layout, format),
    };
  };
  const bestOf = (candidates: readonly Option[]): Option | undefined => {
    let pick: Option | undefined;
    for (const o of candidates)
      if (o.saved > MIN_SAVING && (!pick || better(o.saved, o.lost, { dSaved: pick.saved, dLost: pick.lost })))
        pick = o;
    return pick;
  };
  // each suggestion is measured over every sample and checked against the evolution rules: say so on the bar
  let described = 0;
  const describing = fcs.length * 2;
  const suggestions: Suggestion[] = [];
  for (const fc of fcs) {
    progress({ phase: "describing", done: described++, total: describing });
    const slots = new Set(options.filter((o) => o.fc === fc).map((o) => slotOf(o.t)));
    for (const slot of slots) {
      const pick = chosen.get(slot) ?? bestOf(options.filter((o) => o.fc === fc && slotOf(o.t) === slot));
      if (pick) suggestions.push(suggest(pick));
    }
  }
  suggestions.sort((a, b) =>
    better(a.bytesSaved, a.infoLostBits, { dSaved: b.bytesSaved, dLost: b.infoLostBits })
      ? -1
      : better(b.bytesSaved, b.infoLostBits, { dSaved: a.bytesSaved, dLost: a.infoLostBits })
        ? 1
        : 0,
  );

  // what leaving data out would save: the most saving first, each field once
  const removals: Suggestion[] = [];
  for (const fc of fcs) {
    progress({ phase: "describing", done: described++, total: describing });
    const pick = bestOf(dropOptions.filter((o) => o.fc === fc));
    if (pick) removals.push(suggest(pick));
  }
  removals.sort((a, b) => b.bytesSaved - a.bytesSaved);

  const result: AdvisorResult = {
    format,
    targetBytes: target,
    sampleCount: records.length,
    seed,
    base: base.stats,
    suggestions,
    removals,
    plan,
    status: status ? { layout: status.layout, sizes: sizeStats(status.layout, [status.record], format).stats } : null,
    otherFormats: otherFormats(layout, records, format),
  };
  return { result, budget: budgetPlan };
}

/** The whole advice at once, byte-budget plan included (the CLI and the tests). */
export function adviseFit(layout: Layout, opts: AdviseOptions): AdvisorResult {
  const staged = adviseStaged(layout, opts);
  return withBudget(staged.result, staged.result.plan.budgetPending ? staged.budget() : null);
}

/** The first stage's result with its budget plan worked out. */
export function withBudget(result: AdvisorResult, budget: BudgetPlan | null): AdvisorResult {
  return { ...result, plan: { ...result.plan, budget, budgetPending: false } };
}

function otherFormats(
  layout: Layout,
  records: readonly TypedRecord[],
  format: FormatId,
): AdvisorResult["otherFormats"] {
  const sized = FORMAT_IDS.filter((f) => f !== format).map((f) => {
    const m = sizeStats(layout, records, f);
    // a format that refuses some samples is not an option as it is
    return { format: f, sizes: m.failed === 0 && m.stats.count > 0 ? m.stats : null };
  });
  return sized.sort((a, b) => (a.sizes?.max ?? Infinity) - (b.sizes?.max ?? Infinity));
}

export function suggestionId(t: Transform): string {
  switch (t.kind) {
    case "fixed-point":
      return `${t.kind}:${t.fieldId}:${t.step}`;
    case "timestamp":
      return `${t.kind}:${t.fieldId}:${t.resolution}`;
    case "narrow-range":
      return `${t.kind}:${t.fieldId}:${t.min}:${t.max}`;
    case "array-length":
      return `${t.kind}:${t.fieldId}:${t.maxCount}`;
    default:
      return `${t.kind}:${t.fieldId}`;
  }
}

/** Several changes as one new layout (the designer records it as one undo step). */
export function applyAll(layout: Layout, transforms: readonly Transform[]): Layout {
  return transforms.reduce((l, t) => applyTransform(l, t), layout);
}
