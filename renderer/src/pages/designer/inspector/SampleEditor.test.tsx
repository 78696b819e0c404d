// @vitest-environment happy-dom
// The sample-model editor against the real designer store: what parses reaches the layout (one undo step
// per control), what does not is shown next to its own input and leaves the layout alone, and the
// codec's validation of a loaded layout appears next to the control it concerns.
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { Field, Layout, SampleModel } from "#codecs";
import { SampleEditor } from "./SampleEditor.tsx";
import { useDesigner } from "../../../state/layoutStore.ts";
import { locate } from "../../../state/tree.ts";

const field = (type: Field["type"], sample?: SampleModel): Field => ({
  id: "t",
  key: "temp",
  name: "Temperature",
  presence: "required",
  type,
  ...(sample ? { sample } : {}),
});

const layoutOf = (f: Field): Layout => ({
  format: "satlayout",
  version: 1,
  name: "sample test",
  package: "telemetry",
  message: "Telemetry",
  struct: { endianness: "big", stringMode: "u16-appended" },
  json: { spacing: "compact" },
  sbe: { schemaId: 1, templateId: 1, version: 0 },
  protobufReserved: [],
  fields: [f],
});

const INT8 = { kind: "int", bits: 8, signed: false } as const;
const sample = () => locate(useDesigner.getState().history.present.fields, "t")?.field.sample;

/** The editor fed from the store the way the inspector feeds it. */
function StoreSampleEditor() {
  const f = useDesigner((s) => locate(s.history.present.fields, "t")?.field);
  const issues = useDesigner((s) => s.issues.byField.get("t"));
  return f ? <SampleEditor field={f} issues={issues} /> : null;
}

function open(f: Field) {
  act(() => useDesigner.getState().load("p1", "sample test", layoutOf(f)));
  return render(<StoreSampleEditor />);
}

/** The messages shown in the same control wrapper as the input. */
const messagesNextTo = (input: HTMLElement) =>
  [...input.closest(".control-wrap")!.querySelectorAll(".field-msg")].map((m) => m.textContent);

const type = (input: HTMLElement, text: string) => fireEvent.change(input, { target: { value: text } });

afterEach(cleanup);

