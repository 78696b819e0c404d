// Which changes are worth measuring for each field, derived from its type and from what the samples hold.
import type { Field, FieldValue, Layout, ScalarType, TypedRecord } from "#codecs";
import { bitLength, formatResolution, roundTo } from "#codecs/plans";
import { newStep } from "./declared.ts";
import { shortKeys } from "./keys.ts";
import { narrowOptions, shortenOptions } from "./ranges.ts";
import { stepDecimals, valueError } from "./transforms.ts";
import { leafFields, valueAt } from "./tree.ts";
import type { AdvisorLimits, Transform } from "./types.ts";
import { isLatLon, METRES_PER_DEGREE } from "./units.ts";

export interface FieldCandidates {
  field: Field;
  keys: string[];
  /** the field's value in every sample (undefined where an optional field was absent) */
  observed: (FieldValue | undefined)[];
  options: Transform[];
  /** changes that give up data outright (the field, an array's last element): listed, never planned */
  drops: Transform[];
}

export interface CandidateOptions {
  /** the target format writes keys (JSON, CBOR, MessagePack, PSON): shorter keys are worth measuring */
  keys?: boolean;
}

/** A position is never offered coarser than this unless the user sets another precision. */
export const DEFAULT_POSITION_METRES = 10;

/** 1-2-5 multiples of the current step. */
const MULTIPLES = [1, 2, 5];
const MAX_DECADES = 7;
/**
 * A coarser step must still tell 64 values apart within the spread the samples use: without it a field with a
 * narrow spread (a latitude moving 0.5° in a 180° range) would look cheap to flatten, losing few bits of the
 * samples' information while erasing the field.
 */
export const MIN_SPREAD_LEVELS = 64;
const MAX_ENUM_VALUES = 16;
/** a timestamp window the device can live with: ten years */
const WINDOW_SECONDS = 10 * 365.25 * 86400;
const RESOLUTIONS = [1, 2, 5, 10, 30, 60, 300, 900, 3600];

function isConstant(values: readonly (FieldValue | undefined)[]): boolean {
  if (values.length === 0 || values[0] === undefined) return false;
  return values.every((v) => v !== undefined && valueError(values[0], v) === 0 && typeof v === typeof values[0]);
}

function commonPrefix(values: readonly string[]): string {
  let p = values[0] ?? "";
  for (const v of values) {
    let i = 0;
    while (i < p.length && i < v.length && p[i] === v[i]) i++;
    p = p.slice(0, i);
    if (!p) break;
  }
  return p;
}

/** Bit-packing alphabets, fewest bits per character first (see formats/bitpacked/charsets.ts). */
const CHARSETS = [
  { charset: "digits", test: /^[0-9]*$/ },
  { charset: "hex", test: /^[0-9A-F]*$/ },
  { charset: "upper-alnum", test: /^[0-9A-Z -]*$/ },
  { charset: "alnum", test: /^[0-9A-Za-z]*$/ },
  { charset: "ascii", test: /^[\x20-\x7e]*$/ },
] as const;

function stringOptions(t: Extract<ScalarType, { kind: "string" }>, f: Field, values: string[]): Transform[] {
  const out: Transform[] = [];
  const current = CHARSETS.findIndex((c) => c.charset === t.charset);
  const narrower = CHARSETS.find((c, i) => (current < 0 || i < current) && values.every((v) => c.test.test(v)));
  if (narrower) out.push({ kind: "string-charset", fieldId: f.id, charset: narrower.charset });
  const shortest = Math.min(...values.map((v) => v.length));
  const prefix = commonPrefix(values).slice(0, Math.max(0, shortest - 1));
  if (prefix.length >= 2) {
    const rests = values.map((v) => v.slice(prefix.length));
    const digits = rests[0]!.length;
    if (digits <= 9 && rests.every((r) => r.length === digits && /^\d+$/.test(r))) {
      const nums = rests.map(Number);
      out.push({
        kind: "split-prefix",
        fieldId: f.id,
        prefix,
        rest: { as: "int", digits, range: { min: Math.min(...nums), max: Math.max(...nums) } },
      });
    } else
      out.push({
        kind: "split-prefix",
        fieldId: f.id,
        prefix,
        rest: { as: "string", maxLength: t.maxLength - prefix.length },
      });
  }
  const distinct = [...new Set(values)];
  if (distinct.length <= MAX_ENUM_VALUES && distinct.every((v) => v.length > 0 && v.length <= 64)) {
    const sorted = distinct.sort();
    out.push({
      kind: "string-to-enum",
      fieldId: f.id,
      values: sorted,
      weights: sorted.map((d) => values.filter((v) => v === d).length),
    });
  }
  return out;
}

