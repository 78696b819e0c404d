// The .fbs text of a layout's FlatBuffers model: what flatc compiles for any other language's reader,
// and what the byte-exact tests generate the official Python builder from.
import { flatbuffersModel, type FbField, type FbModel, type FbNode, type FbTable } from "./model.ts";
import type { Layout } from "../../layout/schema.ts";

function typeText(node: FbNode): string {
  switch (node.kind) {
    case "num":
      return node.fbsType;
    case "string":
      return "string";
    case "bytes":
      return "[ubyte]";
    case "vector":
      return `[${node.elem.kind === "num" ? node.elem.fbsType : "string"}]`;
    case "table":
      return node.table.name;
  }
}

function enumDefaultName(model: FbModel, node: FbNode): string | undefined {
  if (node.kind !== "num" || node.def === null || node.def === 0) return undefined;
  return model.enums.find((e) => e.name === node.fbsType)?.values.find((v) => v.value === node.def)?.name;
}

function fieldLine(model: FbModel, f: FbField): string {
  const attrs = [`id: ${f.id}`];
  let def = "";
  if (f.node.kind === "num") {
    // an optional scalar is `= null`: absent and the default are then told apart
    if (f.node.def === null) def = " = null";
    else {
      const name = enumDefaultName(model, f.node);
      if (name !== undefined) def = ` = ${name}`;
    }
  } else if (!f.optional && f.element === undefined) attrs.push("required");
  return `  ${f.name}:${typeText(f.node)}${def} (${attrs.join(", ")});`;
}

function tableText(model: FbModel, t: FbTable): string {
  const byId = new Map(t.fields.map((f) => [f.id, f]));
  const names = new Set(t.fields.map((f) => f.name));
  const lines: string[] = [];
  for (let id = 0; id < t.slots; id++) {
    const f = byId.get(id);
    if (f) lines.push(fieldLine(model, f));
    else {
      // flatc needs every id up to the largest: a field number no field holds (deleted, reserved, or
      // skipped) keeps its slot as a deprecated placeholder, so old readers still find the others
      let name = `deprecated_${id}`;
      while (names.has(name)) name = `_${name}`;
      names.add(name);
      lines.push(`  ${name}:ubyte (id: ${id}, deprecated);`);
    }
  }
  return `table ${t.name} {\n${lines.join("\n")}${lines.length > 0 ? "\n" : ""}}`;
}

/** The .fbs schema of the layout (flatc 2.0.8 compiles it); LayoutError when FlatBuffers cannot carry the layout. */
export function flatbuffersSchema(layout: Layout): string {
  const model = flatbuffersModel(layout);
  const parts = [
    `// ${layout.name.replace(/[\r\n]+/g, " ")}: FlatBuffers schema written by SatPayload Studio from the layout.`,
    "// Field ids are the layout's protobuf numbers − 1; a deprecated placeholder keeps each unused id.",
    "",
    `namespace ${model.namespace};`,
    "",
  ];
  for (const e of model.enums)
    parts.push(`enum ${e.name} : ${e.base} { ${e.values.map((v) => `${v.name} = ${v.value}`).join(", ")} }`, "");
  for (const t of model.tables) parts.push(tableText(model, t), "");
  parts.push(`root_type ${model.root.name};`, "");
  return parts.join("\n");
}