describe("SampleEditor", () => {
  it("commits a number typed into Minimum to the layout", () => {
    open(field(INT8, { kind: "uniform", min: 0, max: 10 }));
    type(screen.getByTestId("insp-sample-min"), "5");
    expect(sample()).toEqual({ kind: "uniform", min: 5, max: 10 });
  });

  it("shows a wrong number next to its input and keeps the layout as it was", () => {
    open(field(INT8, { kind: "uniform", min: 0, max: 10 }));
    const min = screen.getByTestId("insp-sample-min");
    type(min, "abc");
    expect(messagesNextTo(min)).toEqual(['"abc" is not a number; write digits, e.g. 12, -0.5 or 1e3.']);
    expect(messagesNextTo(screen.getByTestId("insp-sample-max"))).toEqual([]);
    expect(min.getAttribute("aria-invalid")).toBe("true");
    expect(sample()).toEqual({ kind: "uniform", min: 0, max: 10 });
  });

  it("switching the kind writes that kind's defaults, one undo step back to the old model", () => {
    open(field({ ...INT8, min: 20, max: 80 }, { kind: "uniform", min: 20, max: 30 }));
    fireEvent.change(screen.getByTestId("insp-sample-kind"), { target: { value: "counter" } });
    expect(sample()).toEqual({ kind: "counter", start: 20, step: 1 });
    expect(screen.getByTestId("insp-sample-step")).toBeTruthy();
    act(() => useDesigner.getState().undo());
    expect(sample()).toEqual({ kind: "uniform", min: 20, max: 30 });
    expect(screen.getByTestId("insp-sample-min")).toBeTruthy();
  });

  it("parses a constant by the field's type: an enum takes only its names", () => {
    const status = {
      kind: "enum",
      values: [
        { name: "OK", value: 0 },
        { name: "FAULT", value: 1 },
      ],
    } as Field["type"];
    open(field(status, { kind: "constant", value: "OK" }));
    const value = screen.getByTestId("insp-sample-value");
    type(value, "BROKEN");
    expect(messagesNextTo(value)).toEqual(['"BROKEN" is not one of OK, FAULT']);
    expect(sample()).toEqual({ kind: "constant", value: "OK" });
    type(value, "FAULT");
    expect(messagesNextTo(value)).toEqual([]);
    expect(sample()).toEqual({ kind: "constant", value: "FAULT" });
  });

  it("asks for one weight per choice", () => {
    open(field(INT8, { kind: "choice", values: [1, 2, 3] }));
    const weights = screen.getByTestId("insp-sample-weights");
    type(weights, "1, 2");
    expect(messagesNextTo(weights)).toEqual(["Give 3 weights, one per choice"]);
    expect(sample()).toEqual({ kind: "choice", values: [1, 2, 3] });
    type(weights, "1, 2, 7");
    expect(sample()).toEqual({ kind: "choice", values: [1, 2, 3], weights: [1, 2, 7] });
  });

  it("shows the layout validation's issue next to the control it concerns", () => {
    // a file can hold what the form would refuse: a negative standard deviation
    open(field(INT8, { kind: "normal", mean: 5, sd: -1 }));
    expect(useDesigner.getState().issueCount).toBeGreaterThan(0);
    const sd = screen.getByTestId("insp-sample-sd");
    const shown = screen.getAllByTestId("field-issue");
    expect(shown.length).toBeGreaterThan(0);
    for (const issue of shown) expect(issue.closest(".control-wrap")).toBe(sd.closest(".control-wrap"));
    type(sd, "2");
    // the app checks an edit once its frame is painted; here, at once
    act(() => useDesigner.getState().checkNow());
    expect(screen.queryAllByTestId("field-issue")).toHaveLength(0);
    expect(useDesigner.getState().issueCount).toBe(0);
  });

  it("offers the series models of a batch, each with defaults the layout accepts and its own controls", () => {
    open(field({ kind: "fixed", scale: 0.1, offset: 0, min: -40, max: 85 }, { kind: "uniform", min: 0, max: 30 }));
    const kind = screen.getByTestId("insp-sample-kind");
    fireEvent.change(kind, { target: { value: "randomWalk" } });
    act(() => useDesigner.getState().checkNow());
    expect(sample()).toMatchObject({ kind: "randomWalk", start: 22.5, min: -40, max: 85 });
    expect(useDesigner.getState().issueCount).toBe(0);
    type(screen.getByTestId("insp-sample-maxRate"), "0.005");
    expect(sample()).toMatchObject({ kind: "randomWalk", maxRate: 0.005 });

    fireEvent.change(kind, { target: { value: "drift" } });
    act(() => useDesigner.getState().checkNow());
    expect(sample()).toEqual({ kind: "drift", start: 22.5, amplitude: 31.25, periodSeconds: 86_400 });
    expect(useDesigner.getState().issueCount).toBe(0);
    type(screen.getByTestId("insp-sample-noise"), "0.2");
    expect(sample()).toMatchObject({ kind: "drift", noise: 0.2 });

    fireEvent.change(kind, { target: { value: "hold" } });
    act(() => useDesigner.getState().checkNow());
    expect(sample()).toEqual({ kind: "hold", chance: 0.05, from: { kind: "choice", values: [-40, 85] } });
    expect(useDesigner.getState().issueCount).toBe(0);
    expect(screen.getByTestId("insp-sample-hold-from").textContent).toBe("Choice");
    // a chance over 1 is the layout's to refuse, next to its control
    const chance = screen.getByTestId("insp-sample-chance");
    type(chance, "2");
    act(() => useDesigner.getState().checkNow());
    expect(messagesNextTo(chance).length).toBe(1);
  });
});
