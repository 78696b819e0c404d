// @vitest-environment happy-dom
// Plain words in the designer (issue #26, point 8): a new enum starts with names that read as
// placeholders (not OFF/ON, which looked like a finished choice) and asks for the device's states until
// they are named; the one name of project and layout says it is both.
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseLayout } from "#codecs";
import { LayoutSettings } from "./LayoutSettings.tsx";
import { TypeEditor } from "./TypeEditor.tsx";
import { useDesigner } from "../../../state/layoutStore.ts";
import { locate } from "../../../state/tree.ts";
import { addField } from "../edits/actions.ts";
import { paletteItem } from "../edits/palette.ts";

const field = (id: string) => locate(useDesigner.getState().history.present.fields, id)!.field;

beforeEach(() => {
  useDesigner
    .getState()
    .load("p", "Tracker", parseLayout({ format: "satlayout", version: 1, name: "Tracker", fields: [] }));
});
afterEach(cleanup);

describe("a new enum", () => {
  it("starts with STATE_A / STATE_B and asks for names until none is a placeholder", () => {
    const id = addField(paletteItem("enum")!, { parentId: null, index: 0 });
    expect(field(id).type).toEqual({
      kind: "enum",
      values: [
        { name: "STATE_A", value: 0 },
        { name: "STATE_B", value: 1 },
      ],
    });
    const { rerender } = render(<TypeEditor field={field(id)} issues={undefined} />);
    expect(screen.getByTestId("enum-name-prompt").textContent).toContain("Name the states your device reports");
    fireEvent.change(screen.getByTestId("enum-name-0"), { target: { value: "PARKED" } });
    rerender(<TypeEditor field={field(id)} issues={undefined} />);
    expect(screen.getByTestId("enum-name-prompt")).toBeTruthy();
    fireEvent.change(screen.getByTestId("enum-name-1"), { target: { value: "MOVING" } });
    rerender(<TypeEditor field={field(id)} issues={undefined} />);
    expect(screen.queryByTestId("enum-name-prompt")).toBeNull();
  });
});

describe("the layout's name", () => {
  it("says it is the project's name too", () => {
    render(<LayoutSettings />);
    const row = screen.getByTestId("layout-name").closest(".form-row")!;
    expect(row.textContent).toContain("Project and layout name");
    expect(row.textContent).toContain("renaming here renames the project");
  });
});
