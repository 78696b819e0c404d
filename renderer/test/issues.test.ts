import { describe, expect, it } from "vitest";
import { checkLayout, type Field, type Layout } from "#codecs";
import { indexIssues, issuesAt } from "../src/state/issues.ts";

const layout = (fields: Field[]): Layout => ({
  format: "satlayout",
  version: 1,
  name: "t",
  package: "telemetry",
  message: "Telemetry",
  struct: { endianness: "big", stringMode: "u16-appended" },
  json: { spacing: "compact" },
  sbe: { schemaId: 1, templateId: 1, version: 0 },
  protobufReserved: [],
  fields,
});

describe("issue index", () => {
  it("puts parseLayout's issues on the field they concern, nested groups included", () => {
    const l = layout([
      {
        id: "a",
        key: "a",
        name: "A",
        presence: "required",
        type: { kind: "int", bits: 8, signed: false, min: 10, max: 5 },
      },
      {
        id: "g",
        key: "g",
        name: "G",
        presence: "required",
        type: {
          kind: "group",
          fields: [
            { id: "x", key: "dup", name: "X", presence: "required", type: { kind: "bool" } },
            {
              id: "y",
              key: "dup",
              name: "Y",
              presence: "required",
              type: {
                kind: "enum",
                values: [
                  { name: "A", value: 0 },
                  { name: "A", value: 1 },
                ],
              },
            },
          ],
        },
      },
    ]);
    const res = checkLayout(l);
    expect(res.ok).toBe(false);
    if (res.ok) return;
    const idx = indexIssues(l.fields, res.issues);
    expect(idx.layout).toEqual([]);
    expect(idx.byField.get("a")).toEqual([
      { at: "type.max", message: "Maximum is 5; it must be greater than the minimum (10)." },
    ]);
    const clash =
      'Key "dup" is used by both field "G › X" and field "G › Y"; the fields of one message need different keys, because the key names the value on the wire.';
    expect(idx.byField.get("y")).toEqual([
      { at: "key", message: clash },
      {
        at: "type.values[1].name",
        message: 'Name of value 2 ("A") is also the name of value 1; every value needs its own name.',
      },
    ]);
    // the first of two clashing fields shows the same sentence, so editing either one shows the problem
    expect(idx.byField.get("x")).toEqual([{ at: "key", message: clash }]);
    expect(issuesAt(idx.byField.get("y"), "type.values", { below: true })).toHaveLength(1);
    expect(issuesAt(idx.byField.get("y"), "type.values")).toHaveLength(0);
  });

  it("mirrors clashing protobuf numbers onto both fields", () => {
    const l = layout([
      {
        id: "a",
        key: "a",
        name: "A",
        presence: "required",
        type: { kind: "bool" },
        options: { protobuf: { number: 3 } },
      },
      {
        id: "b",
        key: "b",
        name: "B",
        presence: "required",
        type: { kind: "bool" },
        options: { protobuf: { number: 3 } },
      },
    ]);
    const res = checkLayout(l);
    if (res.ok) throw new Error("expected issues");
    const idx = indexIssues(l.fields, res.issues);
    const clash =
      'Protobuf number 3 is used by both field "A" and field "B"; the fields of one message need different numbers.';
    expect(idx.byField.get("b")).toEqual([{ at: "options.protobuf.number", message: clash }]);
    expect(idx.byField.get("a")).toEqual([{ at: "options.protobuf.number", message: clash }]);
  });

  it("keeps zod's shape errors (a key too long) on the field and layout-level ones apart", () => {
    const l = layout([{ id: "a", key: "k".repeat(65), name: "A", presence: "required", type: { kind: "bool" } }]);
    const bad = { ...l, package: "9bad" };
    const res = checkLayout(bad);
    if (res.ok) throw new Error("expected issues");
    const idx = indexIssues(bad.fields, res.issues);
    expect(idx.byField.get("a")?.map((i) => i.at)).toEqual(["key"]);
    expect(idx.layout.map((i) => i.path)).toEqual(["package"]);
  });
});
