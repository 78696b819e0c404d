// The layout as a FlatBuffers schema (.fbs) that flatc turns into readers and builders of exactly the
// bytes of our FlatBuffers format, with a README: how to run flatc per language, which slot ids are
// held by deprecated placeholders and why, and what the wire leaves out. The .fbs text is the codec's
// own (#codecs/plans, docs/design/flatbuffers-mapping.md), never a second mapping.
import type { Layout } from "#codecs";
import { flatbuffersSchema, parseFbs } from "#codecs/plans";
import type { Exporter, ExportFile } from "./types.ts";

/** A slot the schema keeps as a `(deprecated)` placeholder, so that later slot ids do not move. */
export interface HeldSlot {
  table: string;
  id: number;
  /** the protobuf number (id + 1) was that of a field deleted from the layout */
  deleted: boolean;
}

/**
 * The placeholders of the generated text, per table, read back with the evolution rules' own parser
 * (parseFbs), so the README names what flatc sees; a slot is a deleted field's when the layout reserved
 * its protobuf number (only the root table's numbers are the layout's top-level reserved list).
 */
export function heldSlots(fbs: string, layout: Layout): HeldSlot[] {
  const schema = parseFbs(fbs);
  const reserved = new Set(layout.protobufReserved);
  return [...schema.tables.values()].flatMap((t) =>
    t.slots
      .filter((s) => s.deprecated)
      .map((s) => ({ table: t.name, id: s.id, deleted: t.name === schema.root && reserved.has(s.id + 1) })),
  );
}

const fbsPath = (layout: Layout) => `flatbuffers/${layout.message}.fbs`;

function readme(layout: Layout, fbs: string): string {
  const file = `${layout.message}.fbs`;
  const { namespace: ns, root } = parseFbs(fbs);
  const held = heldSlots(fbs, layout);
  const why = (h: HeldSlot) =>
    h.deleted
      ? `the field with protobuf number ${h.id + 1} was deleted from the layout; the slot stays taken, so a reader built before the deletion never reads a new field's bytes as the old value`
      : h.table === root
        ? `no field of the layout has protobuf number ${h.id + 1}; FlatBuffers needs ids without gaps, so a placeholder that is never written holds the slot`
        : `no field of the group has protobuf number ${h.id + 1} (never used, or deleted: see the group's reserved numbers); a placeholder that is never written holds the slot`;
  const heldLines = held.length
    ? held.map((h) => `- \`${h.table}\` slot ${h.id}: ${why(h)}.`)
    : ["- none: the layout's protobuf numbers run 1, 2, 3 … without gaps."];
  return `# ${layout.name}: FlatBuffers schema

\`${file}\` describes the bytes SatPayload Studio's FlatBuffers format sends for this layout
(namespace \`${ns ?? "(none)"}\`, root table \`${root}\`). Code flatc generates from it reads our
messages. The studio's tests compile it with \`flatc --cpp --python --ts\` and read our bytes with
the generated TypeScript (npm \`flatbuffers\`) and C++ (\`libflatbuffers-dev\`, after the generated
Verifier) code, value by value.

## Generate code

flatc 2.0.8 (Debian \`flatbuffers-compiler\`) or newer; the runtime of each language must be at least
as new as the flatc that generated the code.

| language | command | runtime |
|---|---|---|
| C++ | \`flatc --cpp ${file}\` → \`${layout.message}_generated.h\` | headers only (\`libflatbuffers-dev\`, or the \`include/\` folder of the flatbuffers repository) |
| Python | \`flatc --python ${file}\` | \`pip install flatbuffers\` |
| TypeScript / JavaScript | \`flatc --ts ${file}\` | \`npm install flatbuffers\` |
| Go | \`flatc --go ${file}\` | \`go get github.com/google/flatbuffers/go\` |
| Rust | \`flatc --rust ${file}\` | the \`flatbuffers\` crate |
| C (microcontrollers) | \`flatcc -a ${file}\` (flatcc, a separate project: github.com/dvidelabs/flatcc) | flatcc's runtime library |

Add \`--gen-object-api\` for plain objects (\`unpack()\`, \`UnPack()\`) instead of accessors only.
On the device, the C++ \`Verifier\` (\`Verify${root}Buffer\`) or flatcc's verifier
checks a received buffer before it is read; the npm and Python runtimes have no verifier.

## Slot ids

Every field carries \`(id: n)\`: n is the field's stable protobuf number − 1, the number the studio
keeps in the layout across renames and deletions. So the same field keeps the same slot in every
version of this schema, and the evolution check (Export → evolution) applies FlatBuffers' rules to it.
Slots held by \`(deprecated)\` placeholders:

${heldLines.join("\n")}

Never reuse a placeholder's slot for a new field, and never change a field's type or default: old
readers would read the new bytes as the old field.

## On the wire

- A scalar equal to its default (0, false, or the default the schema states) is left out of the
  message, as every official builder does unless told to force defaults; readers return the default.
  A value that must be distinguishable from "not sent" needs a non-zero default or presence in the
  layout.
- A table costs a vtable (4 B + 2 B per slot up to the last one written), a 4 B offset to it and
  the root offset; strings and vectors add a 4 B length (strings also a NUL), and values are aligned
  to their size. The studio's byte map shows each of these bytes.
`;
}

export function generateFlatbuffersSchema(layout: Layout): ExportFile[] {
  const fbs = flatbuffersSchema(layout);
  return [
    { path: fbsPath(layout), language: "text", content: fbs },
    { path: "flatbuffers/README.md", language: "md", content: readme(layout, fbs) },
  ];
}

export const flatbuffersSchemaExporter: Exporter = {
  id: "flatbuffers",
  label: "FlatBuffers schema (.fbs)",
  description:
    "FlatBuffers schema of the FlatBuffers bytes, slot ids kept across versions, with how to run flatc for C++, Python, TypeScript, Go, Rust and C (flatcc)",
  generate: (layout) => generateFlatbuffersSchema(layout),
};
