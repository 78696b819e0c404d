import { describe, expect, it } from "vitest";
import type { Field } from "#codecs";
import { dropPlace, endDndId, paletteDndId, parseDndId, rowDndId } from "../src/pages/designer/dnd.ts";

const leaf = (id: string): Field => ({ id, key: id, name: id, presence: "required", type: { kind: "bool" } });
const fields: Field[] = [
  leaf("a"),
  { id: "g", key: "g", name: "g", presence: "required", type: { kind: "group", fields: [leaf("b")] } },
  leaf("d"),
];

describe("drop targets", () => {
  it("round-trips dnd ids", () => {
    expect(parseDndId(rowDndId("f:1"))).toEqual({ kind: "row", id: "f:1" });
    expect(parseDndId(paletteDndId("uint8"))).toEqual({ kind: "palette", id: "uint8" });
    expect(parseDndId(endDndId(null))).toEqual({ kind: "end", groupId: null });
    expect(parseDndId(endDndId("g"))).toEqual({ kind: "end", groupId: "g" });
    expect(parseDndId("nonsense")).toBeNull();
  });

  it("places palette drops before/after rows, first inside a group, and at ends", () => {
    expect(dropPlace(fields, null, { kind: "row", id: "a" }, "before")).toEqual({ parentId: null, index: 0 });
    expect(dropPlace(fields, null, { kind: "row", id: "a" }, "after")).toEqual({ parentId: null, index: 1 });
    expect(dropPlace(fields, null, { kind: "row", id: "g" }, "after")).toEqual({ parentId: "g", index: 0 });
    expect(dropPlace(fields, null, { kind: "row", id: "b" }, "after")).toEqual({ parentId: "g", index: 1 });
    expect(dropPlace(fields, null, { kind: "end", groupId: "g" }, "after")).toEqual({ parentId: "g", index: 1 });
    expect(dropPlace(fields, null, { kind: "end", groupId: null }, "after")).toEqual({ parentId: null, index: 3 });
  });

  it("refuses drops that change nothing or nest a group in itself", () => {
    expect(dropPlace(fields, "a", { kind: "row", id: "a" }, "after")).toBeNull();
    expect(dropPlace(fields, "a", { kind: "row", id: "g" }, "before")).toBeNull();
    expect(dropPlace(fields, "g", { kind: "row", id: "b" }, "after")).toBeNull();
    expect(dropPlace(fields, "g", { kind: "end", groupId: "g" }, "after")).toBeNull();
    expect(dropPlace(fields, "d", { kind: "end", groupId: null }, "after")).toBeNull();
    expect(dropPlace(fields, "a", { kind: "end", groupId: null }, "after")).toEqual({ parentId: null, index: 3 });
  });
});
