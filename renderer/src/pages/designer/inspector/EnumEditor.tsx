// Enum values: name and number per row, add/remove; duplicates are reported by parseLayout next to the row.
import { LIMITS, type ScalarType } from "#codecs";
import { Messages, NumberField, Row } from "./controls.tsx";
import { issuesAt, type FieldIssue } from "../../../state/issues.ts";
import { Icon } from "../../../ui/Icon.tsx";
import { ENUM_PLACEHOLDERS } from "../edits/palette.ts";
import { LengthNotice, useLengthLimit } from "../LengthLimit.tsx";

type EnumType = Extract<ScalarType, { kind: "enum" }>;

/** A value's name; a paste cut at the name limit says so beside it, like every other text field. */
function EnumName(p: { index: number; name: string; issues: FieldIssue[]; onChange(name: string): void }) {
  const limit = useLengthLimit(LIMITS.identifier.max);
  const invalid = p.issues.length > 0;
  return (
    <div className="control-wrap">
      <input
        className={`input${invalid ? " invalid" : ""}`}
        aria-label={`Name of value ${p.index + 1}`}
        aria-invalid={invalid}
        value={p.name}
        maxLength={LIMITS.identifier.max}
        data-testid={`enum-name-${p.index}`}
        onPaste={limit.onPaste}
        onChange={(e) => {
          limit.seen(e.target.value);
          p.onChange(e.target.value);
        }}
      />
      <LengthNotice
        length={p.name.length}
        maxLength={LIMITS.identifier.max}
        cutFrom={limit.cutFrom}
        testId={`enum-name-${p.index}`}
      />
      <Messages issues={p.issues} />
    </div>
  );
}

export function EnumEditor({
  t,
  at,
  issues,
  set,
}: {
  t: EnumType;
  at: string;
  issues: readonly FieldIssue[] | undefined;
  set(next: EnumType, control: string): void;
}) {
  const update = (i: number, patch: Partial<EnumType["values"][number]>, control: string) =>
    set({ ...t, values: t.values.map((v, j) => (j === i ? { ...v, ...patch } : v)) }, `values.${i}.${control}`);
  const add = () => {
    const next = Math.max(-1, ...t.values.map((v) => v.value)) + 1;
    set({ ...t, values: [...t.values, { name: `VALUE_${next}`, value: Math.min(next, 0xffff) }] }, "values.add");
  };
  const remove = (i: number) => set({ ...t, values: t.values.filter((_, j) => j !== i) }, "values.remove");
  const unnamed = t.values.some((v) => (ENUM_PLACEHOLDERS as readonly string[]).includes(v.name));
  return (
    <Row label="Values" top>
      <div className="enum-table" data-testid="enum-editor">
        {unnamed ? (
          <p className="field-help" data-testid="enum-name-prompt">
            Name the states your device reports (e.g. PARKED, MOVING). The record carries the number; the name is what
            decoders and people read.
          </p>
        ) : null}
        {t.values.map((v, i) => (
          <div className="enum-row" key={i}>
            <EnumName
              index={i}
              name={v.name}
              issues={issuesAt(issues, `${at}.values[${i}].name`)}
              onChange={(name) => update(i, { name }, "name")}
            />
            <NumberField
              bare
              label={`Number of value ${i + 1}`}
              value={v.value}
              issues={issuesAt(issues, `${at}.values[${i}].value`)}
              testId={`enum-value-${i}`}
              onCommit={(n) => n !== undefined && update(i, { value: n }, "value")}
            />
            <button
              type="button"
              className="icon-btn"
              aria-label={`Remove ${v.name}`}
              disabled={t.values.length <= 1}
              onClick={() => remove(i)}
            >
              <Icon name="close" size={12} />
            </button>
          </div>
        ))}
        <Messages issues={issuesAt(issues, `${at}.values`)} />
        <div>
          <button type="button" className="btn small" data-testid="enum-add" onClick={add}>
            + Add value
          </button>
        </div>
      </div>
    </Row>
  );
}
