// Schema evolution between two layout versions, per wire format: which decoders of one version read
// the other's messages, why, and what to change. `probe` checks the verdicts with the codecs.
import { LayoutError } from "../errors.ts";
import { fieldChanges } from "./match.ts";
import { probe } from "./probe.ts";
import { COMPAT_ORDER, verdictOf, type Finding, type FormatVerdict, type LayoutDiff } from "./types.ts";
import { CODECS, codecFor, FORMAT_MODULES, FORMAT_IDS, type FormatId } from "../formats/registry.ts";
import type { Layout } from "../layout/schema.ts";

export * from "./types.ts";

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
}

export function diffLayouts(oldL: Layout, newL: Layout, opts: DiffOptions = {}): LayoutDiff {
  const formats: FormatVerdict[] = (opts.formats ?? FORMAT_IDS).map((format) => {
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
    changes: fieldChanges(oldL, newL),
    formats,
    advice: [...new Set(all.map((f) => f.advice!))],
  };
}

export function formatLabel(format: FormatId): string {
  return CODECS[format].info.short;
}
