// @vitest-environment happy-dom
// A latitude or longitude stored as a scaled integer shows its step on the ground ("≈ 9.91 m") and takes
// its precision in metres (issue #26, point 8); other scaled integers keep the plain scale.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseLayout, type Field } from "#codecs";
import { TypeEditor } from "./TypeEditor.tsx";
import { useDesigner } from "../../../state/layoutStore.ts";
import { locate } from "../../../state/tree.ts";
import { stepForMetres } from "../edits/position.ts";

const FIELDS: Field[] = [
  {
    id: "lat",
    key: "latitude",
    name: "latitude",
    unit: "°",
    presence: "required",
    type: { kind: "fixed", scale: 0.000089, offset: 0, min: -90, max: 90 },
  },
  {
    id: "lon",
    key: "lon",
    name: "Longitude",
    presence: "required",
    type: { kind: "fixed", scale: 0.001, offset: 0, min: -180, max: 180 },
  },
  {
    id: "temp",
    key: "temp",
    name: "Temp",
    unit: "°C",
    presence: "required",
    type: { kind: "fixed", scale: 0.1, offset: 0, min: -40, max: 85 },
  },
];

const field = (id: string) => locate(useDesigner.getState().history.present.fields, id)!.field;
const show = (id: string) => render(<TypeEditor field={field(id)} issues={undefined} />);
const helpOf = (testId: string) => screen.getByTestId(testId).closest(".form-row")?.textContent ?? "";

beforeEach(() => {
  useDesigner
    .getState()
    .load("p", "Tracker", parseLayout({ format: "satlayout", version: 1, name: "T", fields: FIELDS }));
});
afterEach(cleanup);

describe("position precision in the inspector", () => {
  it("shows a latitude's step in metres and sets the scale from a precision in metres", () => {
    show("lat");
    const precision = screen.getByTestId("insp-position-precision") as HTMLSelectElement;
    expect(precision.value).toBe("10");
    expect(helpOf("insp-position-precision")).toContain("≈ 9.91 m");
    fireEvent.change(precision, { target: { value: "50" } });
    expect(field("lat").type).toMatchObject({ kind: "fixed", scale: stepForMetres(50) });
  });

  it("says a longitude's step is on the equator, and names a step that is none of the choices", () => {
    show("lon");
    const precision = screen.getByTestId("insp-position-precision") as HTMLSelectElement;
    expect(precision.value).toBe("custom");
    expect(precision.selectedOptions[0]!.textContent).toBe("≈ 111 m at the equator (scale 0.001°)");
  });

  it("leaves other scaled integers alone", () => {
    show("temp");
    expect(screen.queryByTestId("insp-position-precision")).toBeNull();
    expect(helpOf("insp-scale")).toBe("Scalevalue = raw × scale + offset");
  });
});
