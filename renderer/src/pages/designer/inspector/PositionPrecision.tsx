// For a latitude or longitude stored as a scaled integer: its precision in metres, which is what a user
// decides (issue #26, point 8), next to the step in degrees the codecs use.
import type { ScalarType } from "#codecs";
import { short } from "#planning/advisor";
import { SelectField } from "./controls.tsx";
import { metresOfStep, stepForMetres } from "../edits/position.ts";

type FixedType = Extract<ScalarType, { kind: "fixed" }>;

const CHOICES = [1, 2, 5, 10, 20, 50, 100, 1000] as const;

/** "≈ 9.9 m" (of longitude: "at the equator", where a degree is widest). */
export function groundText(step: number, axis: "lat" | "lon"): string {
  return `≈ ${short(metresOfStep(step))} m${axis === "lon" ? " at the equator" : ""}`;
}

export function PositionPrecision({
  t,
  axis,
  set,
}: {
  t: FixedType;
  axis: "lat" | "lon";
  set(next: FixedType, control: string): void;
}) {
  const chosen = CHOICES.find((m) => stepForMetres(m) === t.scale);
  const options = [
    ...(chosen === undefined ? [{ value: "custom", label: `${groundText(t.scale, axis)} (scale ${t.scale}°)` }] : []),
    ...CHOICES.map((m) => ({ value: String(m), label: `${m} m (${stepForMetres(m)}°)` })),
  ];
  return (
    <SelectField
      label="Precision"
      value={chosen === undefined ? "custom" : String(chosen)}
      options={options}
      help={`One step of the stored integer on the ground: ${groundText(t.scale, axis)}. Sets the scale.`}
      testId="insp-position-precision"
      onChange={(v) => v !== "custom" && set({ ...t, scale: stepForMetres(Number(v)) }, "scale")}
    />
  );
}
