// How the self-describing formats (JSON, CBOR, MessagePack, PSON) write the value: native, number, or formatted string.
import { type Field, LIMITS, type TextRep } from "#codecs";
import { NumberField, SelectField, TextField } from "./controls.tsx";
import { clean, patchField } from "./edit.ts";
import { issuesAt, type FieldIssue } from "../../../state/issues.ts";

type Mode = "native" | "number" | "string";

export function TextRepEditor({ field, issues }: { field: Field; issues: readonly FieldIssue[] | undefined }) {
  if (field.type.kind === "group") return null;
  const text = field.text;
  const mode: Mode = text ? text.as : "native";
  const set = (next: TextRep | undefined, control: string) =>
    patchField(field.id, `text.${control}`, (f) => {
      const out = { ...f, text: next };
      if (next === undefined) delete out.text;
      return out;
    });
  const numeric = ["int", "float", "fixed", "timestamp"].includes(
    field.type.kind === "array" ? field.type.of.kind : field.type.kind,
  );
  const str = text?.as === "string" ? text : null;
  return (
    <section className="inspector-section" aria-label="Text representation">
      <h3>Text representation</h3>
      <SelectField<Mode>
        label="Written as"
        value={mode}
        options={[
          { value: "native", label: "Native value" },
          { value: "number", label: "Number" },
          { value: "string", label: "String (formatted)" },
        ]}
        help="JSON, CBOR, MessagePack and PSON only; the paper writes every value as a string."
        issues={issuesAt(issues, "text")}
        testId="insp-text-as"
        onChange={(m) => set(m === "native" ? undefined : m === "number" ? { as: "number" } : { as: "string" }, "as")}
      />
      {str && numeric && (
        <>
          <NumberField
            label="Decimals"
            value={str.decimals}
            optional
            placeholder="shortest"
            help='Fixed decimals, as Python f"{v:.Nf}"'
            issues={issuesAt(issues, "text.decimals")}
            testId="insp-text-decimals"
            onCommit={(v) => set(clean({ ...str, decimals: v }), "decimals")}
          />
          <NumberField
            label="Pad"
            value={str.pad}
            optional
            placeholder="none"
            help='Zero-pad the integer part ("06")'
            issues={issuesAt(issues, "text.pad")}
            testId="insp-text-pad"
            onCommit={(v) => set(clean({ ...str, pad: v }), "pad")}
          />
        </>
      )}
      {str && field.type.kind === "array" && (
        <TextField
          label="Separator"
          value={str.separator}
          maxLength={LIMITS.separator.max}
          mono
          placeholder="(one string per element)"
          help="Join all elements into one string with this separator"
          issues={issuesAt(issues, "text.separator")}
          testId="insp-text-separator"
          onChange={(v) => set(clean({ ...str, separator: v === "" ? undefined : v }), "separator")}
        />
      )}
    </section>
  );
}
