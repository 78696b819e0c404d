// Type parameters: ranges, precision, scale/offset, enum values, string limits, array count — per kind.
import { type Field, intLimits, LIMITS, type ScalarType } from "#codecs";
import { isLatLon } from "#planning/advisor";
import { CheckField, NumberField, type NumberProps, Row, SelectField, TextField } from "./controls.tsx";
import { clean, patchField, switchElement, switchType } from "./edit.ts";
import { EnumEditor } from "./EnumEditor.tsx";
import { PositionPrecision } from "./PositionPrecision.tsx";
import { issuesAt, type FieldIssue } from "../../../state/issues.ts";
import { FIELD_TYPES, paletteIdOf } from "../edits/palette.ts";

const TYPE_OPTIONS = FIELD_TYPES.map((p) => ({ value: p.id, label: p.label }));
const ELEMENT_OPTIONS = FIELD_TYPES.filter((p) => p.id !== "array" && p.id !== "group").map((p) => ({
  value: p.id,
  label: p.label,
}));
const CHARSETS = ["utf8", "ascii", "digits", "hex", "upper-alnum", "alnum"] as const;

interface ScalarProps {
  t: ScalarType;
  /** "type" or "type.of" */
  at: string;
  issues: readonly FieldIssue[] | undefined;
  set(next: ScalarType, control: string): void;
  /** the field is a latitude or longitude in degrees: its precision is shown and set in metres */
  axis?: "lat" | "lon" | null;
}

type Bound = "min" | "max";

/** The min/max pair of a ranged type: the two bounds differ only in label, value, placeholder and control id. */
function RangeRow(p: {
  min: number | undefined;
  max: number | undefined;
  labels?: [string, string];
  placeholders?: [string, string];
  /** what the type adds to both bounds */
  shared?: Pick<NumberProps, "optional">;
  is: (p: string) => readonly FieldIssue[] | undefined;
  tid: (p: string) => string;
  onCommit(bound: Bound, v: number | undefined): void;
}) {
  const [minLabel, maxLabel] = p.labels ?? ["Minimum", "Maximum"];
  const field = (bound: Bound, label: string, value: number | undefined, placeholder: string | undefined) => (
    <NumberField
      bare
      label={label}
      value={value}
      {...p.shared}
      placeholder={placeholder}
      issues={p.is(bound)}
      testId={p.tid(bound)}
      onCommit={(v) => p.onCommit(bound, v)}
    />
  );
  return (
    <Row label="Range">
      <div className="form-pair">
        {field("min", minLabel, p.min, p.placeholders?.[0])}
        {field("max", maxLabel, p.max, p.placeholders?.[1])}
      </div>
    </Row>
  );
}

