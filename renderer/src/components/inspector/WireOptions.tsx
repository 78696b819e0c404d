// Per-field wire options: protobuf number and integer encoding, expansion of fixed arrays, struct string mode.
import type { Field, StructStringMode } from "#codecs";
import { NumberField, SelectField, TextField } from "./controls.tsx";
import { clean, patchField } from "./edit.ts";
import { issuesAt, type FieldIssue } from "../../state/issues.ts";

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
        integer
        check={(n) =>
          n < 1 || n > 536870911
            ? "1 … 536870911"
            : n >= 19000 && n <= 19999
              ? "19000–19999 is reserved by protobuf"
              : null
        }
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
        <TextField
          label="Expand as"
          value={pb.expand?.join(", ")}
          mono
          placeholder="x, y, z"
          help="One protobuf field per element named key_<suffix> (the paper's acc_x, acc_y, acc_z)"
          issues={issuesAt(issues, "options.protobuf.expand", { below: true })}
          testId="insp-pb-expand"
          onChange={(v) => {
            const parts = v
              .split(",")
              .map((s) => s.trim())
              .filter(Boolean);
            setPb({ ...pb, expand: parts.length ? parts : undefined }, "expand");
          }}
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
