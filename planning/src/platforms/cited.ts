// A constant of a radio or device model with where it comes from, so the Budget view, the report and the CLI can cite
// it the way prices are cited (docs/budget.md). `estimate` marks a figure no datasheet gives.

export interface Cited {
  value: number;
  unit: string;
  /** a document a reader can look up (never a file of this repository) */
  source: string;
  /** what the figure is: "datasheet typ. …", "fitted to the guidance's examples", "our estimate …" */
  basis: string;
  /** when the figure was published or taken from the document (YYYY, YYYY-MM or YYYY-MM-DD) */
  date: string;
  estimate: boolean;
}

/** When the constants of this catalog were taken from their documents (their revisions were not checked here). */
export const TAKEN = "2026-11";

export const OUR_ESTIMATE = "SatPayload Studio estimate";

export function cited(value: number, unit: string, source: string, basis: string, estimate = false): Cited {
  return { value, unit, source, basis, date: TAKEN, estimate };
}

export function estimate(value: number, unit: string, basis: string, source = OUR_ESTIMATE): Cited {
  return cited(value, unit, source, basis, true);
}
