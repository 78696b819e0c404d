// Per-field wire options: protobuf number and integer encoding, expansion of fixed arrays, struct string mode.
import { useId } from "react";
import type { Field, StructStringMode } from "#codecs";
import { Messages, NumberField, Row, SelectField } from "./controls.tsx";
import { clean, patchField } from "./edit.ts";
import { useHeldText } from "./heldText.ts";
import { issuesAt, type FieldIssue } from "../../../state/issues.ts";

type Options = NonNullable<Field["options"]>;
type Pb = NonNullable<Options["protobuf"]>;

function withOptions(f: Field, options: Options): Field {
  const o = clean({
    ...options,
    protobuf: options.protobuf && Object.keys(options.protobuf).length ? options.protobuf : undefined,
    struct: options.struct && Object.keys(options.struct).length ? options.struct : undefined,
  });
  const { options: _old, ...rest } = f;
  return Object.keys(o).length ? { ...rest, options: o } : rest;
}

const STRING_MODES: readonly { value: StructStringMode | "default"; label: string }[] = [
  { value: "default", label: "Layout default" },
  { value: "fixed", label: "Fixed, NUL padded" },
  { value: "u8-inline", label: "u8 length + bytes" },
  { value: "u16-inline", label: "u16 length + bytes" },
  { value: "u8-appended", label: "u8 length, bytes at end" },
  { value: "u16-appended", label: "u16 length, bytes at end" },
];

const suffixes = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Suffixes typed as a comma-separated list. The text stays as typed ("x, " while the next suffix is on
 * its way) as long as it lists what the layout holds; the layout's validation judges each suffix.
 */
function ExpandAs(p: { value: string[] | undefined; issues: FieldIssue[]; onChange(v: string[] | undefined): void }) {
  const id = useId();
  const shown = p.value?.join(", ") ?? "";
  const held = useHeldText(undefined, shown, (t) => suffixes(t).join(", ") === shown);
  const invalid = p.issues.length > 0;
  return (
    <Row
      label="Expand as"
      htmlFor={id}
      help="One protobuf field per element named key_<suffix> (the paper's acc_x, acc_y, acc_z)"
    >
      <input
        id={id}
        className={`input mono${invalid ? " invalid" : ""}`}
        value={held.text}
        placeholder="x, y, z"
        data-testid="insp-pb-expand"
        aria-invalid={invalid}
        spellCheck={false}
        onChange={(e) => {
          held.accept(e.target.value);
          const parts = suffixes(e.target.value);
          p.onChange(parts.length ? parts : undefined);
        }}
      />
      <Messages issues={p.issues} />
    </Row>
  );
}

export function WireOptions({ field, issues }: { field: Field; issues: readonly FieldIssue[] | undefined }) {
  const pb: Pb = field.options?.protobuf ?? {};
  const setPb = (next: Pb, control: string) =>
    patchField(field.id, `pb.${control}`, (f) => withOptions(f, { ...f.options, protobuf: clean(next) }));
  const isInt = field.type.kind === "int" || (field.type.kind === "array" && field.type.of.kind === "int");
  const fixedArray = field.type.kind === "array" && field.type.fixed;
  const stringy = field.type.kind === "string" || field.type.kind === "bytes";
  return (
    <section className="inspector-section" aria-label="Wire options">
      <h3>Wire options</h3>
      <NumberField
        label="Protobuf #"
        value={pb.number}
        help="Given once when the field is added and kept when fields move; a deleted field's number is reserved. Change it only before devices ship."
        issues={issuesAt(issues, "options.protobuf.number")}
        testId="insp-pb-number"
        onCommit={(v) => setPb({ ...pb, number: v }, "number")}
      />
      {isInt && (
        <SelectField
          label="Int encoding"
          value={pb.intEncoding ?? "varint"}
          options={[
            { value: "varint", label: "varint" },
            { value: "zigzag", label: "zigzag (sint)" },
            { value: "fixed", label: "fixed width" },
          ]}
          issues={issuesAt(issues, "options.protobuf.intEncoding")}
          testId="insp-pb-int"
          onChange={(v) => setPb({ ...pb, intEncoding: v === "varint" ? undefined : v }, "intEncoding")}
        />
      )}
      {fixedArray && (
        <ExpandAs
          value={pb.expand}
          issues={issuesAt(issues, "options.protobuf.expand", { below: true })}
          onChange={(expand) => setPb({ ...pb, expand }, "expand")}
        />
      )}
      {stringy && (
        <SelectField
          label="Struct"
          value={field.options?.struct?.stringMode ?? "default"}
          options={STRING_MODES}
          issues={issuesAt(issues, "options.struct.stringMode")}
          testId="insp-struct-mode"
          onChange={(v) =>
            patchField(field.id, "struct.mode", (f) =>
              withOptions(f, { ...f.options, struct: clean({ stringMode: v === "default" ? undefined : v }) }),
            )
          }
        />
      )}
    </section>
  );
}
