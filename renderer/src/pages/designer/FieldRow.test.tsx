// @vitest-environment happy-dom
// A row of the layout tree against the real designer store: the codec's validation marks the row that has
// a problem, and the row's keyboard commands change the layout (one undo step each).
import { DndContext } from "@dnd-kit/core";
import { SortableContext } from "@dnd-kit/sortable";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Field, Layout } from "#codecs";
import { rowDndId } from "./dnd.ts";
import { FieldRow } from "./FieldRow.tsx";
import { useDesigner } from "../../state/layoutStore.ts";
import { locate } from "../../state/tree.ts";

const u8 = (id: string, extra: Partial<Extract<Field["type"], { kind: "int" }>> = {}): Field => ({
  id,
  key: id,
  name: `Field ${id}`,
  presence: "required",
  type: { kind: "int", bits: 8, signed: false, ...extra },
});

const layoutOf = (fields: Field[]): Layout => ({
  format: "satlayout",
  version: 1,
  name: "row test",
  package: "telemetry",
  message: "Telemetry",
  struct: { endianness: "big", stringMode: "u16-appended" },
  json: { spacing: "compact" },
  sbe: { schemaId: 1, templateId: 1, version: 0 },
  protobufReserved: [],
  fields,
});

const keys = () => useDesigner.getState().history.present.fields.map((f) => f.key);

/** One row, fed from the store the way the layout tree feeds it. */
function StoreRow({ id }: { id: string }) {
  const field = useDesigner((s) => locate(s.history.present.fields, id)?.field);
  const selected = useDesigner((s) => s.selectedId === id);
  const hasIssues = useDesigner((s) => s.issues.byField.has(id));
  if (!field) return null;
  return (
    <FieldRow
      field={field}
      keyPath={field.key}
      depth={0}
      color="#888"
      hasIssues={hasIssues}
      selected={selected}
      drop={null}
      onArrow={() => {}}
    />
  );
}

function renderRows(ids: string[]) {
  return render(
    <DndContext>
      <SortableContext items={ids.map(rowDndId)}>
        <ul role="tree">
          {ids.map((id) => (
            <StoreRow key={id} id={id} />
          ))}
        </ul>
      </SortableContext>
    </DndContext>,
  );
}

beforeEach(() => {
  act(() => useDesigner.getState().load("p1", "row test", layoutOf([u8("a"), u8("b"), u8("c")])));
});
afterEach(cleanup);

describe("FieldRow", () => {
  it("marks the row whose field fails validation, and only that row", () => {
    // min above max: checkLayout refuses the layout and the issue lands on field b
    act(() => useDesigner.getState().load("p1", "row test", layoutOf([u8("a"), u8("b", { min: 9, max: 3 })])));
    renderRows(["a", "b"]);
    expect(within(screen.getByTestId("row-b")).getByLabelText("has problems")).toBeTruthy();
    expect(within(screen.getByTestId("row-a")).queryByLabelText("has problems")).toBeNull();
  });

  it("drops the mark once an edit makes the field valid", () => {
    act(() => useDesigner.getState().load("p1", "row test", layoutOf([u8("a", { min: 9, max: 3 })])));
    renderRows(["a"]);
    expect(within(screen.getByTestId("row-a")).queryByLabelText("has problems")).not.toBeNull();
    act(() => {
      useDesigner
        .getState()
        .editFields((fs) => fs.map((f) => ({ ...f, type: { kind: "int", bits: 8, signed: false, min: 1, max: 3 } })));
      // the app checks an edit once its frame is painted; here, at once
      useDesigner.getState().checkNow();
    });
    expect(within(screen.getByTestId("row-a")).queryByLabelText("has problems")).toBeNull();
  });

  it("selects its field on click", () => {
    renderRows(["a", "b", "c"]);
    fireEvent.click(screen.getByTestId("row-b"));
    expect(useDesigner.getState().selectedId).toBe("b");
    expect(screen.getByTestId("row-b").getAttribute("aria-selected")).toBe("true");
  });

  it("moves its field with Alt+arrows, one undo step per move", () => {
    renderRows(["a", "b", "c"]);
    fireEvent.keyDown(screen.getByTestId("row-a"), { key: "ArrowDown", altKey: true });
    expect(keys()).toEqual(["b", "a", "c"]);
    fireEvent.keyDown(screen.getByTestId("row-c"), { key: "ArrowUp", altKey: true });
    expect(keys()).toEqual(["b", "c", "a"]);
    act(() => useDesigner.getState().undo());
    expect(keys()).toEqual(["b", "a", "c"]);
  });

  it("duplicates with Ctrl+D and selects the copy; Delete removes and selects the neighbour", () => {
    renderRows(["a", "b", "c"]);
    fireEvent.keyDown(screen.getByTestId("row-b"), { key: "d", ctrlKey: true });
    const fields = useDesigner.getState().history.present.fields;
    expect(fields).toHaveLength(4);
    expect(fields[2]!.name).toBe("Field b (copy)");
    expect(fields[2]!.id).not.toBe("b");
    expect(useDesigner.getState().selectedId).toBe(fields[2]!.id);

    fireEvent.keyDown(screen.getByTestId("row-a"), { key: "Delete" });
    expect(keys()).not.toContain("a");
    expect(useDesigner.getState().selectedId).toBe("b");
  });

  it("leaves keys typed on its drag handle to the handle", () => {
    renderRows(["a", "b"]);
    fireEvent.keyDown(screen.getByTestId("handle-a"), { key: "Delete" });
    expect(keys()).toEqual(["a", "b", "c"]);
  });
});
