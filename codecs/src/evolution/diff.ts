// Schema evolution between two layout versions, per wire format: which decoders of one version read
// the other's messages, why, and what to change. `probe` checks the verdicts with the codecs.
import {
  batchChanges,
  batchRules,
  derivedRanges,
  explain,
  wireOf,
  type ReadingsPerMessage,
  type Wire,
} from "./batch.ts";
import { fieldChanges } from "./match.ts";
import { probe, probeBatch } from "./probe.ts";
import {
  COMPAT_ORDER,
  verdictOf,
  worse,
  type Compat,
  type Finding,
  type FormatVerdict,
  type LayoutDiff,
} from "./types.ts";
import { BATCH_FORMS } from "../batch/plan.ts";
import { LayoutError } from "../errors.ts";
import { CODECS, codecFor, FORMAT_MODULES, FORMAT_IDS, type FormatId } from "../formats/registry.ts";
import type { Layout } from "../layout/schema.ts";

export * from "./types.ts";
export type { ReadingsPerMessage } from "./batch.ts";

/** A layout the format cannot carry is reported as such rather than compared. */
function expressible(format: FormatId, a: Layout, b: Layout): Finding[] {
  const out: Finding[] = [];
  for (const [which, l] of [
    ["old", a],
    ["new", b],
  ] as const) {
    try {
      codecFor(l, format);
    } catch (e) {
      if (!(e instanceof LayoutError)) throw e;
      out.push({
        field: "",
        direction: "both",
        severity: "breaking",
        message: `the ${which} layout cannot be written in ${CODECS[format].info.short}: ${e.message}`,
      });
    }
  }
  return out;
}

export interface DiffOptions {
  /** also encode/decode this many samples per direction with the codecs (0: no probe) */
  probe?: number;
  formats?: readonly FormatId[];
  /**
   * batch layouts: the most readings a message of a layout carries, per format and form (it shapes the wire).
   * Default: the batch's fixed count; "as many as fit" is measured (planning's readingsPerMessage), so a
   * caller comparing such layouts passes it, else that form is reported as not compared.
   */
  readingsPerMessage?: ReadingsPerMessage;
}

/** A version whose wire could not be formed (an unknown count, a batch that breaks its rules). */
function unformed(format: FormatId, a: Wire, b: Wire, same: boolean): Finding[] {
  if (same) return [];
  return (
    [
      ["old", a],
      ["new", b],
    ] as const
  ).flatMap(([which, w]) =>
    "problem" in w
      ? [
          {
            field: "",
            direction: "both" as const,
            severity: "degraded" as const,
            message: `the ${which} layout's batch was not compared in ${CODECS[format].info.short}: ${w.problem}`,
            advice: "Compare batch layouts with a fixed readings count, or through a tool that measures the count.",
          },
        ]
      : [],
  );
}

/**
 * Either version has a batch: each form's messages are its wire layout (the layout itself without a
 * batch), compared with the format's own rules, plus the delta form's keyframe and unit rules.
 */
function batchVerdict(format: FormatId, oldL: Layout, newL: Layout, opts: DiffOptions): FormatVerdict {
  const same = JSON.stringify(oldL) === JSON.stringify(newL);
  const forms = BATCH_FORMS.map((form) => {
    const a = wireOf(oldL, format, form, opts.readingsPerMessage);
    const b = wireOf(newL, format, form, opts.readingsPerMessage);
    let findings: Finding[];
    let observed: { onr: ReturnType<typeof probe>; nro: ReturnType<typeof probe> } | undefined;
    if ("problem" in a || "problem" in b) findings = unformed(format, a, b, same).map((f) => ({ ...f, form }));
    else {
      const cannot = expressible(format, a.layout, b.layout);
      const wire = cannot.length ? cannot : FORMAT_MODULES[format].evolution(a.layout, b.layout);
      const own = a.plan && b.plan ? batchRules(a.plan, b.plan) : [];
      // a bound the format's own rules already report is not told twice
      const told = (f: Finding) =>
        wire.some((w) => w.field === f.field && (w.direction === f.direction || w.direction === "both"));
      if (a.plan && b.plan && !cannot.length) own.push(...derivedRanges(a.plan, b.plan).filter((f) => !told(f)));
      findings = explain([...wire, ...own], form, oldL, newL, a.plan, b.plan);
      if (opts.probe && !cannot.length) {
        const side = (l: Layout, w: typeof a) => ({
          layout: l,
          ...(w.plan ? { maxReadings: w.plan.maxReadings } : {}),
        });
        observed = {
          onr: probeBatch(side(newL, b), side(oldL, a), format, form, opts.probe),
          nro: probeBatch(side(oldL, a), side(newL, b), format, form, opts.probe),
        };
      }
    }
    return { form, findings, observed };
  });
  const findings = forms.flatMap((f) => f.findings);
  const worst = (pick: (f: (typeof forms)[number]) => Compat) => forms.map(pick).reduce(worse, "compatible");
  const v: FormatVerdict = {
    format,
    oldReadsNew: verdictOf(findings, "oldReadsNew"),
    newReadsOld: verdictOf(findings, "newReadsOld"),
    findings,
    forms: forms.map((f) => ({
      form: f.form,
      oldReadsNew: verdictOf(f.findings, "oldReadsNew"),
      newReadsOld: verdictOf(f.findings, "newReadsOld"),
    })),
  };
  const seen = forms.filter((f) => f.observed);
  if (seen.length)
    v.observed = {
      oldReadsNew: worst((f) => f.observed?.onr.verdict ?? "compatible"),
      newReadsOld: worst((f) => f.observed?.nro.verdict ?? "compatible"),
      samples: Math.min(...seen.flatMap((f) => [f.observed!.onr.samples, f.observed!.nro.samples])),
      examples: seen.flatMap((f) => [...f.observed!.onr.examples, ...f.observed!.nro.examples]).slice(0, 4),
    };
  return v;
}

export function diffLayouts(oldL: Layout, newL: Layout, opts: DiffOptions = {}): LayoutDiff {
  const formats: FormatVerdict[] = (opts.formats ?? FORMAT_IDS).map((format) => {
    if (oldL.batch || newL.batch) return batchVerdict(format, oldL, newL, opts);
    const cannot = expressible(format, oldL, newL);
    const findings = cannot.length ? cannot : FORMAT_MODULES[format].evolution(oldL, newL);
    const v: FormatVerdict = {
      format,
      oldReadsNew: verdictOf(findings, "oldReadsNew"),
      newReadsOld: verdictOf(findings, "newReadsOld"),
      findings,
    };
    if (opts.probe && !cannot.length) {
      const onr = probe(newL, oldL, format, opts.probe);
      const nro = probe(oldL, newL, format, opts.probe);
      v.observed = {
        oldReadsNew: onr.verdict,
        newReadsOld: nro.verdict,
        samples: Math.min(onr.samples, nro.samples),
        examples: [...onr.examples, ...nro.examples].slice(0, 4),
      };
    }
    return v;
  });
  const all = formats.flatMap((f) => f.findings).filter((f) => f.advice);
  const rank = (f: Finding) => (f.severity === "info" ? -1 : COMPAT_ORDER.indexOf(f.severity));
  all.sort((x, y) => rank(y) - rank(x));
  return {
    schema: "satpayload.diff/1",
    changes: [...fieldChanges(oldL, newL), ...batchChanges(oldL, newL)],
    formats,
    advice: [...new Set(all.map((f) => f.advice!))],
  };
}

export function formatLabel(format: FormatId): string {
  return CODECS[format].info.short;
}