/** Smallest max − min over the element positions (arrays) or of the values; 0 when nothing varies. */
function spreadOf(values: readonly (FieldValue | undefined)[]): number {
  const first = values.find((v) => v !== undefined);
  if (Array.isArray(first)) {
    const width = first.length;
    let spread = Infinity;
    for (let i = 0; i < width; i++)
      spread = Math.min(spread, spreadOf(values.map((v) => (Array.isArray(v) ? (v[i] as FieldValue) : undefined))));
    return Number.isFinite(spread) ? spread : 0;
  }
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (typeof v !== "number") continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return hi > lo ? hi - lo : 0;
}

/** Median gap between consecutive distinct times: a coarser resolution would merge readings. */
function medianGap(values: readonly number[]): number {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const gaps: number[] = [];
  for (let i = 1; i < sorted.length; i++) gaps.push(sorted[i]! - sorted[i - 1]!);
  if (!gaps.length) return Infinity;
  gaps.sort((a, b) => a - b);
  return gaps[Math.floor((gaps.length - 1) / 2)]!;
}

function numericOptions(t: ScalarType, f: Field, spread: number): Transform[] {
  let base: number;
  let min: number;
  let max: number;
  if (t.kind === "float" && t.min !== undefined && t.max !== undefined && t.precision !== undefined) {
    [base, min, max] = [t.precision, t.min, t.max];
  } else if (t.kind === "fixed") {
    [base, min, max] = [t.scale, t.min, t.max];
  } else return [];
  const d = stepDecimals(base);
  const steps: number[] = [];
  decades: for (let k = 0; k < MAX_DECADES; k++) {
    for (const m of MULTIPLES) {
      const step = roundTo(base * m * 10 ** k, Math.max(0, d - k));
      if (t.kind === "fixed" && step <= base) continue;
      if (step > base && spread / step < MIN_SPREAD_LEVELS) break decades;
      steps.push(step);
    }
  }
  // steps that are not 1-2-5 multiples: the finest one that fits each smaller bit width, and whole fractions of a
  // degree for angles in radians (DCCL's arbitrary resolution: 0.5 m, π/180)
  const levelsOk = (step: number) => step > base * (1 + 1e-9) && spread / step >= MIN_SPREAD_LEVELS;
  for (const step of [...bitFitSteps(min, max, base), ...radianSteps(f)]) if (levelsOk(step)) steps.push(step);
  const seen = new Set<number>();
  return steps
    .sort((a, b) => a - b)
    .filter((step) => !seen.has(step) && seen.add(step))
    .map((step) => ({ kind: "fixed-point", fieldId: f.id, step }));
}

/** Rounds up to three significant digits, so a step reads as 0.0000108 rather than 0.000010728836. */
function roundUp3(x: number): number {
  const unit = 10 ** (Math.floor(Math.log10(x)) - 2);
  return roundTo(Math.ceil(x / unit - 1e-9) * unit, Math.max(0, 2 - Math.floor(Math.log10(x))));
}

/** For every bit width below the current one: the finest (three-digit) step at which [min, max] fits it. */
function bitFitSteps(min: number, max: number, base: number): number[] {
  const span = max - min;
  // the largest raw value, span / base, sets the width the field takes now
  const bits = bitLength(Math.ceil(span / base - 1e-9));
  const out: number[] = [];
  // two codes spare: the grid is aligned to multiples of the step, so [min, max] may straddle one more
  for (let b = bits - 1; b >= 1; b--) out.push(roundUp3(span / (2 ** b - 2 || 1)));
  return out;
}

