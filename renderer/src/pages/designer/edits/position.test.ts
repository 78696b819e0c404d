// The position palette entry (issue #26, point 8): latitude and longitude as scaled integers whose step
// comes from a precision in metres (default 10 m), never coarser than asked, added and undone together.
import { beforeEach, describe, expect, it } from "vitest";
import { codecFor, parseLayout, type Field } from "#codecs";
import { isLatLon } from "#planning/advisor";
import { addField } from "./actions.ts";
import { FIELD_TYPES, paletteItem } from "./palette.ts";
import { metresOfStep, stepForMetres } from "./position.ts";
import { useDesigner } from "../../../state/layoutStore.ts";

const EMPTY = parseLayout({ format: "satlayout", version: 1, name: "Tracker", fields: [] });

describe("precision in metres → step in degrees", () => {
  it("gives 10 m as 0.000089° (≈ 9.9 m), a round step no coarser than asked", () => {
    expect(stepForMetres(10)).toBe(0.000089);
    expect(metresOfStep(stepForMetres(10))).toBeCloseTo(9.91, 2);
  });

  it("never rounds up: every step is within 10 % below the precision asked", () => {
    for (const m of [0.5, 1, 2, 3, 5, 7.5, 10, 20, 50, 100, 1000, 5500]) {
      const got = metresOfStep(stepForMetres(m));
      expect(got, `${m} m`).toBeLessThanOrEqual(m);
      expect(got, `${m} m`).toBeGreaterThan(m * 0.9);
    }
  });
});

describe("the position palette entry", () => {
  beforeEach(() => useDesigner.getState().load("p", "Tracker", EMPTY));

  it("adds latitude and longitude in degrees, as fixed types at 10 m, as one undo step", () => {
    addField(paletteItem("position")!, { parentId: null, index: 0 });
    useDesigner.getState().checkNow();
    const d = useDesigner.getState();
    const fields = d.history.present.fields;
    expect(fields.map((f) => [f.key, f.unit, f.type])).toEqual([
      ["latitude", "°", { kind: "fixed", scale: 0.000089, offset: 0, min: -90, max: 90 }],
      ["longitude", "°", { kind: "fixed", scale: 0.000089, offset: 0, min: -180, max: 180 }],
    ]);
    expect(d.issueCount).toBe(0);
    expect(d.selectedId).toBe(fields[0]!.id);
    // the advisor and the inspector know them for a position
    expect(fields.map((f: Field) => isLatLon(f))).toEqual(["lat", "lon"]);
    // 21 + 22 bits bit-packed: 6 bytes, where two float64 take 16
    const layout = parseLayout(d.valid);
    expect(codecFor(layout, "bitpacked").encode({ latitude: 47.3769, longitude: 8.5417 }).length).toBe(6);
    d.undo();
    expect(useDesigner.getState().history.present.fields).toEqual([]);
  });

  it("adds a second position with keys of its own", () => {
    const item = paletteItem("position")!;
    addField(item, { parentId: null, index: 0 });
    addField(item, { parentId: null, index: 2 });
    expect(useDesigner.getState().history.present.fields.map((f) => f.key)).toEqual([
      "latitude",
      "longitude",
      "latitude_2",
      "longitude_2",
    ]);
  });

  it("is not offered as a type to switch a field to (it is two fields)", () => {
    expect(FIELD_TYPES.map((p) => p.id)).not.toContain("position");
    expect(FIELD_TYPES.map((p) => p.id)).toContain("fixed");
  });
});
