import { describe, expect, it } from "vitest";
import type { Field } from "#codecs";
import {
  canIndent,
  duplicateField,
  flatten,
  indent,
  insertField,
  isWithin,
  locate,
  moveBy,
  moveField,
  outdent,
  removeField,
  uniqueKey,
  updateField,
} from "../src/state/tree.ts";

const leaf = (id: string, key = id): Field => ({
  id,
  key,
  name: key.toUpperCase(),
  presence: "required",
  type: { kind: "bool" },
});
const group = (id: string, fields: Field[]): Field => ({
  id,
  key: id,
  name: id,
  presence: "required",
  type: { kind: "group", fields },
});

// a, g[b, c], d
const base = (): Field[] => [leaf("a"), group("g", [leaf("b"), leaf("c")]), leaf("d")];
const ids = (fs: readonly Field[]) => flatten(fs).map((r) => `${"  ".repeat(r.depth)}${r.field.id}`);

describe("field tree operations", () => {
  it("flattens depth-first with parents and paths", () => {
    const rows = flatten(base());
    expect(rows.map((r) => [r.field.id, r.parentId, r.index, r.depth, r.path.join("/")])).toEqual([
      ["a", null, 0, 0, "a"],
      ["g", null, 1, 0, "g"],
      ["b", "g", 0, 1, "g/b"],
      ["c", "g", 1, 1, "g/c"],
      ["d", null, 2, 0, "d"],
    ]);
  });

  it("locates nested fields and knows ancestry", () => {
    expect(locate(base(), "c")).toMatchObject({ parentId: "g", index: 1, depth: 1 });
    expect(locate(base(), "zz")).toBeUndefined();
    expect(isWithin(base(), "c", "g")).toBe(true);
    expect(isWithin(base(), "g", "g")).toBe(true);
    expect(isWithin(base(), "a", "g")).toBe(false);
  });

  it("moves with 'before index' semantics inside one list and across lists", () => {
    expect(ids(moveField(base(), "a", null, 3))).toEqual(["g", "  b", "  c", "d", "a"]);
    expect(ids(moveField(base(), "d", null, 0))).toEqual(["d", "a", "g", "  b", "  c"]);
    expect(ids(moveField(base(), "a", "g", 1))).toEqual(["g", "  b", "  a", "  c", "d"]);
    expect(ids(moveField(base(), "c", null, 0))).toEqual(["c", "a", "g", "  b", "d"]);
  });

  it("never moves a group into itself or its descendants", () => {
    const fs = [group("g", [group("h", [leaf("x")])])];
    expect(moveField(fs, "g", "h", 0)).toEqual(fs);
    expect(moveField(fs, "g", "g", 0)).toEqual(fs);
  });

  it("moves up/down within siblings and stops at the ends", () => {
    expect(ids(moveBy(base(), "d", -1))).toEqual(["a", "d", "g", "  b", "  c"]);
    expect(ids(moveBy(base(), "b", 1))).toEqual(["a", "g", "  c", "  b", "d"]);
    expect(ids(moveBy(base(), "a", -1))).toEqual(ids(base()));
    expect(ids(moveBy(base(), "c", 1))).toEqual(ids(base()));
  });

  it("indents into the group above and outdents to right after the group", () => {
    expect(canIndent(base(), "d")).toBe(true);
    expect(canIndent(base(), "g")).toBe(false);
    expect(ids(indent(base(), "d"))).toEqual(["a", "g", "  b", "  c", "  d"]);
    expect(ids(indent(base(), "a"))).toEqual(ids(base()));
    expect(ids(outdent(base(), "b"))).toEqual(["a", "g", "  c", "b", "d"]);
    expect(ids(outdent(base(), "a"))).toEqual(ids(base()));
  });

  it("inserts, removes and updates without touching other branches", () => {
    const before = base();
    const inserted = insertField(before, "g", 0, leaf("n"));
    expect(ids(inserted)).toEqual(["a", "g", "  n", "  b", "  c", "d"]);
    expect(inserted[0]).toBe(before[0]);
    expect(ids(removeField(before, "g"))).toEqual(["a", "d"]);
    const renamed = updateField(before, "c", (f) => ({ ...f, name: "renamed" }));
    expect(locate(renamed, "c")?.field.name).toBe("renamed");
    expect(renamed[2]).toBe(before[2]);
    expect(before[1]!.type.kind === "group" && before[1]!.type.fields[1]!.name).toBe("C");
  });

  it("finds a free key", () => {
    expect(uniqueKey([leaf("a", "x"), leaf("b", "x_2")], "x")).toBe("x_3");
    expect(uniqueKey([leaf("a", "x")], "y")).toBe("y");
  });

  it("duplicates with fresh ids, a key for the copy's name and without the pinned protobuf number", () => {
    const fs: Field[] = [
      {
        ...group("g", [{ ...leaf("b"), options: { protobuf: { number: 4, intEncoding: "zigzag" } } }]),
        options: { protobuf: { number: 2 } },
      },
    ];
    let n = 0;
    const keyFor = (name: string, siblings: readonly Field[]) => `${name}|${siblings.map((s) => s.key).join(",")}`;
    const { fields, copyId } = duplicateField(fs, "g", () => `new${++n}`, keyFor);
    expect(copyId).toBe("new1");
    expect(ids(fields)).toEqual(["g", "  b", "new1", "  new2"]);
    const copy = locate(fields, "new1")!.field;
    // the key is asked for with the copy's name, among the siblings it joins
    expect(copy.name).toBe("g (copy)");
    expect(copy.key).toBe("g (copy)|g");
    // the members of a copied group keep their keys: they sit in a group of their own
    expect(locate(fields, "new2")!.field.key).toBe("b");
    expect(copy.options).toEqual({ protobuf: {} });
    expect(locate(fields, "new2")!.field.options).toEqual({ protobuf: { intEncoding: "zigzag" } });
    // the original keeps its number
    expect(locate(fields, "g")!.field.options).toEqual({ protobuf: { number: 2 } });
  });
});