const RADIANS = new Set(["rad", "radian", "radians"]);
/** 1°, 0.1° and 0.01° written in radians, for an angle kept in radians. */
function radianSteps(f: Field): number[] {
  return RADIANS.has(f.unit ?? "") ? [Math.PI / 180, Math.PI / 1800, Math.PI / 18000] : [];
}

function timestampOptions(t: Extract<ScalarType, { kind: "timestamp" }>, f: Field, values: number[]): Transform[] {
  if (!values.length) return [];
  const current = t.encoding === "text" && t.textFormat ? formatResolution(t.textFormat) : t.resolution;
  const first = Math.min(...values);
  const last = Math.max(...values);
  const gap = medianGap(values);
  const out: Transform[] = [];
  for (const res of [current, ...RESOLUTIONS.filter((r) => r > current && r <= gap)]) {
    let lo: number;
    let hi: number;
    if (t.min !== undefined && t.max !== undefined) [lo, hi] = [t.min, t.max];
    else {
      // the window starts on 1 January of the first sample's year and uses every code of its bit width
      lo = Date.UTC(new Date(first * 1000).getUTCFullYear(), 0, 1) / 1000;
      const bits = bitLength(Math.ceil(Math.max(WINDOW_SECONDS, last - lo) / res));
      hi = roundTo(lo + (2 ** bits - 1) * res, stepDecimals(res));
    }
    if (res === current && t.encoding === "epoch" && lo === t.min && hi === t.max) continue;
    out.push({ kind: "timestamp", fieldId: f.id, resolution: res, min: lo, max: hi });
  }
  return out;
}

/** The coarsest step the field may take: the user's limit, and for a position the precision in metres. */
function coarsestStep(f: Field, limits: AdvisorLimits): number | undefined {
  const own = limits.maxStep?.[f.id];
  if (!isLatLon(f)) return own;
  const position = (limits.positionMetres ?? DEFAULT_POSITION_METRES) / METRES_PER_DEGREE;
  return own === undefined ? position : Math.min(own, position);
}

/** Drops what the user ruled out: every change of a locked field, steps coarser than the field's limit. */
function allowed(options: Transform[], f: Field, limits: AdvisorLimits): Transform[] {
  if (limits.locked?.includes(f.id)) return [];
  const max = coarsestStep(f, limits);
  if (max === undefined) return options;
  return options.filter((t) => {
    const step = newStep(t);
    return step === undefined || step <= max * (1 + 1e-9);
  });
}

export function fieldCandidates(
  layout: Layout,
  records: readonly TypedRecord[],
  limits: AdvisorLimits = {},
  opts: CandidateOptions = {},
): FieldCandidates[] {
  const short = opts.keys ? shortKeys(layout.fields) : new Map<string, string>();
  return leafFields(layout.fields).map(({ field, keys }) => {
    const observed = records.map((r) => valueAt(r, keys));
    const present = observed.filter((v): v is FieldValue => v !== undefined);
    const t = field.type;
    let options: Transform[] = [];
    if (records.length > 0 && present.length === records.length && isConstant(observed))
      options = [{ kind: "move-to-status", fieldId: field.id }];
    else if (t.kind === "string" && present.length) options = stringOptions(t, field, present as string[]);
    else if (t.kind === "timestamp") options = timestampOptions(t, field, present as number[]);
    else if (t.kind === "array") options = numericOptions(t.of, field, spreadOf(observed));
    else if (t.kind !== "group") options = numericOptions(t, field, spreadOf(observed));
    const shorten = shortenOptions(field, present);
    if (!options.some((o) => o.kind === "move-to-status")) {
      options.push(...narrowOptions(field, present), ...shorten.keep);
      const key = short.get(field.id);
      if (key !== undefined) options.push({ kind: "short-key", fieldId: field.id, key });
    }
    const drops: Transform[] = [...shorten.drop, { kind: "remove-field", fieldId: field.id }];
    const locked = limits.locked?.includes(field.id) ?? false;
    return { field, keys, observed, options: allowed(options, field, limits), drops: locked ? [] : drops };
  });
}
