// A position as a tracker sends it (issue #26, point 8): latitude and longitude as scaled integers
// (the `fixed` type, so every format and export already handles them), with the step derived from a
// precision the user says in metres rather than in degrees nobody pictures.
import type { FieldType } from "#codecs";
import { METRES_PER_DEGREE } from "#planning/advisor";

/** What a position starts at: a tracker's fix is good to a few metres; 10 m keeps it honest and small. */
export const DEFAULT_POSITION_METRES = 10;

/**
 * The step in degrees for a precision in metres, rounded down to two significant digits (a round number
 * a reader can check), so it is never coarser than asked: 10 m → 0.000089° (≈ 9.9 m).
 */
export function stepForMetres(metres: number): number {
  const exact = metres / METRES_PER_DEGREE;
  const unit = 10 ** (Math.floor(Math.log10(exact)) - 1);
  // the small epsilon keeps 8.9999999 × unit from flooring to 8.9 when the exact value is 9 × unit
  return Number((Math.floor(exact / unit + 1e-9) * unit).toPrecision(2));
}

/** The ground distance of a step in degrees (of latitude; of longitude at the equator, the widest). */
export function metresOfStep(step: number): number {
  return step * METRES_PER_DEGREE;
}

/** One field a palette entry adds. */
export interface NewPart {
  keyStem: string;
  unit?: string;
  type: FieldType;
}

/** The two fields of a position at a precision in metres. */
export function positionParts(metres = DEFAULT_POSITION_METRES): NewPart[] {
  const scale = stepForMetres(metres);
  return [
    { keyStem: "latitude", unit: "°", type: { kind: "fixed", scale, offset: 0, min: -90, max: 90 } },
    { keyStem: "longitude", unit: "°", type: { kind: "fixed", scale, offset: 0, min: -180, max: 180 } },
  ];
}