function ScalarParams({ t, at, issues, set, axis }: ScalarProps) {
  const is = (p: string) => issuesAt(issues, `${at}.${p}`);
  const tid = (p: string) => `insp-${at === "type" ? "" : "of-"}${p}`;
  switch (t.kind) {
    case "int": {
      const [lo, hi] = intLimits(t.bits, t.signed);
      return (
        <RangeRow
          min={t.min}
          max={t.max}
          shared={{ optional: true }}
          placeholders={[String(lo), String(hi)]}
          is={is}
          tid={tid}
          onCommit={(b, v) => set(clean({ ...t, [b]: v }), b)}
        />
      );
    }
    case "float":
      return (
        <>
          <RangeRow
            min={t.min}
            max={t.max}
            shared={{ optional: true }}
            placeholders={["none", "none"]}
            is={is}
            tid={tid}
            onCommit={(b, v) => set(clean({ ...t, [b]: v }), b)}
          />
          <NumberField
            label="Precision"
            value={t.precision}
            optional
            placeholder="full"
            help="Resolution that matters; bit-packing quantises to it."
            issues={is("precision")}
            testId={tid("precision")}
            onCommit={(v) => set(clean({ ...t, precision: v }), "precision")}
          />
        </>
      );
    case "fixed":
      return (
        <>
          <RangeRow
            min={t.min}
            max={t.max}
            is={is}
            tid={tid}
            onCommit={(b, v) => v !== undefined && set({ ...t, [b]: v }, b)}
          />
          {axis ? <PositionPrecision t={t} axis={axis} set={set} /> : null}
          <NumberField
            label="Scale"
            value={t.scale}
            help="value = raw × scale + offset"
            issues={is("scale")}
            testId={tid("scale")}
            onCommit={(v) => v !== undefined && set({ ...t, scale: v }, "scale")}
          />
          <NumberField
            label="Offset"
            value={t.offset}
            issues={is("offset")}
            testId={tid("offset")}
            onCommit={(v) => v !== undefined && set({ ...t, offset: v }, "offset")}
          />
        </>
      );
    case "timestamp":
      return (
        <>
          <SelectField
            label="Encoding"
            value={t.encoding}
            options={[
              { value: "epoch", label: "Epoch seconds (number)" },
              { value: "text", label: "Formatted text" },
            ]}
            testId={tid("encoding")}
            issues={is("encoding")}
            onChange={(v) =>
              set(
                v === "text"
                  ? { ...t, encoding: v, textFormat: t.textFormat ?? "YYYY-MM-DD hh:mm:ss" }
                  : clean({ ...t, encoding: v, textFormat: undefined }),
                "encoding",
              )
            }
          />
          {t.encoding === "text" && (
            <TextField
              label="Format"
              value={t.textFormat}
              mono
              maxLength={LIMITS.timestampFormat.max}
              help="Tokens: DD MM YY YYYY hh mm ss s (tenths)"
              issues={is("textFormat")}
              testId={tid("textFormat")}
              onChange={(v) => set({ ...t, textFormat: v }, "textFormat")}
            />
          )}
          <NumberField
            label="Resolution"
            value={t.resolution}
            help="Seconds: 1 = whole seconds, 0.1 = tenths"
            issues={is("resolution")}
            testId={tid("resolution")}
            onCommit={(v) => v !== undefined && set({ ...t, resolution: v }, "resolution")}
          />
          <RangeRow
            min={t.min}
            max={t.max}
            labels={["Earliest", "Latest"]}
            shared={{ optional: true }}
            placeholders={["none", "none"]}
            is={is}
            tid={tid}
            onCommit={(b, v) => set(clean({ ...t, [b]: v }), b)}
          />
        </>
      );
    case "string":
      return (
        <>
          <NumberField
            label="Max length"
            value={t.maxLength}
            help={`Bytes (UTF-8), up to ${LIMITS.byteLength.max.toLocaleString("en-US")}`}
            issues={is("maxLength")}
            testId={tid("maxLength")}
            onCommit={(v) => v !== undefined && set({ ...t, maxLength: v }, "maxLength")}
          />
          <SelectField
            label="Charset"
            value={t.charset}
            options={CHARSETS.map((c) => ({ value: c, label: c }))}
            issues={is("charset")}
            testId={tid("charset")}
            help="Restricting it lets bit-packing spend fewer bits per character."
            onChange={(v) => set({ ...t, charset: v }, "charset")}
          />
          <CheckField
            label="Fixed"
            text="Always max length (NUL padded) in fixed layouts"
            checked={t.fixed}
            testId={tid("fixed")}
            onChange={(v) => set({ ...t, fixed: v }, "fixed")}
          />
        </>
      );
    case "bytes":
      return (
        <>
          <NumberField
            label="Max length"
            value={t.maxLength}
            issues={is("maxLength")}
            testId={tid("maxLength")}
            onCommit={(v) => v !== undefined && set({ ...t, maxLength: v }, "maxLength")}
          />
          <CheckField
            label="Fixed"
            text="Always max length in fixed layouts"
            checked={t.fixed}
            testId={tid("fixed")}
            onChange={(v) => set({ ...t, fixed: v }, "fixed")}
          />
        </>
      );
    case "enum":
      return <EnumEditor t={t} at={at} issues={issues} set={(next, control) => set(next, control)} />;
    case "bool":
      return null;
  }
}

export function TypeEditor({ field, issues }: { field: Field; issues: readonly FieldIssue[] | undefined }) {
  const t = field.type;
  const setType = (next: Field["type"], control: string) =>
    patchField(field.id, `type.${control}`, (f) => ({ ...f, type: next }));
  return (
    <section className="inspector-section" aria-label="Type">
      <h3>Type</h3>
      <SelectField
        label="Type"
        value={paletteIdOf(t)}
        options={TYPE_OPTIONS}
        testId="insp-type"
        issues={issuesAt(issues, "type")}
        onChange={(id) => patchField(field.id, "type", (f) => switchType(f, id))}
      />
      {t.kind === "array" ? (
        <>
          <SelectField
            label="Element"
            value={paletteIdOf(t.of)}
            options={ELEMENT_OPTIONS}
            testId="insp-element"
            issues={issuesAt(issues, "type.of")}
            onChange={(id) => setType({ ...t, of: switchElement(t.of, id) }, "of")}
          />
          <ScalarParams t={t.of} at="type.of" issues={issues} set={(of, c) => setType({ ...t, of }, `of.${c}`)} />
          <NumberField
            label="Count"
            value={t.maxCount}
            help={`${t.fixed ? "Exactly" : "At most"} this many elements (up to ${LIMITS.arrayCount.max.toLocaleString("en-US")})`}
            issues={issuesAt(issues, "type.maxCount")}
            testId="insp-maxCount"
            onCommit={(v) => v !== undefined && setType({ ...t, maxCount: v }, "maxCount")}
          />
          <CheckField
            label="Fixed count"
            text="Always exactly Count elements"
            checked={t.fixed}
            testId="insp-array-fixed"
            onChange={(v) => setType({ ...t, fixed: v }, "fixed")}
          />
        </>
      ) : t.kind === "group" ? (
        <p className="field-help">
          {t.fields.length} field{t.fields.length === 1 ? "" : "s"}. Drag fields onto the group, or select the field
          below it and press Alt+→ (or the “move into group” button) to nest it.
        </p>
      ) : (
        <ScalarParams t={t} at="type" issues={issues} set={(next, c) => setType(next, c)} axis={isLatLon(field)} />
      )}
    </section>
  );
}
